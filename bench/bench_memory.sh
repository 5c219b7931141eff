#!/usr/bin/env bash
# bench_memory.sh MALFORM [WORKDIR] - time and peak RSS of `malform repair
# --output result` on 1, 10 and 50 MB inputs of every shape (malformed,
# clean, node-dense, pathological). Prints, per run, CPU seconds (user +
# system: steadier than wall time on a shared machine), peak RSS, RSS over
# input size (the bound is 16x plus a constant) and a linearity ratio: CPU
# seconds per MB against the same shape's 1 MB run measured in this run
# (1.0 = linear). A 50 MB input of short items passes the 4M-node cap and is
# rejected early (TOO_MANY_NODES), which shows as a ratio well under 1. MALFORM_BENCH_SIZES overrides the sizes (MB, space-separated).
set -euo pipefail
MALFORM=$1
W=${2:-$(mktemp -d "${TMPDIR:-/tmp}/malform-bench-memory.XXXXXX")}
mkdir -p "$W"
SIZES=${MALFORM_BENCH_SIZES:-1 10 50}
SHAPES="malformed-quotes-short malformed-quotes missing-colon-space clean node-dense empty-lists json-trailing-commas deep-nesting binary"

gen() { # shape bytes file
  python3 - "$1" "$2" "$3" <<'PY'
import sys
shape, size, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
def lines(f):
    out, n, i = [], 0, 0
    while n < size:
        s = f(i); out.append(s); n += len(s); i += 1
    return "".join(out)
if shape == "malformed-quotes-short": t = '- "v\n' * (size // 5)
elif shape == "malformed-quotes": t = lines(lambda i: '- "item %06d\n' % i)
elif shape == "missing-colon-space": t = lines(lambda i: ("key%06d:value %d\n" if i % 3 else "key%06d: value %d\n") % (i, i))
elif shape == "clean": t = lines(lambda i: "- id: %d\n  name: text %d\n" % (i, i))
elif shape == "node-dense": t = "- a\n" * (size // 4)
elif shape == "empty-lists": t = "- []\n" * (size // 5)
elif shape == "json-trailing-commas": t = "[" + lines(lambda i: '{"id": %d, "name": "n%d",},\n' % (i, i)) + "{}]\n"
elif shape == "deep-nesting": t = "[" * size
elif shape == "binary": t = "\0\0\0\0\0\0\n" * (size // 7)
open(path, "w").write(t)
PY
}

measure() { # file -> "seconds rss_kb status"
  local out st
  /usr/bin/time -o "$W/time" -f "%U+%S %M" "$MALFORM" repair --output result "$1" >"$W/result.json" 2>/dev/null || true
  read -r cpu kb < <(tail -1 "$W/time")
  out="$(python3 -c "print(round($cpu, 2))") $kb"
  st=$(python3 -c 'import json,sys
try:
    r = json.load(open(sys.argv[1])); print(r["status"] if r["status"] == "accepted" else r["error"]["type"])
except Exception: print("no-result")' "$W/result.json")
  echo "$out $st"
}

printf '%-24s %5s %9s %10s %8s %8s  %s\n' shape MB cpu-s peak-MB rss/in s/MB-vs-1 result
for shape in $SHAPES; do
  base=""
  for mb in $SIZES; do
    f="$W/$shape-$mb.in"
    gen "$shape" $((mb * 1000000)) "$f"
    read -r secs kb status < <(measure "$f")
    bytes=$(stat -c %s "$f")
    per=$(python3 -c "print(max($secs, 0.01) / $mb)")
    [ -z "$base" ] && base=$per
    printf '%-24s %5s %9s %10.1f %7.1fx %8.2f  %s\n' "$shape" "$mb" "$secs" \
      "$(python3 -c "print($kb / 1024)")" "$(python3 -c "print($kb * 1024 / $bytes)")" \
      "$(python3 -c "print($per / $base)")" "$status"
    rm -f "$f"
  done
done
# Pathological inputs of a fixed size and unbounded sources.
python3 - "$W/laughs.yaml" <<'PY'
import sys
s = 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
for p, n in zip("abcdefghi", "bcdefghij"):
    s += '%s: &%s [%s]\n' % (n, n, ", ".join(["*" + p] * 9))
open(sys.argv[1], "w").write(s)
PY
read -r secs kb status < <(measure "$W/laughs.yaml")
printf '%-24s %5s %9s %10.1f %8s %8s  %s\n' alias-bomb "$(stat -c %s "$W/laughs.yaml")B" "$secs" "$(python3 -c "print($kb / 1024)")" - - "$status"
read -r secs kb status < <(measure /dev/zero)
printf '%-24s %5s %9s %10.1f %8s %8s  %s\n' /dev/zero - "$secs" "$(python3 -c "print($kb / 1024)")" - - "$status"
[ -z "${2:-}" ] && rm -rf "$W"
exit 0
