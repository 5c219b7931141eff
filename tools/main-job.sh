#!/usr/bin/env bash
# The main job: a short nightly campaign on the shipped corpus, ending in a
# report. Installs dependencies, builds the CLI (the nightly builds the fuzz
# and afl presets itself), fuzzes both engines for MINUTES (default 4), triages
# into corpus/regression and writes WORKDIR/report/report.html.
# Exit: the nightly's (0 no new signature, 1 new reproducible signature, ...).
set -uo pipefail
cd "$(dirname "$0")/.."
minutes="${1:-4}"
workdir="${MALFORM_WORKDIR:-fuzz-out/main}"
tools/setup-deps.sh || exit 2
cmake --preset default >/dev/null && cmake --build --preset default -j2 || exit 2
engines=libfuzzer
command -v afl-fuzz >/dev/null && engines=libfuzzer,afl
build/default/harness/malform nightly --budget "$minutes" --engines "$engines" --workdir "$workdir"
rc=$?
echo
if [ -f "$workdir/report/report.html" ]; then
  echo "report: $PWD/$workdir/report/report.html"
  [ -f "$workdir/report/summary.md" ] && cat "$workdir/report/summary.md"
else
  echo "main-job: no report was written (nightly exit $rc); see $workdir" >&2
fi
exit $rc
