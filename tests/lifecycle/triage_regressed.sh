#!/usr/bin/env bash
# triage against a FIXED entry: an input that fails with a fixed entry's
# signature is that bug back (or a sibling the fix missed), not a duplicate:
# it is reproduced, minimized and recorded as a new open entry named after the
# fixed one plus "-r<hash>", whose detail names the fixed entry; the fixed
# entry itself is untouched, and a second triage sees only duplicates.
source "$3/lib.sh"
plant_workdir "$T/wd"
rm -rf "$T/wd/lf" "$T/wd/afl/s1"            # keep the structured oracle finding only
REG=$T/reg
mkdir -p "$REG"
sig='oracle no-data-loss profile=prd rules=planted.rule ops=cand.fence'
fixed="$REG/oracle-no-data-loss-profile-prd-rules-planted.rule-ops-cand.fence-00000000.case"
{ printf 'malform-regression 1\nsignature: %s\nkind: oracle\noracle: no-data-loss\nprofile: prd\n' "$sig"
  printf 'target: structured\nengine: afl\nfirst-seen: 2026-11-23T00:00:00Z\nstatus: fixed\ndetail: fixed once\n---\n'
  printf 'malform-case 1\nprofile: prd\nop: cand.fence seed=7 tag=yaml\n---\nsummary: the boom\n'; } > "$fixed"
before=$(sha256sum "$fixed")
run "$MALFORM" triage "$T/wd" --regression "$REG" --runner "$PLANTED" --timeout 2 --repeats 1
[ $rc -eq 1 ] || fail "a regression of a fixed entry is new work: exit 1, got $rc"
[ "$(count "$REG")" -eq 2 ] || fail "expected the fixed entry plus one regression entry, got $(count "$REG")"
[ "$(sha256sum "$fixed")" = "$before" ] || fail "the fixed entry was changed"
new=$(ls "$REG"/*-r????????.case 2>/dev/null | head -1)
[ -n "$new" ] || fail "no '-r<hash>' regression entry: $(ls "$REG")"
grep -qx "signature: $sig" "$new" || fail "regression entry signature"
grep -qx 'status: open' "$new" || fail "regression entry is not open"
grep -q "^detail: REGRESSED: fails again like the fixed entry $(basename "$fixed"): " "$new" || fail "detail does not name the fixed entry"
python3 -c "
import json
d = json.load(open('$T/wd/triage/triage.json'))
st = [i['status'] for i in d['items']]
assert st == ['regressed'], st
assert d['items'][0]['regression_of'].endswith('$(basename "$fixed")'), d['items'][0]
" || fail "triage.json"
# Again: the regression entry is the known open bug now.
before2=$(checksum "$REG")
run "$MALFORM" triage "$T/wd" --regression "$REG" --runner "$PLANTED" --timeout 2 --repeats 1
[ $rc -eq 0 ] || fail "second triage should exit 0, got $rc"
grep -q "0 new signature(s), 1 duplicate(s)" "$T/out" || fail "second run should see one duplicate"
[ "$(checksum "$REG")" = "$before2" ] || fail "second triage changed the regression corpus"
echo "PASS"
