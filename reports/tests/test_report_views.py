"""The report's numbers a person can trust (issue 13) and the pipeline views
(issue 9), each on a small synthetic work dir in the formats the C side writes."""
import json
import os
import re
import shutil
import subprocess

import pytest
import yaml

from malform_reports import load, mine, plots, report

SIG_A = "oracle schema profile=prd rules=yaml.colon-space ops=yaml.colon-space"
SIG_A_ORIG = "oracle schema profile=prd rules=yaml.colon-space,yaml.plain-colon ops=val.bool-like,yaml.colon-space"
SIG_B = "oracle no-data-loss profile=prd rules=- ops=json.truncate"
SIG_C = "crash exit 3 pipeline=dirty-json"


def entry(sig, status="open", extra="", payload="title: x\n", kind="oracle"):
    return f"malform-regression 1\nsignature: {sig}\nkind: {kind}\nstatus: {status}\n{extra}---\n{payload}"


@pytest.fixture
def figs(monkeypatch):
    """Figures the plot functions draw, kept open for inspection instead of encoded."""
    kept = []

    def keep(fig):
        kept.append(fig)
        return "png"
    monkeypatch.setattr(plots, "_png", keep)
    yield kept
    plots.plt.close("all")


def libfuzzer_and_afl(w):
    """A work dir with one libFuzzer and one AFL++ campaign, as `malform fuzz` leaves them."""
    lf, afl = w / "runs" / "libfuzzer-raw", w / "runs" / "afl-raw"
    (afl / "afl" / "main").mkdir(parents=True)
    lf.mkdir(parents=True)
    (lf / "stats.json").write_text(json.dumps({
        "engine": "libfuzzer", "target": "raw", "seconds": 30, "execs": 3000,
        "coverage": {"edges": 700, "features": 2500},
        "timeline": [{"t": 1.0, "execs": 1000, "coverage": 1500, "corpus": 10},
                     {"t": 2.0, "execs": 2000, "coverage": 2200, "corpus": 20},
                     {"t": 3.0, "execs": 3000, "coverage": 2500, "corpus": 30}]}))
    (lf / "libfuzzer.log").write_text("INFO: seed\n#2\tINITED cov: 300 ft: 900 corp: 1/1b exec/s: 0\n"
                                      "#1500\tNEW    cov: 650 ft: 2000 corp: 15/1Kb\n"
                                      "#3000\tpulse  cov: 700 ft: 2500 corp: 30/2Kb\n")
    (afl / "stats.json").write_text(json.dumps({
        "engine": "afl", "target": "raw", "seconds": 30, "execs": 900, "coverage": {"edges": 420},
        "timeline": [{"t": 30, "execs": 900, "coverage": 420, "corpus": 50}]}))
    (afl / "afl" / "main" / "plot_data").write_text(
        "# relative_time, cycles_done, cur_item, corpus_count, pending_total, pending_favs, map_size, "
        "saved_crashes, saved_hangs, max_depth, execs_per_sec, total_execs, edges_found\n"
        "0, 0, 0, 1, 1, 1, 0.10%, 0, 0, 1, 0.00, 0, 20\n"
        "10, 0, 2, 20, 5, 1, 1.00%, 0, 0, 2, 30.00, 300, 300\n"
        "30, 1, 9, 50, 3, 0, 2.00%, 0, 0, 3, 30.00, 900, 420\n")


def test_coverage_edges_and_features_never_share_axis_or_column(tmp_path, figs):
    libfuzzer_and_afl(tmp_path)
    s, camps = report.build_summary(str(tmp_path), mine=False)
    cov = {c["engine"]: c["coverage"] for c in s["campaigns"]}
    assert cov == {"afl": {"edges": 420, "features": None, "features_kind": "features"},
                   "libfuzzer": {"edges": 700, "features": 2500, "features_kind": "libFuzzer ft:"}}
    md = report.render_md(s)
    assert "| edges | features (kind) |" in md and "| 700 | 2,500 (libFuzzer ft:) |" in md and "| 420 | - |" in md
    plots.plot_coverage(s, camps)
    axes = figs[-1].axes
    assert [a.get_ylabel() for a in axes] == ["edges", "features"]
    assert "libFuzzer ft:" in axes[1].get_title() and "not comparable with edges" in axes[1].get_title()
    edges_lines = {ln.get_label(): max(ln.get_ydata()) for ln in axes[0].get_lines()}
    feature_lines = {ln.get_label(): max(ln.get_ydata()) for ln in axes[1].get_lines()}
    assert edges_lines == {"afl/raw": 420, "libfuzzer/raw": 700}  # libFuzzer's edges from its log
    assert feature_lines == {"libfuzzer/raw": 2500}  # features only for libFuzzer, labelled


