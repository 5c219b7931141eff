#!/usr/bin/env bash
# fuzz_throughput.sh - how fast does the structured target fuzz, against
# AFL++ and against what core alone costs? Every figure comes from this one
# run, engines back to back, in execs per CPU second (user+sys of the engine
# and its children: on a shared machine wall-clock rates measure the
# neighbours), and the ratios are printed side by side:
#   all seeds (corpus/cases plus every corpus/seeds/<profile>/ artifact as a
#   zero-op case), as a campaign runs them:
#     libFuzzer fuzz_structured (fuzz preset, ASan+UBSan, custom mutator,
#     findings recorded with the ASAN_OPTIONS `malform fuzz` gives it);
#     AFL++ afl_structured with the custom mutator (afl preset, no
#     sanitizers: the goal's denominator, >= 0.3); AFL++ with ASan+UBSan
#     (afl-asan) and libFuzzer without sanitizers (fuzz-plain), when built;
#     bare core: mf_repair on the rendered cases libFuzzer ended with
#     (default build), and the target itself on them without sanitizers;
#   same profile: the engines again from the seeds of one profile only
#     ($SAME_PROFILE, default investor_decision). In a short run AFL++ works
#     through its first queue entries and stays in one or two profiles,
#     while libFuzzer spreads over all 14, whose execs cost 10x apart: the
#     all-seeds ratio compares different inputs, this one the engines;
#   workload: the CPU per input of libFuzzer's final corpus and of AFL++'s
#     queue, both replayed once through the same ASan fuzz_structured, and
#     libFuzzer/AFL++ corrected by their ratio (a corpus is not exactly the
#     executed mix: an estimate beside the measured same-profile figure).
# The load average is printed before and after.
# usage: bench/fuzz_throughput.sh [SECONDS]   (default 20 per engine run)
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

