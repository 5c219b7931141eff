#!/usr/bin/env bash
# ingest_torn: a field entry (payload + metadata) is all-or-nothing. A payload
# left without metadata (a torn write) counts as absent and the next ingest
# writes both; a kill at any instant never leaves metadata without its
# payload; a closed stdout (`| head -1`) still stores the entry; inputs over
# the ingest size cap are refused and not stored.
source "$3/lib.sh"
FIELD=$T/field REG=$T/reg
printf 'name: demo\nitems:\n  - a\n' > "$T/good.txt"
sha=$(sha256sum "$T/good.txt" | cut -c1-16)
args=(--profile generic_yaml --field "$FIELD" --regression "$REG" --workdir "$T/wd" --runner "$PLANTED")

# A torn entry from an older run: the payload without its metadata.
mkdir -p "$FIELD"
cp "$T/good.txt" "$FIELD/$sha.raw"
run "$MALFORM" ingest "${args[@]}" "$T/good.txt"
[ $rc -eq 0 ] || fail "ingest of a good input exited $rc"
grep -q "already ingested" "$T/out" && fail "a payload without metadata was taken for an entry"
[ -f "$FIELD/$sha.json" ] || fail "the torn entry was not repaired (no metadata)"
cmp -s "$FIELD/$sha.raw" "$T/good.txt" || fail "repaired payload differs"

# Killed at many instants: metadata never without its payload; then one clean run completes the entry.
rm -rf "$FIELD"
for delay in 0 0.005 0.01 0.02 0.03 0.05 0.08 0.12 0.2 0.3; do
  "$MALFORM" ingest "${args[@]}" "$T/good.txt" >/dev/null 2>&1 &
  pid=$!
  sleep "$delay"
  kill -9 "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  for m in "$FIELD"/*.json; do
    [ -e "$m" ] || continue
    [ -f "${m%.json}.raw" ] || fail "metadata $m without its payload after a kill at ${delay}s"
    cmp -s "${m%.json}.raw" "$T/good.txt" || fail "payload of $m torn after a kill at ${delay}s"
  done
  ! ls "$FIELD"/*.json.* "$FIELD"/*.raw.* >/dev/null 2>&1 || fail "partial file left under a final name"
done
run "$MALFORM" ingest "${args[@]}" "$T/good.txt"
[ -f "$FIELD/$sha.raw" ] && [ -f "$FIELD/$sha.json" ] || fail "no complete entry after the kills"

# Output cut short: the entry is still stored whole.
rm -rf "$FIELD"
"$MALFORM" ingest "${args[@]}" "$T/good.txt" | head -1 >/dev/null
[ -f "$FIELD/$sha.raw" ] && [ -f "$FIELD/$sha.json" ] || fail "| head -1 left a partial entry"

# The ingest size cap: refused, nothing stored.
head -c 3000 /dev/zero | tr '\0' 'a' > "$T/big.txt"
run "$MALFORM" ingest "${args[@]}" --max-size 1000 "$T/big.txt"
[ $rc -eq 2 ] || fail "an input over --max-size should exit 2, got $rc"
grep -q "size cap of 1000 bytes" "$T/out" || fail "the size cap is not named"
big=$(sha256sum "$T/big.txt" | cut -c1-16)
[ ! -e "$FIELD/$big.raw" ] && [ ! -e "$FIELD/$big.json" ] || fail "an input over the cap was stored"
echo "PASS"
