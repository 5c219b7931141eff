// dirty-json.js - npm dirty-json as a malform pipeline: the whole model output
// through dirtyJSON.parse(), the way an LLM stack calls it on a response.
// dirty-json gives up with a plain Error ("Found } that I can't handle at
// line 0:1"): that is its rejection. A TypeError or RangeError from inside the
// library is a bug in it, so it stays a crash.
'use strict';
const dirtyJSON = require('dirty-json');
const { serve, packageVersion } = require('./malform-pipeline');

serve(
  {
    name: 'dirty-json',
    version: packageVersion('dirty-json'),
    formats: ['json'],
    profiles: ['*'],
    warnings: false,
    rejects: (err) => err instanceof Error && err.constructor === Error,
  },
  (input) => dirtyJSON.parse(input),
);
