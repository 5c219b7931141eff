// jsonrepair.js - npm jsonrepair as a malform pipeline: the whole model
// output through jsonrepair(), then JSON.parse. jsonrepair throws
// JSONRepairError when it gives up: that is its rejection.
'use strict';
const { jsonrepair, JSONRepairError } = require('jsonrepair');
const { serve, packageVersion } = require('./malform-pipeline');

serve(
  {
    name: 'jsonrepair',
    version: packageVersion('jsonrepair'),
    formats: ['json'],
    profiles: ['*'],
    warnings: false,
    rejects: (err) => err instanceof JSONRepairError,
  },
  (input) => JSON.parse(jsonrepair(input)),
);
