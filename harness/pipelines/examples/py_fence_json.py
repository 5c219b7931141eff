"""py-fence-json: the JSON repair many Python LLM stacks start with, as a
malform pipeline example - strip a markdown fence, cut to the outermost
braces, drop trailing commas with a regular expression, json.loads. Each
step that changes the text is reported as a warning."""
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from malform_pipeline import Rejected, serve  # noqa: E402

FENCE = re.compile(r"```(?:json)?\s*\n(.*?)```", re.S)
TRAILING_COMMA = re.compile(r",\s*([}\]])")


def repair(text, request):
    warnings = []
    m = FENCE.search(text)
    if m:
        text = m.group(1)
        warnings.append({"rule": "fence", "message": "took the fenced block", "line": 0})
    start, end = text.find("{"), text.rfind("}")
    if start > 0 or (0 <= end < len(text.rstrip()) - 1):
        text = text[start:end + 1]
        warnings.append({"rule": "braces", "message": "cut to the outermost braces", "line": 0})
    fixed = TRAILING_COMMA.sub(r"\1", text)
    if fixed != text:
        warnings.append({"rule": "trailing-comma", "message": "removed trailing commas", "line": 0})
    try:
        value = json.loads(fixed)
    except json.JSONDecodeError as e:
        raise Rejected("JSON_SYNTAX_ERROR", str(e))
    return {"status": "accepted", "value": value, "warnings": warnings}


if __name__ == "__main__":
    serve("py-fence-json", "1.0", ["json"], ["*"], True, repair)
