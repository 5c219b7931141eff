"""Each third-party adapter and seed reference pipeline under harness/pipelines/:
it starts from its definition's command in its workdir, sends a handshake that
matches the definition, and answers one request the way the library does.
Skipped (with the reason) when node, the npm packages or a Python module is missing."""
import json
import os
import shutil
import subprocess
import sys

import pytest
import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
PIPES = os.path.dirname(HERE)
TASKS = {"story_id": "US-004", "architectural_conflict": False, "tasks": [
    {"task_id": "T-US-004-01", "description": "Create the config module", "files_to_create": ["src/config.ts"]},
    {"task_id": "T-US-004-02", "description": "Print the home dir", "command_to_run": "echo"}]}


def run(name, requests):
    """(handshake, responses) of pipeline `name` for the given requests."""
    with open(os.path.join(PIPES, name + ".yaml"), encoding="utf-8") as f:
        d = yaml.safe_load(f)
    lib = "node/malform-pipeline.js" if d["command"].startswith("node ") else "python/malform_pipeline.py"
    if not os.path.exists(os.path.join(PIPES, lib)):
        pytest.skip(f"{name}: the protocol library {lib} is not in this tree")
    for prog in d.get("requires") or []:
        if not shutil.which(prog):
            pytest.skip(f"{name}: {prog} not on PATH")
    for need in d.get("needs") or []:
        if not os.path.exists(os.path.join(PIPES, need)):
            pytest.skip(f"{name}: {need} missing (run tools/setup-deps.sh)")
    cmd = d["command"].replace("python3 ", sys.executable + " ", 1) if d["command"].startswith("python3 ") else d["command"]
    lines = "".join(json.dumps(dict(r, id=i + 1)) + "\n" for i, r in enumerate(requests))
    p = subprocess.run(["/bin/sh", "-c", cmd], cwd=os.path.join(PIPES, d.get("workdir") or "."), input=lines,
                       capture_output=True, text=True, timeout=60)
    out = [json.loads(x) for x in p.stdout.splitlines()]
    assert out, p.stderr
    hello = out[0]
    assert hello["malform_pipeline"] == 1 and hello["name"] == d["name"] == name
    assert hello["formats"] == d["formats"] and hello["profiles"] == d["profiles"]
    assert [r["id"] for r in out[1:]] == list(range(1, len(requests) + 1)), p.stderr
    return hello, out[1:]


def req(text, profile="generic_json", fmt="json", **options):
    return {"profile": profile, "format": fmt, "input": text, "options": options}


@pytest.mark.parametrize("name", ["dirty-json", "best-effort-json-parser", "partial-json"])
def test_json_repairers(name):
    _, (ok, trailing) = run(name, [req('{"a": [1, 2], "b": "x"}'), req('{"a": [1, 2,], "b": "x"')])
    assert ok == {"id": 1, "status": "accepted", "value": {"a": [1, 2], "b": "x"}}
    assert trailing == {"id": 2, "status": "accepted", "value": {"a": [1, 2], "b": "x"}}  # trailing comma, cut off


def test_dirty_json_library_bug_is_a_crash_not_a_rejection():
    _, (empty, bad) = run("dirty-json", [req(""), req("}{")])
    assert empty["status"] == "crashed" and empty["error"]["type"] == "TypeError"
    assert bad["status"] == "rejected"


def test_js_yaml_reparse():
    hello, (clean, fixed, broken) = run("js-yaml-reparse", [
        req("title: x\nitems: [1, 2]\n", fmt="yaml"), req("title:Gear\nnote: a: b\n", fmt="yaml"),
        req("a: [\n", fmt="yaml")])
    assert hello["warnings"] is True
    assert clean == {"id": 1, "status": "accepted", "value": {"title": "x", "items": [1, 2]}, "warnings": []}
    assert fixed["value"] == {"title": "Gear", "note": "a: b"}
    assert [w["rule"] for w in fixed["warnings"]] == ["yaml.colon-space", "yaml.plain-colon"]
    assert broken["status"] == "rejected" and broken["error"]["type"] == "YAMLException"


def test_seed002_extractor_and_its_us004_weakness():
    text = json.dumps(TASKS)
    literal = text.replace('"echo"', '`echo "${HOME}"`')
    _, (ok, fenced, us004) = run("seed002-task-breakdown", [
        req(text, "task_breakdown", story_id="US-004"),
        req("Here it is:\n```json\n" + text + "\n```\n", "task_breakdown"),
        req(literal, "task_breakdown")])
    assert ok["status"] == fenced["status"] == "accepted" and ok["value"] == fenced["value"] == TASKS
    # the template literal leaves the brace counter with only the first task as a valid candidate
    assert us004["status"] == "rejected" and us004["error"]["type"] == "INVALID_BREAKDOWN"
    assert "description" in us004["error"]["message"] and "'tasks'" not in us004["error"]["message"]


def test_seed003_normalizes_then_validates():
    doc = {"investor_id": "inv-1", "decision": "Invest", "conviction_score": 7.0, "reasoning": ["a", "b"],
           "key_conditions": "c"}
    _, (ok, bad) = run("seed003-investor-decision", [req(json.dumps(doc), "investor_decision"),
                                                     req('{"decision": "maybe"}', "investor_decision")])
    assert ok["status"] == "accepted" and ok["value"] == dict(
        doc, decision="invest", conviction_score=7, reasoning="a\nb", funding_ask="Not specified",
        market_size_estimate="To be determined")
    assert bad["status"] == "rejected" and bad["error"]["type"] == "SCHEMA_VIOLATION"


def test_seed004_three_tiers():
    rule = "name: telemetry\nglob: /data/*/*.csv\nextract:\n  mission:\n    from: segment(1)\n"
    _, (ok, tier1, tier2, tier3) = run("seed004-extraction-rule", [
        req("```yaml\n" + rule + "```\n", "extraction_rule", "yaml", sample_paths=["/data/m42/a.csv"]),
        req("name: x\nglob: [\n", "extraction_rule", "yaml"),
        req("name: Bad Name\nglob: '*'\n", "extraction_rule", "yaml"),
        req(rule, "extraction_rule", "yaml", sample_paths=["/other/file.txt"])])
    assert ok["status"] == "accepted" and ok["value"]["extract"] == {"mission": {"from": "segment(1)"}}
    assert [r["error"]["type"] for r in (tier1, tier2, tier3)] == ["YAML_SYNTAX_ERROR", "SCHEMA_VIOLATION",
                                                                   "GLOB_MISMATCH"]