def test_blackbox_coverage_sum_is_never_drawn_as_edges(tmp_path, figs):
    """The black-box engine's timeline number is behaviours + edges: neither axis takes it;
    its labelled end-of-run counts are drawn as single points on their own axes."""
    (tmp_path / "bb").mkdir()
    (tmp_path / "bb" / "stats.json").write_text(json.dumps({
        "engine": "blackbox", "target": "blackbox", "pipeline": "jsonrepair", "seconds": 10, "execs": 5000,
        "coverage": {"features": 90, "edges": 300},
        "timeline": [{"t": 1, "execs": 500, "coverage": 200, "corpus": 3},
                     {"t": 2, "execs": 1000, "coverage": 390, "corpus": 5}]}))
    s, camps = report.build_summary(str(tmp_path), mine=False)
    c = s["campaigns"][0]
    assert c["pipeline"] == "jsonrepair" and c["coverage"]["features_kind"] == "black-box behaviours"
    assert all(p["edges"] is None and p["features"] is None for p in camps[0]["timeline"])
    plots.plot_coverage(s, camps)
    a1, a2 = figs[-1].axes
    assert [(ln.get_label(), list(ln.get_ydata())) for ln in a1.get_lines()] == \
        [("blackbox/blackbox (end of run only)", [300])]
    assert [list(ln.get_ydata()) for ln in a2.get_lines()] == [[90]]
    assert "black-box behaviours" in a2.get_title()


def test_afl_series_are_lines_from_plot_data(tmp_path, figs):
    libfuzzer_and_afl(tmp_path)
    s, camps = report.build_summary(str(tmp_path), mine=False)
    afl = next(c for c in camps if c["engine"] == "afl")
    assert afl["timeline_source"].endswith("plot_data")
    assert [(p["t"], p["edges"], p["corpus"]) for p in afl["timeline"]] == [(0, 20, 1), (10, 300, 20), (30, 420, 50)]
    plots.plot_corpus(s, camps)
    line = next(ln for ln in figs[-1].axes[0].get_lines() if ln.get_label() == "afl/raw")
    assert list(line.get_xdata()) == [0, 10, 30]  # a line, not one dot
    lf = next(c for c in camps if c["engine"] == "libfuzzer")
    edges = [(round(p["t"], 2), p["edges"]) for p in lf["timeline"] if p["edges"] is not None]
    assert edges == [(0.0, 300), (1.5, 650), (3.0, 700)]  # placed by execution count
    fork = tmp_path / "runs" / "libfuzzer-raw" / "libfuzzer.log"  # fork mode: `#N:` lines with their time
    fork.write_text("#415: cov: 3689 ft: 3689 corp: 42 exec/s 207 oom/timeout/crash: 0/0/0 time: 3s job: 1\n"
                    "#918: cov: 5332 ft: 5582 corp: 146 exec/s 167 oom/timeout/crash: 0/0/0 time: 7s job: 2\n")
    assert load.libfuzzer_edges(str(fork), lf["timeline"]) == [(3.0, 3689), (7.0, 5332)]


