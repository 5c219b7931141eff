#!/usr/bin/env bash
# bench/planted/run.sh - bug-based evaluation of the fuzzers: each
# bench/planted/NN-name.patch is a realistic mistake planted in core (first
# line: what the mistake is). For each bug: copy the source tree to a temp
# dir (never the repo), apply the patch, build the libFuzzer targets (fuzz
# preset), fuzz SECONDS with `malform fuzz` on the structured and on the raw
# target, and count the bug found when a recorded finding fails on the
# patched build but passes on the unpatched one (build/default replay
# drivers): the known failures of HEAD do not count. Optionally (CTEST=1)
# build the default preset of the copy and run ctest.
#
# usage: bench/planted/run.sh [SECONDS] [BUG...]   (default 60, every bug)
# env:   TRIALS=n (default 1), TARGETS="structured raw", CTEST=0|1 (default 1),
#        KEEP=1 keeps the temp dir. Needs build/default (malform, replay_*).
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SECS=${1:-60}
shift || true
TRIALS=${TRIALS:-1}
TARGETS=${TARGETS:-structured raw}
CTEST=${CTEST:-1}
MALFORM=$ROOT/build/default/harness/malform
for b in "$MALFORM" "$ROOT/build/default/replay_structured" "$ROOT/build/default/replay_raw"; do
  [ -x "$b" ] || { echo "missing $b: cmake --preset default && cmake --build --preset default" >&2; exit 2; }
done
BUGS=("$@")
[ ${#BUGS[@]} -gt 0 ] || BUGS=($(cd "$ROOT/bench/planted" && ls *.patch | sed 's/\.patch$//'))
WORK=$(mktemp -d "${TMPDIR:-/tmp}/malform-planted.XXXXXX")
[ "${KEEP:-0}" = 1 ] || trap 'rm -rf "$WORK"' EXIT

# the source tree as it is (tracked and new files, no build output)
snapshot() {
  mkdir -p "$1"
  (cd "$ROOT" && git ls-files -co --exclude-standard -z | grep -zv '^build/' | xargs -0 cp --parents -t "$1" 2>/dev/null)
}

# did the unpatched build pass this finding's payload? (then the bug made it)
new_finding() {
  local f=$1 payload=$WORK/payload
  sed '1,/^---$/d' "$f" >"$payload"
  local drv=$ROOT/build/default/replay_structured
  case "$f" in *.raw) drv=$ROOT/build/default/replay_raw ;; esac
  ("$drv" "$payload") >/dev/null 2>&1
}

printf '%-26s %-12s %-12s %-8s %s\n' bug structured raw ctest description
found_s=0 total=0
for bug in "${BUGS[@]}"; do
  patch=$ROOT/bench/planted/$bug.patch
  desc=$(head -1 "$patch")
  src=$WORK/$bug/src
  rm -rf "$WORK/$bug"
  snapshot "$src"
  if ! (cd "$src" && patch -p1 -s <"$patch" >"$WORK/$bug.patch.log" 2>&1); then
    printf '%-26s %-12s %-12s %-8s %s\n' "$bug" "no-apply" "-" "-" "$desc"
    continue
  fi
  if ! (cd "$src" && cmake --preset fuzz >"$WORK/$bug.cmake.log" 2>&1 &&
        cmake --build --preset fuzz -j2 --target fuzz_structured fuzz_raw >>"$WORK/$bug.cmake.log" 2>&1); then
    printf '%-26s %-12s %-12s %-8s %s\n' "$bug" "no-build" "-" "-" "$desc"
    continue
  fi
  res=()
  for target in $TARGETS; do
    hits=0 best=""
    for t in $(seq 1 "$TRIALS"); do
      wd=$WORK/$bug/$target-$t
      start=$(date +%s)
      MALFORM_ROOT=$ROOT "$MALFORM" fuzz --engine libfuzzer --target "$target" --time "$SECS" --jobs 1 --workdir "$wd" \
        --build "$src/build/fuzz" >"$wd.log" 2>&1
      first=""
      for f in $(ls -tr "$wd/findings" 2>/dev/null); do
        if new_finding "$wd/findings/$f"; then
          first=$(( $(stat -c %Y "$wd/findings/$f") - start ))
          break
        fi
      done
      if [ -n "$first" ]; then
        hits=$((hits + 1))
        [ -z "$best" ] || [ "$first" -lt "$best" ] && best=$first
      fi
    done
    res+=("$hits/$TRIALS${best:+ ${best}s}")
    [ "$target" = structured ] && [ "$hits" = "$TRIALS" ] && found_s=$((found_s + 1))
  done
  verdict=-
  if [ "$CTEST" = 1 ]; then
    if (cd "$src" && cmake --preset default >"$WORK/$bug.ctest.log" 2>&1 && cmake --build --preset default -j2 >>"$WORK/$bug.ctest.log" 2>&1 &&
        ctest --preset default >>"$WORK/$bug.ctest.log" 2>&1); then verdict=pass; else verdict=FAIL; fi
  fi
  total=$((total + 1))
  printf '%-26s %-12s %-12s %-8s %s\n' "$bug" "${res[0]:--}" "${res[1]:--}" "$verdict" "$desc"
  rm -rf "$src/build"
done
echo "structured fuzzing found $found_s of $total bugs in every trial (${SECS}s per run, $TRIALS trial(s))"
