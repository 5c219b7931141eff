"""Mining: the clustering keys, the YAML patch output, and the planted families
(a misspelled key, an unknown wrapper) that it must find and, with --check, fix."""
import json
import os
import shutil
import subprocess

import pytest

from conftest import REPO

from malform_reports import mine

FIELD = ("field", "widget")


def _profile(fix):
    return os.path.join(fix, "profiles", "widget.yaml")


def test_strip_positions_and_shape():
    a = mine.strip_positions("did not find expected key at line 3, column 7 (offset 41)")
    b = mine.strip_positions("did not find expected key at line 12, column 1 (offset 300)")
    assert a == b == "did not find expected key at line N, column N (offset N)"
    assert mine.strip_positions("bad value at /items/3/name") == "bad value at /items/N/name"
    assert mine.line_shape("    title: Gear 42, rev 7") == "    a: a 9, a 9"
    assert mine.line_shape("  - id: Q01") == "  - a: a9"
    assert mine.line_shape("  descripton: A small gear.") == mine.line_shape("  title: Teeth on a wheel.")


def test_distance_and_near():
    assert mine.distance("descripton", "description") == 1
    assert mine.distance("titel", "title") == 1  # a transposition is one edit
    assert mine.near("descripton", "description") and mine.near("acceptancecritera", "acceptancecriteria")
    assert not mine.near("id", "ids")  # too short to trust
    assert not mine.near("owner", "notes") and not mine.near("title", "title")


def test_yaml_output_reads_back():
    yaml = pytest.importorskip("yaml", reason="python3-yaml not installed; the YAML round trip needs it")
    props = [{"id": "alias.w.description.descripton", "kind": "alias", "profile": "w", "why": 'key "x": y #z',
              "patch": {"aliases": {"description": ["descripton"]}, "enums": {"status": {"map": {"yes": "done"}}}},
              "cases": ["a b.txt", "c: d.txt"], "rejected": 1, "accepted": 1}]
    doc = yaml.safe_load(mine.proposals_yaml(props))
    p = doc["proposals"][0]
    assert p["why"] == 'key "x": y #z' and p["cases"] == ["a b.txt", "c: d.txt"]
    assert p["patch"] == {"aliases": {"description": ["descripton"]}, "enums": {"status": {"map": {"yes": "done"}}}}


def test_apply_patch_merges():
    doc = {"name": "w", "aliases": {"description": ["desc"]}, "wrappers": ["card"], "enums": {"s": {"values": ["a"]}}}
    out = mine.apply_patch(doc, {"aliases": {"description": ["descripton"], "title": ["titel"]}})
    out = mine.apply_patch(out, {"wrappers": ["payload", "card"], "enums": {"s": {"map": {"aa": "a"}}}})
    assert out["aliases"] == {"description": ["desc", "descripton"], "title": ["titel"]}
    assert out["wrappers"] == ["card", "payload"] and out["enums"]["s"] == {"values": ["a"], "map": {"aa": "a"}}
    assert doc["wrappers"] == ["card"]  # the original is untouched


