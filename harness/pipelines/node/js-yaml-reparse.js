// js-yaml-reparse.js - js-yaml wrapped in the repair-by-reparse strategy of
// seed 000 ("YAML Structural Repairs"): parse strictly; when that fails,
// apply the seed's simple line-scoped text repairs one at a time, in the
// seed's order, and parse again after each. Each repair that changed the
// text is reported as a warning under core's rule id for it. A YAMLException
// after the last repair is the rejection; any other exception is a crash.
'use strict';
const yaml = require('js-yaml');
const { serve, packageVersion } = require('./malform-pipeline');

const quote = (key, value) => `${key}${JSON.stringify(value)}`;
const REPAIRS = [
  ['yaml.colon-space', (t) => t.replace(/^(\s*(?:- )?[A-Za-z_][\w-]+):(?=[^\s:/])/gm, '$1: ')],
  ['yaml.plain-colon', (t) => t.replace(/^(\s*(?:- )?[\w-]+: )([^"'\s|>&*!%@`{[#-][^\n]*?: [^\n]*)$/gm,
    (m, k, v) => quote(k, v))],
  ['yaml.code-fence', (t) => t.replace(/^\s*```(?:ya?ml|jsonl?)?[ \t]*\n([\s\S]*?)\n```[ \t]*\s*$/, '$1')],
  ['yaml.xml-tag-lines', (t) => t.split('\n').filter((l) => !/^\s*<\/?[A-Za-z_][\w.-]*\s*\/?>\s*$/.test(l)).join('\n')],
  ['yaml.dash-space', (t) => t.replace(/^(\s*)-(?=[A-Za-z_][\w-]*:)/gm, '$1- ')],
  ['yaml.invalid-escape', (t) => t.replace(/"(?:[^"\\\n]|\\.)*"/g,
    (s) => s.replace(/\\([^0abtnvfre "/\\N_LPxuU\t])/g, '\\\\$1'))],
  ['yaml.unclosed-quote', (t) => t.replace(/^(\s*(?:- )?[\w-]+: "(?:[^"\\\n]|\\.)*)$/gm, '$1"')],
  ['yaml.reserved-indicator', (t) => t.replace(/^(\s*(?:- )?(?:[\w-]+: )?)([`@][^\n]*)$/gm, (m, k, v) => quote(k, v))],
];

function repair(input) {
  let text = input;
  const warnings = [];
  for (let i = 0; ; i++) {
    try {
      const value = yaml.load(text);
      return { status: 'accepted', value: value === undefined ? null : value, warnings };
    } catch (err) {
      if (!(err instanceof yaml.YAMLException) || i === REPAIRS.length)
        throw err;
    }
    const [rule, fix] = REPAIRS[i];
    const next = fix(text);
    if (next !== text)
      warnings.push({ rule, message: `applied ${rule} and parsed again`, line: 0 });
    text = next;
  }
}

serve(
  {
    name: 'js-yaml-reparse',
    version: packageVersion('js-yaml'),
    formats: ['yaml'],
    profiles: ['*'],
    warnings: true,
    rejects: (err) => err instanceof yaml.YAMLException,
  },
  repair,
);
