#!/usr/bin/env bash
# nightly: SIGTERM and SIGINT mid-run leave the corpus exactly as it was and
# a partial report that says so; an uninterrupted run merges the finds into
# the corpus (old inputs kept) and writes nightly.json + JUnit XML.
source "$3/lib.sh"
WD=$T/nightly REG=$T/reg
mkdir -p "$WD/corpus/structured" "$REG"
for i in $(seq 1 30); do printf 'malform-case 1\nprofile: generic_yaml\n---\nseed: %d\n' "$i" > "$WD/corpus/structured/seed-$i"; done
before=$(checksum "$WD/corpus")
common=(--budget 2 --engines libfuzzer --targets structured --workdir "$WD" --regression "$REG"
        --fuzz-cmd "bash $HERE/fake_fuzz.sh")

for sig in TERM INT; do
  FAKE_SECONDS=60 FAKE_FINDS=50 "$MALFORM" nightly "${common[@]}" >"$T/out" 2>&1 &
  pid=$!
  for _ in $(seq 1 50); do [ -n "$(ls "$WD/runs/libfuzzer-structured/corpus-found" 2>/dev/null)" ] && break; sleep 0.2; done
  sleep 0.5
  kill -$sig $pid
  set +e; wait $pid; rc=$?; set -e
  cat "$T/out"
  want=$([ $sig = TERM ] && echo 143 || echo 130)
  [ $rc -eq $want ] || fail "SIG$sig: exit $rc, want $want"
  [ "$(checksum "$WD/corpus")" = "$before" ] || fail "SIG$sig: corpus changed"
  grep -q "INTERRUPTED by SIG$sig: corpus intact" "$T/out" || fail "SIG$sig: not said"
  python3 - "$WD/nightly.json" "$sig" <<'PY' || fail "SIG$sig: nightly.json"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["interrupted"] is True and d["signal"] == "SIG" + sys.argv[2], d
assert d["end"] and d["exit_code"] in (130, 143), d
names = {p["name"]: p["status"] for p in d["phases"]}
assert names["fuzz"] == "cut short" and names["merge"] == "skipped", names
assert d["runs"] and d["runs"][0]["cut_short"] is True, d["runs"]
PY
  grep -q '<testsuite name="malform.nightly"' "$WD/nightly.xml" || fail "SIG$sig: no JUnit XML"
  [ -z "$(pgrep -f "fake_fuzz.sh.*$WD" || true)" ] || fail "SIG$sig: fuzz child left running"
done

# Uninterrupted: finds merged, nothing lost, JUnit has the oracles.
run env FAKE_SECONDS=1 FAKE_FINDS=4 FAKE_PACE=0.05 "$MALFORM" nightly "${common[@]}"
[ $rc -eq 0 ] || fail "clean nightly exit $rc"
n=$(find "$WD/corpus/structured" -type f | wc -l)
[ "$n" -eq 34 ] || fail "merged corpus has $n inputs, want 30 + 4"
for i in $(seq 1 30); do grep -rqx "seed: $i" "$WD/corpus/structured" || fail "seed $i lost in the merge"; done
[ -z "$(ls -A "$WD/corpus" | grep '^\.')" ] || fail "merge left temp dirs"
python3 - "$WD/nightly.json" <<'PY' || fail "nightly.json"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["interrupted"] is False and d["exit_code"] == 0, d
assert d["merge"][0]["status"] == "merged" and d["merge"][0]["after"] == 34, d["merge"]
assert d["oracles"]["no-data-loss"]["fail"] == 5, d["oracles"]
assert d["report"], d
PY
python3 - "$WD/nightly.xml" <<'PY' || fail "JUnit XML"
import sys, xml.etree.ElementTree as ET
r = ET.parse(sys.argv[1]).getroot()
cases = r.findall(".//testcase")
names = {(c.get("classname"), c.get("name")) for c in cases}
assert ("malform.oracle", "no-data-loss") in names and ("malform.oracle", "idempotence") in names, names
assert r.get("failures") == "0", r.attrib
PY
# An interrupted swap (old corpus moved aside, new not in place) is repaired.
mv "$WD/corpus/structured" "$WD/corpus/.old-structured"
run env FAKE_SECONDS=1 FAKE_FINDS=0 "$MALFORM" nightly "${common[@]}"
grep -q "restored corpus" "$T/out" || fail "interrupted swap not repaired"
[ "$(find "$WD/corpus/structured" -type f | wc -l)" -eq 34 ] || fail "corpus not restored"
echo "PASS"
