#!/bin/sh
# differential.sh MALFORM WORKDIR - `malform compare` on three constant test
# pipelines (const_worker.py) over one op: when one gives another value than
# the other two, exactly one differential finding names it as the dissenter
# (one profile, one op); when all three agree, none. Exit 77 without python3.
set -u
malform=$1 work=$2
here=$(cd "$(dirname "$0")" && pwd)
command -v python3 >/dev/null 2>&1 || exit 77
rm -rf "$work"
mkdir -p "$work/defs" "$work/seeds/task_breakdown"
cp "$MALFORM_ROOT/corpus/seeds/task_breakdown/$(ls "$MALFORM_ROOT/corpus/seeds/task_breakdown" | head -1)" \
   "$work/seeds/task_breakdown/" || { echo "FAIL: no task_breakdown seed"; exit 1; }
for p in a:1 a2:1 b:2; do
  name=${p%%:*} v=${p#*:}
  cat >"$work/defs/const-$name.yaml" <<YAML
name: const-$name
description: accepts every input as the number $v
command: python3 $here/const_worker.py $v
workdir: .
requires: [python3]
formats: [json, yaml]
profiles: ["*"]
timeout_ms: 3000
start_timeout_ms: 10000
YAML
done
export MALFORM_PIPELINES_DIR="$work/defs"
run() {
  out=$1 list=$2
  "$malform" compare --pipelines "$list" --ops json.trailing-comma --seeds-dir "$work/seeds" --cases 8 \
      --time 60 --seed 3 --out "$work/$out" >"$work/$out.log" 2>&1
  rc=$?
  [ "$rc" = 77 ] && exit 77
  [ "$rc" = 0 ] || { cat "$work/$out.log"; echo "FAIL: compare $list exited $rc"; exit 1; }
}
run dissent const-a,const-b,const-a2
run unanimous const-a,const-a2
python3 - "$work" <<'PY'
import json, os, sys
w = sys.argv[1]
doc = json.load(open(os.path.join(w, "dissent", "compare.json")))
assert doc["cases"] > 0, doc["cases"]
files = sorted(os.listdir(os.path.join(w, "dissent", "findings")))
assert len(files) == 1 and doc["differential_findings"] == 1, (files, doc["differential_findings"])
head = open(os.path.join(w, "dissent", "findings", files[0])).read().split("\n---\n")[0].splitlines()
fields = dict(l.split(": ", 1) for l in head[1:])
assert fields["signature"] == "differential profile=task_breakdown ops=json.trailing-comma dissent=const-b", fields
assert fields["oracle"] == "differential" and fields["pipeline"] == "const-b" and fields["status"] == "new", fields
assert "const-a,const-a2" in fields["detail"], fields["detail"]
doc = json.load(open(os.path.join(w, "unanimous", "compare.json")))
assert doc["cases"] > 0 and doc["differential_findings"] == 0, doc["differential_findings"]
assert not os.path.exists(os.path.join(w, "unanimous", "findings")) or not os.listdir(os.path.join(w, "unanimous", "findings"))
print("ok: one dissent finding, none when unanimous")
PY
