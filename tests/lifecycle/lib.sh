# lib.sh - shared by the lifecycle tests: $1 malform, $2 planted_target, $3 this dir.
set -euo pipefail
MALFORM=$1
PLANTED=$2
HERE=$3
T=$(mktemp -d "${TMPDIR:-/tmp}/malform-lifecycle.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
# Run a command, keep its exit status in $rc without tripping set -e.
run() { set +e; "$@" >"$T/out" 2>&1; rc=$?; set -e; cat "$T/out"; }
count() { find "$1" -maxdepth 1 -type f \( -name '*.case' -o -name '*.raw' \) 2>/dev/null | wc -l; }
checksum() { (cd "$1" && find . -type f | sort | xargs -r sha256sum); }
# A campaign work dir with planted findings: two raw crashes (one bug), two
# AFL++ structured cases (one bug), AFL++'s README, a libFuzzer timeout.
plant_workdir() {
  local wd=$1
  mkdir -p "$wd/lf" "$wd/afl/main/crashes" "$wd/afl/s1/crashes" "$wd/afl/s1/hangs" "$wd/afl/main/queue"
  { for i in $(seq 1 40); do echo "noise line $i with some padding text"; done
    echo "PLANT-CRASH in the middle"
    for i in $(seq 1 30); do echo "more noise $i"; done; } > "$wd/lf/crash-1111"
  printf 'other\nPLANT-CRASH\n' > "$wd/lf/crash-2222"
  cat > "$wd/afl/main/crashes/id:000000,sig:06,src:000001,time:10,op:havoc,rep:4" <<'CASE'
malform-case 1
profile: prd
op: yaml.colon-space seed=11
op: cand.fence seed=7 tag=yaml
op: cand.prose-before seed=3
---
title: A long product title that goes on and on
summary: the boom and a long tail of explanatory text that does not matter
goals:
  - first goal with words
  - second goal with more words
owner: someone
stories:
  - id: S1
    text: a story
  - id: S2
    text: another story
CASE
  sed 's/op: cand.prose-before seed=3/op: json.trailing-comma seed=9/' \
    "$wd/afl/main/crashes/id:000000,sig:06,src:000001,time:10,op:havoc,rep:4" \
    > "$wd/afl/s1/crashes/id:000002,sig:06,src:000007"
  echo "AFL++ readme" > "$wd/afl/main/crashes/README.txt"
  echo "queue entry PLANT-CRASH is not a finding" > "$wd/afl/main/queue/id:000001"
  printf 'PLANT-HANG\n' > "$wd/lf/timeout-3333"
}
