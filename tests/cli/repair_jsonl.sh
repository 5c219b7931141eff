#!/usr/bin/env bash
# repair_jsonl.sh MALFORM - `malform repair --jsonl` gives, per request line,
# exactly the result `malform repair --output result` gives for that input
# alone (inputs: the rule fixtures' before files and the corpus cases,
# rendered), keeps ids and order, and answers a bad line with an error line
# without losing the requests after it (exit 2).
set -uo pipefail
M=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
ROOT=${MALFORM_ROOT:?}
T=$(mktemp -d "${TMPDIR:-/tmp}/malform-jsonl.XXXXXX")
trap 'rm -rf "$T"' EXIT
python3 - "$M" "$ROOT" "$T" <<'PY'
import glob, json, os, subprocess, sys
m, root, tmp = sys.argv[1:4]
fails = 0
def fail(msg):
    global fails
    fails += 1
    print("FAIL:", msg)
befores = sorted(glob.glob(os.path.join(root, "tests/fixtures/rules/*/*.in")))[::5]
cases = sorted(glob.glob(os.path.join(root, "corpus/cases/*.case")))[:10]
reqs = []
for i, p in enumerate(befores):
    with open(p, "rb") as f:
        text = f.read().decode("utf-8", "surrogateescape")
    if "\udc80" <= max(text or "a") or "\x00" in text:
        continue
    reqs.append({"id": i, "input": text, "_path": p})
for j, p in enumerate(cases):
    with open(p) as f:
        reqs.append({"id": "case%d" % j, "case": f.read(), "_path": p, "_case": True})
reqs.append({"id": "nul", "input": "{\"a\": \"x\u0000y\",}", "_path": "(a NUL byte in the input)"})
bad_at = len(reqs) // 2
lines = [json.dumps({k: v for k, v in r.items() if not k.startswith("_")}) for r in reqs]
lines.insert(bad_at, "{not json")
lines.insert(bad_at + 1, json.dumps({"id": "noinput"}))
lines.insert(bad_at + 2, json.dumps({"id": "badprofile", "input": "a: 1", "profile": "no-such-profile"}))
p = subprocess.run([m, "repair", "--jsonl"], input=("\n".join(lines) + "\n").encode(), capture_output=True)
if p.returncode != 2:
    fail("a batch with bad lines exits %d, want 2" % p.returncode)
out = [json.loads(l) for l in p.stdout.decode().splitlines()]
if len(out) != len(reqs) + 3:
    fail("%d answers for %d request lines" % (len(out), len(reqs) + 3))
    sys.exit(1)
errs = out[bad_at:bad_at + 3]
if [("error" in e, e.get("id")) for e in errs] != [(True, None), (True, "noinput"), (True, "badprofile")]:
    fail("bad lines not answered with errors in place: %r" % errs)
good = out[:bad_at] + out[bad_at + 3:]
for r, a in zip(reqs, good):
    if a.get("id") != r["id"]:
        fail("answer id %r for request %r" % (a.get("id"), r["id"]))
        continue
    if r.get("_case"):
        rend = subprocess.run([m, "render", r["_path"]], capture_output=True)
        data = rend.stdout
        if a.get("rendered", "").encode() != data:
            fail("%s: the batch's rendered text differs from malform render" % r["_path"])
    else:
        data = r["input"].encode("utf-8", "surrogateescape")
        if r["id"] == "nul" and a.get("result", {}).get("status") != "accepted":
            fail("an input holding a NUL byte is not repaired: %r" % a)
    one = subprocess.run([m, "repair", "--output", "result", "-"], input=data, capture_output=True)
    want = json.loads(one.stdout)
    if a.get("result") != want:
        fail("%s: batch result differs from the single repair" % r["_path"])
print("repair_jsonl: %d requests compared, %d failure(s)" % (len(reqs), fails))
sys.exit(1 if fails or len(reqs) < 20 else 0)
PY
