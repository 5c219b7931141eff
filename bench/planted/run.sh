#!/usr/bin/env bash
# bench/planted/run.sh - bug-based evaluation of the fuzzers: each
# bench/planted/NN-name.patch is a realistic mistake planted in core (first
# line: what the mistake is). The source tree is copied once to a temp dir
# (never the repo) and built once (fuzz preset); for each bug: apply the
# patch, rebuild incrementally, fuzz SECONDS with `malform fuzz` on the structured and on the raw
# target, and count the bug found when a recorded finding fails on the
# patched build but passes on the unpatched one (build/default replay
# drivers; build/fuzz for sanitizer crashes): the known failures of HEAD do not count. Optionally (CTEST=1)
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
# A recorded finding carries a header up to its first "---" line and is
# replayed by the default build's driver; an engine artifact (a sanitizer
# crash) is the payload itself and is run by the unpatched sanitizer build
# ($ROOT/build/fuzz), since the default build does not see what ASan sees.
new_finding() {
  local f=$1 target=$2 payload=$WORK/payload drv
  if head -1 "$f" | grep -q '^malform-regression'; then
    sed '1,/^---$/d' "$f" >"$payload"
    drv=$ROOT/build/default/replay_$target
  else
    cp "$f" "$payload"
    drv=$ROOT/build/fuzz/fuzz_$target
    [ -x "$drv" ] || return 1
  fi
  # in a shell of its own, so that an abort is not reported on our stderr
  timeout 30 sh -c '"$0" "$1" >/dev/null 2>&1' "$drv" "$payload" 2>/dev/null
}

# one copy of the tree, built once; each bug is patched in, rebuilt
# incrementally (one object and the links), fuzzed, and reverted
src=$WORK/src
snapshot "$src"
if ! (cd "$src" && cmake --preset fuzz >"$WORK/cmake.log" 2>&1 &&
      cmake --build --preset fuzz -j2 --target fuzz_structured fuzz_raw >>"$WORK/cmake.log" 2>&1); then
  echo "the unpatched copy does not build: $WORK/cmake.log" >&2
  exit 2
fi
if [ "$CTEST" = 1 ] && ! (cd "$src" && cmake --preset default >"$WORK/ctest-build.log" 2>&1 &&
                          cmake --build --preset default -j2 >>"$WORK/ctest-build.log" 2>&1); then
  echo "the unpatched copy does not build (default preset): $WORK/ctest-build.log" >&2
  exit 2
fi

# one column per target of TARGETS, in that order
read -r -a TLIST <<<"$TARGETS"
printf '%-26s %-16s %-16s %-8s %s\n' bug "${TLIST[0]:--}" "${TLIST[1]:--}" ctest description
declare -A found_all=()
total=0
for bug in "${BUGS[@]}"; do
  patch=$ROOT/bench/planted/$bug.patch
  desc=$(head -1 "$patch")
  if ! (cd "$src" && patch -p1 -s --dry-run <"$patch" >"$WORK/$bug.patch.log" 2>&1 && patch -p1 -s <"$patch"); then
    printf '%-26s %-16s %-16s %-8s %s\n' "$bug" "no-apply" "-" "-" "$desc"
    continue
  fi
  if ! (cd "$src" && cmake --build --preset fuzz -j2 --target fuzz_structured fuzz_raw >"$WORK/$bug.cmake.log" 2>&1); then
    printf '%-26s %-16s %-16s %-8s %s\n' "$bug" "no-build" "-" "-" "$desc"
    (cd "$src" && patch -p1 -R -s <"$patch")
    continue
  fi
  res=()
  for target in $TARGETS; do
    hits=0 times=""
    for t in $(seq 1 "$TRIALS"); do
      wd=$WORK/$bug/$target-$t
      mkdir -p "$wd"
      start=$(date +%s)
      MALFORM_ROOT=$ROOT "$MALFORM" fuzz --engine libfuzzer --target "$target" --time "$SECS" --jobs 1 --workdir "$wd" \
        --build "$src/build/fuzz" >"$wd.log" 2>&1
      first=""
      for f in $(ls -tr "$wd/findings"/* "$wd/artifacts"/* 2>/dev/null); do
        if new_finding "$f" "$target"; then
          first=$(( $(stat -c %Y "$f") - start ))
          echo "$bug $target trial $t: $f" >>"$WORK/found.txt"
          break
        fi
      done
      if [ -n "$first" ]; then
        hits=$((hits + 1))
        times="$times${times:+,}${first}s"
      fi
    done
    res+=("$hits/$TRIALS${times:+ $times}")
    [ "$hits" = "$TRIALS" ] && found_all[$target]=$(( ${found_all[$target]:-0} + 1 ))
  done
  verdict=-
  if [ "$CTEST" = 1 ]; then
    if (cd "$src" && cmake --build --preset default -j2 >>"$WORK/$bug.ctest.log" 2>&1 &&
        ctest --preset default >>"$WORK/$bug.ctest.log" 2>&1); then verdict=pass; else verdict=FAIL; fi
  fi
  (cd "$src" && patch -p1 -R -s <"$patch")
  total=$((total + 1))
  printf '%-26s %-16s %-16s %-8s %s\n' "$bug" "${res[0]:--}" "${res[1]:--}" "$verdict" "$desc"
done
for target in "${TLIST[@]}"; do
  echo "$target fuzzing found ${found_all[$target]:-0} of $total bugs in every trial (${SECS}s per run, $TRIALS trial(s))"
done
if [ "${KEEP:-0}" = 1 ]; then
  echo "kept: $WORK (found.txt lists the first new finding of each trial)"
fi
