"""report.py - turn a work dir into report.html, summary.md and summary.json.

The stage runs in three steps: load (load.py: every stats.json, nightly.json,
the regression entries, the rule and op registries, past summaries), build
one summary dict (the contents of summary.json, schema in reports/README.md),
then render it three ways. Everything a reader needs to trust the report is
in the summary's `missing` list: each input that was absent or unusable, and
what that leaves out. The HTML is self-contained (plots are base64 PNGs, no
external CSS or scripts) so CI can upload it as a single artifact.
"""
import datetime
import json
import os
import shlex

import jinja2

from . import cli, load, plots

SCHEMA = "malform-report/1"
INPUT_CAP = 4096
MD_ROWS = 50  # signature rows in summary.md (CI job summaries have a size limit)
TEMPLATES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "templates")


def _add(d, k, n=1):
    d[k] = d.get(k, 0) + n


def _read_input(path):
    try:
        with open(path, "rb") as f:
            return f.read(INPUT_CAP + 1).decode("utf-8", errors="replace")
    except (OSError, TypeError):
        return None


def _cap(text):
    if text is None:
        return None, False
    return (text[:INPUT_CAP], True) if len(text) > INPUT_CAP else (text, False)


def _registry(path, malform, what, problems):
    if path:
        return load.load_registry(path, problems, f"{what} registry")
    if malform:
        return cli.registry(malform, what, problems)
    problems.append(f"{what} registry: no --{what} file and no malform binary; "
                    f"never-{'fired rules' if what == 'rules' else 'applied ops'} cannot be listed")
    return None


def _names(v):
    """Names from a list of strings or the keys of an object; [] otherwise."""
    if isinstance(v, dict):
        v = list(v)
    return [x for x in v if isinstance(x, str)] if isinstance(v, list) else []


def _row(sig, src, status, path, text_cut, repro):
    text, cut = text_cut
    return {"signature": sig, "oracle": src.get("oracle"), "kind": src.get("kind"), "profile": src.get("profile"),
            "pipeline": src.get("pipeline") or "core", "first_seen": src.get("first_seen"), "engine": src.get("engine"),
            "status": status, "reproduce": repro, "file": path, "input": text, "input_truncated": cut,
            "ops": src.get("ops") or [], "count": 0, "seen_as": [], "source": "regression" if status != "untriaged"
            else "campaign"}


WORST_ROWS = 60


def _worst_cells(compare, malform):
    """The cells that did not restore all their cases, worst share first (at most
    WORST_ROWS), each with its smallest worst case as the raw input a pipeline got
    (a structured case is rendered with `malform render`)."""
    cells = [dict(c, family=fam, pipeline=p) for fam, row in compare["families"].items()
             for p, c in row.items() if c["worst"]]
    cells.sort(key=lambda c: (c["share"] if c["share"] is not None else 1, c["family"], c["pipeline"]))
    for c in cells[:WORST_ROWS]:
        text = c["worst_text"]
        if text and text.startswith("malform-case ") and malform:
            c["worst_text"] = cli.render(malform, text) or text
    return cells[:WORST_ROWS]


def _entry_pipeline(path):
    """The pipeline an entry path names: corpus/regression/<pipeline>/x.raw, else core."""
    parent = os.path.basename(os.path.dirname(os.path.normpath(path)))
    return "core" if parent in ("regression", "findings", "") else parent


