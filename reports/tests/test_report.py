"""The report: fixture work dirs (full, empty, interrupted, garbage) render
without a traceback, every plot is present, summary.json keeps its schema."""
import base64
import json
import os
import re
import subprocess
import sys

import pytest

from conftest import MALFORM, REPO

from malform_reports import cli, load, plots, report

PLOT_IDS = [p for p, _ in plots.PLOTS]
DRAWN = [p for p in PLOT_IDS if p != "compare"]  # the fixtures have no differential matrix


def _write(fix, work, out, **kw):
    if not os.access(MALFORM, os.X_OK):
        pytest.skip(f"malform binary not built at {MALFORM} (regression entries are read by `malform inspect`)")
    return report.write_report(os.path.join(fix, work), str(out), history_dir=os.path.join(fix, "history"),
                               rules_file=os.path.join(fix, "work_full", "rules.json"),
                               ops_file=os.path.join(fix, "work_full", "ops.json"), mine=False, malform=MALFORM, **kw)


def _figures(page):
    """{plot id: figure html} of every <figure data-plot=...> in the page."""
    return {m.group(1): m.group(2) for m in
            re.finditer(r'<figure id="plot-([\w]+)" data-plot="\1">(.*?)</figure>', page, re.S)}


def check_summary_schema(s):
    """summary.json as documented in reports/README.md."""
    assert s["schema"] == "malform-report/1"
    for k, t in {"generated": str, "workdir": str, "run": dict, "missing": list, "campaigns": list,
                 "totals": dict, "rules": dict, "ops": dict, "verdicts": dict, "failures_by_oracle": dict,
                 "failures_by_profile": dict, "signatures": list, "trend": list, "plots": list}.items():
        assert isinstance(s[k], t), k
    assert isinstance(s["run"]["interrupted"], bool)
    assert all(isinstance(m, str) for m in s["missing"])
    for k in ("campaigns", "execs", "seconds", "failures", "signatures", "new", "open", "untriaged", "fixed"):
        assert isinstance(s["totals"][k], (int, float)), k
    for c in s["campaigns"]:
        assert set(c) >= {"engine", "target", "seconds", "execs", "execs_per_sec", "coverage", "corpus",
                          "failures", "interrupted", "path", "timeline_source"}
        assert set(c["coverage"]) == {"edges", "features", "features_kind"}
    assert set(s["rules"]) == {"fired", "registry", "never_fired", "not_fired_reasons"}
    assert set(s["ops"]) == {"applied", "failed", "failed_unit", "rejected", "registry", "never_applied"}
    for g in s["signatures"]:
        assert set(g) >= {"signature", "oracle", "kind", "profile", "pipeline", "first_seen", "engine", "status",
                          "new", "reproduce", "input", "file", "seen_as"}
        assert g["status"] in ("open", "fixed", "untriaged")
    t = s["totals"]
    assert t["new"] + t["open"] + t["untriaged"] + t["fixed"] == t["signatures"] == len(s["signatures"])
    for r in s["trend"]:
        assert set(r) == {"label", "new", "still_open", "fixed"}
    assert s["plots"] == PLOT_IDS


