// bench-inprocess.js ADAPTER INPUTS ROUNDS - the baseline of the pipeline
// bench: the adapter's repair function called in-process on the same inputs
// (one JSON string per line), errors handled as the protocol library does.
// ROUNDS untimed rounds first (V8 needs thousands of calls to warm up), then
// ROUNDS timed ones. Prints one JSON line {"execs", "seconds"}.
'use strict';
const fs = require('fs');
const path = require('path');
const [adapter, file, rounds] = process.argv.slice(2);
const { spec, repair } = require(path.resolve(adapter));
const inputs = fs.readFileSync(file, 'utf8').split('\n').filter((l) => l).map((l) => JSON.parse(l));
let execs = 0, sink = 0, t0 = 0n;
for (let r = 0; r < 2 * Number(rounds); r++) {
  if (r === Number(rounds)) {
    execs = 0;
    t0 = process.hrtime.bigint();
  }
  for (const input of inputs) {
    try {
      sink += JSON.stringify(repair(input, { input }) ?? null).length;
    } catch (err) {
      sink += spec.rejects && spec.rejects(err) ? 1 : 2;
    }
    execs++;
  }
}
const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
process.stdout.write(JSON.stringify({ execs, seconds, sink }) + '\n');