def _signatures(campaigns, regression, findings, triage_map, nightly, history):
    """Merged signature table, one row per (pipeline, signature): regression entries
    first, then this run's findings (campaign failures and WORKDIR/findings). A
    finding whose signature an entry of its pipeline records as its original one,
    or that triage.json sends to an entry, is counted under that entry's signature."""
    sigs, by_orig, by_name = {}, {}, {}
    for e in regression:
        repro = e.get("reproduce") or f"malform replay {shlex.quote(e['path'])}"
        row = _row(e["signature"], e, e["status"], e["path"], _cap(e.get("input")), repro)
        sigs[(row["pipeline"], e["signature"])] = row
        by_name[(row["pipeline"], os.path.basename(e["path"]))] = e["signature"]
        if e.get("original_signature"):
            by_orig.setdefault((row["pipeline"], e["original_signature"]), e["signature"])

    def home(pipe, sig):
        if (pipe, sig) in sigs:
            return sig
        if (pipe, sig) in by_orig:
            return by_orig[(pipe, sig)]
        entry = triage_map.get(sig)
        return by_name.get((_entry_pipeline(entry), os.path.basename(entry))) if entry else None

    hits = [(f, f.get("file_path"), None, None) for c in campaigns for f in c["failures"]]
    hits += [(f, f["path"], f.get("input"), f.get("reproduce") or f"malform replay -v {shlex.quote(f['path'])}")
             for f in findings]
    for f, path, text, entry_repro in hits:
        key = f.get("signature") or f.get("file") or "unknown"
        pipe = f.get("pipeline") or "core"
        target = home(pipe, key)
        s = sigs.get((pipe, target)) if target else None
        if s is None:
            prof = f.get("profile")
            repro = entry_repro or (f"malform check {'--profile ' + shlex.quote(prof) + ' ' if prof else ''}"
                                    f"{shlex.quote(path)}" if path else None)
            s = sigs[(pipe, key)] = _row(key, f, "untriaged", path,
                                         _cap(text if text is not None else _read_input(path)), repro)
        elif key != s["signature"] and key not in s["seen_as"]:
            s["seen_as"].append(key)
        s["count"] += 1
        for k in ("oracle", "kind", "profile"):
            s[k] = s.get(k) or f.get(k)
    new_list = nightly.get("new_signatures") if isinstance(nightly, dict) else None
    new_set = {x if isinstance(x, str) else x.get("signature") for x in new_list if isinstance(x, (str, dict))} \
        if isinstance(new_list, list) else None
    seen_before = set()
    for h in history:
        for s in h["summary"].get("signatures") or []:
            if isinstance(s, dict) and s.get("signature"):
                seen_before.add(s["signature"])
    for s in sigs.values():
        if s["status"] == "fixed":
            s["new"] = False
        elif new_set is not None:
            s["new"] = s["signature"] in new_set or any(x in new_set for x in s["seen_as"])
        else:
            s["new"] = bool(history) and s["signature"] not in seen_before
    order = {"untriaged": 0, "open": 1, "fixed": 2}
    return sorted(sigs.values(), key=lambda s: (not s["new"], order.get(s["status"], 3), s["pipeline"] != "core",
                                                s["pipeline"], s["signature"]))


def status_of(s):
    """The one bucket a signature counts in: new, open, untriaged or fixed (they add up to the total)."""
    return "new" if s["new"] else s["status"]


def _trend(history, signatures, label):
    """Per run, oldest first: new (never seen open before), still open, and
    fixed (open in an earlier run, now marked fixed)."""
    runs = [(h["label"], h["summary"].get("signatures") or []) for h in history]
    runs.append((label, signatures))
    seen, ever_open, out = set(), set(), []
    for lbl, sigs in runs:
        sigs = [s for s in sigs if isinstance(s, dict) and s.get("signature")]
        opened = {s["signature"] for s in sigs if s.get("status") != "fixed"}
        fixed = {s["signature"] for s in sigs if s.get("status") == "fixed"}
        fixed_now = fixed & ever_open  # a signature merely absent may just not have been looked for
        if all(isinstance(s.get("new"), bool) for s in sigs):  # the run's own verdict, as its cards showed it
            new = {s["signature"] for s in sigs if s["new"] and s.get("status") != "fixed"}
        else:
            new = opened - seen
        out.append({"label": str(lbl), "new": len(new), "still_open": len(opened - new), "fixed": len(fixed_now)})
        seen |= opened | fixed
        ever_open |= opened
        ever_open -= fixed_now
    return out


def _rules_not_fired(nightly, campaigns):
    """[{rule, reason}] from nightly.json's (or a stats.json's) `rules_not_fired`, deduplicated."""
    out, seen = [], set()
    srcs = [nightly] if isinstance(nightly, dict) else []
    srcs += [{"rules_not_fired": c["rules_not_fired"]} for c in campaigns]
    for d in srcs:
        for r in d.get("rules_not_fired") or [] if isinstance(d.get("rules_not_fired"), list) else []:
            if isinstance(r, dict) and isinstance(r.get("rule"), str) and r["rule"] not in seen:
                seen.add(r["rule"])
                out.append({"rule": r["rule"], "reason": str(r.get("reason") or "")})
    return sorted(out, key=lambda r: r["rule"])


def _pipelines(signatures):
    """{pipeline: {new, open, untriaged, fixed, total}} over the signature table."""
    out = {}
    for s in signatures:
        d = out.setdefault(s.get("pipeline") or "core", {"new": 0, "open": 0, "untriaged": 0, "fixed": 0, "total": 0})
        d[status_of(s)] += 1
        d["total"] += 1
    return dict(sorted(out.items(), key=lambda kv: (kv[0] != "core", kv[0])))


