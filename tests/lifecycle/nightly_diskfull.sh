#!/usr/bin/env bash
# nightly on a full disk: the free-space guard, and a real full disk (a
# 2 MB tmpfs that the "engine" fills mid-run; skipped when mounting is not
# allowed). Either way: exit 3, corpus intact, and the run says so.
source "$3/lib.sh"
REG=$T/reg
mkdir -p "$REG"
common=(--budget 1 --engines libfuzzer --targets structured --regression "$REG" --fuzz-cmd "bash $HERE/fake_fuzz.sh")
# 1. The guard: demand more free space than there is.
WD=$T/guard
mkdir -p "$WD/corpus/structured"
for i in $(seq 1 10); do echo "seed $i" > "$WD/corpus/structured/s$i"; done
before=$(checksum "$WD/corpus")
run env FAKE_SECONDS=1 "$MALFORM" nightly "${common[@]}" --workdir "$WD" --min-free-mb 100000000
[ $rc -eq 3 ] || fail "low free space: exit $rc, want 3"
grep -q "STOPPED: disk full" "$T/out" || fail "low free space not said"
[ "$(checksum "$WD/corpus")" = "$before" ] || fail "corpus changed"
python3 -c "import json; d=json.load(open('$WD/nightly.json')); assert d['disk_full'] is True, d" || fail "nightly.json"
# 2. A real full disk.
M=$T/mnt
mkdir -p "$M"
if ! mount -t tmpfs -o size=2m tmpfs "$M" 2>/dev/null; then
  echo "SKIP: cannot mount a tmpfs here (the guard part passed)"; exit 77
fi
trap 'umount "$M" 2>/dev/null; rm -rf "$T"' EXIT
WD=$M/nightly
mkdir -p "$WD/corpus/structured"
for i in $(seq 1 10); do echo "seed $i" > "$WD/corpus/structured/s$i"; done
before=$(checksum "$WD/corpus")
run env FAKE_SECONDS=1 FAKE_FINDS=20 FAKE_FILL=1 "$MALFORM" nightly "${common[@]}" --workdir "$WD" --min-free-mb 0
[ $rc -eq 3 ] || fail "full disk: exit $rc, want 3"
grep -q "STOPPED: disk full" "$T/out" || fail "full disk not said"
[ "$(checksum "$WD/corpus")" = "$before" ] || fail "full disk: corpus changed"
[ -z "$(ls -A "$WD/corpus" | grep '^\.' || true)" ] || fail "full disk: temp dirs left in the corpus"
echo "PASS"
