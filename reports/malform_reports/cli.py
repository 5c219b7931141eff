"""cli.py - talk to the `malform` binary: find it, list registries, repair files.

The reports never link core; they run the CLI as a subprocess, so what the
report and the miner see is exactly what a user sees. A missing binary is not
an error here: callers get None and say so.
"""
import json
import os
import shutil
import subprocess
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def find_malform(explicit=None):
    """Path of the malform binary: explicit, $MALFORM, the repo's build trees, PATH; else None."""
    cands = [explicit, os.environ.get("MALFORM")]
    cands += [os.path.join(REPO, "build", b, "harness", "malform") for b in ("default", "sanitize")]
    cands.append(shutil.which("malform"))
    for c in cands:
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return os.path.abspath(c)
    return None


def run(malform, args, stdin=None, timeout=60):
    """(returncode, stdout, stderr) of malform ARGS; rc -1 when it cannot run."""
    try:
        p = subprocess.run([malform] + list(args), input=stdin, capture_output=True, timeout=timeout)
    except (OSError, subprocess.TimeoutExpired) as e:
        return -1, b"", str(e).encode()
    return p.returncode, p.stdout, p.stderr


def inspect(malform, args, problems, what="inspect", signatures=False):
    """Items of `malform inspect --json [--signature] ARGS` (entries, cases and
    signatures as the C code parses them; format in harness/cli/cmd_inspect.c),
    or None with the reason in problems. Long argument lists go in batches."""
    items, args = [], list(args)
    for i in range(0, len(args), 200):
        flag = ["--signature"] if signatures else []
        rc, out, err = run(malform, ["inspect", "--json"] + flag + ["--"] + args[i:i + 200], timeout=120)
        try:
            d = json.loads(out)
        except ValueError:
            d = None
        if not isinstance(d, dict) or not isinstance(d.get("items"), list):
            problems.append(f"{what}: `malform inspect --json` failed (exit {rc}): "
                            f"{err.decode(errors='replace').strip()[:200]}")
            return None
        items += [x for x in d["items"] if isinstance(x, dict)]
    return items


def signatures(malform, sigs, problems):
    """{signature: parsed fields} for each signature string, parsed by `malform inspect --signature`."""
    sigs = sorted({s for s in sigs if isinstance(s, str) and s})
    if not sigs or not malform:
        return {}
    items = inspect(malform, sigs, problems, "signatures", signatures=True) or []
    return {x["signature"]["signature"]: x["signature"] for x in items
            if isinstance(x.get("signature"), dict) and x["signature"].get("signature")}


def registry(malform, what, problems):
    """`malform rules|ops --json` as a list, or None (with the reason in problems)."""
    rc, out, err = run(malform, [what, "--json"])
    if rc != 0:
        problems.append(f"`malform {what} --json` failed (exit {rc}): {err.decode(errors='replace').strip()[:200]}")
        return None
    try:
        d = json.loads(out)
    except ValueError:
        problems.append(f"`malform {what} --json` printed invalid JSON")
        return None
    return [r if isinstance(r, dict) else {"id": str(r)} for r in d] if isinstance(d, list) else None


def repair(malform, profile, path=None, data=None):
    """The `--output result` JSON of repairing a file (or bytes), or a
    synthetic rejected result when the CLI fails without one."""
    args = ["repair", "--output", "result"]
    if profile:
        args += ["--profile", profile]
    args.append(path if path else "-")
    rc, out, err = run(malform, args, stdin=data)
    try:
        r = json.loads(out)
        if isinstance(r, dict) and "status" in r:
            return r
    except ValueError:
        pass
    return _error_result(err.decode(errors="replace").strip()[:300] or f"exit {rc}")


def _error_result(msg):
    return {"status": "error", "value": None, "warnings": [],
            "error": {"tier": 0, "type": "CLI_ERROR", "path": "", "line": 0, "column": 0, "message": msg}}


def repair_many(malform, requests, timeout=600):
    """Answers of `malform repair --jsonl` for requests ({"profile"?, "input" |
    "case"}), in order: dicts with "result" (and "rendered" for a case). One
    process for all; an answer the CLI could not give is an error result."""
    if not requests:
        return []
    lines = "".join(json.dumps(dict(r, id=i)) + "\n" for i, r in enumerate(requests))
    rc, out, err = run(malform, ["repair", "--jsonl", "-"], stdin=lines.encode(), timeout=timeout)
    answers = {}
    for line in out.decode(errors="replace").splitlines():
        try:
            a = json.loads(line)
        except ValueError:
            continue
        if isinstance(a, dict) and isinstance(a.get("id"), int):
            answers[a["id"]] = a
    why = err.decode(errors="replace").strip()[:300] or f"exit {rc}"
    res = []
    for i in range(len(requests)):
        a = answers.get(i)
        if a is None or not isinstance(a.get("result"), dict):
            a = {"result": _error_result(a.get("error", why) if a else why)}
        res.append(a)
    return res


def render(malform, case_text):
    """Raw model output of a structured case (`malform render FILE`), or None."""
    with tempfile.NamedTemporaryFile("w", suffix=".case", delete=False) as f:
        f.write(case_text)
    try:
        rc, out, _ = run(malform, ["render", f.name])
    finally:
        os.unlink(f.name)
    return out.decode("utf-8", errors="replace") if rc == 0 else None
