#!/usr/bin/env bash
# fuzz_throughput.sh - how fast does the structured target fuzz, against what
# core alone costs? Prints, measured in the same run on the same cases
# (corpus/cases plus every corpus/seeds/<profile>/ artifact as a zero-op case):
#   libFuzzer: execs per CPU second of fuzz_structured (fuzz preset, ASan+UBSan,
#              custom mutator, recording findings with the ASAN_OPTIONS
#              `malform fuzz` gives it);
#   bare core: execs per CPU second of mf_repair on the rendered cases the
#              libFuzzer run ended with (its corpus: the seeds and every unit
#              it added; default build, no sanitizers, no oracles), and the
#              target itself on them without sanitizers;
#   AFL++:     execs per CPU second of afl_structured with the custom mutator
#              (when the afl preset is built and afl-fuzz is installed);
# and the ratios libFuzzer/bare and libFuzzer/AFL++ (the goal: >= 0.3, both
# as the harness runs them, AFL++ without sanitizers). Like-for-like figures
# beside it, when their presets are built: libFuzzer without sanitizers
# (fuzz-plain) over AFL++, and libFuzzer over AFL++ with ASan+UBSan
# (afl-asan, AFL++'s own ASAN_OPTIONS). CPU seconds (user+sys of the engine
# and its children), because on a shared machine wall-clock rates measure
# the neighbours.
# usage: bench/fuzz_throughput.sh [SECONDS]   (default 20 per engine)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SECS=${1:-20}
FUZZ_BUILD=${FUZZ_BUILD:-$ROOT/build/fuzz}
AFL_BUILD=${AFL_BUILD:-$ROOT/build/afl}
AFL_ASAN_BUILD=${AFL_ASAN_BUILD:-$ROOT/build/afl-asan}
FUZZ_PLAIN_BUILD=${FUZZ_PLAIN_BUILD:-$ROOT/build/fuzz-plain}
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

# libFuzzer, in-process (no -fork), findings recorded (the campaign setting):
# run_lf NAME BINARY prints "execs cpu_seconds"
run_lf() {
  local d=$WORK/$1
  mkdir -p "$d/corpus" "$d/findings"
  cp "$WORK"/seeds/* "$d/corpus/"
  MALFORM_FINDINGS_DIR=$d/findings ASAN_OPTIONS=abort_on_error=1:detect_leaks=1:dedup_token_length=3:malloc_context_size=0 \
    /usr/bin/time -f "%U %S" -o "$d/time" "$2" -max_total_time="$SECS" -seed=1 \
    -max_len=65536 -timeout=10 -reload=0 -use_counters=0 -print_final_stats=1 -artifact_prefix="$d/" "$d/corpus" >"$d/log" 2>&1 || true
  echo "$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+)/\1/p' "$d/log" | tail -1) $(cpu_of "$d/time")"
}

# AFL++ with the custom mutator: run_afl NAME BUILD prints "execs cpu_seconds" ("0 0" when not built)
AFL=$(command -v afl-fuzz || true)
run_afl() {
  local d=$WORK/$1
  if [ -z "$AFL" ] || [ ! -x "$2/afl_structured" ] || [ ! -f "$2/libmalform_afl_mutator.so" ]; then
    echo "0 0"
    return
  fi
  mkdir -p "$d/findings"
  AFL_NO_UI=1 AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_AFFINITY=1 AFL_ALLOW_TMP=1 \
    AFL_CUSTOM_MUTATOR_LIBRARY=$2/libmalform_afl_mutator.so MALFORM_FINDINGS_DIR=$d/findings \
    /usr/bin/time -f "%U %S" -o "$d/time" "$AFL" -V "$SECS" -i "$WORK/seeds" -o "$d/out" -t 10000 \
    -- "$2/afl_structured" >"$d/log" 2>&1 || true
  echo "$(sed -nE 's/^execs_done *: *([0-9]+)/\1/p' "$d/out/default/fuzzer_stats" 2>/dev/null || echo 0) $(cpu_of "$d/time")"
}

read -r lf_execs lf_cpu <<<"$(run_lf lf "$FUZZ_BUILD/fuzz_structured")"

# bare core on the cases libFuzzer ran (and the target itself without sanitizers)
mkdir -p "$WORK/bare-findings"
bare=$(MALFORM_FINDINGS_DIR=$WORK/bare-findings "$DEFAULT_BUILD/bench_structured" "$WORK/lf/corpus" "${BENCH_SECS:-5}" 2>/dev/null)

read -r afl_execs afl_cpu <<<"$(run_afl afl "$AFL_BUILD")"
read -r afla_execs afla_cpu <<<"$(run_afl afl-asan "$AFL_ASAN_BUILD")"
lfp_execs=0 lfp_cpu=0
[ -x "$FUZZ_PLAIN_BUILD/fuzz_structured" ] && read -r lfp_execs lfp_cpu <<<"$(run_lf lf-plain "$FUZZ_PLAIN_BUILD/fuzz_structured")"

python3 - "$lf_execs" "$lf_cpu" "$afl_execs" "$afl_cpu" "$bare" "$SECS" "$afla_execs" "$afla_cpu" "$lfp_execs" "$lfp_cpu" <<'PY'
import json, sys
a = sys.argv
def rate(execs, cpu):
    execs, cpu = int(execs or 0), float(cpu or 0)
    return execs / cpu if cpu and execs else 0.0
lf, afl, afla, lfp = rate(a[1], a[2]), rate(a[3], a[4]), rate(a[7], a[8]), rate(a[9], a[10])
bare = json.loads(a[5])
ratio = lambda x, y: round(x / y, 3) if x and y else None
out = {"seconds": float(a[6]), "cases": bare["inputs"],
       "libfuzzer_structured_execs_per_cpu_sec": round(lf, 1),
       "structured_check_no_sanitizer_execs_per_cpu_sec": bare["structured_execs_per_sec"],
       "bare_core_execs_per_cpu_sec": bare["bare_core_execs_per_sec"],
       "libfuzzer_over_bare": ratio(lf, bare["bare_core_execs_per_sec"]),
       "afl_structured_execs_per_cpu_sec": round(afl, 1) if afl else None,
       "libfuzzer_over_afl": ratio(lf, afl),
       "like_for_like": {
           "afl_asan_ubsan_execs_per_cpu_sec": round(afla, 1) if afla else None,
           "libfuzzer_over_afl_asan_ubsan": ratio(lf, afla),
           "libfuzzer_no_sanitizer_execs_per_cpu_sec": round(lfp, 1) if lfp else None,
           "libfuzzer_no_sanitizer_over_afl": ratio(lfp, afl)}}
print(json.dumps(out))
PY