def test_signature_cards_add_up_and_minimized_findings_go_home(tmp_path, malform):
    w = tmp_path
    (w / "regression").mkdir()
    (w / "runs" / "lf").mkdir(parents=True)
    (w / "triage").mkdir()
    (w / "findings").mkdir()
    (w / "regression" / "a.raw").write_text(entry(SIG_A, extra=f"original-signature: {SIG_A_ORIG}\n"))
    (w / "regression" / "b.raw").write_text(entry(SIG_B))
    (w / "regression" / "old.raw").write_text(entry("crash SEGV f", status="fixed", kind="crash"))
    (w / "runs" / "lf" / "crash-1").write_text("x")
    dup_sig = "oracle no-data-loss profile=prd rules=json.truncated ops=json.truncate"
    (w / "runs" / "lf" / "stats.json").write_text(json.dumps({
        "engine": "libfuzzer", "target": "raw", "seconds": 1, "execs": 5, "failures": [
            {"signature": SIG_A_ORIG, "oracle": "schema", "kind": "oracle", "file": "crash-1"},
            {"signature": dup_sig, "oracle": "no-data-loss", "kind": "oracle", "file": "crash-1"},
            {"signature": "oracle idempotence profile=prd rules=- ops=-", "oracle": "idempotence",
             "kind": "oracle", "file": "crash-1"}]}))
    (w / "triage" / "triage.json").write_text(json.dumps({"items": [
        {"signature": dup_sig, "status": "duplicate", "entry": "corpus/regression/b.raw"}]}))
    (w / "findings" / "f.raw").write_text(entry(SIG_C, kind="crash", payload="{\"a\": [1,\n"))
    (w / "nightly.json").write_text(json.dumps({"start": "s", "end": "e", "new_signatures": [
        {"signature": "oracle idempotence profile=prd rules=- ops=-", "kind": "oracle", "entry": None}]}))
    s, _ = report.build_summary(str(w), mine=False, malform=malform)
    t = s["totals"]
    assert (t["signatures"], t["new"], t["open"], t["untriaged"], t["fixed"]) == (5, 1, 2, 1, 1)
    assert t["new"] + t["open"] + t["untriaged"] + t["fixed"] == t["signatures"]
    rows = {g["signature"]: g for g in s["signatures"]}
    assert SIG_A_ORIG not in rows and rows[SIG_A]["seen_as"] == [SIG_A_ORIG] and rows[SIG_A]["count"] == 1
    assert dup_sig not in rows and rows[SIG_B]["seen_as"] == [dup_sig]
    assert rows[SIG_C]["status"] == "untriaged" and rows[SIG_C]["pipeline"] == "dirty-json"
    assert rows[SIG_C]["input"] == "{\"a\": [1,\n"
    page = report.render_html(s, [])
    cards = re.search(r'<div class="cards" id="signature-cards">(.*?)</div>\n<p', page, re.S).group(1)
    nums = [int(x) for x in re.findall(r"<b>(\d+)</b>", cards)]
    assert nums[0] == sum(nums[1:]) == 5
    by_oracle = sum(n for d in s["failures_by_oracle"].values() for n in d.values())
    assert by_oracle == 5  # the plot's bars add up to the same total


def test_ops_rejected_is_real_or_gone_and_scales_are_separate(tmp_path, figs):
    c = tmp_path / "c"
    c.mkdir()
    base = {"engine": "libfuzzer", "target": "structured", "seconds": 1, "execs": 100000,
            "ops_applied": {"yaml.colon-space": 90000, "json.truncate": 40000},
            "failures": [{"signature": "oracle schema profile=p rules=- ops=json.truncate", "oracle": "schema",
                          "kind": "oracle", "ops": ["json.truncate"], "rules": [], "profile": "p"}]}
    (c / "stats.json").write_text(json.dumps(base))
    s, camps = report.build_summary(str(tmp_path), mine=False)
    assert s["ops"]["rejected"] == {} and s["ops"]["failed"] == {"json.truncate": 1}
    assert s["ops"]["failed_unit"] == "signatures"
    plots.plot_ops(s, camps)
    a1, a2 = figs[-1].axes
    assert "executions" in a1.get_xlabel() and "signatures" in a2.get_xlabel()
    assert [t.get_text() for t in a2.get_legend().get_texts()] == ["oracle failures (signatures)"]
    assert a2.get_xlim()[1] < 10  # one signature is not drawn against 90,000 executions
    (c / "stats.json").write_text(json.dumps(dict(base, ops_rejected={"json.truncate": 7})))
    s, camps = report.build_summary(str(tmp_path), mine=False)
    plots.plot_ops(s, camps)
    assert [t.get_text() for t in figs[-1].axes[1].get_legend().get_texts()] == \
        ["oracle failures (signatures)", "rejected (cases)"]


