// jsonrepair_side.mjs - the differential check's jsonrepair side: one JSON
// line {file, ok, value | error} per file named on the command line.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
const require = createRequire(process.env.JSONREPAIR_DIR + '/');
const { jsonrepair } = require('jsonrepair');
for (const file of process.argv.slice(2)) {
  const text = readFileSync(file, 'utf8');
  try {
    const value = JSON.parse(jsonrepair(text));
    console.log(JSON.stringify({ file, ok: true, value }));
  } catch (e) {
    console.log(JSON.stringify({ file, ok: false, error: String(e.message).slice(0, 120) }));
  }
}
