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

from . import cli



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
    out = {k: (None if f.get(k) is None else str(f.get(k))) for k in ("signature", "oracle", "kind", "file", "profile",
                                                                       "pipeline")}
    for k in ("ops", "rules"):  # absent: filled from the signature by fill_from_signatures
        out[k] = [str(x) for x in f[k]] if isinstance(f.get(k), list) else None
    out["reproducible"] = f.get("reproducible")
    return out


def fill_from_signatures(failures, malform, problems):
    """Profile, ops, rules and pipeline of failures that did not carry them,
    from their signature as `malform inspect --signature` parses it."""
    need = [f for f in failures if f.get("signature") and (f["ops"] is None or f["rules"] is None or
                                                            not f.get("profile"))]
    parsed = cli.signatures(malform, [f["signature"] for f in need], problems) if malform and need else {}
    for f in failures:
        p = parsed.get(f.get("signature")) or {}
        for k in ("ops", "rules"):
            if f[k] is None:
                f[k] = [str(x) for x in p.get(k) or []]
        for k in ("profile", "pipeline", "oracle"):
            f[k] = f.get(k) or p.get(k)


def _timeline(v, engine):
    """Timeline points as {t, execs, edges, features, corpus}. A point's coverage
    may be {"edges", "features"}; a bare number is features in a libFuzzer
    timeline (what `malform fuzz` records from libFuzzer's `ft:`), nothing in a
    black-box timeline (its behaviours and edges summed) and edges in any other's."""
    out = []
    if not isinstance(v, list):
        return out
    for p in v:
        if not isinstance(p, dict):
            continue
        cov = p.get("coverage")
        pt = {"t": float(_num(p.get("t"))), "execs": int(_num(p.get("execs"))), "edges": _num(p.get("edges"), None),
              "features": _num(p.get("features"), None), "corpus": _num(p.get("corpus"), None)}
        if isinstance(cov, dict):
            for k in ("edges", "features"):
                pt[k] = pt[k] if pt[k] is not None else _num(cov.get(k), None)
        elif cov is not None and engine != "blackbox":  # the black-box engine's bare number is a sum of both
            k = "features" if engine == "libfuzzer" else "edges"
            pt[k] = pt[k] if pt[k] is not None else _num(cov, None)
        out.append(pt)
    out.sort(key=lambda p: p["t"])
    return out