def test_nightly_run_is_a_table_and_trend_needs_two_runs(tmp_path):
    (tmp_path / "nightly.json").write_text(json.dumps({
        "version": 1, "start": "2026-11-23T01:00:00Z", "end": "2026-11-23T01:10:00Z", "budget_minutes": 10,
        "engines": ["libfuzzer", "afl"], "phases": [{"name": "build", "seconds": 40.5, "status": "ok"},
                                                   {"name": "fuzz", "seconds": 500.0, "status": "cut short",
                                                    "note": "SIGINT"}],
        "triage": {"found": 3, "new": 1}, "oracles": {"schema": {"pass": 10, "fail": 1}},
        "merge": [], "interrupted": False}))
    s, camps = report.build_summary(str(tmp_path), mine=False)
    page = report.render_html(s, plots.render_all(s, camps))
    night = page[page.index("<h2>Nightly run</h2>"):]
    assert "{&#34;" not in night and '{"' not in night and "[{" not in night  # no JSON dump
    assert "<h3>phases</h3>" in night and "<td>cut short</td>" in night and "<td>SIGINT</td>" in night
    assert "<h3>oracles</h3>" in night and "<td>schema</td>" in night
    assert "<th>budget_minutes</th><td>10</td>" in night and "<td>libfuzzer, afl</td>" in night
    trend = re.search(r'<figure id="plot-trend".*?</figure>', page, re.S).group(0)
    assert "needs two or more nightly runs" in trend and "<img" not in trend


def test_mine_yaml_uses_pyyaml_emitter():
    tricky = [".inf", ".NaN", ".5", "yes", "null", "~", "0123", "1e3", "- x", "a: b", "#c", "'q'", "\"d\"", ""]
    props = [{"id": "enum.w.status." + x, "kind": "enum", "profile": "w", "why": x, "cases": [x],
              "patch": {"enums": {"status": {"map": {x: "done"}}}}, "rejected": 1, "accepted": 0} for x in tricky]
    doc = yaml.safe_load(mine.proposals_yaml(props))
    for p, x in zip(doc["proposals"], tricky):
        assert p["why"] == x and p["cases"] == [x] and list(p["patch"]["enums"]["status"]["map"]) == [x], x


def test_alias_needs_field_evidence_or_a_modelling_op(fix):
    prof = mine.Profile("widget", "w.yaml", mine.load_yaml_file(os.path.join(fix, "profiles", "widget.yaml")))

    def case(i, origin, raw, ops=()):
        c = mine._case(f"c{i}", origin, "widget", raw=raw, result={"status": "rejected", "error": {}}, ops=ops)
        c["parsed"] = {"widget": {"title": "t", "descriptjon": "d"}}
        return c
    fuzzed = [case(1, "regression", "a", ["yaml.colon-space"]), case(2, "failure", "b", ["json.truncate"])]
    withheld = []
    assert mine.propose(fuzzed, {"widget": prof}, {"norm.key-alias"}, withheld) == []
    assert [w["id"] for w in withheld] == ["alias.widget.description.descriptjon"]
    one_field = [case(1, "field", "a"), case(2, "field", "a")]  # the same output twice is one field case
    assert mine.propose(one_field, {"widget": prof}, set(), []) == []
    two_field = [case(1, "field", "a"), case(2, "field", "b")]
    assert [p["evidence"] for p in mine.propose(two_field, {"widget": prof}, set(), [])] == \
        ["2 independent field cases"]
    modelled = [case(1, "regression", "a", ["norm.key-alias"])]
    assert [p["evidence"] for p in mine.propose(modelled, {"widget": prof}, {"norm.key-alias"}, [])] == \
        ["op norm.key-alias models it"]


def test_mining_ignores_readme_and_non_case_files(tmp_path, malform):
    d = tmp_path / "field"
    d.mkdir()
    (d / "README.md").write_text("# field outputs\nkey: value\n")
    (d / "abc.raw").write_text("title: A\n")
    (d / "abc.json").write_text(json.dumps({"sha256": "abc", "profile": "generic_yaml", "note": "n"}))
    (d / "blob.bin").write_bytes(b"\x00\x01\x02")
    problems = []
    cases = mine.collect([str(d)], None, problems, malform)
    assert [(os.path.basename(c["id"]), c["profile"], c["origin"]) for c in cases] == [("abc.raw", "generic_yaml",
                                                                                       "field")]
    assert problems == ["3 file(s) that are not cases (README, metadata JSON, binary) ignored"]


