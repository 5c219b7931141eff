// best-effort-json-parser.js - npm best-effort-json-parser as a malform
// pipeline: parse() on the whole model output. The library logs what it
// skipped ("parsed json with extra tokens") through its error logger; that
// goes to stderr, never to the protocol's stdout. It rejects with a
// SyntaxError; any other exception is a bug in it, so it stays a crash.
'use strict';
const bej = require('best-effort-json-parser');
const { serve, packageVersion } = require('./malform-pipeline');

bej.setErrorLogger((message, detail) => process.stderr.write(`${message} ${JSON.stringify(detail)}\n`));

serve(
  {
    name: 'best-effort-json-parser',
    version: packageVersion('best-effort-json-parser'),
    formats: ['json'],
    profiles: ['*'],
    warnings: false,
    rejects: (err) => err instanceof SyntaxError,
  },
  (input) => bej.parse(input),
);