def build_summary(workdir, history_dir=None, rules_file=None, ops_file=None, malform=None,
                  regression_dir=None, mine=True, profile=None, compare_file=None, pipeline=None):
    """(summary dict, campaigns) for a work dir; never raises on bad input. pipeline:
    only that pipeline's campaigns and signatures ("core": those of no other pipeline)."""
    problems = []
    if not os.path.isdir(workdir):
        problems.append(f"work dir {workdir}: does not exist or is not a directory")
    campaigns = load.find_campaigns(workdir, problems) if os.path.isdir(workdir) else []
    if pipeline:
        campaigns = [c for c in campaigns if (c["pipeline"] or "core") == pipeline]
    nightly = load.load_nightly(workdir, problems) if os.path.isdir(workdir) else None
    if not campaigns:
        problems.append("campaigns: no stats.json under the work dir (no campaign ran, or none finished writing)")
    load.fill_from_signatures([f for c in campaigns for f in c["failures"]], malform, problems)
    rdirs = load.regression_dirs(workdir, nightly, regression_dir)
    if not rdirs:
        problems.append("regression corpus: not found (pass --regression DIR); the signature table holds "
                        "only this run's untriaged findings")
    regression = load.load_entries(rdirs, malform, problems)
    fdir = os.path.join(workdir, "findings")
    findings = load.load_entries([fdir], malform, problems, "finding") if os.path.isdir(fdir) else []
    triage_map = load.load_triage(workdir, problems) if os.path.isdir(workdir) else {}
    history = load.load_history(history_dir, problems)
    rules_reg = _registry(rules_file, malform, "rules", problems)
    ops_reg = _registry(ops_file, malform, "ops", problems)
    compare = load.load_compare(workdir, compare_file, problems)
    if compare:
        compare["worst"] = _worst_cells(compare, malform)

    interrupted = bool(isinstance(nightly, dict) and nightly.get("interrupted")) or any(c["interrupted"] for c in campaigns)
    if isinstance(nightly, dict) and nightly.get("start") and not nightly.get("end"):
        interrupted = True
    if interrupted:
        problems.insert(0, "run was interrupted: numbers below cover only what finished")
    engines, targets = (_names(nightly.get(k)) if isinstance(nightly, dict) else [] for k in ("engines", "targets"))
    have = {c["engine"] for c in campaigns}
    for e in engines or []:
        if isinstance(e, str) and e not in have:
            problems.append(f"engine {e}: requested but no usable stats.json (not installed, not built, or interrupted)")
    have_t = {(c["engine"], c["target"]) for c in campaigns}
    for e in engines or []:
        for t in targets or []:
            if isinstance(e, str) and isinstance(t, str) and e in have and (e, t) not in have_t:
                problems.append(f"campaign {e}/{t}: requested but no usable stats.json")

    fired, applied, failed, rejected, verdicts = {}, {}, {}, {}, {}
    for c in campaigns:
        for k, n in c["rules_fired"].items():
            _add(fired, k, n)
        for k, n in c["ops_applied"].items():
            _add(applied, k, n)
        for k, n in c["ops_failed"].items():
            _add(failed, k, n)
        for k, n in c["ops_rejected"].items():
            _add(rejected, k, n)
        for o, v in c["verdicts"].items():
            d = verdicts.setdefault(o, {"pass": 0, "fail": 0})
            d["pass"] += v["pass"]
            d["fail"] += v["fail"]
    failed_unit = "cases" if failed else "signatures"
    if not failed:  # signatures whose failure names the op (deduplicated), when the harness gave no ops_failed map
        for c in campaigns:
            for f in c["failures"]:
                for op in set(f["ops"] or []):
                    _add(failed, op, 1)
    # a rule or op listed with count 0 is known to exist but never fired
    rule_ids = sorted(set(r["id"] for r in rules_reg or []) | set(fired))
    ops_ids = sorted(set(r["id"] for r in ops_reg or []) | set(applied))
    fired = {k: n for k, n in fired.items() if n > 0}
    applied = {k: n for k, n in applied.items() if n > 0}

    signatures = _signatures(campaigns, regression, findings, triage_map, nightly, history)
    if pipeline:
        signatures = [s for s in signatures if s["pipeline"] == pipeline]
    by_oracle, by_profile = {}, {}
    for s in signatures:
        _add(by_oracle.setdefault(s.get("oracle") or s.get("kind") or "unknown", {}), status_of(s))
        _add(by_profile.setdefault(s.get("profile") or "unknown", {}), status_of(s))
    label = str((nightly or {}).get("start") or "this run")
    trend = _trend(history, signatures, label)
    not_fired = _rules_not_fired(nightly, campaigns)

    run = dict(nightly) if isinstance(nightly, dict) else {}
    run["interrupted"] = interrupted
    counts = {k: sum(1 for s in signatures if status_of(s) == k) for k in ("new", "open", "untriaged", "fixed")}
    summary = {
        "schema": SCHEMA,
        "generated": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "workdir": os.path.abspath(workdir),
        "pipeline": pipeline,
        "run": run,
        "missing": problems,
        "campaigns": [{k: c[k] for k in ("engine", "target", "seconds", "execs", "execs_per_sec", "coverage",
                                          "corpus", "interrupted", "path", "timeline_source", "pipeline",
                                          "valid_renders")}
                      | {"failures": len(c["failures"])} for c in campaigns],
        "totals": dict({
            "campaigns": len(campaigns),
            "execs": sum(c["execs"] for c in campaigns),
            "seconds": sum(c["seconds"] for c in campaigns),
            "valid_renders": sum(c["valid_renders"] for c in campaigns),
            "failures": sum(len(c["failures"]) for c in campaigns) + len(findings),
            "signatures": len(signatures)}, **counts),
        "rules": {"fired": fired, "registry": len(rules_reg) if rules_reg is not None else None,
                  "never_fired": sorted(r for r in rule_ids if not fired.get(r)), "not_fired_reasons": not_fired},
        "ops": {"applied": applied, "failed": failed, "failed_unit": failed_unit, "rejected": rejected,
                "registry": len(ops_reg) if ops_reg is not None else None,
                "never_applied": sorted(o for o in ops_ids if not applied.get(o))},
        "verdicts": verdicts,
        "failures_by_oracle": by_oracle,
        "failures_by_profile": by_profile,
        "pipelines": _pipelines(signatures),
        "signatures": signatures,
        "trend": trend,
        "compare": compare,
        "plots": [p for p, _ in plots.PLOTS],
        "mining": None,
    }
    if mine and pipeline not in (None, "core"):
        summary["mining"] = {"cases": 0, "families": [], "proposals": [], "yaml": "",
                             "note": f"Mining proposes patches to core's profiles; it is left out for pipeline {pipeline}."}
    elif mine:
        from . import mine as mining
        summary["mining"] = mining.report_section(workdir, rdirs, malform, profile, problems, ops_reg)
    return summary, campaigns


