#!/usr/bin/env bash
# The main job: a short nightly campaign on the shipped corpus, ending in a
# report. Installs dependencies, builds the CLI (the nightly builds the fuzz
# and afl presets itself), fuzzes both engines for MINUTES (default 4), triages
# into corpus/regression and writes WORKDIR/report/report.html. One line per
# phase as it goes; the output of setup and cmake stays in WORKDIR/logs/.
# Exit: the nightly's (0 no new signature, 1 new reproducible signature, ...).
set -uo pipefail
cd "$(dirname "$0")/.."
minutes="${1:-4}"
workdir="${MALFORM_WORKDIR:-fuzz-out/main}"
logs="$workdir/logs"
mkdir -p "$logs" || exit 2
say() { echo "main-job: $*"; }
# step NAME LOG CMD...: run CMD with its output in LOG, say how it went.
step() {
  local name=$1 log=$2 t0=$SECONDS
  shift 2
  say "$(printf '%-7s' "$name") $* (output in $log)"
  if "$@" >>"$log" 2>&1; then
    say "$(printf '%-7s' "$name") ok  $((SECONDS - t0))s"
  else
    local rc=$?
    say "$(printf '%-7s' "$name") FAILED (exit $rc) after $((SECONDS - t0))s; last lines of $log:" >&2
    tail -n 5 "$log" | sed 's/^/  | /' >&2
    exit 2
  fi
}
: >"$logs/setup.log"
: >"$logs/build-default.log"
step setup "$logs/setup.log" tools/setup-deps.sh
step build "$logs/build-default.log" cmake --preset default
step build "$logs/build-default.log" cmake --build --preset default -j2
engines=libfuzzer
command -v afl-fuzz >/dev/null && engines=libfuzzer,afl
say "nightly --budget $minutes --engines $engines --workdir $workdir"
build/default/harness/malform nightly --budget "$minutes" --engines "$engines" --workdir "$workdir"
rc=$?
echo
if [ -f "$workdir/report/report.html" ]; then
  case $workdir in /*) report=$workdir/report ;; *) report=$PWD/$workdir/report ;; esac
  say "report: $report/report.html"
  [ -f "$workdir/report/summary.md" ] && cat "$workdir/report/summary.md"
else
  say "no report was written (nightly exit $rc); see $workdir" >&2
fi
# New regression entries are files git does not know yet: say what to do.
if command -v git >/dev/null && git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  new=$(git status --porcelain --untracked-files=all -- corpus/regression | sed -n 's/^?? //p')
  if [ -n "$new" ]; then
    say "new untracked files in corpus/regression/ ($(echo "$new" | wc -l)):"
    echo "$new" | sed 's/^/  /'
    say "each is a minimized input that makes the pipeline fail today (status: open);"
    say "  see it fail:   build/default/harness/malform replay FILE"
    say "  keep it:       git add corpus/regression && git commit (every test run then replays it)"
    say "  once fixed:    change 'status: open' to 'status: fixed' in the file"
  else
    say "no new files in corpus/regression/"
  fi
fi
exit $rc