def test_precomputed_results_without_binary(fix, tmp_path):
    """Result JSON files are mined as they are; profile knowledge comes from the YAML file."""
    pytest.importorskip("yaml", reason="without the malform binary, reading a profile needs python3-yaml")
    d = tmp_path / "results"
    d.mkdir()
    rej = {"status": "rejected", "profile": "widget", "value": None, "warnings": [],
           "error": {"tier": 1, "type": "YAML_SYNTAX_ERROR", "path": "", "line": 2, "column": 9,
                     "message": "mapping values are not allowed here (line 2, column 9)"}}
    for i, raw in enumerate(["widget:\n  title: a: b\n", "widget:\n  owner: c: d\n"]):
        (d / f"case{i}.txt").write_text(raw)
        (d / f"case{i}.result.json").write_text(json.dumps(dict(rej, error=dict(rej["error"], column=9 + i))))
    ok = {"status": "accepted", "profile": "widget", "warnings": [], "error": None,
          "value": {"widget": {"title": "t", "description": "d", "status": "draft", "titel": "x"}}}
    (d / "ok.result.json").write_text(json.dumps(ok))
    (d / "README.md").write_text("# field outputs of the widget profile\ntitle: not a case\n")
    m = mine.mine([str(d)], profile=_profile(fix), malform=None, profiles_dir=os.path.join(fix, "profiles"),
                  ops_reg=[])
    assert m["cases"] == 3 and m["failing"] == 2  # the README is no case
    assert m["proposals"] == [] and [w["id"] for w in m["withheld"]] == ["alias.widget.title.titel"]
    ok2 = dict(ok, value={"widget": {"title": "u", "description": "e", "status": "done", "titel": "y"}})
    (d / "ok2.result.json").write_text(json.dumps(ok2))
    m = mine.mine([str(d)], profile=_profile(fix), malform=None, profiles_dir=os.path.join(fix, "profiles"),
                  ops_reg=[])
    assert m["cases"] == 4 and m["failing"] == 2
    assert len(m["families"]) == 1  # same error, positions stripped, same line shape
    f = m["families"][0]
    assert f["count"] == 2 and f["field_cases"] == 2 and f["shape"] == "  a: a: a"
    assert f["problem"] == "mapping values are not allowed here (line N, column N)"
    # an unknown key riding along in an accepted value is an alias proposal too
    assert [p["id"] for p in m["proposals"]] == ["alias.widget.title.titel"]
    assert m["proposals"][0]["accepted"] == 2 and m["proposals"][0]["evidence"] == "2 independent field cases"


def test_planted_families_found_and_fixed(fix, malform):
    m = mine.mine([os.path.join(fix, *FIELD)], profile=_profile(fix), malform=malform, do_check=True,
                  profiles_dir=os.path.join(fix, "profiles"))
    assert m["problems"] == []
    props = {p["id"]: p for p in m["proposals"]}
    alias = props["alias.widget.description.descripton"]
    assert alias["patch"] == {"aliases": {"description": ["descripton"]}}
    assert sorted(os.path.basename(c) for c in alias["cases"]) == ["misspelled-1.txt", "misspelled-2.txt",
                                                                   "misspelled-3.txt"]
    wrap = props["wrapper.widget.payload"]
    assert wrap["patch"] == {"wrappers": ["payload"]}
    assert sorted(os.path.basename(c) for c in wrap["cases"]) == ["wrapper-1.txt", "wrapper-2.txt"]
    for p in (alias, wrap):  # --check: the patched profile fixes every case and breaks none
        assert p["check"] == {"targets": len(p["cases"]), "fixed": len(p["cases"]), "newly_accepted": 0,
                              "broken": 0, "error": None}, p["id"]
    assert props["enum.widget.status.donne"]["patch"] == {"enums": {"status": {"map": {"donne": "done"}}}}
    assert props["prose.widget.description"]["patch"] == {"prose_fields": ["description"]}
    for p in m["proposals"]:  # clean cases never back a proposal
        assert not any("clean-" in c for c in p["cases"])
    fams = m["families"]
    assert fams[0]["count"] == 3 and os.path.basename(fams[0]["example"]) == "misspelled-1.txt"
    syntax = [f for f in fams if f["error_type"] == "YAML_SYNTAX_ERROR"]
    assert any(sorted(os.path.basename(c) for c in f["cases"]) == ["syntax-1.txt", "syntax-2.txt"] for f in syntax)
    assert all(not any("clean-" in c for c in f["cases"]) for f in fams)
    assert [f["count"] for f in fams] == sorted((f["count"] for f in fams), reverse=True)