def _fmt_num(v):
    if isinstance(v, float):
        return f"{v:,.1f}"
    if isinstance(v, int):
        return f"{v:,}"
    return "-" if v is None else str(v)


def _cell(v):
    """A value as table-cell text: scalars as they are, small structures as `k: v` text."""
    if v is None:
        return "-"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, float):
        return f"{v:,.1f}"
    if isinstance(v, int):
        return f"{v:,}"
    if isinstance(v, dict):
        return ", ".join(f"{k}: {_cell(x)}" for k, x in v.items()) or "-"
    if isinstance(v, list):
        return ", ".join(_cell(x) for x in v) or "-"
    return str(v)


RUN_ORDER = ("start", "end", "seconds", "budget_minutes", "budget", "seconds_per_run", "engines", "engines_built",
             "targets", "jobs", "exit_code", "exit", "interrupted", "signal", "disk_full", "workdir", "corpus",
             "regression", "report")


TABLE_ORDER = ("phases", "runs", "merge", "triage", "new_signatures", "oracles", "rules_not_fired")


def run_view(run):
    """nightly.json as tables: {"fields": [[key, text]], "tables": [{"title", "columns", "rows"}]}.
    A list of objects (phases, runs, merge, new_signatures) is one table, an object of
    objects (oracles) a table keyed by its names, an object of scalars (triage) one row."""
    fields, tables = [], []
    keys = [k for k in RUN_ORDER if k in run] + sorted((k for k in run if k not in RUN_ORDER),
                                                       key=lambda k: (TABLE_ORDER.index(k) if k in TABLE_ORDER
                                                                      else len(TABLE_ORDER), k))
    for k in keys:
        v = run[k]
        if isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
            cols = []
            for x in v:
                cols += [c for c in x if c not in cols]
            tables.append({"title": k, "columns": cols, "rows": [[_cell(x.get(c)) for c in cols] for x in v]})
        elif isinstance(v, dict) and v and all(isinstance(x, dict) for x in v.values()):
            cols = []
            for x in v.values():
                cols += [c for c in x if c not in cols]
            tables.append({"title": k, "columns": ["name"] + cols,
                           "rows": [[n] + [_cell(x.get(c)) for c in cols] for n, x in v.items()]})
        elif isinstance(v, dict) and v and not any(isinstance(x, (dict, list)) for x in v.values()):
            tables.append({"title": k, "columns": list(v), "rows": [[_cell(x) for x in v.values()]]})
        else:
            fields.append([k, _cell(v)])
    return {"fields": fields, "tables": tables}


