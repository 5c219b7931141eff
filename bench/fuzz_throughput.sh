#!/usr/bin/env bash
# fuzz_throughput.sh - how fast does the structured target fuzz, against what
# core alone costs? Prints, measured in the same run on the same cases
# (corpus/cases plus every corpus/seeds/<profile>/ artifact as a zero-op case):
#   libFuzzer: execs per CPU second of fuzz_structured (fuzz preset, ASan+UBSan,
#              custom mutator, recording findings the way `malform fuzz` runs it);
#   bare core: execs per CPU second of mf_repair on the rendered cases the
#              libFuzzer run ended with (its corpus: the seeds and every unit
#              it added; default build, no sanitizers, no oracles), and the
#              target itself on them without sanitizers;
#   AFL++:     execs per CPU second of afl_structured with the custom mutator
#              (when the afl preset is built and afl-fuzz is installed);
# and the ratios libFuzzer/bare and libFuzzer/AFL++ (goal >= 0.3). CPU
# seconds (user+sys of the engine and its children), because on a shared
# machine wall-clock rates measure the neighbours.
# usage: bench/fuzz_throughput.sh [SECONDS]   (default 20 per engine)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SECS=${1:-20}
FUZZ_BUILD=${FUZZ_BUILD:-$ROOT/build/fuzz}
AFL_BUILD=${AFL_BUILD:-$ROOT/build/afl}
DEFAULT_BUILD=${DEFAULT_BUILD:-$ROOT/build/default}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/malform-throughput.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
[ -x "$FUZZ_BUILD/fuzz_structured" ] || { echo "missing $FUZZ_BUILD/fuzz_structured: cmake --preset fuzz && cmake --build --preset fuzz" >&2; exit 2; }
[ -x "$DEFAULT_BUILD/bench_structured" ] || { echo "missing $DEFAULT_BUILD/bench_structured: cmake --preset default && cmake --build --preset default" >&2; exit 2; }

mkdir -p "$WORK/seeds"
cp "$ROOT"/corpus/cases/*.case "$WORK/seeds/"
for f in "$ROOT"/corpus/seeds/*/*; do
  [ -f "$f" ] || continue
  p=$(basename "$(dirname "$f")")
  { printf 'malform-case 1\nprofile: %s\n---\n' "$p"; cat "$f"; } >"$WORK/seeds/zero-$p-$(basename "$f").case"
done

cpu_of() {  # file written by /usr/bin/time -f "%U %S"
  awk '{print $1 + $2}' "$1"
}

# libFuzzer, in-process (no -fork), findings recorded (the campaign setting)
mkdir -p "$WORK/lf/corpus" "$WORK/lf/findings"
cp "$WORK"/seeds/* "$WORK/lf/corpus/"
MALFORM_FINDINGS_DIR=$WORK/lf/findings ASAN_OPTIONS=abort_on_error=1:detect_leaks=1:malloc_context_size=2 \
  /usr/bin/time -f "%U %S" -o "$WORK/lf/time" "$FUZZ_BUILD/fuzz_structured" -max_total_time="$SECS" -seed=1 \
  -max_len=65536 -timeout=10 -reload=0 -use_counters=0 -print_final_stats=1 -artifact_prefix="$WORK/lf/" "$WORK/lf/corpus" >"$WORK/lf/log" 2>&1 || true
lf_execs=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+)/\1/p' "$WORK/lf/log" | tail -1)
lf_cpu=$(cpu_of "$WORK/lf/time")

# bare core on the cases libFuzzer ran (and the target itself without sanitizers)
mkdir -p "$WORK/bare-findings"
bare=$(MALFORM_FINDINGS_DIR=$WORK/bare-findings "$DEFAULT_BUILD/bench_structured" "$WORK/lf/corpus" "${BENCH_SECS:-5}" 2>/dev/null)

# AFL++ with the custom mutator, when built
afl_execs=0 afl_cpu=0
AFL=$(command -v afl-fuzz || true)
if [ -n "$AFL" ] && [ -x "$AFL_BUILD/afl_structured" ] && [ -f "$AFL_BUILD/libmalform_afl_mutator.so" ]; then
  mkdir -p "$WORK/afl/findings"
  AFL_NO_UI=1 AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_AFFINITY=1 AFL_ALLOW_TMP=1 \
    AFL_CUSTOM_MUTATOR_LIBRARY=$AFL_BUILD/libmalform_afl_mutator.so MALFORM_FINDINGS_DIR=$WORK/afl/findings \
    /usr/bin/time -f "%U %S" -o "$WORK/afl/time" "$AFL" -V "$SECS" -i "$WORK/seeds" -o "$WORK/afl/out" -t 10000 \
    -- "$AFL_BUILD/afl_structured" >"$WORK/afl/log" 2>&1 || true
  afl_execs=$(sed -nE 's/^execs_done *: *([0-9]+)/\1/p' "$WORK/afl/out/default/fuzzer_stats" 2>/dev/null || echo 0)
  afl_cpu=$(cpu_of "$WORK/afl/time")
fi

python3 - "$lf_execs" "$lf_cpu" "$afl_execs" "$afl_cpu" "$bare" "$SECS" <<'PY'
import json, sys
lf_execs, lf_cpu, afl_execs, afl_cpu = int(sys.argv[1] or 0), float(sys.argv[2] or 0), int(sys.argv[3] or 0), float(sys.argv[4] or 0)
bare = json.loads(sys.argv[5])
lf = lf_execs / lf_cpu if lf_cpu else 0.0
afl = afl_execs / afl_cpu if afl_cpu else 0.0
out = {"seconds": float(sys.argv[6]), "cases": bare["inputs"],
       "libfuzzer_structured_execs_per_cpu_sec": round(lf, 1),
       "structured_check_no_sanitizer_execs_per_cpu_sec": bare["structured_execs_per_sec"],
       "bare_core_execs_per_cpu_sec": bare["bare_core_execs_per_sec"],
       "libfuzzer_over_bare": round(lf / bare["bare_core_execs_per_sec"], 3) if bare["bare_core_execs_per_sec"] else None,
       "afl_structured_execs_per_cpu_sec": round(afl, 1) if afl else None,
       "libfuzzer_over_afl": round(lf / afl, 3) if afl else None}
print(json.dumps(out))
PY
