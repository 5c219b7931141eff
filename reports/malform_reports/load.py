"""load.py - read what a fuzz campaign left behind, tolerantly.

Every reader here takes files written by other tools (the fuzz harness, the
nightly driver, triage) that may be missing, half-written (an interrupted
run, a full disk) or from an older version. Nothing raises: each reader
returns what it could use and appends a human sentence to a `problems` list
for what it could not, so the report can say what is missing. The accepted
schemas are documented in reports/README.md.
"""
import glob
import json
import os
import re

REGRESSION_SUFFIXES = (".case", ".raw")


def _num(v, default=0):
    """A number from v (int, float or numeric string), else default."""
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, (int, float)):
        return v
    if isinstance(v, str):
        try:
            return float(v) if any(c in v for c in ".eE") else int(v)
        except ValueError:
            return default
    return default


def _count_map(v):
    """{str: int} from a mapping of counts (or a list of names, each counted once)."""
    out = {}
    if isinstance(v, dict):
        for k, n in v.items():
            out[str(k)] = int(_num(n))
    elif isinstance(v, list):
        for k in v:
            if isinstance(k, str):
                out[k] = out.get(k, 0) + 1
    return out


def read_json(path, problems, what):
    """Parsed JSON of path, or None with a sentence in problems."""
    try:
        with open(path, "r", encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError as e:
        problems.append(f"{what} {path}: cannot read ({e.strerror})")
        return None
    if not text.strip():
        problems.append(f"{what} {path}: empty file (interrupted write?)")
        return None
    try:
        return json.loads(text)
    except ValueError as e:
        problems.append(f"{what} {path}: invalid JSON ({e}); ignored")
        return None


def _failure(f):
    if isinstance(f, str):
        f = {"signature": f}
    if not isinstance(f, dict):
        return None
    out = {k: (None if f.get(k) is None else str(f.get(k))) for k in ("signature", "oracle", "kind", "file", "profile")}
    ops = f.get("ops")
    out["ops"] = [str(o) for o in ops] if isinstance(ops, list) else ops_from_signature(out["signature"])
    rules = f.get("rules")
    out["rules"] = [str(r) for r in rules] if isinstance(rules, list) else ops_from_signature(out["signature"], "rules?")
    out["reproducible"] = f.get("reproducible")
    out["profile"] = out["profile"] or field_from_signature(out["signature"], "profile")
    return out


def ops_from_signature(sig, key="ops?"):
    """Op ids named in an oracle-failure signature (`ops=a,b` or `ops:a+b`), else [];
    key="rules?" gives the rule ids the same way. `-` (the lifecycle's "none") is no id."""
    if not isinstance(sig, str):
        return []
    m = re.search(rf"\b{key}\s*[=:]\s*([\w.,+\-]+)", sig)
    if not m:
        return []
    return [o for o in re.split(r"[,+]", m.group(1)) if o and o != "-"]


def _timeline(v):
    out = []
    if not isinstance(v, list):
        return out
    for p in v:
        if not isinstance(p, dict):
            continue
        cov = p.get("coverage")
        if isinstance(cov, dict):
            cov = cov.get("edges", cov.get("features"))
        out.append({"t": float(_num(p.get("t"))), "execs": int(_num(p.get("execs"))),
                    "coverage": _num(cov, None), "corpus": _num(p.get("corpus"), None)})
    out.sort(key=lambda p: p["t"])
    return out


def load_campaign(path, workdir, problems):
    """One stats.json as a normalized campaign dict, or None."""
    d = read_json(path, problems, "stats.json")
    if d is None:
        return None
    if not isinstance(d, dict):
        problems.append(f"stats.json {path}: not a JSON object; ignored")
        return None
    rel = os.path.relpath(os.path.dirname(path), workdir)
    c = {"path": os.path.relpath(path, workdir), "dir": rel}
    parts = [p for p in rel.split(os.sep) if p not in (".", "")]
    c["engine"] = str(d.get("engine") or (parts[0] if parts else "unknown"))
    c["target"] = str(d.get("target") or (parts[-1] if len(parts) > 1 else "unknown"))
    c["seconds"] = float(_num(d.get("seconds")))
    c["execs"] = int(_num(d.get("execs")))
    eps = d.get("execs_per_sec")
    c["execs_per_sec"] = float(_num(eps)) if eps is not None else (c["execs"] / c["seconds"] if c["seconds"] else 0.0)
    # libFuzzer reports edges and features, and its timeline counts features: prefer those
    cov = d.get("coverage")
    kind, value = None, None
    if isinstance(cov, dict):
        for k in ("features", "edges"):
            if k in cov:
                kind, value = k, _num(cov[k], None)
                break
    elif isinstance(cov, (int, float)) and not isinstance(cov, bool):
        kind, value = "edges", cov
    c["coverage"] = {"kind": kind, "value": value,
                     "edges": _num(cov.get("edges"), None) if isinstance(cov, dict) else None,
                     "features": _num(cov.get("features"), None) if isinstance(cov, dict) else None}
    c["rules_fired"] = _count_map(d.get("rules_fired"))
    c["ops_applied"] = _count_map(d.get("ops_applied"))
    c["ops_failed"] = _count_map(d.get("ops_failed"))
    c["ops_rejected"] = _count_map(d.get("ops_rejected"))
    verdicts = {}
    if isinstance(d.get("verdicts"), dict):
        for o, v in d["verdicts"].items():
            if isinstance(v, dict):
                verdicts[str(o)] = {"pass": int(_num(v.get("pass"))), "fail": int(_num(v.get("fail")))}
    c["verdicts"] = verdicts
    c["failures"] = [x for x in map(_failure, d.get("failures") or []) if x] if isinstance(d.get("failures"), list) else []
    for f in c["failures"]:
        f.setdefault("engine", c["engine"])
        f["engine"] = f.get("engine") or c["engine"]
        f["campaign"] = c["path"]
        if f.get("file") and not os.path.isabs(f["file"]):
            cand = os.path.join(os.path.dirname(path), f["file"])
            f["file_path"] = cand if os.path.exists(cand) else os.path.join(workdir, f["file"])
        else:
            f["file_path"] = f.get("file")
    c["timeline"] = _timeline(d.get("timeline"))
    c["interrupted"] = bool(d.get("interrupted"))
    c["corpus"] = c["timeline"][-1]["corpus"] if c["timeline"] else _num(d.get("corpus"), None)
    missing = [k for k in ("engine", "target", "seconds", "execs", "coverage", "timeline") if k not in d]
    if missing:
        problems.append(f"stats.json {c['path']}: missing {', '.join(missing)}")
    return c


def find_campaigns(workdir, problems):
    """Every stats.json under workdir, loaded; sorted by engine then target."""
    paths = []
    for root, dirs, files in os.walk(workdir):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        if "stats.json" in files:
            paths.append(os.path.join(root, "stats.json"))
    out = [c for c in (load_campaign(p, workdir, problems) for p in paths) if c]
    out.sort(key=lambda c: (c["engine"], c["target"], c["path"]))
    return out


def load_nightly(workdir, problems):
    """WORKDIR/nightly.json as a dict, or None (absence is recorded)."""
    path = os.path.join(workdir, "nightly.json")
    if not os.path.exists(path):
        problems.append("nightly.json: not found (not a nightly run, or it was interrupted before writing it)")
        return None
    d = read_json(path, problems, "nightly.json")
    if d is not None and not isinstance(d, dict):
        problems.append("nightly.json: not a JSON object; ignored")
        return None
    return d


_KEY_ALIASES = {"first_seen": "first_seen", "firstseen": "first_seen", "reproduce": "reproduce",
                "reproduce_command": "reproduce", "repro": "reproduce", "reproduce_with": "reproduce",
                "command": "reproduce"}


def _header_key(k):
    k = re.sub(r"[^a-z0-9]+", "_", k.strip().lower()).strip("_")
    return _KEY_ALIASES.get(k, k)


def parse_regression_text(text):
    """(header dict, input text, has_header) of a regression entry: an optional
    magic first line (`malform-regression 1`), `key: value` lines (optionally
    `#`-prefixed) up to a `---` line, then the input."""
    lines = text.split("\n")
    for i, line in enumerate(lines[:200]):
        if line.strip() == "---":
            header = {}
            for h in lines[:i]:
                h = h.lstrip("#").strip()
                if ":" in h:
                    k, v = h.split(":", 1)
                    if k.strip():
                        header[_header_key(k)] = v.strip()
            return header, "\n".join(lines[i + 1:]), True
        if line.strip() and i > 0 and not re.match(r"^#?\s*[\w .\-]+:", line):
            break
    return {}, text, False


def field_from_signature(sig, key):
    """A `key=value` part of a signature (`... profile=prd ops=a,b`), or None (also for `-`)."""
    m = re.search(rf"\b{key}=([^\s/]+)", sig) if isinstance(sig, str) else None
    if m:
        return m.group(1) if m.group(1) != "-" else None
    if key == "profile" and isinstance(sig, str):  # the harness's `oracle/<oracle>/<profile>/rules=.../ops=...`
        parts = sig.split("/")
        if len(parts) > 3 and parts[0] == "oracle" and re.match(r"^[a-z][a-z0-9_]*$", parts[2]):
            return parts[2]
    return None


def load_regression(dirs, problems):
    """Every *.case / *.raw entry of the given directories, parsed."""
    out = []
    for d in dirs:
        for path in sorted(glob.glob(os.path.join(d, "*"))):
            if not path.endswith(REGRESSION_SUFFIXES) or not os.path.isfile(path):
                continue
            try:
                with open(path, "rb") as f:
                    text = f.read().decode("utf-8", errors="replace")
            except OSError as e:
                problems.append(f"regression {path}: cannot read ({e.strerror})")
                continue
            header, body, ok = parse_regression_text(text)
            if not ok:
                problems.append(f"regression {os.path.basename(path)}: no `---` header separator; read as bare input")
            e = dict(header)
            e["path"] = path
            e["name"] = os.path.basename(path)
            e["type"] = "case" if path.endswith(".case") else "raw"
            e["input"] = body
            e.setdefault("signature", os.path.splitext(e["name"])[0])
            if not e.get("profile"):
                e["profile"] = field_from_signature(e["signature"], "profile")
            status = str(e.get("status", "open")).lower()
            e["status"] = status if status in ("open", "fixed") else "open"
            ops = e.get("ops")
            e["ops"] = [o for o in re.split(r"[\s,+]+", ops) if o] if isinstance(ops, str) else ops_from_signature(e["signature"])
            out.append(e)
    return out


def regression_dirs(workdir, nightly, explicit):
    """Where regression entries are: --regression, nightly.json's field, or the usual places."""
    if explicit:
        return [explicit]
    cands = []
    if isinstance(nightly, dict) and isinstance(nightly.get("regression"), str):
        r = nightly["regression"]  # absolute, or relative to the work dir or to where nightly ran
        cands += [r] if os.path.isabs(r) else [os.path.join(workdir, r), r]
    cands += [os.path.join(workdir, "regression"), os.path.join(workdir, "corpus", "regression")]
    return [c for c in cands if os.path.isdir(c)][:1]


def load_registry(path, problems, what):
    """A `malform rules --json` / `ops --json` list as [{id, section, description}]."""
    d = read_json(path, problems, what)
    if d is None:
        return None
    if isinstance(d, dict):
        d = d.get("rules") or d.get("ops") or list(d.values())
    if not isinstance(d, list):
        problems.append(f"{what} {path}: expected a JSON list; ignored")
        return None
    out = []
    for r in d:
        if isinstance(r, str):
            out.append({"id": r})
        elif isinstance(r, dict) and r.get("id"):
            out.append({k: r.get(k) for k in r})
    return out


def load_history(hdir, problems):
    """Past summary.json files under hdir, oldest first (by run start, then mtime)."""
    runs = []
    if not hdir:
        return runs
    if not os.path.isdir(hdir):
        problems.append(f"history {hdir}: not a directory")
        return runs
    for root, dirs, files in os.walk(hdir):
        dirs.sort()
        for f in files:
            if f == "summary.json" or (f.endswith(".json") and f.startswith("summary")):
                p = os.path.join(root, f)
                d = read_json(p, problems, "history")
                if isinstance(d, dict):
                    run = d.get("run") if isinstance(d.get("run"), dict) else {}
                    key = str(run.get("start") or d.get("generated") or "")
                    runs.append((key, os.path.getmtime(p), p, d))
    runs.sort(key=lambda r: (r[0], r[1]))
    return [{"path": p, "summary": d, "label": k or os.path.basename(os.path.dirname(p))} for k, _, p, d in runs]
