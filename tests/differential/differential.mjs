// differential.mjs - core against the JavaScript JSON repairers, per family.
//
//   node differential.mjs --core PATH/core_side --root REPO [--modules DIR] [--list] [--json FILE]
//
// Cases: the JSON rule fixtures (tests/fixtures/rules/json.*, cand.* whose
// profile is generic_json), corpus/malformed_json/*.txt, the JSON seeds
// (corpus/seeds/*/*.json: valid input, expected value = itself) and the
// field corpus with expected values (corpus/field/expected/*.raw +
// *.expect.json). Each case runs through core (core_side, whole pipeline,
// generic_json) and through each peer found in --modules (default
// harness/pipelines/node/node_modules): jsonrepair, dirty-json,
// best-effort-json-parser, partial-json.
//
// Per case and peer the outcome is one of:
//   same         both give the expected value (or, without one, the same value)
//   core-better  core gives it, the peer rejects or loses data
//   peer-better  the peer gives it, core rejects or loses data
//   differ       no expected value; both accepted, both keep every word, values differ
//   both-fail    neither gives it
// A value "loses data" against the expected value when it differs from it;
// without an expected value, when a word of the input is missing from it.
//
// Exit status: 0; 1 when core accepts a value different from a known
// expected value (silent data change); 77 when node's peers are missing
// (ctest SKIP_RETURN_CODE).
import { readFileSync, readdirSync, existsSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const k = args.indexOf(name);
  return k >= 0 ? args[k + 1] : dflt;
};
const root = path.resolve(opt('--root', '.'));
const corePath = opt('--core');
const modules = path.resolve(opt('--modules', path.join(root, 'harness/pipelines/node/node_modules')));
if (!corePath) {
  console.error('usage: differential.mjs --core CORE_SIDE --root REPO [--modules DIR] [--list] [--json FILE]');
  process.exit(2);
}

// ---- peers ---------------------------------------------------------------
const require = createRequire(path.join(modules, 'x.js'));
const peerLoaders = {
  jsonrepair: () => {
    const { jsonrepair } = require('jsonrepair');
    return (t) => JSON.parse(jsonrepair(t));
  },
  'dirty-json': () => {
    const dj = require('dirty-json');
    return (t) => dj.parse(t);
  },
  'best-effort-json-parser': () => {
    const be = require('best-effort-json-parser');
    be.parse.onExtraToken = () => {};
    return (t) => be.parse(t);
  },
  'partial-json': () => {
    const { parse, Allow } = require('partial-json');
    return (t) => parse(t, Allow.ALL);
  },
};
const peers = {};
for (const [name, load] of Object.entries(peerLoaders)) {
  try {
    peers[name] = load();
  } catch {
    console.log(`peer ${name}: not installed in ${modules}, left out`);
  }
}
if (Object.keys(peers).length === 0) {
  console.log('SKIP: no JavaScript peer installed (run tools/setup-deps.sh)');
  process.exit(77);
}

// ---- cases ---------------------------------------------------------------
const cases = [];
const ls = (d) => (existsSync(d) ? readdirSync(d).sort() : []);
const readJson = (f) => JSON.parse(readFileSync(f, 'utf8'));

