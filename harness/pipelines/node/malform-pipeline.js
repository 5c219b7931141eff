// malform-pipeline.js - the worker side of the malform pipeline protocol
// (harness/pipelines/PROTOCOL.md, version 1) for Node adapters.
//
//   const { serve } = require('./malform-pipeline');
//   serve({ name: 'jsonrepair', version: '3.15.0', formats: ['json'], profiles: ['*'], warnings: false },
//         (input, req) => ({ status: 'accepted', value: JSON.parse(jsonrepair(input)) }));
//
// repair(input, request) returns {status, value, warnings, error} (a bare
// value means accepted). A thrown error is answered as status "crashed"
// unless spec.rejects(err) says it is the pipeline's way of rejecting.
'use strict';
const fs = require('fs');

const PROTOCOL = 1;

function fnv1a(s) {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

// V8 block coverage of the scripts `filter` accepts, as hashed range ids of
// the ranges executed since the previous take.
function coverageProbe(filter) {
  const inspector = require('inspector');
  const session = new inspector.Session();
  session.connect();
  const post = (method, params) => {
    let out, failure;
    session.post(method, params || {}, (err, res) => { failure = err; out = res; });
    if (failure) throw failure;
    return out;
  };
  post('Profiler.enable');
  post('Profiler.startPreciseCoverage', { callCount: true, detailed: true });
  const urlHash = new Map();
  return () => {
    const ids = [];
    for (const script of post('Profiler.takePreciseCoverage').result) {
      let uh = urlHash.get(script.url);
      if (uh === undefined) {
        uh = filter(script.url) ? fnv1a(script.url) : 0;
        urlHash.set(script.url, uh);
      }
      if (!uh) continue;
      for (const fn of script.functions)
        for (const r of fn.ranges)
          if (r.count > 0) ids.push((Math.imul(uh ^ r.startOffset, 0x01000193) ^ r.endOffset) >>> 0);
    }
    return ids;
  };
}

// A repair function returns either a response ({status, value, warnings,
// error}: a status of the protocol and no other keys) or the bare value. An
// artifact that merely has a `status` key ({"status": "ok"}) is a value.
const RESPONSE_KEYS = new Set(['status', 'value', 'warnings', 'error']);
function isResponse(out) {
  return out !== null && typeof out === 'object' && !Array.isArray(out) &&
    ['accepted', 'rejected', 'crashed'].includes(out.status) && Object.keys(out).every((k) => RESPONSE_KEYS.has(k));
}

function normalize(out) {
  return isResponse(out) ? out : { status: 'accepted', value: out };
}

function errorRecord(err) {
  return {
    type: (err && err.name) || typeof err,
    message: String((err && err.message) || err).slice(0, 2000),
    stack: String((err && err.stack) || '').slice(0, 4000),
  };
}

// Serve requests on stdin until it closes. spec: {name, version, formats,
// profiles, warnings, rejects(err) -> bool, coverageFilter(url) -> bool}.
function serve(spec, repair) {
  const cover = process.env.MALFORM_COVERAGE === '1'
    ? coverageProbe(spec.coverageFilter || ((url) => url.includes('/node_modules/')))
    : null;
  const hello = {
    malform_pipeline: PROTOCOL, name: spec.name, version: spec.version, formats: spec.formats,
    profiles: spec.profiles || ['*'], warnings: !!spec.warnings, coverage: true,
  };
  const write = (obj) => writeLine(JSON.stringify(obj) + '\n');
  write(hello);
  let pending = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk) => {
    pending += chunk;
    let nl;
    while ((nl = pending.indexOf('\n')) >= 0) {
      const line = pending.slice(0, nl);
      pending = pending.slice(nl + 1);
      if (line) write(answer(JSON.parse(line), spec, repair, cover));
    }
  });
}

// Blocking write of the whole line (stdout may be a pipe that is full for a moment).
function writeLine(text) {
  const buf = Buffer.from(text, 'utf8');
  for (let off = 0; off < buf.length;) {
    try {
      off += fs.writeSync(1, buf, off, buf.length - off);
    } catch (err) {
      if (err.code !== 'EAGAIN') throw err;
    }
  }
}

function answer(req, spec, repair, cover) {
  let res;
  if (cover) cover();
  try {
    res = normalize(repair(req.input, req));
  } catch (err) {
    const rejected = spec.rejects && spec.rejects(err);
    if (!rejected) process.stderr.write(`uncaught ${(err && err.stack) || err}\n`);
    res = { status: rejected ? 'rejected' : 'crashed', error: errorRecord(err) };
  }
  res.id = req.id;
  if (cover) res.coverage = cover();
  return res;
}

// Version of an installed package (read from its package.json, which some
// packages do not export to require()).
function packageVersion(name) {
  const file = require('path').join(__dirname, 'node_modules', name, 'package.json');
  return JSON.parse(fs.readFileSync(file, 'utf8')).version;
}

module.exports = { serve, packageVersion, PROTOCOL };