def test_check_reports_a_harmful_patch(fix, malform):
    """A patch that would reject accepted cases is counted as broken, not as a fix."""
    prof = mine.Profile("widget", _profile(fix), mine.load_yaml_file(_profile(fix), malform))
    cases = mine.collect([os.path.join(fix, *FIELD)], _profile(fix), [])
    mine.run_cases(cases, malform, [], os.path.join(fix, "profiles"))
    for c in cases:
        c["profile"] = "widget"
    accepted = sum(1 for c in cases if c["result"]["status"] == "accepted")
    assert accepted == 2  # clean-1, clean-2
    bad = {"id": "schema.widget.gadget", "kind": "schema", "profile": "widget",
           "patch": {"schema": {"type": "object", "required": ["gadget"]}}, "issue": {"key": "descripton"},
           "cases": [c["id"] for c in cases if "misspelled-" in c["id"]]}
    mine.check([bad], cases, {"widget": prof}, malform, [])
    assert bad["check"] == {"targets": 3, "fixed": 0, "newly_accepted": 0, "broken": 2, "error": None}


def test_mine_workdir_and_regression(fix, malform, tmp_path):
    """A work dir's regression entries and campaign failures are mined with their op ids."""
    w = tmp_path / "work"
    (w / "regression").mkdir(parents=True)
    (w / "libfuzzer" / "structured" / "artifacts").mkdir(parents=True)
    for i, title in enumerate(["Gear", "Cog wheel"]):
        (w / "regression" / f"sig{i}.raw").write_text(
            f"malform-regression 1\nsignature: oracle schema profile=widget rules=norm.key-alias ops=alias.key\n"
            f"kind: oracle\noracle: schema\nprofile: widget\ntarget: field\n"
            f"status: open\n---\nwidget:\n  title: {title}\n  descripton: x\n  status: done\n")
    (w / "regression" / "old.raw").write_text("malform-regression 1\nsignature: crash SEGV f\nkind: crash\n"
                                              "status: fixed\nprofile: widget\n---\nwidget: [\n")
    (w / "libfuzzer" / "structured" / "artifacts" / "crash-1").write_text("payload:\n  widget:\n    title: A\n"
                                                                          "    description: B\n    status: done\n")
    (w / "libfuzzer" / "structured" / "stats.json").write_text(json.dumps(
        {"engine": "libfuzzer", "target": "structured", "failures": [
            {"signature": "oracle accounting profile=widget rules=- ops=wrap.key", "oracle": "accounting", "kind": "oracle",
             "file": "artifacts/crash-1", "profile": "widget"}]}))
    m = mine.mine([str(w)], malform=malform, profiles_dir=os.path.join(fix, "profiles"))
    assert m["cases"] == 3  # the fixed entry is left out
    assert m["families"][0]["count"] == 2 and m["families"][0]["ops"] == ["alias.key"]
    assert m["families"][0]["oracle"] == "schema"
    assert {p["id"] for p in m["proposals"]} == {"alias.widget.description.descripton", "wrapper.widget.payload"}


def test_mine_cli(fix, malform, tmp_path):
    out = tmp_path / "patch.yaml"
    p = subprocess.run([malform, "mine", "--profile", _profile(fix), "--check", "-o", str(out),
                        os.path.join(fix, *FIELD)], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    assert "12 case(s), 10 failing" in p.stdout
    text = out.read_text()
    assert "descripton" in text and "fixed 3 of 3; 0 other case(s) now accepted; 0 broken" in text
    assert "fixed 2 of 2" in text


def test_profile_copy_is_untouched(fix, malform, tmp_path):
    """--check works on copies: the profile files are not modified."""
    src = tmp_path / "profiles"
    shutil.copytree(os.path.join(fix, "profiles"), src)
    before = (src / "widget.yaml").read_text()
    mine.mine([os.path.join(fix, *FIELD)], profile=str(src / "widget.yaml"), malform=malform, do_check=True,
              profiles_dir=str(src))
    assert (src / "widget.yaml").read_text() == before
    assert sorted(os.listdir(src)) == ["widget.yaml"]
    assert os.path.isdir(os.path.join(REPO, "core", "profiles"))
