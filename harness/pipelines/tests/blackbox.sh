#!/bin/sh
# blackbox.sh MALFORM PIPELINE WORKDIR - a 10-second black-box fuzz of a
# pipeline under test, then the lifecycle on what it found: each finding
# (the first five) reproduces with `malform check --pipeline`, triage puts
# them into a scratch regression dir, replay finds them failing as recorded,
# and the pipeline's committed entries (corpus/regression/PIPELINE/) replay.
# Exit 77 (ctest SKIP) when the pipeline is not installed here.
set -u
malform=$1 pipeline=$2 work=$3
rm -rf "$work" && mkdir -p "$work" || exit 1
fail() { echo "FAIL: $*"; exit 1; }

"$malform" fuzz --engine blackbox --pipeline "$pipeline" --time 10 --seed 7 --min-runs 40 --workdir "$work" >"$work/log" 2>&1
rc=$?
cat "$work/log" | tail -3
[ "$rc" = 77 ] && exit 77
[ "$rc" = 0 ] || [ "$rc" = 1 ] || fail "fuzz exited $rc"
grep -q '"engine": "blackbox"' "$work/stats.json" || fail "no stats.json"
grep -q '"execs": [1-9]' "$work/stats.json" || fail "no execs in stats.json"

n=0
for f in "$work"/findings/*.case; do
  [ -f "$f" ] || continue
  n=$((n + 1))
  [ $n -le 5 ] || break
  grep -q "^pipeline: $pipeline\$" "$f" || fail "$f: no pipeline header"
  "$malform" check --pipeline "$pipeline" "$f" >"$work/check.out" 2>&1
  [ $? = 1 ] || { cat "$work/check.out"; fail "$f does not reproduce"; }
  sig=$(sed -n 's/^signature: //p' "$f" | head -1)
  grep -qF "signature: $sig" "$work/check.out" || { cat "$work/check.out"; fail "$f reproduces differently"; }
done

"$malform" triage --pipeline "$pipeline" --regression "$work/regression" "$work" >"$work/triage.out" 2>&1 ||
  { cat "$work/triage.out"; fail "triage"; }
if [ $n -gt 0 ]; then
  "$malform" replay --pipeline "$pipeline" "$work/regression" >"$work/replay.out" 2>&1 ||
    { cat "$work/replay.out"; fail "replay of the new entries"; }
  tail -1 "$work/replay.out"
fi
"$malform" replay --pipeline "$pipeline" || fail "replay of corpus/regression/$pipeline"
echo "ok: $n findings checked"