def test_full_report(fix, tmp_path):
    s = _write(fix, "work_full", tmp_path)
    page = (tmp_path / "report.html").read_text()
    figs = _figures(page)
    assert sorted(figs) == sorted(PLOT_IDS)
    assert "No differential matrix" in figs.pop("compare")
    for pid, body in figs.items():  # every plot is an embedded PNG
        imgs = re.findall(r'<img [^>]*src="data:image/png;base64,([A-Za-z0-9+/=]+)"', body)
        assert len(imgs) == 1, pid
        assert base64.b64decode(imgs[0])[:8] == b"\x89PNG\r\n\x1a\n"
    assert "http://" not in page and "https://" not in page  # self-contained
    on_disk = json.loads((tmp_path / "summary.json").read_text())
    check_summary_schema(on_disk)
    assert on_disk["totals"]["campaigns"] == 3 and s["totals"]["execs"] == 49200 + 301200 + 88008
    assert s["rules"]["registry"] == 10
    assert s["rules"]["never_fired"] == ["cand.tag-envelope", "yaml.duplicate-key", "yaml.tab-indent"]
    assert s["rules"]["fired"]["json.trailing-comma"] == 44  # 0 in one campaign, 44 in another
    assert s["ops"]["never_applied"] == ["json.python-literal", "yaml.dash-space"]
    assert s["ops"]["failed"]["yaml.unclosed-quote"] == 12 and s["ops"]["rejected"]["prefix.transcript"] == 36
    sigs = {g["signature"]: g for g in s["signatures"]}
    assert len(sigs) == 4
    new = [g for g in s["signatures"] if g["new"]]
    assert [g["signature"] for g in new] == ["oracle accounting profile=beads rules=norm.wrapper ops=wrap.key"]
    assert new[0]["status"] == "untriaged" and new[0]["input"].startswith("output:")
    crash = sigs["crash heap-buffer-overflow mf_yaml_scan < mf_yaml_load"]
    assert (crash["status"], crash["first_seen"], crash["input"]) == ("fixed", "2024-05-01", "a: [\n")
    assert s["failures_by_oracle"]["no-data-loss"] == {"open": 1}
    assert s["failures_by_profile"]["interview"] == {"open": 1}
    assert s["totals"] | {} == s["totals"] and (s["totals"]["new"], s["totals"]["open"], s["totals"]["untriaged"],
                                                  s["totals"]["fixed"]) == (1, 2, 0, 1)
    assert [(r["new"], r["still_open"], r["fixed"]) for r in s["trend"]] == [(2, 0, 0), (1, 1, 1), (1, 2, 0)]
    assert s["rules"]["not_fired_reasons"] == [{"rule": "yaml.tab-indent",
                                                "reason": "no op builds a tab-indented line (yaml ops keep spaces)"}]
    assert "no op builds a tab-indented line" in page
    # the minimized input is shown inline, escaped, with its reproduce command
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "<script>alert" not in page
    assert "malform check --profile interview corpus/regression/oracle-no-data-loss" in page
    assert s["missing"] == ["campaign afl/raw: requested but no usable stats.json"]
    md = (tmp_path / "summary.md").read_text()
    assert "| libfuzzer | structured | 120 | 88,008 | 733 | 640 | 1,826 (libFuzzer ft:) |" in md
    assert "| **new** |" in md and "signatures: 4 = 1 new + 2 open + 0 untriaged + 1 fixed" in md
    # executions the harness judged valid renders (an op's mistake) are counted apart from failures
    assert s["totals"]["valid_renders"] == 7 and [c["valid_renders"] for c in s["campaigns"]].count(7) == 1
    assert "- valid renders: 7 executions whose damage loaded strictly as another value" in md


def test_empty_workdir(fix, tmp_path):
    s = _write(fix, "work_empty", tmp_path)
    page = (tmp_path / "report.html").read_text()
    figs = _figures(page)
    assert sorted(figs) == sorted(PLOT_IDS)
    # rules and ops still plot from the registries (everything never fired), the trend from the
    # history (this run adds a zero); the rest say why they are empty
    for pid in ("coverage", "corpus", "execs_per_sec", "failures", "compare", "ops"):
        assert '<p class="absent">' in figs[pid] and "<img" not in figs[pid], pid
    assert "never applied" in figs["ops"]  # the registry's ops listed as never applied, not drawn as empty bars
    for pid in ("rules", "trend"):
        assert "data:image/png;base64," in figs[pid], pid
    assert s["trend"][-1] == {"label": "this run", "new": 0, "still_open": 0, "fixed": 0}
    assert len(s["rules"]["never_fired"]) == 10
    check_summary_schema(json.loads((tmp_path / "summary.json").read_text()))
    assert s["totals"]["campaigns"] == 0 and s["signatures"] == []
    assert "needs two or more nightly runs" not in figs["trend"]  # the history gives it three runs
    assert any("no stats.json" in m for m in s["missing"])
    assert any("nightly.json: not found" in m for m in s["missing"])
    assert "No campaign results" in page and "Traceback" not in page
    assert "No nightly.json in this work dir." in page  # not a table of one made-up field