def read_plot_data(path):
    """AFL++'s plot_data as timeline points (t, execs, edges, corpus), [] when unreadable.
    Columns are found by the header's names (relative_time, total_execs, edges_found, corpus_count)."""
    try:
        with open(path, "r", encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return []
    cols = ["relative_time", "cycles_done", "cur_item", "corpus_count", "pending_total", "pending_favs", "map_size",
            "saved_crashes", "saved_hangs", "max_depth", "execs_per_sec", "total_execs", "edges_found"]
    out = []
    for line in lines:
        if line.startswith("#"):
            names = [c.strip() for c in line.lstrip("#").split(",")]
            if "relative_time" in names or "unix_time" in names:
                cols = ["relative_time" if c == "unix_time" else c for c in names]
            continue
        vals = [x.strip().rstrip("%") for x in line.split(",")]
        row = dict(zip(cols, vals))
        if "relative_time" not in row or "edges_found" not in row:
            continue
        out.append({"t": float(_num(row["relative_time"])), "execs": int(_num(row.get("total_execs"))),
                    "edges": _num(row["edges_found"], None), "features": None,
                    "corpus": _num(row.get("corpus_count"), None)})
    if out and out[0]["t"] > 1e9:  # old AFL: unix time
        t0 = out[0]["t"]
        for p in out:
            p["t"] -= t0
    return out


_LF_LINE = re.compile(r"^#(\d+):?\s.*?\bcov: (\d+)(?:.*?\btime: (\d+)s)?")


def libfuzzer_edges(log_path, timeline):
    """libFuzzer's edges (`cov:`) over time from its log: at the line's `time: Ns`
    (fork mode), else placed on the timeline by execution count (the timeline
    maps executions to seconds)."""
    pts = [(0, 0.0)] + [(p["execs"], p["t"]) for p in timeline if p["execs"]]
    try:
        with open(log_path, "r", encoding="utf-8", errors="replace") as f:
            rows = [(int(m.group(1)), int(m.group(2)), m.group(3)) for m in map(_LF_LINE.match, f) if m]
    except OSError:
        return []
    if rows and all(r[2] is not None for r in rows):
        return [(float(t), cov) for _, cov, t in rows]
    if len(pts) < 3:
        return []
    out = []
    for ex, cov, _ in rows:
        if ex > pts[-1][0]:
            break
        i = next((i for i, (e, _) in enumerate(pts) if e >= ex), len(pts) - 1)
        (e0, t0), (e1, t1) = pts[max(i - 1, 0)], pts[i]
        t = t0 if e1 == e0 else t0 + (t1 - t0) * (ex - e0) / (e1 - e0)
        out.append((max(t, 0.0), cov))
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
    c["valid_renders"] = int(_num(d.get("valid_renders")))
    eps = d.get("execs_per_sec")
    c["execs_per_sec"] = float(_num(eps)) if eps is not None else (c["execs"] / c["seconds"] if c["seconds"] else 0.0)
    # edges for every engine; libFuzzer's features only where labelled as such
    cov = d.get("coverage")
    c["coverage"] = {"edges": _num(cov.get("edges"), None) if isinstance(cov, dict) else
                     (cov if isinstance(cov, (int, float)) and not isinstance(cov, bool) else None),
                     "features": _num(cov.get("features"), None) if isinstance(cov, dict) else None,
                     "features_kind": {"libfuzzer": "libFuzzer ft:", "blackbox": "black-box behaviours"}.get(
                         c["engine"], "features")}
    c["pipeline"] = str(d["pipeline"]) if isinstance(d.get("pipeline"), str) else None
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
    c["timeline"] = _timeline(d.get("timeline"), c["engine"])
    c["timeline_source"] = "stats.json"
    cdir = os.path.dirname(path)
    plot = sorted(sum((glob.glob(os.path.join(cdir, *(["*"] * k), "plot_data")) for k in range(3)), []),
                  key=lambda p: (os.path.basename(os.path.dirname(p)) != "main", p))
    if plot:
        series = read_plot_data(plot[0])
        if len(series) >= len(c["timeline"]):
            c["timeline"], c["timeline_source"] = series, os.path.relpath(plot[0], workdir)
    if c["engine"] == "libfuzzer" and not any(p["edges"] is not None for p in c["timeline"]):
        for t, e in libfuzzer_edges(os.path.join(cdir, "libfuzzer.log"), c["timeline"]):
            c["timeline"].append({"t": t, "execs": None, "edges": e, "features": None, "corpus": None})
        c["timeline"].sort(key=lambda p: p["t"])
    c["interrupted"] = bool(d.get("interrupted"))
    c["rules_not_fired"] = d.get("rules_not_fired") if isinstance(d.get("rules_not_fired"), list) else []
    corp = [p["corpus"] for p in c["timeline"] if p["corpus"] is not None]
    c["corpus"] = corp[-1] if corp else _num(d.get("corpus"), None)
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


ENTRY_FIELDS = ("signature", "kind", "oracle", "profile", "target", "engine", "first_seen", "status", "reproduce",
                "original_signature", "detail", "source", "pipeline")


def entry_from_item(it):
    """A regression entry (or finding) dict from one `malform inspect` item."""
    e = it.get("entry") if isinstance(it.get("entry"), dict) else {}
    sig = it.get("signature") if isinstance(it.get("signature"), dict) else {}
    case = it.get("case") if isinstance(it.get("case"), dict) else None
    d = {k: e.get(k) for k in ENTRY_FIELDS}
    d["path"] = it.get("path")
    d["name"] = os.path.basename(d["path"] or "")
    d["type"] = "raw" if e.get("raw") else "case"
    d["input"] = it.get("payload")
    d["case"] = case
    d["ops"] = [str(o) for o in sig.get("ops") or []] or [o.get("id") for o in (case or {}).get("ops") or []
                                                           if isinstance(o, dict) and o.get("id")]
    d["rules"] = [str(r) for r in sig.get("rules") or []]
    d["profile"] = d["profile"] or sig.get("profile") or (case or {}).get("profile")
    d["pipeline"] = d["pipeline"] or sig.get("pipeline")
    return d


def _pipeline_dirs(d):
    """corpus/regression/<pipeline>/ subdirectories of a regression dir, as (name, path)."""
    try:
        names = sorted(os.listdir(d))
    except OSError:
        return []
    return [(n, os.path.join(d, n)) for n in names if not n.startswith(".") and os.path.isdir(os.path.join(d, n))]


def load_entries(dirs, malform, problems, what="regression"):
    """Every *.case / *.raw entry of the given directories and of their
    per-pipeline subdirectories, parsed by `malform inspect`. Entries of
    corpus/regression/<pipeline>/ name that pipeline when their header does not."""
    todo = []
    for d in dirs:
        todo.append((None, d))
        todo += _pipeline_dirs(d)
    todo = [(p, d) for p, d in todo if glob.glob(os.path.join(d, "*.case")) + glob.glob(os.path.join(d, "*.raw"))]
    if not todo:
        return []
    if not malform:
        problems.append(f"{what} entries in {', '.join(d for _, d in todo)}: not read (reading them needs the "
                        f"malform binary: `malform inspect`)")
        return []
    items = cli.inspect(malform, [d for _, d in todo], problems, what) or []
    pipe_of = {os.path.normpath(d): p for p, d in todo}
    out = []
    for it in items:
        path = it.get("path") or ""
        if it.get("type") != "entry" or not isinstance(it.get("entry"), dict):
            problems.append(f"{what} {os.path.basename(path)}: {it.get('error') or 'not a regression entry'}; ignored")
            continue
        e = entry_from_item(it)
        e["pipeline"] = e["pipeline"] or pipe_of.get(os.path.normpath(os.path.dirname(path)))
        e["status"] = e["status"] if e["status"] in ("open", "fixed") else "open"
        e["input"] = e["input"] if e["input"] is not None else ""
        e["signature"] = e["signature"] or os.path.splitext(e["name"])[0]
        out.append(e)
    return out


def load_triage(workdir, problems):
    """{signature seen by triage: entry path it ended in} from WORKDIR/triage/triage.json
    (a finding minimized into another signature, or a duplicate of a known one)."""
    path = os.path.join(workdir, "triage", "triage.json")
    if not os.path.isfile(path):
        return {}
    d = read_json(path, problems, "triage.json")
    items = d.get("items") if isinstance(d, dict) else d
    out = {}
    for it in items if isinstance(items, list) else []:
        if isinstance(it, dict) and isinstance(it.get("entry"), str):
            for k in ("signature", "original_signature"):
                if isinstance(it.get(k), str) and it[k]:
                    out[it[k]] = it["entry"]
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


COMPARE_BUCKETS = ("restored", "changed", "rejected", "crashed")


def load_compare(workdir, explicit, problems):
    """`malform compare`'s matrix (WORKDIR/compare/compare.json or --compare FILE) as
    {pipelines, families: {family: {pipeline: {restored, changed, rejected, crashed,
    total, share, worst, worst_case, worst_text}}}, disagreements, dir}; None when absent."""
    path = explicit or os.path.join(workdir, "compare", "compare.json")
    if not os.path.isfile(path):
        if explicit:
            problems.append(f"compare {explicit}: not found; the differential matrix is left out")
        return None
    d = read_json(path, problems, "compare.json")
    if not isinstance(d, dict) or d.get("malform_compare") != 1 or not isinstance(d.get("families"), dict):
        if d is not None:
            problems.append(f"compare.json {path}: not a `malform compare` matrix (malform_compare: 1); ignored")
        return None
    base = os.path.dirname(os.path.abspath(path))
    pipes = [str(p) for p in d.get("pipelines") or [] if isinstance(p, str)]
    fams = {}
    for fam, row in sorted(d["families"].items()):
        if not isinstance(row, dict):
            continue
        for pipe, cell in row.items():
            if not isinstance(cell, dict):
                continue
            if pipe not in pipes:
                pipes.append(pipe)
            c = {k: int(_num(cell.get(k))) for k in COMPARE_BUCKETS}
            c["total"] = int(_num(cell.get("total"))) or sum(c.values())
            c["share"] = c["restored"] / c["total"] if c["total"] else None
            # the worst bucket that holds a case: a crash, then data silently changed, then a rejection
            c["worst"] = next((k for k in ("crashed", "changed", "rejected") if c[k]), None)
            wc = cell.get("worst_case")
            c["worst_case"] = wc if isinstance(wc, str) else None
            c["worst_text"] = None
            if c["worst_case"]:
                try:
                    with open(os.path.join(base, c["worst_case"]), "rb") as f:
                        c["worst_text"] = f.read(2049).decode("utf-8", errors="replace")
                except OSError:
                    pass
            fams.setdefault(str(fam), {})[pipe] = c
    dis = []
    for x in d.get("disagreements") or [] if isinstance(d.get("disagreements"), list) else []:
        if isinstance(x, dict) and isinstance(x.get("values"), dict):
            dis.append({"input": str(x.get("input")), "values": {str(k): str(v) for k, v in x["values"].items()}})
    return {"path": path, "pipelines": pipes, "families": fams, "disagreements": dis}
