// race_jsonrepair.mjs - the bench's peer: npm jsonrepair called in-process in node.
//
// Usage: node race_jsonrepair.mjs NODE_DIR INPUT_DIR ROUNDS MIN_SECONDS
// Repairs every file of INPUT_DIR (one input per file, sorted by name) with
// jsonrepair(text) in a loop, exactly as bench_core times mf_repair on the
// same files, and prints one line:
//   "seconds_per_pass <s> calls <n> rss_kb <kb> failed <n>".
// Time is the process's CPU time (process.cpuUsage: user + system, every
// thread, so node's JIT and GC threads count, as all of core's work does on
// its side), best of ROUNDS rounds of at least MIN_SECONDS each, after a
// warm-up of at least MIN_SECONDS and 3 passes so the JIT has compiled the
// hot paths. rss_kb is node's peak resident set. NODE_DIR holds the
// node_modules/ that tools/setup-deps.sh installs.
import { createRequire } from 'node:module';
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

const [nodeDir, inputDir, roundsArg, minArg] = process.argv.slice(2);
const { jsonrepair } = createRequire(resolve(nodeDir, 'package.json'))('jsonrepair');
const inputs = readdirSync(inputDir).sort().map((f) => readFileSync(join(inputDir, f), 'utf8'));
const rounds = Number(roundsArg) || 5;
const minSeconds = Number(minArg) || 0.3;

// inputs jsonrepair throws on (counted in the first pass; they are still timed)
let failed = 0;
let sink = 0;
function pass() {
  let threw = 0;
  for (const text of inputs) {
    try {
      sink += jsonrepair(text).length;
    } catch {
      threw++;
    }
  }
  return threw;
}

function cpuSeconds() {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

failed = pass();
const warm0 = cpuSeconds();
for (let n = 1; n < 3 || cpuSeconds() - warm0 < minSeconds; n++)
  pass();
let best = Infinity;
for (let r = 0; r < rounds; r++) {
  let passes = 0;
  const t0 = cpuSeconds();
  let t;
  do {
    pass();
    passes++;
    t = cpuSeconds() - t0;
  } while (t < minSeconds);
  best = Math.min(best, t / passes);
}
const rssKb = Math.round(process.resourceUsage().maxRSS);
console.log(`seconds_per_pass ${best} calls ${inputs.length} rss_kb ${rssKb} failed ${failed} sink ${sink % 10}`);
