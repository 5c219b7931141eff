"""seed004-extraction-rule: seed 004's three-tier validation of a YAML
extraction rule as a malform pipeline, written from the seed's code: tier 1
strip_code_fences + yaml.safe_load (YAML_SYNTAX_ERROR with its line), tier 2
jsonschema.validate against the seed's YAML_SCHEMA plus re.compile of every
pattern (SCHEMA_VIOLATION, INVALID_REGEX), tier 3 on options.sample_paths
when the request carries them (GLOB_MISMATCH, EMPTY_EXTRACTION,
TYPE_COERCION_FAILED). PyYAML's YAML 1.1 typing is kept as the seed has it
(a date becomes a date, `yes` a boolean); dates reach malform as ISO strings."""
import datetime
import fnmatch
import os
import re
import sys

import jsonschema
import yaml

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from malform_pipeline import Rejected, serve  # noqa: E402

YAML_SCHEMA = {
    "type": "object",
    "required": ["name", "glob"],
    "properties": {
        "version": {"type": "integer", "enum": [1]},
        "name": {"type": "string", "minLength": 1, "pattern": "^[a-z][a-z0-9_]*$"},
        "glob": {"type": "string", "minLength": 1},
        "extract": {"oneOf": [{"type": "null"}, {"type": "object", "additionalProperties": {
            "type": "object", "required": ["from"], "properties": {
                "from": {"type": "string", "pattern": "^(segment\\(-?\\d+\\)|filename|full_path|rel_path)$"},
                "pattern": {"type": "string"},
                "type": {"type": "string", "enum": ["string", "integer", "date", "uuid"]},
                "normalize": {"type": "string", "enum": ["lowercase", "uppercase", "strip_leading_zeros"]},
                "default": {}}}}]},
        "tag": {"type": "string", "pattern": "^[a-z][a-z0-9_]*$"},
        "priority": {"type": "integer", "minimum": 0, "maximum": 1000},
    },
}
FENCE = re.compile(r"```(?:yaml|yml)?[ \t]*\n(.*?)```", re.S)


def strip_code_fences(raw, lang):
    m = FENCE.search(raw)
    return m.group(1) if m else raw


def validate_tier1_yaml(raw):
    try:
        return yaml.safe_load(strip_code_fences(raw, "yaml"))
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        raise Rejected("YAML_SYNTAX_ERROR", f"line {mark.line + 1 if mark else 0}: {e}")


def validate_tier2_yaml(parsed):
    try:
        jsonschema.validate(parsed, YAML_SCHEMA)
    except jsonschema.ValidationError as e:
        raise Rejected("SCHEMA_VIOLATION", f"{e.message} at {list(e.absolute_path)}")
    for field, spec in (parsed.get("extract") or {}).items():
        if "pattern" in spec:
            try:
                re.compile(spec["pattern"])
            except re.error as e:
                raise Rejected("INVALID_REGEX", f"Field '{field}' has invalid regex: {e}")


def extract_from_path(path, rule):
    out = {}
    for field, spec in (rule.get("extract") or {}).items():
        src, parts = spec["from"], path.strip("/").split("/")
        m = re.match(r"segment\((-?\d+)\)", src)
        try:
            value = parts[int(m.group(1))] if m else {"filename": os.path.basename(path), "full_path": path,
                                                      "rel_path": path.lstrip("/")}[src]
        except IndexError:
            continue
        if "pattern" in spec:
            hit = re.search(spec["pattern"], value)
            if not hit:
                continue
            value = hit.group(1) if hit.groups() else hit.group(0)
        value = {"lowercase": str.lower, "uppercase": str.upper,
                 "strip_leading_zeros": lambda v: v.lstrip("0") or "0"}.get(spec.get("normalize"), str)(value)
        if spec.get("type") == "integer":
            try:
                value = int(value)
            except ValueError:
                raise Rejected("TYPE_COERCION_FAILED", f"Field '{field}': {value!r} is not an integer")
        out[field] = value
    return out


def validate_tier3(rule, sample_paths):
    matched = [p for p in sample_paths if fnmatch.fnmatch(p, rule["glob"])]
    if not matched:
        raise Rejected("GLOB_MISMATCH", f"Glob '{rule['glob']}' doesn't match any sample paths")
    if rule.get("extract") and not any(extract_from_path(p, rule) for p in matched):
        raise Rejected("EMPTY_EXTRACTION", "Rule matches files but extracts no fields")


def _jsonable(v):
    if isinstance(v, dict):
        return {str(k): _jsonable(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_jsonable(x) for x in v]
    return v.isoformat() if isinstance(v, (datetime.date, datetime.datetime)) else v


def repair(text, request):
    parsed = validate_tier1_yaml(text)
    validate_tier2_yaml(parsed)
    samples = (request.get("options") or {}).get("sample_paths")
    if isinstance(samples, list) and samples:
        validate_tier3(parsed, [str(p) for p in samples])
    return {"status": "accepted", "value": _jsonable(parsed)}


if __name__ == "__main__":
    serve("seed004-extraction-rule", "round-009", ["yaml"], ["extraction_rule"], False, repair)
