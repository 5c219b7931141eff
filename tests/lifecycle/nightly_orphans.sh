#!/usr/bin/env bash
# nightly: `kill -9` of malform mid-run leaves no child behind: neither the
# fuzz command it started nor that command's own background workers
# (process group + PR_SET_PDEATHSIG + the guard process, lc_proc.c).
source "$3/lib.sh"
WD=$T/nightly
mkdir -p "$WD" "$T/reg"
FAKE_SECONDS=120 FAKE_WORKERS=3 "$MALFORM" nightly --budget 5 --engines libfuzzer --targets structured \
  --workdir "$WD" --regression "$T/reg" --fuzz-cmd "bash $HERE/fake_fuzz.sh" >"$T/out" 2>&1 &
pid=$!
pids=$WD/runs/libfuzzer-structured/pids
for _ in $(seq 1 100); do [ -s "$pids" ] && break; sleep 0.1; done
[ -s "$pids" ] || { cat "$T/out"; fail "the fake fuzzer never started its workers"; }
alive() { # a live (not zombie) process
  local st
  st=$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null) || return 1
  [ -n "$st" ] && [ "$st" != Z ]
}
for p in $(cat "$pids"); do alive "$p" || fail "worker $p not running before the kill"; done
kill -9 "$pid"
wait "$pid" 2>/dev/null || true
for _ in $(seq 1 100); do
  left=""
  for p in $(cat "$pids"); do alive "$p" && left="$left $p"; done
  [ -z "$left" ] && break
  sleep 0.1
done
[ -z "$left" ] || { ps -o pid,ppid,pgid,stat,cmd -p "$(echo $left | tr " " ,)" >&2 || true; kill -9 $left 2>/dev/null; fail "survivors after kill -9:$left"; }
echo "no survivor after kill -9 of malform nightly ($(wc -w < "$pids") processes checked)"