def compare_dir(w):
    d = w / "compare"
    (d / "cases").mkdir(parents=True)
    (d / "cases" / "w1.txt").write_text('{"a": "b", }')
    (d / "cases" / "w2.txt").write_text("```json\n{\"a\":")
    (d / "compare.json").write_text(json.dumps({
        "malform_compare": 1, "pipelines": ["core", "jsonrepair", "dirty-json"],
        "families": {
            "json.trailing-comma": {
                "core": {"restored": 10, "changed": 0, "rejected": 0, "crashed": 0, "total": 10},
                "jsonrepair": {"restored": 9, "changed": 1, "rejected": 0, "crashed": 0, "total": 10,
                               "worst_case": "cases/w1.txt"},
                "dirty-json": {"restored": 3, "changed": 2, "rejected": 4, "crashed": 1, "total": 10,
                               "worst_case": "cases/w2.txt"}},
            "json.truncate": {
                "core": {"restored": 7, "changed": 0, "rejected": 3, "crashed": 0, "total": 10,
                         "worst_case": "cases/missing.txt"}}},
        "disagreements": [{"input": "cases/w1.txt", "values": {"core": "accepted:1a2b", "jsonrepair": "rejected"}}]}))


def test_differential_heatmap_and_worst_cases(tmp_path, figs):
    compare_dir(tmp_path)
    s, camps = report.build_summary(str(tmp_path), mine=False)
    m = s["compare"]
    assert m["pipelines"] == ["core", "jsonrepair", "dirty-json"]
    cell = m["families"]["json.trailing-comma"]["dirty-json"]
    assert (cell["share"], cell["worst"], cell["worst_text"]) == (0.3, "crashed", "```json\n{\"a\":")
    assert m["families"]["json.truncate"]["core"]["worst"] == "rejected"
    plots.plot_compare(s, camps)
    ax = figs[-1].axes[0]
    grid = ax.get_images()[0].get_array()
    assert grid[0].tolist() == [1.0, 0.9, 0.3]  # share restored exactly, family x pipeline
    assert bool(grid.mask[1][1]) and bool(grid.mask[1][2])  # not run: no colour, not 0
    assert [t.get_text() for t in ax.get_xticklabels()] == ["core", "jsonrepair", "dirty-json"]
    assert "3/10" in [t.get_text() for t in ax.texts]
    figs.clear()
    page = report.render_html(s, [{"id": "compare", "title": "c", "png": "QUJD", "missing": None}])
    worst = page[page.index("<h3>Worst cases</h3>"):page.index("<h2>Signatures</h2>")]
    rows = re.findall(r"<tr><td><code>([\w.\-]+)</code></td><td>([\w\-]+)</td>", worst)
    assert rows == [("json.trailing-comma", "dirty-json"), ("json.truncate", "core"),
                    ("json.trailing-comma", "jsonrepair")]  # worst share first; all-restored cells left out
    assert "```json\n{&#34;a&#34;:" in worst and "cases/missing.txt" in worst
    assert "Disagreements between pipelines (1)" in page and "accepted:1a2b" in page


def test_compare_absent_or_malformed(tmp_path):
    s, _ = report.build_summary(str(tmp_path), mine=False)
    assert s["compare"] is None
    (tmp_path / "compare").mkdir()
    (tmp_path / "compare" / "compare.json").write_text(json.dumps({"families": []}))
    s, _ = report.build_summary(str(tmp_path), mine=False)
    assert s["compare"] is None and any("not a `malform compare` matrix" in m for m in s["missing"])


