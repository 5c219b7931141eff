#!/bin/sh
# orphans.sh MALFORM WORKDIR - a pipeline worker's own child (a grandchild of
# malform, in the worker's process group) must not outlive a `kill -9` of
# malform: the lifecycle's guard kills the group. Exit 77 without python3.
set -u
malform=$1 work=$2
here=$(cd "$(dirname "$0")" && pwd)
command -v python3 >/dev/null 2>&1 || exit 77
rm -rf "$work"
mkdir -p "$work/defs"
for name in a b; do
  cat >"$work/defs/spawner-$name.yaml" <<YAML
name: spawner-$name
description: accepts everything as 1 after starting a sleep grandchild
command: python3 $here/const_worker.py 1 $work/grandchild-$name.pid
workdir: .
requires: [python3]
formats: [json, yaml]
profiles: ["*"]
timeout_ms: 3000
start_timeout_ms: 10000
YAML
done
MALFORM_PIPELINES_DIR="$work/defs" "$malform" compare --pipelines spawner-a,spawner-b --time 120 \
    --out "$work/out" >"$work/log" 2>&1 &
mpid=$!
i=0
while [ ! -s "$work/grandchild-b.pid" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
[ -s "$work/grandchild-a.pid" ] && [ -s "$work/grandchild-b.pid" ] || {
  kill -9 $mpid; cat "$work/log"; echo "FAIL: the workers did not start"; exit 1; }
kill -9 $mpid
wait $mpid 2>/dev/null
alive=""
for name in a b; do
  g=$(cat "$work/grandchild-$name.pid")
  i=0
  while kill -0 "$g" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
  if kill -0 "$g" 2>/dev/null; then alive="$alive $g"; kill -9 "$g"; fi
done
[ -z "$alive" ] || { echo "FAIL: grandchildren outlived malform:$alive"; exit 1; }
echo "ok: no worker grandchild outlived kill -9 of malform"