def test_interrupted_workdir(fix, tmp_path):
    s = _write(fix, "work_interrupted", tmp_path)
    check_summary_schema(json.loads((tmp_path / "summary.json").read_text()))
    assert s["run"]["interrupted"] is True
    assert s["missing"][0].startswith("run was interrupted")
    assert any("libfuzzer/raw/stats.json: invalid JSON" in m for m in s["missing"])
    assert any(m.startswith("engine afl: requested but no usable stats.json") for m in s["missing"])
    assert [c["engine"] + "/" + c["target"] for c in s["campaigns"]] == ["libfuzzer/structured"]
    page = (tmp_path / "report.html").read_text()
    assert "<b>Interrupted run.</b>" in page and "status st-open\">interrupted</span>" in page
    assert "Interrupted run" in (tmp_path / "summary.md").read_text()
    assert "data:image/png;base64," in _figures(page)["coverage"]


def test_missing_workdir_and_no_registry(tmp_path):
    s = report.write_report(str(tmp_path / "nope"), str(tmp_path / "out"), mine=False)
    assert "needs two or more nightly runs" in _figures((tmp_path / "out" / "report.html").read_text())["trend"]
    assert (tmp_path / "out" / "report.html").exists()
    assert any("does not exist" in m for m in s["missing"])
    assert s["rules"]["registry"] is None
    assert sorted(_figures((tmp_path / "out" / "report.html").read_text())) == sorted(PLOT_IDS)


def test_garbage_inputs(tmp_path):
    w = tmp_path / "w"
    (w / "odd" / "one").mkdir(parents=True)
    (w / "odd" / "one" / "stats.json").write_text(json.dumps(
        {"engine": 5, "execs": "abc", "seconds": None, "coverage": [1], "timeline": "x", "failures": {"a": 1},
         "rules_fired": ["yaml.colon-space", "yaml.colon-space"], "verdicts": {"schema": 3}}))
    (w / "empty").mkdir()
    (w / "empty" / "stats.json").write_text("")
    (w / "nightly.json").write_text("[1, 2]")
    (w / "regression").mkdir()
    (w / "regression" / "noheader.raw").write_bytes(b"\xff\xfe not utf8 {{{")
    (w / "regression" / "headeronly.case").write_text("signature: x\nstatus: weird\n---\n")
    if not os.access(MALFORM, os.X_OK):
        pytest.skip(f"malform binary not built at {MALFORM}")
    s = report.write_report(str(w), str(tmp_path / "out"), mine=False, history_dir=str(tmp_path / "nohist"),
                            malform=MALFORM)
    check_summary_schema(json.loads((tmp_path / "out" / "summary.json").read_text()))
    assert s["campaigns"][0]["engine"] == "5" and s["campaigns"][0]["execs"] == 0
    assert s["rules"]["fired"] == {"yaml.colon-space": 2}
    assert s["signatures"] == []  # neither file is an entry the C parser accepts
    text = "\n".join(s["missing"])
    for needle in ("empty file", "nightly.json: not a JSON object", "regression noheader.raw: neither a regression entry",
                   "regression headeronly.case: neither a regression entry", "history"):
        assert needle in text, needle


def test_every_field_with_every_wrong_type(tmp_path):
    """No value of the wrong type in stats.json or nightly.json costs the report."""
    base = json.loads(open(os.path.join(os.path.dirname(__file__), "fixtures", "work_full", "libfuzzer",
                                        "structured", "stats.json")).read())
    wrong = [None, "x", "12", 5, -1.5, True, [], {}, [1, "a", None, {"t": "z"}], {"a": "b", "c": [1]}]
    (tmp_path / "c").mkdir()
    for key in list(base) + ["interrupted", "ops_failed", "ops_rejected"]:
        for v in wrong:
            d = dict(base, **{key: v})
            (tmp_path / "c" / "stats.json").write_text(json.dumps(d))
            (tmp_path / "nightly.json").write_text(json.dumps({"engines": v, "targets": v, "start": v,
                                                                "new_signatures": v, "regression": v}))
            s, camps = report.build_summary(str(tmp_path), mine=False)
            json.dumps(s)
            if isinstance(v, list) and v:  # plotting is slow: once per key, with the mixed junk
                figs = plots.render_all(s, camps)
                assert not [f for f in figs if (f["missing"] or "").startswith("Plot failed")], key
                report.render_html(s, figs)
    for f in ([{"signature": 1, "file": 2, "ops": "x"}], [[1]], [None, "sig"]):
        (tmp_path / "c" / "stats.json").write_text(json.dumps(dict(base, failures=f)))
        s, _ = report.build_summary(str(tmp_path), mine=False)
        report.render_html(s, [])