def test_per_pipeline_findings(tmp_path, malform):
    reg = tmp_path / "regression"
    (reg / "jsonrepair").mkdir(parents=True)
    (reg / "a.raw").write_text(entry(SIG_B))
    (reg / "jsonrepair" / "j1.raw").write_text(entry("oracle no-data-loss profile=generic_json rules=- ops=json.truncate "
                                                     "pipeline=jsonrepair", extra="pipeline: jsonrepair\n"))
    (reg / "jsonrepair" / "j2.raw").write_text(entry("timeout pipeline=jsonrepair", status="fixed", kind="timeout"))
    (reg / "jsonrepair" / "j3.raw").write_text(entry(SIG_B, status="fixed"))  # the same signature as core's
    (tmp_path / "bb").mkdir()
    (tmp_path / "bb" / "stats.json").write_text(json.dumps({
        "engine": "blackbox", "target": "blackbox", "pipeline": "dirty-json", "seconds": 1, "execs": 2,
        "failures": [{"signature": SIG_B, "oracle": "no-data-loss", "kind": "oracle", "pipeline": "dirty-json"}]}))
    s, _ = report.build_summary(str(tmp_path), mine=False, malform=malform)
    assert s["pipelines"] == {"core": {"new": 0, "open": 1, "untriaged": 0, "fixed": 0, "total": 1},
                              "dirty-json": {"new": 0, "open": 0, "untriaged": 1, "fixed": 0, "total": 1},
                              "jsonrepair": {"new": 0, "open": 1, "untriaged": 0, "fixed": 2, "total": 3}}
    same = sorted((g["pipeline"], g["status"], g["count"]) for g in s["signatures"] if g["signature"] == SIG_B)
    assert same == [("core", "open", 0), ("dirty-json", "untriaged", 1), ("jsonrepair", "fixed", 0)]
    shutil.rmtree(tmp_path / "bb")
    (tmp_path / "findings").mkdir()  # a finding names its pipeline only in its `pipeline:` header
    (tmp_path / "findings" / "f.raw").write_text(entry(SIG_A, status="new", extra="pipeline: partial-json\n"))
    s, _ = report.build_summary(str(tmp_path), mine=False, malform=malform)
    assert [(g["pipeline"], g["status"]) for g in s["signatures"] if g["signature"] == SIG_A] == \
        [("partial-json", "untriaged")]
    shutil.rmtree(tmp_path / "findings")
    page = report.render_html(s, [])
    table = page[page.index('<h2 id="pipelines">'):page.index("<figure id=\"plot-compare\"")]
    assert "<td>jsonrepair</td><td class=\"n\">3</td>" in table
    (tmp_path / "bb").mkdir()
    (tmp_path / "bb" / "stats.json").write_text(json.dumps({"engine": "blackbox", "target": "blackbox",
                                                            "pipeline": "jsonrepair", "seconds": 1, "execs": 2}))
    (tmp_path / "lf").mkdir()
    (tmp_path / "lf" / "stats.json").write_text(json.dumps({"engine": "libfuzzer", "target": "raw", "seconds": 1}))
    only, _ = report.build_summary(str(tmp_path), mine=False, malform=malform, pipeline="jsonrepair")
    assert only["pipeline"] == "jsonrepair" and only["totals"]["signatures"] == 3
    assert [c["engine"] for c in only["campaigns"]] == ["blackbox"]
    assert "<h1>malform report: pipeline jsonrepair</h1>" in report.render_html(only, [])


def test_rules_not_fired_with_reasons(tmp_path):
    (tmp_path / "nightly.json").write_text(json.dumps({"start": "s", "end": "e", "rules_not_fired": [
        {"rule": "yaml.tab-indent", "reason": "no op builds a tab"}, {"rule": "cand.tag", "reason": "no profile tag"},
        {"bad": 1}, "x"]}))
    s, camps = report.build_summary(str(tmp_path), mine=False)
    assert s["rules"]["not_fired_reasons"] == [{"rule": "cand.tag", "reason": "no profile tag"},
                                               {"rule": "yaml.tab-indent", "reason": "no op builds a tab"}]
    page = report.render_html(s, plots.render_all(s, camps))
    block = page[page.index('id="rules-not-fired"'):]
    assert "<td><code>cand.tag</code></td><td>no profile tag</td>" in block
    s2, _ = report.build_summary(str(tmp_path / "none"), mine=False)
    assert 'id="rules-not-fired"' not in report.render_html(s2, [])


def test_load_entries_without_binary_says_why(tmp_path):
    (tmp_path / "e.raw").write_text(entry(SIG_A))
    problems = []
    assert load.load_entries([str(tmp_path)], None, problems) == []
    assert "needs the malform binary" in problems[0]


def test_worst_structured_case_is_shown_as_the_pipeline_got_it(tmp_path, malform):
    compare_dir(tmp_path)
    case = "malform-case 1\nprofile: generic_json\nop: json.trailing-comma seed=3\n---\n{\"a\": [1, 2], \"b\": 3}\n"
    (tmp_path / "compare" / "cases" / "w2.txt").write_text(case)
    s, _ = report.build_summary(str(tmp_path), mine=False, malform=malform)
    worst = s["compare"]["worst"][0]
    assert (worst["family"], worst["pipeline"]) == ("json.trailing-comma", "dirty-json")
    rendered = subprocess.run([malform, "render", str(tmp_path / "compare" / "cases" / "w2.txt")],
                              capture_output=True, text=True).stdout
    assert worst["worst_text"] == rendered and not rendered.startswith("malform-case")
