#!/usr/bin/env bash
# triage: planted crash and planted oracle failure are found, deduped,
# minimized (structure-aware for the case, bytes for the raw input), written
# once; a second run writes nothing; concurrent runs write each entry once.
source "$3/lib.sh"
plant_workdir "$T/wd"
REG=$T/reg
run "$MALFORM" triage "$T/wd" --regression "$REG" --runner "$PLANTED" --timeout 2 --repeats 2
[ $rc -eq 1 ] || fail "first triage should exit 1 (new signatures), got $rc"
[ "$(count "$REG")" -eq 3 ] || fail "expected 3 entries (crash, oracle, timeout), got $(count "$REG")"
grep -q "5 input(s): 5 reproducible" "$T/out" || fail "expected 5 reproducible inputs"
grep -q "3 new signature(s), 2 duplicate(s)" "$T/out" || fail "expected 3 new, 2 duplicates"

crash=$(ls "$REG"/crash-*.raw); oracle=$(ls "$REG"/oracle-*.case); hang=$(ls "$REG"/timeout-*.raw)
for f in "$crash" "$oracle" "$hang"; do
  head -1 "$f" | grep -qx 'malform-regression 1' || fail "$f: no magic line"
  for k in signature kind target engine first-seen status reproduce; do
    grep -q "^$k: " "$f" || fail "$f: header lacks $k"
  done
  grep -qx 'status: open' "$f" || fail "$f: not open"
done
grep -qx 'oracle: no-data-loss' "$oracle" && grep -qx 'profile: prd' "$oracle" && grep -qx 'engine: afl' "$oracle" \
  || fail "oracle entry header"
grep -qx 'engine: libfuzzer' "$crash" || fail "crash entry engine"
# Minimized: the raw crash down to the marker line, the case down to one op
# and the one artifact line that matters.
[ "$(sed '1,/^---$/d' "$crash")" = "PLANT-CRASH" ] || fail "raw crash not minimized: $(sed '1,/^---$/d' "$crash")"
body=$(sed '1,/^---$/d' "$oracle")
echo "$body" | grep -q '^op: cand.fence' || fail "the needed op was dropped"
echo "$body" | grep -q 'yaml.colon-space\|prose-before\|trailing-comma' && fail "irrelevant ops kept"
echo "$body" | grep -q 'title\|goals\|stories\|owner' && fail "irrelevant artifact entries kept"
echo "$body" | grep -q 'boom' || fail "the failing value was lost"
orig=$(grep '^original-size: ' "$oracle" | cut -d' ' -f2); min=$(grep '^minimized-size: ' "$oracle" | cut -d' ' -f2)
[ "$min" -lt "$orig" ] || fail "case did not shrink ($orig -> $min)"
echo "case minimized $orig -> $min bytes; raw $(grep '^original-size: ' "$crash" | cut -d' ' -f2) -> $(grep '^minimized-size: ' "$crash" | cut -d' ' -f2) bytes"
# Original and minimized kept in the work dir; the summary lists every input.
[ "$(find "$T/wd/triage" -name 'original-*' | wc -l)" -eq 3 ] || fail "originals not kept"
[ "$(find "$T/wd/triage" -name 'minimized-*' | wc -l)" -eq 3 ] || fail "minimized inputs not kept"
python3 -c "import json,sys; d=json.load(open('$T/wd/triage/triage.json')); assert d['found']==5 and d['new']==3, d" \
  || fail "triage.json"

# Again: nothing new, nothing rewritten.
before=$(checksum "$REG")
run "$MALFORM" triage "$T/wd" --regression "$REG" --runner "$PLANTED" --timeout 2 --repeats 2
[ $rc -eq 0 ] || fail "second triage should exit 0, got $rc"
grep -q "0 new signature(s), 5 duplicate(s)" "$T/out" || fail "second run should see only duplicates"
[ "$(checksum "$REG")" = "$before" ] || fail "second triage changed the regression corpus"

# Three triage runs at once on a fresh corpus: each signature written once.
REG2=$T/reg2
for i in 1 2 3; do cp -r "$T/wd" "$T/wd$i"; rm -rf "$T/wd$i/triage"; done
for i in 1 2 3; do "$MALFORM" triage "$T/wd$i" --regression "$REG2" --runner "$PLANTED" --timeout 2 \
  --repeats 1 >"$T/par$i" 2>&1 & done
wait || true
[ "$(count "$REG2")" -eq 3 ] || fail "concurrent triage wrote $(count "$REG2") entries, want 3"
[ -z "$(find "$REG2" -name '.tmp-*')" ] || fail "temp files left behind"
for f in "$REG2"/*; do sed '1,/^---$/d' "$f" | grep -q . || fail "$f: empty payload"; done
echo "PASS"