def test_entries_and_signatures_parsed_by_c(tmp_path, malform):
    """Regression entries, their structured payloads and signatures come from
    `malform inspect`; Python parses none of those formats itself."""
    d = tmp_path / "regression"
    (d / "jsonrepair").mkdir(parents=True)
    (d / "a.case").write_text("malform-regression 1\nsignature: oracle schema profile=prd rules=- ops=yaml.colon-space\n"
                              "kind: oracle\noracle: schema\nstatus: open\nfirst-seen: 2026-11-21\n---\n"
                              "malform-case 1\nprofile: prd\nop: yaml.colon-space seed=7\n---\ntitle: x\n")
    (d / "jsonrepair" / "b.raw").write_text("malform-regression 1\nsignature: crash exit 3 pipeline=jsonrepair\n"
                                            "kind: crash\nstatus: fixed\n---\n{\"a\":\n")
    (d / "README.md").write_text("not an entry\n")
    problems = []
    es = {e["name"]: e for e in load.load_entries([str(d)], malform, problems)}
    assert problems == [] and sorted(es) == ["a.case", "b.raw"]
    a, b = es["a.case"], es["b.raw"]
    assert (a["profile"], a["ops"], a["rules"], a["first_seen"], a["pipeline"]) == \
        ("prd", ["yaml.colon-space"], [], "2026-11-21", None)
    assert a["case"]["ops"] == [{"id": "yaml.colon-space", "seed": 7, "params": ""}]
    assert (b["pipeline"], b["status"], b["type"], b["input"]) == ("jsonrepair", "fixed", "raw", "{\"a\":\n")
    got = cli.signatures(malform, ["oracle idempotence profile=task_breakdown rules=json.control-char,json.inner-quote "
                                   "ops=-", "timeout pipeline=dirty-json"], problems)
    o = got["oracle idempotence profile=task_breakdown rules=json.control-char,json.inner-quote ops=-"]
    assert (o["kind"], o["oracle"], o["profile"], o["rules"], o["ops"]) == \
        ("oracle", "idempotence", "task_breakdown", ["json.control-char", "json.inner-quote"], [])
    assert got["timeout pipeline=dirty-json"]["pipeline"] == "dirty-json"
    assert load.load_entries([str(d)], None, problems) == [] and "needs the malform binary" in problems[-1]


def test_inspect_cli(tmp_path, malform):
    (tmp_path / "e.raw").write_bytes(b"malform-regression 1\nsignature: crash SEGV f\nkind: crash\nstatus: open\n"
                                     b"---\n\xff\x00a")
    p = subprocess.run([malform, "inspect", "--json", str(tmp_path / "e.raw"), str(tmp_path)], capture_output=True)
    assert p.returncode == 0, p.stderr
    items = json.loads(p.stdout)["items"]
    assert len(items) == 2 and items[0]["payload_base64"] == base64.b64encode(b"\xff\x00a").decode()
    assert items[0]["signature"]["crash"] == "SEGV" and items[0]["signature"]["frames"] == "f"
    for bad in (["inspect"], ["inspect", "--nope", "x"], ["inspect", str(tmp_path / "missing")]):
        p = subprocess.run([malform] + bad, capture_output=True, text=True)
        assert p.returncode == 2 and p.stderr, bad
    p = subprocess.run([malform, "inspect", "--help"], capture_output=True, text=True)
    assert p.returncode == 0 and p.stdout.startswith("usage: malform inspect")


