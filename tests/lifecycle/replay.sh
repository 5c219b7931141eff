#!/usr/bin/env bash
# replay: open entries must still fail as recorded, fixed ones must pass; an
# open entry that passes is "fixed now: flip its status"; a fixed one that
# fails again is REGRESSED; an empty directory replays 0 entries.
source "$3/lib.sh"
plant_workdir "$T/wd"
rm "$T/wd/lf/timeout-3333"
REG=$T/reg
"$MALFORM" triage "$T/wd" --regression "$REG" --runner "$PLANTED" --repeats 1 >/dev/null || true
[ "$(count "$REG")" -eq 2 ] || fail "setup: expected 2 entries"
run "$MALFORM" replay --runner "$PLANTED" "$REG"
[ $rc -eq 0 ] || fail "open entries that still fail must pass replay (rc $rc)"
grep -q "replayed 2 entries: 2 as recorded, 0 failed" "$T/out" || fail "summary"

crash=$(ls "$REG"/crash-*.raw); oracle=$(ls "$REG"/oracle-*.case)
# The bug behind the oracle entry gets "fixed": the entry passes now.
sed -i 's/boom/bam/' "$oracle"
run "$MALFORM" replay --runner "$PLANTED" "$REG"
[ $rc -eq 1 ] || fail "an open entry that passes must fail replay"
grep -q "fixed now: flip its status" "$T/out" || fail "no flip hint"
sed -i 's/^status: open$/status: fixed/' "$oracle"
run "$MALFORM" replay --runner "$PLANTED" "$REG"
[ $rc -eq 0 ] || fail "after flipping, replay must pass"
grep -q "fixed, passes" "$T/out" || fail "fixed entry not reported as passing"
# The fix is reverted: a fixed entry fails again.
sed -i 's/bam/boom/' "$oracle"
run "$MALFORM" replay --runner "$PLANTED" "$oracle"
[ $rc -eq 1 ] && grep -q "REGRESSED" "$T/out" || fail "regression of a fixed entry not caught"
# An open entry failing some other way is reported with both signatures.
sed -i 's/^signature: .*/signature: crash SIGBUS -/' "$crash"
run "$MALFORM" replay --runner "$PLANTED" "$crash"
[ $rc -eq 1 ] && grep -q "fails differently" "$T/out" || fail "different failure not reported"
# Empty and bad input.
mkdir "$T/empty"
run "$MALFORM" replay "$T/empty"
[ $rc -eq 0 ] && grep -q "replayed 0 entries" "$T/out" || fail "empty directory"
printf 'not an entry\n' > "$T/empty/x.case"
run "$MALFORM" replay "$T/empty"
[ $rc -eq 1 ] && grep -q "not a regression entry" "$T/out" || fail "bad entry not reported"
# In-process replay (no --runner): a clean structured case entry marked fixed passes.
if "$MALFORM" check --help >/dev/null 2>&1; then
  mkdir "$T/inproc"
  cat > "$T/inproc/clean.case" <<'CASE'
malform-regression 1
signature: oracle accounting profile=generic_yaml rules=- ops=-
kind: oracle
target: structured
status: fixed
---
malform-case 1
profile: generic_yaml
op: cand.fence seed=1
---
name: demo
items:
  - a
  - b
CASE
  run "$MALFORM" replay "$T/inproc"
  [ $rc -eq 0 ] && grep -q "fixed, passes" "$T/out" || fail "in-process replay of a passing case"
fi

# A field payload whose metadata never got written (a torn ingest) is
# skipped with the reason, not misread as a broken regression entry.
mkdir -p "$T/torn"
printf 'title: x\n' > "$T/torn/0123456789abcdef.raw"
run "$MALFORM" replay "$T/torn"
[ $rc -eq 0 ] && grep -q "skip.*payload without metadata" "$T/out" || fail "torn field payload not skipped"
echo "PASS"
