#!/bin/sh
# compare.sh MALFORM WORKDIR - `malform compare` on core and the Python example
# pipeline for a fixed number of cases; compare.json must follow the
# differential-matrix contract (COORD.md): every cell's buckets add up to its
# total, every worst case and disagreement input it names exists, and core
# restores at least one case exactly. Exit 77 when python3 is missing.
set -u
malform=$1 work=$2
command -v python3 >/dev/null 2>&1 || exit 77
rm -rf "$work"
"$malform" compare --pipelines core,py-fence-json --cases 96 --time 120 --seed 5 --out "$work" >"$work.log" 2>&1
rc=$?
[ "$rc" = 77 ] && exit 77
[ "$rc" = 0 ] || { cat "$work.log"; echo "FAIL: compare exited $rc"; exit 1; }
head -3 "$work.log"
python3 - "$work" <<'PY'
import json, os, sys
d = sys.argv[1]
doc = json.load(open(os.path.join(d, "compare.json")))
assert doc["malform_compare"] == 1, doc.get("malform_compare")
assert doc["pipelines"] == ["core", "py-fence-json"], doc["pipelines"]
assert doc["families"], "no cells"
restored_core = 0
for row, cells in doc["families"].items():
    for p, c in cells.items():
        assert p in doc["pipelines"], p
        n = c["restored"] + c["changed"] + c["rejected"] + c["crashed"]
        assert n == c["total"] and n > 0, (row, p, c)
        if c["worst_case"]:
            assert os.path.isfile(os.path.join(d, c["worst_case"])), c["worst_case"]
        else:
            assert c["restored"] == c["total"], (row, p, c)
        if p == "core" and "." not in row:
            restored_core += c["restored"]
for x in doc["disagreements"]:
    assert os.path.isfile(os.path.join(d, x["input"])), x["input"]
    assert len(set(x["values"].values())) > 1, x
assert restored_core > 0, "core restored nothing"
print("ok: %d rows, %d disagreements" % (len(doc["families"]), len(doc["disagreements"])))
PY
