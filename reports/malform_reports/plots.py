"""plots.py - the report's figures, each a base64 PNG or the reason it is absent.

Every plot function takes the summary (and campaigns for time series) and
returns (png_base64, None) or (None, "why there is nothing to draw"). The
report shows the reason in place of the image, so an empty or partial work
dir still gives a report that says what is missing. matplotlib runs headless
(Agg); figures are closed after rendering so a long report does not leak.
"""
import base64
import io

import matplotlib
import numpy as np

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

PLOTS = [
    ("coverage", "Coverage over time"),
    ("corpus", "Corpus size over time"),
    ("execs_per_sec", "Executions per second"),
    ("rules", "Repair rules fired"),
    ("ops", "Malformation ops: how often applied, and the failures they are part of"),
    ("failures", "Signatures by oracle and by profile"),
    ("trend", "Trend across nightly runs"),
    ("compare", "Differential matrix: share of cases each pipeline restored exactly"),
]

COLORS = {"fail": "#c0392b", "reject": "#e67e22", "ok": "#2e86c1", "none": "#bdc3c7",
          "new": "#c0392b", "open": "#e67e22", "fixed": "#27ae60", "untriaged": "#8e44ad"}


def _png(fig):
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=96, bbox_inches="tight")
    plt.close(fig)
    return base64.b64encode(buf.getvalue()).decode("ascii")


def _label(c):
    return f"{c['engine']}/{c['target']}"


def _color(campaigns, c):
    """One colour per campaign, the same in every plot."""
    labels = sorted({_label(x) for x in campaigns})
    return plt.get_cmap("tab10")(labels.index(_label(c)) % 10)


def _lines(ax, campaigns, field, everyone=None):
    n = 0
    for c in campaigns:
        pts = [(p["t"], p[field]) for p in c["timeline"] if p.get(field) is not None]
        if not pts:
            continue
        ax.plot([t for t, _ in pts], [v for _, v in pts], marker="." if len(pts) < 40 else None,
                color=_color(everyone or campaigns, c),
                label=_label(c) + (" (interrupted)" if c.get("interrupted") else ""))
        n += 1
    ax.set_xlabel("seconds")
    ax.grid(alpha=0.3)
    if n:
        ax.legend(fontsize=8, loc="lower right")
    return n


def plot_coverage(s, campaigns):
    """Edges over time for every engine; libFuzzer's features in their own panel, labelled."""
    has = {f: [c for c in campaigns if any(p.get(f) is not None for p in c["timeline"])] for f in ("edges", "features")}
    if not campaigns:
        return None, "No coverage data: no stats.json found."
    # a campaign whose count is known only at the end of the run: one labelled point, not a line
    ends = {f: [c for c in campaigns if c not in has[f] and c["coverage"][f] is not None] for f in has}
    panels = [f for f in ("edges", "features") if has[f] or ends[f]]
    if not panels:
        return None, "No coverage data: no campaign reported edges or features."
    fig, axes = plt.subplots(1, len(panels), figsize=(10, 3.6), squeeze=False)
    for ax, f in zip(axes[0], panels):
        for c in ends[f]:
            ax.plot([c["seconds"]], [c["coverage"][f]], marker="D", linestyle="none",
                    color=_color(campaigns, c), label=_label(c) + " (end of run only)")
        _lines(ax, has[f], f, campaigns)
        if ends[f]:
            ax.legend(fontsize=8, loc="lower right")
        kinds = sorted({c["coverage"]["features_kind"] for c in has[f] + ends[f]}) if f == "features" else []
        ax.set_ylabel("edges" if f == "edges" else "features")
        ax.set_title("edges covered (AFL++ edges_found, libFuzzer cov:)" if f == "edges"
                     else f"features ({', '.join(kinds)}), not comparable with edges", fontsize=9)
    fig.tight_layout()
    return _png(fig), None


def plot_corpus(s, campaigns):
    runs = [c for c in campaigns if any(p.get("corpus") is not None for p in c["timeline"])]
    if not runs:
        why = "no campaign has a timeline" if campaigns else "no stats.json found"
        return None, f"No corpus data: {why}."
    fig, ax = plt.subplots(figsize=(10, 3.6))
    _lines(ax, runs, "corpus", campaigns)
    ax.set_ylabel("corpus entries")
    return _png(fig), None


