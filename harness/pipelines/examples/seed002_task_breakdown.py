"""seed002-task-breakdown: the architect stage of seed 002 as a malform
pipeline, written from the seed's description of sprint_orchestrator.py:
`_extract_json(text)` (json.loads, a ```json fence, brace counting with string
state, the three inline repairs, the largest valid candidate, then the
aggressive first-`{`-to-last-`}` repair) followed by
`_validate_task_breakdown(breakdown, story_id)`.

It follows the seed faithfully, weaknesses included: a backtick template
literal or an inner quote can leave the brace counter in the wrong string
state, so the extractor returns a smaller object that parses (one task, a
dependency map) and the breakdown then fails validation or loses tasks:
the US-004 failure mode. It is not fixed here; malform has to find it."""
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from malform_pipeline import Rejected, serve  # noqa: E402

FENCE = re.compile(r"```(?:json)?\s*\n?(.*?)\n?```", re.S)
INLINE_REPAIRS = ((r"\'", "'"), ("${", "$\\u007B"), ('}">', '}\\">'))


def _loads_dict(text, strict=True):
    try:
        value = json.loads(text, strict=strict)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _inline_repaired(candidate):
    for bad, good in INLINE_REPAIRS:
        candidate = candidate.replace(bad, good)
    return candidate


def _brace_candidates(text):
    """Every balanced {...} (nested ones too), tracking string and escape state."""
    out, starts, in_string, escaped = [], [], False, False
    for i, ch in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch == "{":
            starts.append(i)
        elif ch == "}" and starts:
            out.append(text[starts.pop():i + 1])
    return out


def _aggressive_repair(text):
    start, end = text.find("{"), text.rfind("}")
    if start < 0 or end <= start:
        return None
    sub = text[start:end + 1]
    strategies = (lambda s: s, _inline_repaired,
                  lambda s: re.sub(r",\s*([}\]])", r"\1", _inline_repaired(s)))
    for fix in strategies:
        value = _loads_dict(fix(sub)) or _loads_dict(fix(sub), strict=False)
        if value is not None:
            return value
    return None


def _extract_json(text):
    """The seed's extractor: a dict, or None when nothing parses."""
    value = _loads_dict(text.strip())
    if value is not None:
        return value
    m = FENCE.search(text)
    if m:
        value = _loads_dict(m.group(1).strip())
        if value is not None:
            return value
    valid = []
    for cand in _brace_candidates(text):
        value = _loads_dict(cand)
        if value is None:
            value = _loads_dict(_inline_repaired(cand))
        if value is not None:
            valid.append((len(cand), value))
    if valid:
        return max(valid, key=lambda v: v[0])[1]
    return _aggressive_repair(text)


def _validate_file_paths(paths):
    """Hard-invalid paths (traversal, absolute, not a string); only logged, never blocking."""
    return [p for p in paths if not isinstance(p, str) or ".." in p or p.startswith("/")]


def _validate_task_breakdown(breakdown, story_id):
    if not isinstance(breakdown, dict) or "tasks" not in breakdown:
        return False
    tasks = breakdown["tasks"]
    if not isinstance(tasks, list) or not tasks:
        return False
    for task in tasks:
        if not isinstance(task, dict):
            return False
        for alias in ("taskId", "id"):
            if alias in task and "task_id" not in task:
                task["task_id"] = task.pop(alias)
        if "title" in task and "description" not in task:
            task["description"] = task.pop("title")
        if "task_id" not in task or "description" not in task:
            return False
        bad = _validate_file_paths(task.get("files_to_create") or [])
        if bad:
            sys.stderr.write(f"warning: task {task['task_id']}: invalid file paths {bad}\n")
    if story_id and breakdown.get("story_id") not in (None, story_id):
        breakdown["story_id"] = story_id
    return True


def repair(text, request):
    story_id = (request.get("options") or {}).get("story_id")
    breakdown = _extract_json(text)
    if breakdown is None:
        raise Rejected("JSON_PARSE_ERROR", "no JSON object could be extracted (mike_breakdown_failed)")
    if not _validate_task_breakdown(breakdown, story_id):
        raise Rejected("INVALID_BREAKDOWN", "tasks missing, empty, or a task without task_id/description "
                       f"(the extracted object has keys {sorted(breakdown)})")
    return {"status": "accepted", "value": breakdown}


if __name__ == "__main__":
    serve("seed002-task-breakdown", "2.6.0-arch-contract-enforced", ["json"], ["task_breakdown"], False, repair)
