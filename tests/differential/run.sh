#!/bin/sh
# run.sh - differential check of malform's JSON repair layer against the npm
# `jsonrepair` package over corpus/malformed_json/ (see README.md).
# Usage: tests/differential/run.sh [scratch-dir]   (default: build/differential)
# jsonrepair is installed into the scratch dir only; it is never a runtime
# dependency of malform.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
scratch=${1:-$root/build/differential}
mkdir -p "$scratch"

if [ ! -d "$scratch/node_modules/jsonrepair" ]; then
    (cd "$scratch" && npm install --silent --no-audit --no-fund --no-save jsonrepair >/dev/null)
fi

# malform side: build the core library and link the driver against it.
cmake -S "$root" -B "$scratch/build" -DCMAKE_BUILD_TYPE=Release -DMALFORM_TESTS=OFF >/dev/null
cmake --build "$scratch/build" --target malform_core -j2 >/dev/null
cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -I"$root/core/src" -I"$root/core/include" \
   "$here/mf_json_driver.c" "$scratch/build/libmalform_core.a" \
   $(pkg-config --cflags --libs jansson yaml-0.1 libpcre2-8) -o "$scratch/mf_json_driver"

files=$(ls "$root"/corpus/malformed_json/*.txt)
# shellcheck disable=SC2086
"$scratch/mf_json_driver" $files > "$scratch/malform.jsonl"
# shellcheck disable=SC2086
JSONREPAIR_DIR="$scratch" node "$here/jsonrepair_side.mjs" $files > "$scratch/jsonrepair.jsonl"
python3 "$here/compare.py" "$scratch/malform.jsonl" "$scratch/jsonrepair.jsonl"
