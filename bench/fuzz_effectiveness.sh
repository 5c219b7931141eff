#!/usr/bin/env bash
# fuzz_effectiveness.sh - is the structure-aware fuzzing worth it?
#
# 1. SECONDS (default 60) of fuzz_structured with the custom mutator versus
#    fuzz_structured_plain (same target, libFuzzer byte mutation only), from
#    the same seeds (every corpus/seeds/<profile>/ artifact as a zero-op case): distinct repair rules fired (counted by the
#    target itself) and coverage (libFuzzer cov/ft). Goal: >= 2x the rules.
# 2. execs/s of the fuzz_structured target (no sanitizers, no engine) over a
#    bare mf_repair call on the same rendered inputs. Goal: >= 0.3.
#
# Needs the fuzz preset (FUZZ_BUILD, default build/fuzz) and a default-style
# build with bench_structured (DEFAULT_BUILD, default build/default).
# Oracle failures are counted, not fatal, during the runs (MALFORM_ORACLE_ABORT=0).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SECS=${1:-60}
FUZZ_BUILD=${FUZZ_BUILD:-$ROOT/build/fuzz}
DEFAULT_BUILD=${DEFAULT_BUILD:-$ROOT/build/default}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/malform-bench.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

for b in "$FUZZ_BUILD/fuzz_structured" "$FUZZ_BUILD/fuzz_structured_plain"; do
  [ -x "$b" ] || { echo "missing $b: cmake --preset fuzz && cmake --build --preset fuzz" >&2; exit 2; }
done
[ -x "$DEFAULT_BUILD/bench_structured" ] || { echo "missing $DEFAULT_BUILD/bench_structured: cmake --preset default && cmake --build --preset default" >&2; exit 2; }

run() {  # name binary -> prints "rules cov ft execs"
  local name=$1 bin=$2 dir=$WORK/$1
  mkdir -p "$dir/corpus" "$dir/stats" "$dir/art"
  cp "$WORK"/seeds/* "$dir/corpus/"
  MALFORM_ORACLE_ABORT=0 MALFORM_STATS_DIR=$dir/stats "$bin" -max_total_time="$SECS" -seed=1 \
    -max_len=65536 -timeout=10 -artifact_prefix="$dir/art/" "$dir/corpus" >"$dir/log" 2>&1 || true
  local line cov ft
  line=$(grep -E '^#[0-9]+' "$dir/log" | grep 'cov:' | tail -1)
  cov=$(sed -E 's/.*cov: ([0-9]+).*/\1/' <<<"$line")
  ft=$(sed -E 's/.*ft: ([0-9]+).*/\1/' <<<"$line")
  python3 - "$dir/stats" "$cov" "$ft" <<'EOF'
import glob, json, sys
rules, execs, fails = set(), 0, 0
for f in glob.glob(sys.argv[1] + "/stats-*.json"):
    d = json.load(open(f))
    rules |= {r for r, n in d["rules_fired"].items() if n}
    execs += d["execs"]
    fails += sum(v["fail"] for v in d["verdicts"].values())
print(len(rules), sys.argv[2], sys.argv[3], execs, fails)
EOF
}

# the same seeds for both runs: every clean artifact of corpus/seeds/<profile>/
# as a case with no ops (what each run finds is its own doing)
mkdir -p "$WORK/seeds"
for f in "$ROOT"/corpus/seeds/*/*; do
  [ -f "$f" ] || continue
  p=$(basename "$(dirname "$f")")
  { printf 'malform-case 1\nprofile: %s\n---\n' "$p"; cat "$f"; } >"$WORK/seeds/$p-$(basename "$f").case"
done
[ -n "$(ls "$WORK/seeds")" ] || { echo "no seeds under $ROOT/corpus/seeds" >&2; exit 2; }
echo "malform fuzz effectiveness: ${SECS}s per run, $(ls "$WORK/seeds" | wc -l) seeds (corpus/seeds as zero-op cases)"
read -r r1 c1 f1 e1 x1 < <(run custom "$FUZZ_BUILD/fuzz_structured")
read -r r2 c2 f2 e2 x2 < <(run plain "$FUZZ_BUILD/fuzz_structured_plain")
printf '%-28s %8s %8s %8s %10s %10s\n' run rules cov ft execs oracle-fails
printf '%-28s %8s %8s %8s %10s %10s\n' "custom mutator" "$r1" "$c1" "$f1" "$e1" "$x1"
printf '%-28s %8s %8s %8s %10s %10s\n' "plain libFuzzer" "$r2" "$c2" "$f2" "$e2" "$x2"
python3 -c "import sys; r1,r2=int(sys.argv[1]),int(sys.argv[2]); print('rules ratio: %s (goal >= 2)' % ('%.2f' % (r1/r2) if r2 else 'inf'))" "$r1" "$r2"
echo "throughput (no sanitizers, ${BENCH_SECS:-5}s each):"
MALFORM_ORACLE_ABORT=0 "$DEFAULT_BUILD/bench_structured" "$ROOT/corpus/cases" "${BENCH_SECS:-5}" 2>/dev/null
