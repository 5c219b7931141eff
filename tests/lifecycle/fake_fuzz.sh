#!/usr/bin/env bash
# fake_fuzz.sh - stands in for `malform fuzz` in the nightly tests (nightly
# --fuzz-cmd): takes the same arguments, "finds" FAKE_FINDS new inputs into
# WORKDIR/corpus-found one per FAKE_PACE seconds, writes stats.json, and runs
# for FAKE_SECONDS (default: --time); FAKE_FILL=1 first fills the disk;
# FAKE_WORKERS=N starts N background workers (like libFuzzer -fork's) and
# lists its own pid and theirs in WORKDIR/pids.
set -u
while [ $# -gt 0 ]; do
  case $1 in
    --engine) engine=$2; shift 2;; --target) target=$2; shift 2;; --time) time=$2; shift 2;;
    --workdir) workdir=$2; shift 2;; --corpus) corpus=$2; shift 2;; *) shift;;
  esac
done
mkdir -p "$workdir/corpus-found"
# FAKE_FILL=1: behave like an engine that fills the disk.
[ "${FAKE_FILL:-0}" = 1 ] && { dd if=/dev/zero of="$workdir/fill" bs=64k 2>/dev/null || true; }
if [ "${FAKE_WORKERS:-0}" -gt 0 ]; then
  for _ in $(seq 1 "$FAKE_WORKERS"); do sleep 300 & echo $! >> "$workdir/pids.tmp"; done
  echo $$ >> "$workdir/pids.tmp"
  mv "$workdir/pids.tmp" "$workdir/pids"
fi
secs=${FAKE_SECONDS:-$time}
finds=${FAKE_FINDS:-5}
end=$(( $(date +%s) + secs ))
i=0
while [ "$(date +%s)" -lt "$end" ] || [ $i -lt "$finds" ]; do
  if [ $i -lt "$finds" ]; then
    printf 'malform-case 1\nprofile: generic_yaml\n---\nfound: %s-%s-%d\n' "$engine" "$target" "$i" \
      > "$workdir/corpus-found/input-$i"
    i=$((i + 1))
  fi
  [ "$(date +%s)" -ge "$end" ] && [ $i -ge "$finds" ] && break
  sleep "${FAKE_PACE:-0.2}"
done
cat > "$workdir/stats.json" <<JSON
{"engine": "$engine", "target": "$target", "seconds": $secs, "execs": 1000, "execs_per_sec": 100,
 "coverage": {"edges": 10}, "rules_fired": {}, "ops_applied": {},
 "verdicts": {"idempotence": {"pass": 990, "fail": 0}, "no-data-loss": {"pass": 985, "fail": 5}},
 "failures": [], "timeline": []}
JSON
