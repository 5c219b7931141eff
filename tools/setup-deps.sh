#!/usr/bin/env bash
# Install what malform needs on Debian 12, by package name; does nothing when
# everything is already there. Used by tools/test.sh, tools/main-job.sh and CI.
# Then the third-party JavaScript pipelines: `npm ci` from the committed lock
# file into harness/pipelines/node/node_modules (project-local, never committed).
set -euo pipefail
cd "$(dirname "$0")/.."
pkgs=(build-essential cmake pkg-config clang libclang-rt-14-dev libyaml-dev libjansson-dev
      libpcre2-dev libcmocka-dev afl++ python3 python3-venv python3-matplotlib python3-jinja2
      python3-pytest python3-yaml python3-jsonschema)
command -v node >/dev/null 2>&1 || pkgs+=(nodejs)
command -v npm >/dev/null 2>&1 || pkgs+=(npm)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup-deps: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
node_dir=harness/pipelines/node
stamp="$node_dir/node_modules/.malform-lock"
if [ -f "$node_dir/package-lock.json" ] && ! cmp -s "$node_dir/package-lock.json" "$stamp" 2>/dev/null; then
  echo "setup-deps: npm ci in $node_dir"
  (cd "$node_dir" && npm ci --no-audit --no-fund --loglevel=error && cp package-lock.json node_modules/.malform-lock)
fi
exit 0