SAME_PROFILE=${SAME_PROFILE:-investor_decision}
mkdir -p "$WORK/same"
grep -l "^profile: $SAME_PROFILE\$" "$WORK"/seeds/* | xargs -r cp -t "$WORK/same"
[ -n "$(ls "$WORK/same")" ] || { echo "no seed of profile $SAME_PROFILE" >&2; exit 2; }

cpu_of() {  # file written by /usr/bin/time -f "%U %S"
  awk '{print $1 + $2}' "$1"
}

# libFuzzer, in-process (no -fork), findings recorded (the campaign setting):
# run_lf NAME BINARY SEEDS prints "execs cpu_seconds" ("0 0" when not built)
run_lf() {
  local d=$WORK/$1
  [ -x "$2" ] || { echo "0 0"; return; }
  mkdir -p "$d/corpus" "$d/findings"
  cp "$3"/* "$d/corpus/"
  MALFORM_FINDINGS_DIR=$d/findings ASAN_OPTIONS=abort_on_error=1:detect_leaks=1:dedup_token_length=3:malloc_context_size=0 \
    /usr/bin/time -f "%U %S" -o "$d/time" "$2" -max_total_time="$SECS" -seed=1 \
    -max_len=65536 -timeout=10 -reload=0 -use_counters=0 -print_final_stats=1 -artifact_prefix="$d/" "$d/corpus" >"$d/log" 2>&1 || true
  echo "$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+)/\1/p' "$d/log" | tail -1) $(cpu_of "$d/time")"
}

# AFL++ with the custom mutator and a fixed seed (-s 1, as libFuzzer's
# -seed=1): which profiles its first queue entries hold moved its rate 3x
# between runs. run_afl NAME BUILD SEEDS prints "execs cpu_seconds" ("0 0" when not built)
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
    /usr/bin/time -f "%U %S" -o "$d/time" "$AFL" -V "$SECS" -s 1 -i "$3" -o "$d/out" -t 10000 \
    -- "$2/afl_structured" >"$d/log" 2>&1 || true
  echo "$(sed -nE 's/^execs_done *: *([0-9]+)/\1/p' "$d/out/default/fuzzer_stats" 2>/dev/null || echo 0) $(cpu_of "$d/time")"
}

# CPU seconds per input of the files in DIR, each run twice in one process
# of the ASan target, less the process' start (a run of one file): replay_cost DIR
replay_cost() {
  local dir=$1 bin=$FUZZ_BUILD/fuzz_structured
  [ -d "$dir" ] && [ -n "$(ls "$dir")" ] || { echo 0; return; }
  mkdir -p "$WORK/replay-findings"
  local one all n
  one=$(cd "$dir" && MALFORM_FINDINGS_DIR=$WORK/replay-findings /usr/bin/time -f "%U %S" -o "$WORK/t1" \
        "$bin" -runs=1 "$(ls | head -1)" >/dev/null 2>&1; cpu_of "$WORK/t1")
  n=$(cd "$dir" && MALFORM_FINDINGS_DIR=$WORK/replay-findings ASAN_OPTIONS=detect_leaks=1:malloc_context_size=0 \
      /usr/bin/time -f "%U %S" -o "$WORK/t2" "$bin" -runs=2 -timeout=10 $(ls | head -3000) 2>&1 | grep -c '^Executed')
  all=$(cpu_of "$WORK/t2")
  python3 -c "import sys; n, a, o = map(float, sys.argv[1:]); print(max(a - o, 0) / n if n else 0)" "$n" "$all" "$one"
}

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
read -r lf_execs lf_cpu <<<"$(run_lf lf "$FUZZ_BUILD/fuzz_structured" "$WORK/seeds")"

# bare core on the cases libFuzzer ran (and the target itself without sanitizers)
mkdir -p "$WORK/bare-findings"
bare=$(MALFORM_FINDINGS_DIR=$WORK/bare-findings "$DEFAULT_BUILD/bench_structured" "$WORK/lf/corpus" "${BENCH_SECS:-5}" 2>/dev/null)

read -r afl_execs afl_cpu <<<"$(run_afl afl "$AFL_BUILD" "$WORK/seeds")"
read -r afla_execs afla_cpu <<<"$(run_afl afl-asan "$AFL_ASAN_BUILD" "$WORK/seeds")"
read -r lfp_execs lfp_cpu <<<"$(run_lf lf-plain "$FUZZ_PLAIN_BUILD/fuzz_structured" "$WORK/seeds")"
read -r slf_execs slf_cpu <<<"$(run_lf same-lf "$FUZZ_BUILD/fuzz_structured" "$WORK/same")"
read -r safl_execs safl_cpu <<<"$(run_afl same-afl "$AFL_BUILD" "$WORK/same")"
read -r safla_execs safla_cpu <<<"$(run_afl same-afl-asan "$AFL_ASAN_BUILD" "$WORK/same")"
cost_lf=$(replay_cost "$WORK/lf/corpus")
cost_afl=$(replay_cost "$WORK/afl/out/default/queue")
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

python3 - "$SECS" "$SAME_PROFILE" "$bare" "$cost_lf" "$cost_afl" "$load_before" "$load_after" \
  "$lf_execs" "$lf_cpu" "$afl_execs" "$afl_cpu" "$afla_execs" "$afla_cpu" "$lfp_execs" "$lfp_cpu" \
  "$slf_execs" "$slf_cpu" "$safl_execs" "$safl_cpu" "$safla_execs" "$safla_cpu" <<'PY'
import json, sys
a = sys.argv
secs, same, bare, cost_lf, cost_afl = float(a[1]), a[2], json.loads(a[3]), float(a[4]), float(a[5])
def rate(execs, cpu):
    execs, cpu = int(execs or 0), float(cpu or 0)
    return round(execs / cpu, 1) if cpu and execs else None
lf, afl, afla, lfp, slf, safl, safla = (rate(a[i], a[i + 1]) for i in range(8, 22, 2))
def ratio(x, y):
    return round(x / y, 3) if x and y else None
factor = round(cost_lf / cost_afl, 2) if cost_lf and cost_afl else None
out = {"seconds": secs, "cases": bare["inputs"], "load_before": a[6], "load_after": a[7],
       "execs_per_cpu_sec": {
           "all_seeds": {"libfuzzer_asan_ubsan": lf, "afl": afl, "afl_asan_ubsan": afla,
                         "libfuzzer_no_sanitizer": lfp,
                         "structured_check_no_sanitizer": bare["structured_execs_per_sec"],
                         "bare_core": bare["bare_core_execs_per_sec"]},
           "same_profile": {"profile": same, "libfuzzer_asan_ubsan": slf, "afl": safl, "afl_asan_ubsan": safla}},
       "ratios": {
           "libfuzzer_over_afl": ratio(lf, afl),
           "libfuzzer_over_afl_asan_ubsan": ratio(lf, afla),
           "libfuzzer_no_sanitizer_over_afl": ratio(lfp, afl),
           "libfuzzer_over_bare": ratio(lf, bare["bare_core_execs_per_sec"]),
           "same_profile_libfuzzer_over_afl": ratio(slf, safl),
           "same_profile_libfuzzer_over_afl_asan_ubsan": ratio(slf, safla),
           "workload_cost_libfuzzer_over_afl_per_input": factor,
           "workload_corrected_libfuzzer_over_afl": round(ratio(lf, afl) * factor, 3) if ratio(lf, afl) and factor else None},
       "replay_cpu_ms_per_input": {"libfuzzer_corpus": round(cost_lf * 1000, 3), "afl_queue": round(cost_afl * 1000, 3)}}
rows = [("all seeds", lf, afl, afla, lfp, ratio(lf, afl), ratio(lf, afla), ratio(lfp, afl)),
        ("same profile (%s)" % same, slf, safl, safla, None, ratio(slf, safl), ratio(slf, safla), None)]
fmt = lambda v: "-" if v is None else (f"{v:,.0f}" if v >= 10 else f"{v:.3f}")
print(f"load {a[6]} -> {a[7]}; execs per CPU second, {secs:.0f} s per run")
print("%-32s %9s %9s %9s %9s %9s %9s %9s" % ("", "lf-asan", "afl", "afl-asan", "lf-plain", "lf/afl", "lf/afla", "lfp/afl"))
for r in rows:
    print("%-32s %9s %9s %9s %9s %9s %9s %9s" % ((r[0],) + tuple(fmt(v) for v in r[1:])))
print(f"replay ms/input (ASan target): libFuzzer corpus {cost_lf * 1000:.3f}, AFL++ queue {cost_afl * 1000:.3f}"
      f" (x{factor}); workload-corrected lf/afl {out['ratios']['workload_corrected_libfuzzer_over_afl']};"
      f" lf over bare core {out['ratios']['libfuzzer_over_bare']}")
print(json.dumps(out))
PY
