#!/usr/bin/env bash
# triage of findings the targets recorded themselves (WORKDIR/findings): a
# finding whose recorded signature is already in the regression corpus is a
# duplicate without a single run, so hundreds of recorded findings cannot eat
# the triage budget before the new signatures get their turn.
source "$3/lib.sh"
REG=$T/reg
mkdir -p "$REG" "$T/wd/findings"
sig='oracle no-data-loss profile=prd rules=- ops=cand.fence'
entry() {   # entry STATUS: a regression-entry text with the planted case as payload
  printf 'malform-regression 1\nsignature: %s\nkind: oracle\noracle: no-data-loss\nprofile: prd\n' "$sig"
  printf 'target: structured\nengine: libfuzzer\nfirst-seen: 2026-11-23T00:00:00Z\nstatus: %s\ndetail: planted\n---\n' "$1"
  printf 'malform-case 1\nprofile: prd\nop: cand.fence seed=7 tag=yaml\n---\nsummary: the boom\n'
}
entry open > "$REG/known.case"
for i in 1 2 3; do entry new > "$T/wd/findings/finding-$i.case"; done
# A runner that leaves a mark when it is started: it must not be.
printf '#!/bin/sh\ntouch "%s/ran"\nexit 0\n' "$T" > "$T/runner.sh"
chmod +x "$T/runner.sh"
run "$MALFORM" triage "$T/wd" --regression "$REG" --runner "$T/runner.sh" --timeout 2 --repeats 2
[ $rc -eq 0 ] || fail "triage of known findings should exit 0 (nothing new), got $rc"
[ ! -e "$T/ran" ] || fail "a known finding was run again instead of read"
grep -q "3 duplicate(s)" "$T/out" || fail "expected 3 duplicates"
python3 -c "
import json
d = json.load(open('$T/wd/triage/triage.json'))
assert d['duplicates'] == 3 and d['new'] == 0 and d['skipped'] == 0, d
assert all(i['reproduced'] == 'recorded' and i['status'] == 'duplicate' for i in d['items']), d['items']
" || fail "triage.json"
[ "$(count "$REG")" -eq 1 ] || fail "the regression corpus changed"
echo "ok: 3 recorded findings of a known signature are duplicates without a run"
