#!/usr/bin/env bash
# Create .venv (Debian's python3 with system site packages: matplotlib, jinja2,
# pytest come from apt, not PyPI) and print its python path.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/python ]; then
  /usr/bin/python3 -m venv --system-site-packages .venv
fi
.venv/bin/python -c "import matplotlib, jinja2, pytest" 2>/dev/null || {
  echo "python-env: matplotlib/jinja2/pytest missing: run tools/setup-deps.sh" >&2; exit 2; }
echo "$PWD/.venv/bin/python"
