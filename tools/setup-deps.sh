#!/usr/bin/env bash
# Install what malform needs on Debian 12, by package name; does nothing when
# everything is already there. Used by tools/test.sh, tools/main-job.sh and CI.
set -euo pipefail
pkgs=(build-essential cmake pkg-config clang libclang-rt-14-dev libyaml-dev libjansson-dev
      libpcre2-dev libcmocka-dev afl++ python3 python3-venv python3-matplotlib python3-jinja2
      python3-pytest python3-yaml)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "setup-deps: installing ${missing[*]}"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
