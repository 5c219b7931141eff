// race_jsonrepair.mjs - the bench's peer: npm jsonrepair called in-process in node.
//
// Usage: node race_jsonrepair.mjs NODE_DIR INPUT_DIR ROUNDS MIN_SECONDS
// Repairs every file of INPUT_DIR (one input per file, sorted by name) with
// jsonrepair(text) in a loop, exactly as bench_core times mf_repair on the
// same files, and prints one line: "seconds_per_pass <s> calls <n> failed <n>".
// Wall clock, best of ROUNDS rounds of at least MIN_SECONDS each, after one
// warm-up pass so the JIT has compiled the hot paths. NODE_DIR holds the
// node_modules/ that tools/setup-deps.sh installs.
import { createRequire } from 'node:module';
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

const [nodeDir, inputDir, roundsArg, minArg] = process.argv.slice(2);
const { jsonrepair } = createRequire(resolve(nodeDir, 'package.json'))('jsonrepair');
const inputs = readdirSync(inputDir).sort().map((f) => readFileSync(join(inputDir, f), 'utf8'));
const rounds = Number(roundsArg) || 5;
const minSeconds = Number(minArg) || 0.3;

let failed = 0;
function pass() {
  let sink = 0;
  for (const text of inputs) {
    try {
      sink += jsonrepair(text).length;
    } catch {
      failed = 1;
    }
  }
  return sink;
}

pass();
let best = Infinity;
for (let r = 0; r < rounds; r++) {
  let passes = 0;
  const t0 = process.hrtime.bigint();
  let t;
  do {
    pass();
    passes++;
    t = Number(process.hrtime.bigint() - t0) / 1e9;
  } while (t < minSeconds);
  best = Math.min(best, t / passes);
}
console.log(`seconds_per_pass ${best} calls ${inputs.length} failed ${failed}`);
