#!/usr/bin/env python3
"""Score core against a peer's published test suite (kept outside the repository).

usage: tools/peer-suite.py SUITE.jsonl [--profile generic_json] [--malform PATH]
                           [--show CLASSES] [--group-depth N] [--json OUT]

SUITE.jsonl holds one case a line: {"id": "<suite>:<n>:<group>", "input": TEXT,
"expected": VALUE} or "expected": {"throws": true} (the peer reports an error);
a case's own "profile" (a name or a profile file, e.g. the peer test's options)
overrides --profile.
Every input goes through `malform repair --profile P --output result` (all at
once with `--jsonl` when the CLI has it) and is classified:
  same      core accepts the peer's expected value
  rejects   core rejects an input the peer repairs
  changed   core accepts a value different from the peer's (the bad class:
            silent unless core's warnings name the guess; listed with them)
  err-rej   the peer expects an error and core rejects too
  err-acc   the peer expects an error and core accepts (with its warnings)
The exact-match rate counts same + err-rej. --show lists the cases of the named
classes (comma-separated, or "all") with input, expected, core's value and rules.
Standard library only."""
import argparse
import json
import os
import subprocess
import sys
from collections import OrderedDict

CLASSES = ('same', 'rejects', 'changed', 'err-rej', 'err-acc')


def same_json(a, b):
    """Deep equality that keeps bool, number, string apart (Python's 1 == True does not)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same_json(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same_json(x, y) for x, y in zip(a, b))
    return a == b


def run_core(malform, profile, text):
    """core's result object for one input (status, value, warnings, error)."""
    proc = subprocess.run([malform, 'repair', '--profile', profile, '--output', 'result', '-'],
                          input=text.encode('utf-8', 'surrogatepass'), capture_output=True)
    if proc.returncode not in (0, 1):
        return {'status': 'error', 'error': {'message': proc.stderr.decode('utf-8', 'replace').strip()}}
    try:
        return json.loads(proc.stdout)
    except ValueError:
        return {'status': 'error', 'error': {'message': 'unreadable result: ' + proc.stdout[:200].decode('utf-8', 'replace')}}


def run_core_batch(malform, profile, cases):
    """core's results for every case in one `malform repair --jsonl` process; None when
    the CLI has no batch mode (each case then runs in its own process)."""
    lines = ''.join(json.dumps({'id': str(k), 'input': c['input'], 'profile': c.get('profile') or profile}) + '\n'
                    for k, c in enumerate(cases))
    proc = subprocess.run([malform, 'repair', '--jsonl', '-', '--profile', profile],
                          input=lines.encode('utf-8', 'surrogatepass'), capture_output=True)
    if proc.returncode == 2:
        return None
    results = {}
    for line in proc.stdout.decode('utf-8', 'replace').splitlines():
        try:
            rec = json.loads(line)
            results[rec['id']] = rec['result']
        except (ValueError, KeyError, TypeError):
            continue
    return [results.get(str(k)) or run_core(malform, c.get('profile') or profile, c['input'])
            for k, c in enumerate(cases)]


def classify(case, result):
    throws = isinstance(case['expected'], dict) and case['expected'].keys() == {'throws'}
    accepted = result.get('status') == 'accepted'
    if throws:
        return 'err-acc' if accepted else 'err-rej'
    if not accepted:
        return 'rejects'
    return 'same' if same_json(result.get('value'), case['expected']) else 'changed'


def group_of(case_id, depth):
    parts = case_id.split(':', 2)
    group = parts[2] if len(parts) > 2 else parts[0]
    return ' / '.join(group.split(' / ')[:depth]) if depth else group


def short(value, limit=160):
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[:limit] + '...'


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('suite')
    ap.add_argument('--profile', default='generic_json')
    ap.add_argument('--malform', default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                      '..', 'build', 'default', 'harness', 'malform'))
    ap.add_argument('--show', default='', help='classes to list, comma-separated, or "all"')
    ap.add_argument('--group-depth', type=int, default=0, help='keep only the first N " / " parts of a group name')
    ap.add_argument('--json', help='write every case with its class and core result to this file')
    args = ap.parse_args()

    with open(args.suite, encoding='utf-8') as f:
        cases = [json.loads(line) for line in f if line.strip()]
    show = set(CLASSES) if args.show == 'all' else set(filter(None, args.show.split(',')))
    groups = OrderedDict()
    totals = dict.fromkeys(CLASSES, 0)
    records = []
    batch = run_core_batch(args.malform, args.profile, cases)
    for k, case in enumerate(cases):
        result = batch[k] if batch else run_core(args.malform, case.get('profile') or args.profile, case['input'])
        cls = classify(case, result)
        totals[cls] += 1
        row = groups.setdefault(group_of(case['id'], args.group_depth), dict.fromkeys(CLASSES, 0))
        row[cls] += 1
        rules = sorted({w.get('rule', '?') for w in result.get('warnings') or []})
        records.append({'id': case['id'], 'class': cls, 'input': case['input'], 'expected': case['expected'],
                        'status': result.get('status'), 'value': result.get('value'), 'rules': rules,
                        'error': (result.get('error') or {}).get('message')})
        if cls in show:
            print(f'[{cls}] {case["id"]}')
            print(f'   input:    {short(json.dumps(case["input"], ensure_ascii=False))}')
            print(f'   expected: {short(case["expected"])}')
            if result.get('status') == 'accepted':
                print(f'   core:     {short(result.get("value"))}   rules: {", ".join(rules) or "-"}')
            else:
                print(f'   core:     rejected: {short((result.get("error") or {}).get("message", "?"))}')

    width = max([len(g) for g in groups] + [5])
    print(f'\n{"group":<{width}}  ' + ' '.join(f'{c:>7}' for c in CLASSES))
    for g, row in groups.items():
        print(f'{g:<{width}}  ' + ' '.join(f'{row[c]:>7}' for c in CLASSES))
    print(f'{"TOTAL":<{width}}  ' + ' '.join(f'{totals[c]:>7}' for c in CLASSES))
    n = len(cases)
    match = totals['same'] + totals['err-rej']
    print(f'\n{os.path.basename(args.suite)}: {n} cases, exact match {match}/{n} = {100.0 * match / max(n, 1):.1f}%, '
          f'rejects {totals["rejects"]}, changed value {totals["changed"]}, '
          f'peer-error cases accepted {totals["err-acc"]}')
    if args.json:
        with open(args.json, 'w', encoding='utf-8') as f:
            json.dump(records, f, ensure_ascii=False, indent=1)
    return 0


if __name__ == '__main__':
    sys.exit(main())