def plot_execs(s, campaigns):
    if not campaigns:
        return None, "No executions-per-second data: no stats.json found."
    fig, ax = plt.subplots(figsize=(10, 0.5 + 0.45 * len(campaigns)))
    labels = [_label(c) for c in campaigns]
    vals = [c["execs_per_sec"] for c in campaigns]
    bars = ax.barh(labels, vals, color=COLORS["ok"])
    for b, v, c in zip(bars, vals, campaigns):
        ax.text(b.get_width(), b.get_y() + b.get_height() / 2, f" {v:,.0f}/s  ({c['execs']:,} in {c['seconds']:.0f}s)",
                va="center", fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("executions per second")
    ax.set_xlim(0, max(vals + [1]) * 1.45)
    return _png(fig), None


def plot_rules(s, campaigns):
    fired = s["rules"]["fired"]
    never = s["rules"]["never_fired"]
    if not fired and not never:
        return None, "No rule data: no campaign reported rules_fired and no rule registry was available."
    mods = sorted({k.split(".")[0] for k in list(fired) + never})
    items = sorted(fired.items(), key=lambda kv: (-kv[1], kv[0]))
    rows = max(len(items), len(mods), 3)
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(10, 1.2 + 0.2 * rows), gridspec_kw={"width_ratios": [1, 1.7]})
    f_n = [sum(1 for k in fired if k.split(".")[0] == m) for m in mods]
    n_n = [sum(1 for k in never if k.split(".")[0] == m) for m in mods]
    a1.barh(mods, f_n, color=COLORS["ok"], label="fired")
    a1.barh(mods, n_n, left=f_n, color=COLORS["fail"], label="never fired")
    for i, (f, n) in enumerate(zip(f_n, n_n)):
        a1.text(f + n, i, f" {f}/{f + n}", va="center", fontsize=8)
    a1.set_xlim(0, max(a + b for a, b in zip(f_n, n_n)) * 1.3 + 1)
    a1.invert_yaxis()
    a1.set_title(f"rules per module: {len(fired)} fired, {len(never)} never fired", fontsize=9)
    a1.legend(fontsize=8, loc="lower right")
    a1.set_xlabel("rules")
    if items:
        a2.barh([k for k, _ in items], [v for _, v in items], color=COLORS["ok"])
        a2.set_xscale("symlog", linthresh=1)
        a2.set_xlim(0, max(v for _, v in items) * 4)
        a2.invert_yaxis()
        a2.tick_params(axis="y", labelsize=7)
        a2.set_xlabel("times fired (log scale)")
    else:
        a2.text(0.5, 0.5, "no rule fired", ha="center", va="center", transform=a2.transAxes, color=COLORS["fail"])
        a2.set_axis_off()
    a2.set_title("fired rules", fontsize=9)
    fig.tight_layout()
    return _png(fig), None


def plot_ops(s, campaigns):
    """Two panels with their own scales: executions that applied each op, and the
    failures (deduplicated signatures, or cases when the harness counted them)
    and rejections (only when a campaign reported them) the op was part of."""
    o = s["ops"]
    names = sorted(set(o["applied"]) | set(o["failed"]) | set(o["rejected"]),
                   key=lambda k: (-o["applied"].get(k, 0), k))
    if not names:
        return None, ("No op was applied: no campaign reported ops_applied."
                      + (" The never-applied ops are listed below." if o["never_applied"] else ""))
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(10, 1.2 + 0.22 * len(names)), sharey=True,
                                 gridspec_kw={"width_ratios": [1.3, 1]})
    y = list(range(len(names)))
    a1.barh(y, [o["applied"].get(n, 0) for n in names], 0.7, color=COLORS["ok"])
    a1.set_yticks(y)
    a1.set_yticklabels(names, fontsize=7)
    for lbl, n in zip(a1.get_yticklabels(), names):
        if not o["applied"].get(n):
            lbl.set_color(COLORS["fail"])
    a1.set_xscale("symlog", linthresh=1)
    a1.set_xlabel("executions that applied the op (log scale)")
    a1.set_title("applied" + ("; red labels: never applied" if any(not o["applied"].get(n) for n in names) else ""),
                 fontsize=9)
    a1.margins(y=0.01)
    a1.invert_yaxis()
    unit = o.get("failed_unit") or "signatures"
    series = [("failed", f"oracle failures ({unit})", COLORS["fail"])]
    if o["rejected"]:
        series.append(("rejected", "rejected (cases)", COLORS["reject"]))
    h = 0.8 / len(series)
    for i, (k, label, color) in enumerate(series):
        a2.barh([j - 0.4 + h * (i + 0.5) for j in y], [o[k].get(n, 0) for n in names], h, label=label, color=color)
    top = max([o[k].get(n, 0) for k, _, _ in series for n in names] + [1])
    a2.set_xlim(0, top * 1.15)
    a2.xaxis.get_major_locator().set_params(integer=True)
    a2.set_xlabel(f"{unit} the op is part of" + ("; rejected cases" if o["rejected"] else ""))
    a2.set_title("failures" + (" and rejections" if o["rejected"] else ""), fontsize=9)
    a2.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    return _png(fig), None


def _bars(ax, counts, title):
    if not counts:
        ax.text(0.5, 0.5, "none", ha="center", va="center", transform=ax.transAxes, color="#777")
        ax.set_axis_off()
        ax.set_title(title, fontsize=9)
        return
    keys = sorted(counts, key=lambda k: (-sum(counts[k].values()), k))
    left = [0] * len(keys)
    for st in ("new", "open", "untriaged", "fixed"):
        vals = [counts[k].get(st, 0) for k in keys]
        if any(vals):
            ax.barh(keys, vals, left=left, height=0.6, color=COLORS[st], label=st)
            left = [a + b for a, b in zip(left, vals)]
    ax.invert_yaxis()
    ax.tick_params(axis="y", labelsize=8)
    ax.set_title(title, fontsize=9)
    ax.set_xlim(0, max(left) + 1)
    ax.xaxis.get_major_locator().set_params(integer=True)
    ax.set_xlabel("signatures", fontsize=8)