def test_lifecycle_signatures_in_stats(tmp_path, malform):
    """`malform fuzz` writes the lifecycle's signature (mf_lc_classify), with or
    without explicit profile/ops/rules fields; "-" means none. The campaign
    failure and the regression entry of the same bug merge into one row."""
    sig = "oracle idempotence profile=task_breakdown rules=json.control-char,json.inner-quote ops=-"
    fs = [load._failure({"signature": sig, "oracle": "idempotence", "kind": "oracle", "file": "x"}),
          load._failure({"signature": "oracle schema profile=prd rules=- ops=wrap.key,yaml.tab", "kind": "oracle"}),
          load._failure({"signature": "crash heap-buffer-overflow mf_a < mf_b", "kind": "crash", "oracle": ""})]
    load.fill_from_signatures(fs, malform, [])
    assert fs[0]["profile"] == "task_breakdown" and fs[0]["ops"] == []
    assert fs[0]["rules"] == ["json.control-char", "json.inner-quote"]
    assert fs[1]["profile"] == "prd" and fs[1]["ops"] == ["wrap.key", "yaml.tab"] and fs[1]["rules"] == []
    assert fs[2]["profile"] is None and fs[2]["ops"] == [] and fs[2]["rules"] == []
    work = tmp_path / "w"
    (work / "libfuzzer").mkdir(parents=True)
    (work / "regression").mkdir()
    (work / "regression" / "e.raw").write_text(
        f"malform-regression 1\nsignature: {sig}\nkind: oracle\noracle: idempotence\nstatus: open\n---\n{{}}\n")
    (work / "libfuzzer" / "stats.json").write_text(json.dumps({
        "engine": "libfuzzer", "target": "raw", "seconds": 1, "execs": 10,
        "failures": [{"signature": sig, "oracle": "idempotence", "kind": "oracle", "file": "crash-1",
                      "reproducible": True, "profile": "task_breakdown", "ops": [],
                      "rules": ["json.control-char", "json.inner-quote"]}]}))
    s, _ = report.build_summary(str(work), mine=False, malform=malform)
    rows = [g for g in s["signatures"] if g["signature"] == sig]
    assert len(rows) == 1 and rows[0]["status"] == "open" and rows[0]["profile"] == "task_breakdown"
    assert rows[0]["count"] == 1 and len(s["signatures"]) == 1


def test_cli_entry_point(fix, tmp_path):
    env = dict(os.environ, PYTHONPATH=os.path.join(REPO, "reports"))
    p = subprocess.run([sys.executable, "-m", "malform_reports", "report", os.path.join(fix, "work_interrupted"),
                        "--no-mine", "--rules", os.path.join(fix, "work_full", "rules.json"), "-o", str(tmp_path)],
                       env=env, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert "report.html" in p.stdout and (tmp_path / "summary.md").exists()
    for args in (["report", str(tmp_path / "missing")], ["mine", str(tmp_path / "missing")], ["report", "--nope"]):
        p = subprocess.run([sys.executable, "-m", "malform_reports"] + args, env=env, capture_output=True, text=True)
        assert p.returncode == 2, args
        assert p.stderr.startswith(f"usage: malform {args[0]}") or p.stderr.startswith(f"malform {args[0]}:"), p.stderr
        assert "malform_reports" not in p.stderr


def test_report_through_malform(fix, tmp_path, malform):
    p = subprocess.run([malform, "report", os.path.join(fix, "work_full"), "--history", os.path.join(fix, "history"),
                        "-o", str(tmp_path)], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    s = json.loads((tmp_path / "summary.json").read_text())
    check_summary_schema(s)
    assert s["rules"]["registry"] and s["rules"]["registry"] > 10  # the real registry, from the binary
    assert s["mining"] is not None
    m = s["mining"]
    if m["families"]:  # failing cases, not every case read, are what the families hold
        assert sum(f["count"] for f in m["families"]) == m["failing"]
        assert f"{m['failing']} failing case" in (tmp_path / "report.html").read_text()
