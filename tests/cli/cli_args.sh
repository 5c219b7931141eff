#!/usr/bin/env bash
# cli_args.sh MALFORM - every `malform` subcommand reads its command line the
# same way: -h/--help prints the usage on stdout (exit 0); an unknown option,
# a missing value or a bad number prints the reason and the usage on stderr
# (exit 2); --opt=value and `--` work; a missing WORKDIR/path is exit 2.
set -uo pipefail
M=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
T=$(mktemp -d "${TMPDIR:-/tmp}/malform-cli.XXXXXX")
trap 'rm -rf "$T"' EXIT
fails=0
pass=0
expect() { # expect RC WHAT CMD...: run CMD, compare its exit code
    local want=$1 what=$2; shift 2
    "$@" >"$T/out" 2>"$T/err" </dev/null
    local rc=$?
    if [ "$rc" -ne "$want" ]; then
        echo "FAIL: $what: '$*' exited $rc, want $want"; sed 's/^/  stderr: /' "$T/err" | head -5
        fails=$((fails + 1))
        return 1
    fi
    pass=$((pass + 1))
}
grep_in() { # grep_in FILE PATTERN WHAT
    if grep -q -- "$2" "$T/$1"; then pass=$((pass + 1)); else
        echo "FAIL: $3: $1 lacks '$2'"; sed 's/^/  /' "$T/$1" | head -5; fails=$((fails + 1)); fi
}

# Every command `malform --help` lists, present and future.
cmds=$("$M" --help | awk '/^  [a-z]/ {print $1}')
[ -n "$cmds" ] || { echo "FAIL: malform --help lists no command"; exit 1; }
for c in $cmds; do
    for h in -h --help; do
        expect 0 "$c $h" "$M" "$c" "$h" && grep_in out "usage" "$c $h on stdout"
    done
    expect 2 "$c unknown option" "$M" "$c" --no-such-option-xyz && grep_in err "usage" "$c: usage on stderr"
done

# The C commands: reason, usage and the help pointer.
for c in repair rules profiles ops render check ingest retry-prompt triage replay fuzz nightly; do
    expect 2 "$c bad option" "$M" "$c" --no-such-option-xyz
    grep_in err "malform $c: unknown or ambiguous option '--no-such-option-xyz'" "$c reason"
    grep_in err "^usage: malform $c" "$c usage"
done
expect 2 "missing value" "$M" check --profile
grep_in err "option '--profile' needs a value" "missing value reason"
expect 2 "value to a flag" "$M" rules --json=yes
grep_in err "option '--json' takes no value" "flag value reason"
expect 2 "bad number" "$M" replay --timeout=soon "$T"
grep_in err "--timeout wants a whole number" "bad number reason"
expect 2 "bad budget" "$M" nightly --budget=-1
expect 2 "no budget" "$M" nightly
grep_in err "--budget MINUTES" "no budget reason"
expect 2 "unknown short option" "$M" replay -q
grep_in err "unknown option '-q'" "short option reason"

# --opt=value, operands after options, and `--` before an operand that looks like an option.
printf 'a: 1\n' > "$T/-odd.yaml"
expect 0 "--opt=value" "$M" repair --profile=generic_yaml --output=json "$T/-odd.yaml"
grep_in out '"a": 1' "--opt=value output"
(cd "$T" && "$M" repair --output json -- -odd.yaml >out 2>err </dev/null); rc=$?
if [ $rc -eq 0 ] && grep -q '"a": 1' "$T/out"; then pass=$((pass + 1)); else
    echo "FAIL: '--' before an operand: rc $rc"; fails=$((fails + 1)); fi
expect 0 "rules --json" "$M" rules --json
grep_in out '"id"' "rules --json output"

# A path that does not exist is an error, not an empty success.
expect 2 "triage missing WORKDIR" "$M" triage "$T/none"
grep_in err "$T/none" "triage names the path"
expect 2 "report missing WORKDIR" "$M" report "$T/none" -o "$T/r"
[ ! -e "$T/r" ] && pass=$((pass + 1)) || { echo "FAIL: report wrote output for a missing WORKDIR"; fails=$((fails + 1)); }
expect 2 "mine missing path" "$M" mine "$T/none"
expect 2 "replay missing path" "$M" replay "$T/none"
expect 2 "triage without WORKDIR" "$M" triage
expect 2 "check two inputs" "$M" check "$T/-odd.yaml" "$T/-odd.yaml"

echo "$pass passed, $fails failed"
[ "$fails" -eq 0 ]
