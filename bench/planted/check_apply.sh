#!/usr/bin/env bash
# bench/planted/check_apply.sh - every planted-bug patch still applies to
# core as it is (a patch that no longer applies silently drops its bug from
# the evaluation: run.sh reports it as "no-apply"). Exit 1 naming the stale ones.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
bad=0 n=0
for p in bench/planted/*.patch; do
  n=$((n + 1))
  if ! git apply --check "$p" 2>/dev/null; then
    echo "stale: $p no longer applies to $(sed -n 's|^--- a/||p' "$p" | head -1)" >&2
    bad=$((bad + 1))
  fi
done
echo "planted patches: $n, $bad stale"
[ "$n" -gt 0 ] && [ "$bad" -eq 0 ]