def plot_failures(s, campaigns):
    by_o, by_p = s["failures_by_oracle"], s["failures_by_profile"]
    if not by_o and not by_p:
        return None, "No failures: no signature was found in this run or the regression corpus."
    n = max(len(by_o), len(by_p), 1)
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(10, 1.6 + 0.4 * n))
    _bars(a1, by_o, "by oracle")
    _bars(a2, by_p, "by profile")
    handles = {}
    for ax in (a1, a2):
        for h, lbl in zip(*ax.get_legend_handles_labels()):
            handles.setdefault(lbl, h)
    fig.legend(handles.values(), handles.keys(), loc="upper center", ncol=len(handles), fontsize=8,
               bbox_to_anchor=(0.5, 1.02), frameon=False)
    fig.tight_layout(rect=(0, 0, 1, 0.92))
    return _png(fig), None


def plot_trend(s, campaigns):
    t = s["trend"]
    if len(t) < 2:
        return None, ("The trend needs two or more nightly runs: only this run is known (pass --history DIR "
                      "with the summary.json of earlier runs).")
    fig, ax = plt.subplots(figsize=(10, 3.4))
    xs = list(range(len(t)))
    bottom = [0] * len(t)
    for key, label in (("still_open", "still open"), ("new", "new"), ("fixed", "fixed")):
        vals = [r[key] for r in t]
        color = COLORS["open" if key == "still_open" else key]
        ax.bar(xs, vals, bottom=bottom, label=label, color=color)
        bottom = [a + b for a, b in zip(bottom, vals)]
    ax.set_xticks(xs)
    ax.set_xticklabels([r["label"][:16] for r in t], rotation=30, ha="right", fontsize=7)
    ax.set_ylabel("signatures")
    ax.yaxis.get_major_locator().set_params(integer=True)
    ax.legend(fontsize=8)
    ax.grid(axis="y", alpha=0.3)
    return _png(fig), None


def plot_compare(s, campaigns):
    m = s.get("compare")
    if not m or not m["families"]:
        return None, ("No differential matrix: run `malform compare --pipelines core,... --out WORKDIR/compare` "
                      "or pass --compare FILE.")
    fams, pipes = sorted(m["families"]), m["pipelines"]
    grid = [[(m["families"][f].get(p) or {}).get("share") for p in pipes] for f in fams]
    fig, ax = plt.subplots(figsize=(min(10, 2.5 + 1.3 * len(pipes)), 1.2 + 0.32 * len(fams)))
    cmap = plt.get_cmap("RdYlGn").copy()
    cmap.set_bad("#dddddd")
    data = np.ma.masked_invalid(np.array([[np.nan if v is None else v for v in row] for row in grid], dtype=float))
    im = ax.imshow(data, cmap=cmap, vmin=0, vmax=1, aspect="auto")
    for i, f in enumerate(fams):
        for j, p in enumerate(pipes):
            c = m["families"][f].get(p)
            if not c or not c["total"]:
                ax.text(j, i, "-", ha="center", va="center", fontsize=7, color="#666")
                continue
            ax.text(j, i, f"{c['restored']}/{c['total']}", ha="center", va="center", fontsize=7,
                    color="black" if 0.25 < c["share"] < 0.85 else "white")
    ax.set_xticks(range(len(pipes)))
    ax.set_xticklabels(pipes, fontsize=8, rotation=20, ha="right")
    ax.set_yticks(range(len(fams)))
    ax.set_yticklabels(fams, fontsize=7)
    for i, (f, lbl) in enumerate(zip(fams, ax.get_yticklabels())):
        if "." not in f:  # a family row (all its ops together) above its ops
            lbl.set_fontweight("bold")
            if i:
                ax.axhline(i - 0.5, color="black", linewidth=1.2)
    ax.xaxis.tick_top()
    fig.colorbar(im, ax=ax, fraction=0.04, pad=0.02, label="restored exactly")
    fig.tight_layout()
    return _png(fig), None


FUNCS = {"compare": plot_compare, "coverage": plot_coverage, "corpus": plot_corpus, "execs_per_sec": plot_execs,
         "rules": plot_rules,
         "ops": plot_ops, "failures": plot_failures, "trend": plot_trend}


def render_all(summary, campaigns):
    """[{id, title, png, missing}] for every plot id, in report order."""
    out = []
    for pid, title in PLOTS:
        try:
            png, why = FUNCS[pid](summary, campaigns)
        except Exception as e:  # a plotting bug must not cost the whole report
            plt.close("all")
            png, why = None, f"Plot failed: {type(e).__name__}: {e}"
        out.append({"id": pid, "title": title, "png": png, "missing": why})
    return out
