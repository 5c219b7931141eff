// partial-json.js - npm partial-json as a malform pipeline: the tolerant
// parser LLM streaming UIs use to read a truncated JSON response,
// parse(text, Allow.ALL). It rejects with MalformedJSON / PartialJSON (or a
// plain Error for empty input); a TypeError or RangeError is a bug in it.
'use strict';
const { parse, Allow, MalformedJSON, PartialJSON } = require('partial-json');
const { serve, packageVersion } = require('./malform-pipeline');

serve(
  {
    name: 'partial-json',
    version: packageVersion('partial-json'),
    formats: ['json'],
    profiles: ['*'],
    warnings: false,
    rejects: (err) => err instanceof MalformedJSON || err instanceof PartialJSON || err.constructor === Error,
  },
  (input) => parse(input, Allow.ALL),
);
