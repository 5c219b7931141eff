// jsonrepair.js - npm jsonrepair as a malform pipeline: the whole model
// output through jsonrepair(), then JSON.parse. jsonrepair throws
// JSONRepairError when it gives up: that is its rejection.
'use strict';
const { jsonrepair, JSONRepairError } = require('jsonrepair');
const { serve, packageVersion } = require('./malform-pipeline');

const spec = {
  name: 'jsonrepair',
  version: packageVersion('jsonrepair'),
  formats: ['json'],
  profiles: ['*'],
  warnings: false,
  rejects: (err) => err instanceof JSONRepairError,
};

const repair = (input) => JSON.parse(jsonrepair(input));

module.exports = { spec, repair };
if (require.main === module) serve(spec, repair);