const fixtures = path.join(root, 'tests/fixtures/rules');
for (const rule of ls(fixtures)) {
  if (!rule.startsWith('json.') && !rule.startsWith('cand.')) continue;
  const dir = path.join(fixtures, rule);
  for (const f of ls(dir)) {
    if (!f.endsWith('.in')) continue;
    const base = f.slice(0, -3);
    const optsFile = path.join(dir, base + '.opts.json');
    const opts = existsSync(optsFile) ? readJson(optsFile) : {};
    const profile = opts.profile || (rule.startsWith('json.') ? 'generic_json' : 'generic_yaml');
    if (profile !== 'generic_json' || opts.options) continue;
    const exp = path.join(dir, base + '.json');
    cases.push({ family: rule, name: `${rule}/${base}`, file: path.join(dir, f),
                 expected: existsSync(exp) ? { value: readJson(exp) } : null });
  }
}
const mj = path.join(root, 'corpus/malformed_json');
for (const f of ls(mj)) {
  if (!f.endsWith('.txt')) continue;
  const stem = f.slice(0, -4);
  const exp = path.join(mj, 'expected', stem + '.json');
  let expected = null;
  if (existsSync(exp)) {
    const e = readJson(exp);
    expected = e.reject ? { reject: true } : { value: e.value };
  }
  cases.push({ family: 'malformed_json', name: `malformed_json/${stem}`, file: path.join(mj, f), expected });
}
const seeds = path.join(root, 'corpus/seeds');
for (const prof of ls(seeds))
  for (const f of ls(path.join(seeds, prof)))
    if (f.endsWith('.json')) {
      const file = path.join(seeds, prof, f);
      cases.push({ family: 'seed (valid JSON)', name: `seeds/${prof}/${f}`, file,
                   expected: { value: readJson(file) } });
    }
// corpus/field/expected and corpus/field/tracker (real outputs from public issue
// threads): "or_reject" makes a rejection good too; an entry with "known_failure"
// is pinned by ctest field_expected, so it is not counted as a silent change here.
for (const dir of ['expected', 'tracker']) {
  const field = path.join(root, 'corpus/field', dir);
  for (const f of ls(field)) {
    if (!f.endsWith('.expect.json')) continue;
    const stem = f.slice(0, -'.expect.json'.length);
    const e = readJson(path.join(field, f));
    if ((e.profile || 'generic_json') !== 'generic_json') continue;
    const expected = 'value' in e ? { value: e.value, orReject: !!e.or_reject } : e.reject ? { reject: true } : null;
    cases.push({ family: (dir === 'tracker' ? 'tracker: ' : 'field: ') + e.family, name: `field/${dir}/${stem}`,
                 file: path.join(field, stem + '.raw'), expected, known: !!e.known_failure });
  }
}

// ---- core ----------------------------------------------------------------
const manifest = cases.map((c) => `generic_json\t${c.file}\n`).join('');
const run = spawnSync(corePath, [], { input: manifest, maxBuffer: 1 << 28 });
if (run.status !== 0) {
  console.error(`core side failed: ${run.stderr}`);
  process.exit(2);
}
const coreLines = run.stdout.toString('utf8').trim().split('\n');
cases.forEach((c, k) => { c.core = JSON.parse(coreLines[k]); });

// ---- comparison ----------------------------------------------------------
function equal(a, b) {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === b.length && a.every((x, k) => equal(x, b[k]));
  const ka = Object.keys(a), kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && equal(a[k], b[k]));
}
function leaves(v, out) {
  if (v === null || typeof v !== 'object') out.push(String(v));
  else for (const [k, x] of Object.entries(v)) { if (!Array.isArray(v)) out.push(k); leaves(x, out); }
  return out;
}
const words = (t) => t.match(/[\p{L}\p{N}]+/gu) || [];
function keepsWords(text, value) {
  const have = new Set(words(leaves(value, []).join(' ')));
  return words(text).every((w) => have.has(w) || ['true', 'false', 'null', 'True', 'False', 'None'].includes(w));
}
function good(c, r, text) {
  if (c.expected && c.expected.reject) return !r.ok;
  if (!r.ok) return !!(c.expected && c.expected.orReject);
  return c.expected ? equal(r.value, c.expected.value) : keepsWords(text, r.value);
}
function outcome(c, coreRes, peerRes, text) {
  const cg = good(c, coreRes, text), pg = good(c, peerRes, text);
  if (cg && pg) return c.expected || !coreRes.ok || equal(coreRes.value, peerRes.value) ? 'same' : 'differ';
  if (cg) return 'core-better';
  if (pg) return 'peer-better';
  return 'both-fail';
}

