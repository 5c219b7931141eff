#!/bin/sh
# callgrind.sh - instruction counts of one bench shape, both sides, and their ratio.
# Usage: bench/callgrind.sh BUILD_DIR SHAPE [SIDE_A SIDE_B] [PASSES]
#   e.g. bench/callgrind.sh build/default clean-yaml core libyaml
# Counts only bench_pass (the timed loop), so input setup is left out; on a
# shared machine these ratios are steadier than the wall-clock ones.
set -eu
build=$1 shape=$2 a=${3:-core} b=${4:-libyaml} passes=${5:-3}
src=$(cd "$(dirname "$0")/.." && pwd)
out=$(mktemp -d /tmp/malform-callgrind-XXXXXX)
count() {
    valgrind --tool=callgrind --collect-atstart=no --toggle-collect=bench_pass \
        --callgrind-out-file="$out/$1.out" "$build/bench/bench_core" "$src" \
        --child "$shape" "$1" --passes "$passes" >/dev/null 2>"$out/$1.log"
    callgrind_annotate "$out/$1.out" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}'
}
ia=$(count "$a")
ib=$(count "$b")
echo "$shape: $a $ia Ir, $b $ib Ir, ratio $(awk "BEGIN {printf \"%.2f\", $ia / $ib}")x ($passes passes; profiles in $out)"
