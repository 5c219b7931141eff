#!/usr/bin/env bash
# ingest: content-addressed storage with metadata, the check verdict, a
# failing input triaged into the regression corpus, and idempotence.
source "$3/lib.sh"
FIELD=$T/field REG=$T/reg
printf 'Here is the YAML you asked for:\nname: demo\nPLANT-CRASH\nitems:\n  - a\n' > "$T/bad.txt"
printf 'name: demo\nitems:\n  - a\n' > "$T/good.txt"
args=(--profile generic_yaml --field "$FIELD" --regression "$REG" --workdir "$T/wd" --runner "$PLANTED")
run "$MALFORM" ingest "${args[@]}" --note "ticket 42" "$T/bad.txt" "$T/good.txt"
[ $rc -eq 1 ] || fail "a failing input should make ingest exit 1, got $rc"
sha=$(sha256sum "$T/bad.txt" | cut -c1-16)
[ -f "$FIELD/$sha.raw" ] && [ -f "$FIELD/$sha.json" ] || fail "not stored content-addressed"
cmp -s "$FIELD/$sha.raw" "$T/bad.txt" || fail "stored bytes differ"
python3 - "$FIELD/$sha.json" "$T/bad.txt" <<'PY' || fail "metadata"
import json, sys, hashlib
m = json.load(open(sys.argv[1]))
assert m["profile"] == "generic_yaml" and m["note"] == "ticket 42", m
assert m["sha256"] == hashlib.sha256(open(sys.argv[2], "rb").read()).hexdigest(), m
assert m["date"] and m["size"] > 0 and m["first_verdict"] == "new", m
PY
grep -q "verdict: FAIL crash" "$T/out" || fail "verdict not printed"
grep -q "new regression entry" "$T/out" || fail "not triaged"
[ "$(count "$REG")" -eq 1 ] || fail "expected one regression entry"
entry=$(ls "$REG"/*.raw)
grep -qx 'target: field' "$entry" && grep -qx 'profile: generic_yaml' "$entry" || fail "entry header"
[ "$(sed '1,/^---$/d' "$entry")" = "PLANT-CRASH" ] || fail "field failure not minimized"
grep -q "verdict: pass" "$T/out" || fail "the good input should pass"
# Idempotent: the same bytes again (other note, other name) change nothing.
before=$(checksum "$FIELD"; checksum "$REG")
cp "$T/bad.txt" "$T/again.txt"
run "$MALFORM" ingest "${args[@]}" --note "other note" "$T/again.txt" "$T/good.txt"
grep -q "already ingested" "$T/out" || fail "second ingest did not notice"
grep -q "already tracked by" "$T/out" || fail "second ingest should find the entry"
rm "$T/again.txt"
[ "$before" = "$(checksum "$FIELD"; checksum "$REG")" ] || fail "ingesting the same bytes twice changed the corpus"
# The field corpus replays: the failing case is tracked, the good one passes.
run "$MALFORM" replay --runner "$PLANTED" "$FIELD" "$REG"
grep -q "field case fails as tracked by" "$T/out" || fail "field replay"
# Bad input is a clean error.
run "$MALFORM" ingest --profile no_such_profile "$T/good.txt"
[ $rc -eq 2 ] || fail "unknown profile should exit 2"
run "$MALFORM" ingest --profile generic_yaml --field "$FIELD" "$T/missing.txt"
[ $rc -eq 2 ] || fail "missing file should exit 2"
echo "PASS"
