"""seed003-investor-decision: seed 003's schema normalization as a malform
pipeline, written from the seed's description of retry_json_call():
json.loads of the response (a ```json fence stripped first), then
`normalize_model_output(data, schema)` (prose arrays joined with newlines,
floats coerced to int where the schema wants an integer, omitted required
fields given defaults, enum values lower-cased by _normalize_enum_fields),
then `jsonschema.validate` against INVESTOR_DECISION_SCHEMA with the prose
fields widened to string-or-array (the SCHEMA-04 audit). Faithful to the seed,
weaknesses included (5.7 is coerced to 5 without a word)."""
import json
import os
import re
import sys

import jsonschema

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from malform_pipeline import Rejected, serve  # noqa: E402

PROSE = ["summary", "reasoning", "key_conditions", "pass_reasons", "would_change_mind", "funding_ask",
         "market_size_estimate"]
DEFAULTS = {"funding_ask": "Not specified", "market_size_estimate": "To be determined"}
PROSE_TYPE = {"type": ["string", "array"], "items": {"type": "string"}}
INVESTOR_DECISION_SCHEMA = {
    "type": "object",
    "required": ["investor_id", "decision", "conviction_score", "reasoning", "key_conditions", "funding_ask",
                 "market_size_estimate"],
    "properties": dict({p: PROSE_TYPE for p in PROSE},
                       investor_id={"type": "string", "minLength": 1}, idea_id={"type": "string"},
                       decision={"type": "string", "enum": ["invest", "pass", "conditional"]},
                       conviction_score={"type": "integer", "minimum": 1, "maximum": 10},
                       risk_level={"type": "string", "enum": ["low", "medium", "high"]},
                       check_size_usd={"type": "integer", "minimum": 0}),
}
FENCE = re.compile(r"^\s*```(?:json)?\s*\n(.*?)\n```\s*$", re.S)


def _normalize_enum_fields(data, schema):
    for key, prop in schema["properties"].items():
        if "enum" in prop and isinstance(data.get(key), str):
            data[key] = data[key].lower()


def normalize_model_output(data, schema):
    if not isinstance(data, dict):
        return data
    for key, prop in schema["properties"].items():
        value = data.get(key)
        if key in PROSE and isinstance(value, list) and all(isinstance(x, str) for x in value):
            data[key] = "\n".join(value)
        elif prop.get("type") == "integer" and isinstance(value, float):
            data[key] = int(value)
    for key, default in DEFAULTS.items():
        if key in schema["required"] and key not in data:
            data[key] = default
    _normalize_enum_fields(data, schema)
    return data


def repair(text, request):
    m = FENCE.match(text)
    try:
        data = json.loads(m.group(1) if m else text)
    except ValueError as e:
        raise Rejected("JSON_PARSE_ERROR", str(e))
    data = normalize_model_output(data, INVESTOR_DECISION_SCHEMA)
    try:
        jsonschema.validate(data, INVESTOR_DECISION_SCHEMA)
    except jsonschema.ValidationError as e:
        raise Rejected("SCHEMA_VIOLATION", f"{e.message} at /{'/'.join(str(p) for p in e.absolute_path)}")
    return {"status": "accepted", "value": data}


if __name__ == "__main__":
    serve("seed003-investor-decision", "phase-10", ["json"], ["investor_decision"], False, repair)
