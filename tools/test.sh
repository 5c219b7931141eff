#!/usr/bin/env bash
# The test command: install dependencies, build the default (gcc) and sanitize
# (clang ASan+UBSan) presets, run the whole ctest suite in both, then the
# Python report tests. Exit non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup-deps.sh
for preset in default sanitize; do
  echo "== build: $preset"
  cmake --preset "$preset" >/dev/null
  cmake --build --preset "$preset" -j2
  echo "== test: $preset"
  ctest --preset "$preset"
done
if [ -d reports/tests ]; then
  echo "== test: reports (python)"
  tools/python-env.sh >/dev/null
  .venv/bin/python -m pytest -q reports/tests
  echo "== test: pipeline adapters (python + node; skipped when node or the npm packages are missing)"
  .venv/bin/python -m pytest -q -p no:cacheprovider harness/pipelines/examples
fi
