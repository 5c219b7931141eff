"""compare.py - read the two sides' JSON lines and print the agreement table."""
import json, os, sys

def load(path):
    return {os.path.basename(r['file']): r for r in map(json.loads, open(path, encoding='utf-8'))}

mf, jr = load(sys.argv[1]), load(sys.argv[2])
counts = {}
rows = []
for name in sorted(mf):
    a, b = mf[name], jr.get(name, {'ok': False, 'error': 'missing'})
    if a['ok'] and b['ok']:
        kind = 'agree' if a['value'] == b['value'] else 'differ'
    elif not a['ok'] and not b['ok']:
        kind = 'agree (both reject)'
    elif a['ok']:
        kind = 'only malform repairs'
    else:
        kind = 'only jsonrepair repairs'
    counts[kind] = counts.get(kind, 0) + 1
    detail = ','.join(sorted(set(r.replace('json.', '') for r in a.get('rules', []))))
    if kind == 'differ':
        detail += '  mf=%s  jr=%s' % (json.dumps(a['value'], ensure_ascii=False)[:70],
                                      json.dumps(b['value'], ensure_ascii=False)[:70])
    elif not a['ok']:
        detail = 'mf: ' + a['error']['message'][:70]
    rows.append((name, kind, detail))
w = max(len(r[0]) for r in rows)
for name, kind, detail in rows:
    print('%-*s  %-24s %s' % (w, name, kind, detail))
print()
total = len(rows)
for kind in sorted(counts):
    print('%-26s %3d / %d' % (kind, counts[kind], total))
agree = sum(v for k, v in counts.items() if k.startswith('agree'))
print('%-26s %3d / %d' % ('agreement (value or both reject)', agree, total))