def render_html(summary, figures):
    """report.html from the summary and plots.render_all's figures (a plot missing from them is shown as not drawn)."""
    figures = list(figures) + [{"id": pid, "title": title, "png": None, "missing": "Not drawn."}
                               for pid, title in plots.PLOTS if pid not in {f["id"] for f in figures}]
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True,
                             trim_blocks=True, lstrip_blocks=True)
    env.filters["num"] = _fmt_num
    return env.get_template("report.html.j2").render(s=summary, figures={f["id"]: f for f in figures},
                                                     plots=[f for f in figures if f["id"] != "compare"],
                                                     run=run_view({k: v for k, v in summary["run"].items()
                                                                   if set(summary["run"]) - {"interrupted"}}),
                                                     status_of=status_of)


def render_md(summary):
    t = summary["totals"]
    out = ["# malform nightly report", ""]
    if summary["run"].get("interrupted"):
        out += ["> **Interrupted run**: the numbers cover only what finished.", ""]
    out += [f"- campaigns: {t['campaigns']}, executions: {t['execs']:,} in {t['seconds']:.0f} s",
            f"- signatures: {t['signatures']} = {t['new']} new + {t['open']} open + {t['untriaged']} untriaged + "
            f"{t['fixed']} fixed",
            f"- rules fired: {len(summary['rules']['fired'])}"
            + (f" of {summary['rules']['registry']} ({len(summary['rules']['never_fired'])} never fired)"
               if summary['rules']['registry'] is not None else "")]
    if t["valid_renders"]:
        out.append(f"- valid renders: {t['valid_renders']:,} executions whose damage loaded strictly as another "
                   "value, which the pipeline kept as written (op sites to fix, not pipeline failures)")
    out.append("")
    if summary["campaigns"]:
        feats = any(c["coverage"]["features"] is not None for c in summary["campaigns"])
        out += ["| engine | target | seconds | execs | execs/s | edges |" + (" features (kind) |" if feats else "")
                + " corpus | failures |", "|---|---|---:|---:|---:|---:|" + ("---:|" if feats else "") + "---:|---:|"]
        for c in summary["campaigns"]:
            cov = c["coverage"]
            out.append(f"| {c['engine']} | {c['target']} | {c['seconds']:.0f} | {c['execs']:,} | "
                       f"{c['execs_per_sec']:,.0f} | {_fmt_num(cov['edges'])} |"
                       + (f" {_fmt_num(cov['features'])}"
                          + (f" ({cov['features_kind']})" if cov["features"] is not None else "") + " |" if feats else "")
                       + f" {_fmt_num(c['corpus'])} | {c['failures']} |")
        out.append("")
    if summary["signatures"]:
        out += ["| signature | oracle | profile | status | reproduce |", "|---|---|---|---|---|"]
        for s in summary["signatures"][:MD_ROWS]:
            cell = lambda v: str(v or "-").replace("|", "\\|").replace("\n", " ")  # noqa: E731
            st = "**new**" if s["new"] else s["status"]
            out.append(f"| `{cell(s['signature'])}` | {cell(s['oracle'])} | {cell(s['profile'])} | {st} | "
                       f"`{cell(s['reproduce'])}` |")
        if len(summary["signatures"]) > MD_ROWS:
            out.append(f"\n{len(summary['signatures']) - MD_ROWS} more signature(s) in report.html and summary.json.")
        out.append("")
    else:
        out += ["No failure signatures.", ""]
    m = summary.get("mining") or {}
    if m.get("families"):
        out += ["## Top malformation families", ""]
        for f in m["families"][:5]:
            out.append(f"- {f['count']} cases ({f['field_cases']} field): `{f['key']}`")
        out.append("")
    if summary["missing"]:
        out += ["## Missing or partial inputs", ""] + [f"- {p}" for p in summary["missing"]] + [""]
    return "\n".join(out)


def write_report(workdir, outdir, **kw):
    """Build and write OUTDIR/report.html, summary.md, summary.json; returns the summary."""
    summary, campaigns = build_summary(workdir, **kw)
    figures = plots.render_all(summary, campaigns)
    os.makedirs(outdir, exist_ok=True)
    page = render_html(summary, figures)
    for name, text in (("report.html", page), ("summary.md", render_md(summary)),
                       ("summary.json", json.dumps(summary, indent=2, sort_keys=False, default=str) + "\n")):
        tmp = os.path.join(outdir, f".{name}.tmp")
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, os.path.join(outdir, name))
    return summary