const KINDS = ['same', 'core-better', 'peer-better', 'differ', 'both-fail'];
const table = {};
const listed = [];
const silent = [];
for (const c of cases) {
  const text = readFileSync(c.file, 'utf8');
  if (c.expected && !c.known && c.core.ok && (c.expected.reject || !equal(c.core.value, c.expected.value))) silent.push(c);
  for (const [name, fn] of Object.entries(peers)) {
    let res;
    try {
      const v = fn(text);
      res = v === undefined ? { ok: false } : { ok: true, value: JSON.parse(JSON.stringify(v)) };
    } catch (e) {
      res = { ok: false, error: String(e && e.message) };
    }
    const o = outcome(c, c.core, res, text);
    const row = (table[c.family] ??= {});
    const cell = (row[name] ??= Object.fromEntries(KINDS.map((k) => [k, 0])));
    cell[o]++;
    if (o === 'peer-better' || o === 'differ') listed.push({ o, name, c, res });
  }
}

const peerNames = Object.keys(peers);
const abbrev = { same: 's', 'core-better': 'c', 'peer-better': 'p', differ: 'd', 'both-fail': 'f' };
console.log(`${cases.length} cases; per family and peer: s=same c=core better p=peer better d=differ (no expected value) f=both fail`);
const fw = Math.max(...Object.keys(table).map((f) => f.length), 6);
const cw = 22;
console.log('family'.padEnd(fw) + '  ' + peerNames.map((n) => n.slice(0, cw).padEnd(cw)).join(''));
const totals = Object.fromEntries(peerNames.map((n) => [n, Object.fromEntries(KINDS.map((k) => [k, 0]))]));
for (const fam of Object.keys(table).sort()) {
  const cells = peerNames.map((n) => {
    const x = table[fam][n];
    KINDS.forEach((k) => { totals[n][k] += x[k]; });
    return KINDS.filter((k) => x[k]).map((k) => `${abbrev[k]}${x[k]}`).join(' ').padEnd(cw);
  });
  console.log(fam.padEnd(fw) + '  ' + cells.join(''));
}
console.log('TOTAL'.padEnd(fw) + '  ' + peerNames.map((n) =>
  KINDS.map((k) => `${abbrev[k]}${totals[n][k]}`).join(' ').padEnd(cw)).join(''));

if (args.includes('--list'))
  for (const { o, name, c, res } of listed)
    console.log(`${o.padEnd(12)} ${name.padEnd(24)} ${c.name}\n    core: ${c.core.ok ? JSON.stringify(c.core.value).slice(0, 150) : 'rejected: ' + c.core.error}\n    peer: ${res.ok ? JSON.stringify(res.value).slice(0, 150) : 'rejected'}`);

const jsonOut = opt('--json');
if (jsonOut)
  writeFileSync(jsonOut, JSON.stringify({ cases: cases.length, peers: peerNames, families: table, totals }, null, 1));

const coreSummary = { accepted_expected: 0, rejected: 0, changed: silent.length, no_expected: 0 };
for (const c of cases) {
  if (!c.expected) coreSummary.no_expected++;
  else if (!c.core.ok) coreSummary[c.expected.reject || c.expected.orReject ? 'accepted_expected' : 'rejected']++;
  else if (!c.expected.reject && equal(c.core.value, c.expected.value)) coreSummary.accepted_expected++;
}
console.log(`core on cases with an expected value: ${coreSummary.accepted_expected} exact (or rejected as expected), ${coreSummary.rejected} rejected, ` +
            `${coreSummary.changed} accepted with a changed value; ${coreSummary.no_expected} cases without one`);
for (const c of silent)
  console.log(`CHANGED VALUE ${c.name}\n    core:     ${JSON.stringify(c.core.value).slice(0, 200)}\n    expected: ${c.expected.reject ? "rejection" : JSON.stringify(c.expected.value).slice(0, 200)}`);
process.exit(silent.length ? 1 : 0);
