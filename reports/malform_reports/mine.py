"""mine.py - find the next repair rule: cluster failures, propose profile patches.

Input is any mix of work dirs (campaign failures and regression entries), dirs
of raw model outputs (field cases of --profile P), single files, and result
JSON files that `malform repair --output result` already produced. Each case
is repaired with the CLI (unless it came with a result) and, when the
profile rejects it, parsed once more with the schema-less generic profile so
its keys and values can still be inspected.

Clustering: a failing case (rejected, or failing an oracle) belongs to the
family keyed by its symptom: the error type (or the oracle and the rule ids of
its signature), the error path, the parser's problem text with positions
stripped, and the shape of the failing line (letter runs -> `a`, digit runs
-> `9`, leading indentation kept). Fuzzed cases carry several ops each, so
whole op sets rarely repeat: a family lists how often each op id occurs in it
and the ops common to all its cases instead. Families are ranked by size,
then by distinct field cases; each shows its smallest case.

Proposals come from the parsed values against the profile file (aliases,
wrappers, enums, prose_fields, schema): an unknown key close to a schema key
(alias), a single unknown top-level key around the artifact (wrapper), a
string close to an allowed enum value (enum map), a list where the schema
wants a string (prose field). `--check` applies each proposal to a copy of the
profiles and re-runs every case of that profile through the CLI to count what
it fixes and what it breaks.
"""
import copy
import hashlib
import json
import os
import re
import shutil
import tempfile

import yaml

from . import cli, load

GENERIC_WRAPPERS = ("output", "result", "data", "document", "artifact")
PROFILES_DIR = os.path.join(cli.REPO, "core", "profiles")
MAX_DEPTH = 64
REPORT_LIMIT = 500  # cases mined for the report's section (each costs a CLI run or two)


# ---- small text helpers ----

def norm_key(k):
    """The core's alias-matching form: lowercase alphanumerics only."""
    return re.sub(r"[^a-z0-9]", "", str(k).lower())


def distance(a, b, cap=8):
    """Optimal-string-alignment edit distance (a transposition costs 1), capped."""
    if abs(len(a) - len(b)) > cap:
        return cap + 1
    prev2, prev = None, list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = a[i - 1] != b[j - 1]
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        prev2, prev = prev, cur
    return prev[len(b)]


def near(a, b):
    """True when normalized a is a small edit away from normalized b (not equal)."""
    if not a or not b or a == b or min(len(a), len(b)) < 3:
        return False
    d = distance(a, b, 3)
    return d <= 2 and d / max(len(a), len(b)) <= 0.34


def strip_positions(msg):
    """Parser problem text without line/column/offset numbers or array indices."""
    if not msg:
        return ""
    msg = re.sub(r"\b(line|column|col|offset|position|pos|index|char|byte)s?\s*[:=#]?\s*\d+", r"\1 N", msg, flags=re.I)
    msg = re.sub(r"\b\d+:\d+\b", "N:N", msg)
    msg = re.sub(r"(?<=/)\d+(?=/|\b)", "N", msg)
    return msg.strip()


def line_shape(line):
    """Shape of a line: leading indentation kept, letter runs -> a, digit runs -> 9,
    a run of words -> a."""
    if line is None:
        return ""
    body = line.lstrip(" \t")
    lead = line[:len(line) - len(body)]
    body = re.sub(r"[^\W\d_]+", "a", body.rstrip())
    body = re.sub(r"\d+", "9", body)
    body = re.sub(r"\s+", " ", body)
    body = re.sub(r"a(?: a)+", "a", body)  # a run of words is one shape
    return (lead + body)[:80]


# ---- YAML in and out (PyYAML) ----

def load_yaml_file(path, malform=None):
    """A YAML file as a Python value, or raises ValueError."""
    with open(path, "r", encoding="utf-8") as f:
        text = f.read()
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as e:
        raise ValueError(f"{path}: {e}") from None


def to_yaml(v):
    """Block YAML from PyYAML's emitter: every string that would read back as
    something else (`.inf`, `.5`, `yes`, `null`) comes out quoted."""
    return yaml.safe_dump(v, sort_keys=False, allow_unicode=True, default_flow_style=False, width=100).rstrip("\n")


# ---- profile knowledge ----

class Profile:
    """What the miner needs to know about one profile file."""

    def __init__(self, name, path, doc):
        self.name, self.path, self.doc = name, path, doc if isinstance(doc, dict) else {}
        d = self.doc
        self.format = d.get("format", "yaml")
        self.schema = d.get("schema") if isinstance(d.get("schema"), dict) else None
        self.top_level = [k for k in d.get("top_level_keys") or [] if isinstance(k, str)]
        self.wrappers = [k for k in d.get("wrappers") or [] if isinstance(k, str)]
        self.aliases = d.get("aliases") if isinstance(d.get("aliases"), dict) else {}
        self.prose = set(k for k in d.get("prose_fields") or [] if isinstance(k, str))
        self.types = {}      # key -> set of schema types seen for it
        self.enums = {}      # field -> allowed values
        self._walk(self.schema, 0)
        for f, e in (d.get("enums") or {}).items():
            if isinstance(e, dict):
                vals = [str(x) for x in e.get("values") or []] + [str(x) for x in (e.get("map") or {}).values()]
                self.enums[f] = sorted(set(self.enums.get(f, [])) | set(vals))
        self.enum_known = {f: set((d.get("enums") or {}).get(f, {}).get("map", {}) or {}) if isinstance(
            (d.get("enums") or {}).get(f), dict) else set() for f in self.enums}
        self.schema_keys = sorted(set(self.types) | set(self.top_level))
        self.known = {norm_key(k) for k in self.schema_keys} | {norm_key(c) for c in self.aliases}
        for sp in self.aliases.values():
            self.known |= {norm_key(s) for s in sp or [] if isinstance(s, str)}
        self.required = [k for k in (self.schema or {}).get("required") or [] if isinstance(k, str)]
        self.unwraps = bool(self.schema or self.top_level)

    def _walk(self, s, depth):
        if not isinstance(s, dict) or depth > MAX_DEPTH:
            return
        for k, v in (s.get("properties") or {}).items():
            if isinstance(v, dict):
                t = v.get("type")
                self.types.setdefault(k, set()).update(t if isinstance(t, list) else [t] if t else ["any"])
                if isinstance(v.get("enum"), list):
                    self.enums[k] = sorted(set(self.enums.get(k, [])) | {str(x) for x in v["enum"]})
                self._walk(v, depth + 1)
        for key in ("items", "additionalProperties"):
            self._walk(s.get(key), depth + 1)
        for key in ("oneOf", "anyOf", "allOf"):
            for x in s.get(key) or []:
                self._walk(x, depth + 1)

    def is_wrapper(self, k):
        return norm_key(k) in {norm_key(w) for w in list(GENERIC_WRAPPERS) + self.wrappers}

    def closest_key(self, k):
        """The schema key a small edit away from k, or None (also when ambiguous)."""
        nk = norm_key(k)
        best = [(distance(nk, norm_key(c), 3), c) for c in self.schema_keys if near(nk, norm_key(c))]
        best.sort()
        if not best or (len(best) > 1 and best[0][0] == best[1][0] and norm_key(best[0][1]) != norm_key(best[1][1])):
            return None
        return best[0][1]


def find_profile_file(name, profiles_dir):
    """Path of profile `name` (a name in profiles_dir, or a path to a .yaml)."""
    if name and (os.sep in name or name.endswith((".yaml", ".yml"))) and os.path.isfile(name):
        return name
    for ext in (".yaml", ".yml"):
        p = os.path.join(profiles_dir, f"{name}{ext}")
        if os.path.isfile(p):
            return p
    return None


# ---- collecting cases ----

def _is_result(d):
    return isinstance(d, dict) and "status" in d and ("error" in d or "warnings" in d)


def _read_text(path):
    with open(path, "rb") as f:
        return f.read().decode("utf-8", errors="replace")


def _case(path, origin, profile, raw=None, result=None, ops=(), oracle=None, rules=(), structured=None):
    """One case to mine. structured: the decoded structured case (`malform inspect`'s
    "case"), rendered to its raw model output before repairing."""
    return {"id": path, "path": path, "origin": origin, "profile": profile, "raw": raw, "result": result,
            "ops": sorted(set(ops or [])), "oracle": oracle, "parsed": None, "rules": sorted(set(rules or [])),
            "needs_render": structured is not None}


def _is_workdir(d):
    if os.path.exists(os.path.join(d, "nightly.json")) or os.path.isdir(os.path.join(d, "regression")) \
            or os.path.isdir(os.path.join(d, "corpus", "regression")):
        return True
    for root, dirs, files in os.walk(d):
        if "stats.json" in files:
            return True
    return False


_NOT_CASES = re.compile(r"^(readme|license|licence|changelog|notes|contributing)([._-].*)?$", re.I)


def _entry_case(e, profile):
    """A case from a regression entry (load.entry_from_item): field when triage took it from the field."""
    origin = "field" if e.get("target") == "field" else "regression"
    return _case(e["path"], origin, e.get("profile") or profile, raw=e.get("input"), ops=e.get("ops"),
                 oracle=e.get("oracle"), rules=e.get("rules"), structured=e.get("case"))


def _classify(paths, profile, malform, problems, stats):
    """Cases from explicit files and files of field dirs: result JSON, regression
    entries, structured cases and raw model outputs. A README or similar, a
    metadata JSON beside its raw output (corpus/field's `<sha>.json`), a binary
    file and a fixed entry are not cases (counted in stats['ignored'])."""
    out, raw_files, sidecar_profile = [], [], {}
    results = {p for p in paths if p.endswith(".result.json")}
    for path in paths:
        name = os.path.basename(path)
        if not name.endswith(".json") and (path + ".result.json" in results or
                                           os.path.splitext(path)[0] + ".result.json" in results):
            continue  # read through its precomputed result
        if _NOT_CASES.match(name) or name.startswith("."):
            stats["ignored"] += 1
            continue
        if name.endswith(".json"):
            try:
                d = json.loads(_read_text(path))
            except (OSError, ValueError):
                d = None
            stem = re.sub(r"(\.result)?\.json$", "", path)
            sibs = [x for x in paths if x != path and not x.endswith(".json") and
                    (x == stem or x.startswith(stem + "."))]
            if _is_result(d):
                raw = d.get("input") if isinstance(d.get("input"), str) else None
                if raw is None and sibs:
                    raw = _read_text(sibs[0])
                out.append(_case(path, "field", profile or d.get("profile"), raw=raw, result=d))
                continue
            if sibs:  # metadata of the raw output beside it
                if isinstance(d, dict) and isinstance(d.get("profile"), str):
                    for x in sibs:
                        sidecar_profile[x] = d["profile"]
                stats["ignored"] += 1
                continue
        raw_files.append(path)
    if not raw_files:
        return out
    items = {}
    if malform:
        for it in cli.inspect(malform, raw_files, problems, "mine") or []:
            items[it.get("path")] = it
    for path in raw_files:
        it = items.get(path) or {}
        if it.get("type") == "entry":
            if not isinstance(it.get("entry"), dict):
                problems.append(f"{path}: broken regression entry ({it.get('error')}); ignored")
                continue
            e = load.entry_from_item(it)
            if e.get("status") == "fixed":
                stats["fixed"] += 1
                continue
            out.append(_entry_case(e, profile))
        elif it.get("type") == "case":
            c = it.get("case") or {}
            out.append(_case(path, "case", c.get("profile") or profile, raw=_read_text(path),
                             ops=[o.get("id") for o in c.get("ops") or [] if isinstance(o, dict)], structured=c))
        else:
            try:
                with open(path, "rb") as f:
                    head = f.read(4096)
            except OSError as e:
                problems.append(f"{path}: cannot read ({e.strerror})")
                continue
            if b"\0" in head:
                stats["ignored"] += 1
                continue
            if not malform and (head.startswith(b"malform-regression ") or head.startswith(b"malform-case ")):
                problems.append(f"{path}: reading a regression entry or case needs the malform binary; ignored")
                continue
            out.append(_case(path, "field", sidecar_profile.get(path) or profile, raw=_read_text(path)))
    return out


def collect(paths, profile, problems, malform=None):
    """Every case under paths (work dirs, field dirs, files), without results yet."""
    cases, seen = [], set()
    stats = {"ignored": 0, "fixed": 0}

    def add(c):
        if c and c["id"] not in seen:
            seen.add(c["id"])
            cases.append(c)

    loose = []
    for p in paths:
        if os.path.isfile(p):
            loose.append(p)
        elif os.path.isdir(p) and _is_workdir(p):
            sub = []
            camps = load.find_campaigns(p, sub)
            load.fill_from_signatures([f for c in camps for f in c["failures"]], malform, problems)
            nightly = None
            if os.path.exists(os.path.join(p, "nightly.json")):
                nightly = load.read_json(os.path.join(p, "nightly.json"), sub, "nightly.json")
            entries = load.load_entries(load.regression_dirs(p, nightly, None), malform, problems)
            if os.path.isdir(os.path.join(p, "findings")):
                entries += load.load_entries([os.path.join(p, "findings")], malform, problems, "finding")
            sig_profile = {e["signature"]: e.get("profile") for e in entries if e.get("profile")}
            for e in entries:
                if e["status"] != "fixed":
                    add(_entry_case(e, profile))
            for camp in camps:
                for f in camp["failures"]:
                    fp = f.get("file_path")
                    if not fp or not os.path.isfile(fp):
                        problems.append(f"failure {f.get('signature')}: input file {f.get('file')} not found")
                        continue
                    prof = f.get("profile") or sig_profile.get(f.get("signature")) or profile
                    add(_case(fp, "failure", prof, raw=_read_text(fp), ops=f["ops"], oracle=f.get("oracle"),
                              rules=f["rules"]))
        elif os.path.isdir(p):
            for root, dirs, files in os.walk(p):
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))
                loose += [os.path.join(root, f) for f in sorted(files)]
        else:
            problems.append(f"{p}: no such file or directory")
    for c in _classify(loose, profile, malform, problems, stats):
        add(c)
    if stats["ignored"]:
        problems.append(f"{stats['ignored']} file(s) that are not cases (README, metadata JSON, binary) ignored")
    return cases


# ---- running the CLI over cases ----

def _cli_profile(name, builtins, profiles_dir):
    """What to pass as --profile: a built-in name as is, else the profile file when there is one."""
    if not name or name in builtins or os.sep in name:
        return name
    return find_profile_file(name, profiles_dir) or name


def run_cases(cases, malform, problems, profiles_dir=PROFILES_DIR):
    """Fill case['result'] by repairing with the CLI (unless precomputed)."""
    missing = 0
    builtins = set()
    if malform:
        rc, out, _ = cli.run(malform, ["profiles", "--json"])
        try:
            builtins = {p.get("name") for p in json.loads(out) if isinstance(p, dict)} if rc == 0 else set()
        except ValueError:
            pass
    todo = [c for c in cases if c["raw"] is not None and (c.get("needs_render") or c["result"] is None)]
    if malform:
        reqs = []
        for c in todo:
            r = {"case": c["raw"]} if c.get("needs_render") else {"input": c["raw"]}
            prof = _cli_profile(c["profile"], builtins, profiles_dir)
            if prof:
                r["profile"] = prof
            reqs.append(r)
        for c, a in zip(todo, cli.repair_many(malform, reqs)):
            if c.get("needs_render") and isinstance(a.get("rendered"), str):
                c["raw"] = a["rendered"]
            c["needs_render"] = False
            if c["result"] is None:
                c["result"] = a["result"]
    for c in cases:
        if c["result"] is None:
            if not malform:
                missing += 1
                continue
            c["result"] = cli.repair(malform, _cli_profile(c["profile"], builtins, profiles_dir), data=b"")
        if not c["profile"]:
            c["profile"] = c["result"].get("profile")
    if missing:
        problems.append(f"{missing} case(s) not repaired: no malform binary (pass --malform PATH or build it)")


def parse_cases(cases, malform):
    """case['parsed']: the accepted value, or the schema-less parse of a rejected case."""
    retry = []
    for c in cases:
        r = c["result"] or {}
        if r.get("status") == "accepted":
            c["parsed"] = r.get("value")
        elif malform and c["raw"] is not None:
            retry.append(c)
    fmts = ["generic_json" if c.get("format") == "json" else "generic_yaml" for c in retry]
    answers = cli.repair_many(malform, [{"profile": f, "input": c["raw"]} for f, c in zip(fmts, retry)])
    again = [c for f, c, a in zip(fmts, retry, answers) if f == "generic_yaml" and a["result"].get("status") != "accepted"]
    for c, a in zip(retry, answers):
        c["parsed"] = a["result"].get("value") if a["result"].get("status") == "accepted" else None
    for c, a in zip(again, cli.repair_many(malform, [{"profile": "generic_json", "input": c["raw"]} for c in again])):
        c["parsed"] = a["result"].get("value") if a["result"].get("status") == "accepted" else None


def failing(c):
    r = c["result"] or {}
    return r.get("status") != "accepted" or bool(c.get("oracle"))


# ---- clustering ----

def _failing_line(c):
    err = (c["result"] or {}).get("error") or {}
    ln = err.get("line") or 0
    if not c["raw"] or not isinstance(ln, int) or ln <= 0:
        return None
    lines = c["raw"].split("\n")
    if ln > len(lines) or not lines[ln - 1].strip():  # past the end: the last line that has text
        ln = next((i for i in range(min(ln, len(lines)), 0, -1) if lines[i - 1].strip()), 0)
    return lines[ln - 1] if ln else None


def cluster(cases):
    """Families of failing cases, ranked: [{key, count, field_cases, ...}]."""
    fams = {}
    for c in cases:
        if not failing(c):
            continue
        r = c["result"] or {}
        err = r.get("error") or {}
        etype = err.get("type") if r.get("status") != "accepted" else None
        oracle = c.get("oracle")
        problem = strip_positions(err.get("message")) if etype else ""
        epath = re.sub(r"/\d+(?=/|$)", "/N", err.get("path") or "") if etype else ""
        shape = line_shape(_failing_line(c)) if etype else ""
        rules = "rules=" + "+".join(c["rules"]) if c["rules"] and not etype else ""
        key = " | ".join(x for x in (etype or f"oracle:{oracle}", rules, epath, problem, shape) if x)
        f = fams.setdefault(key, {"key": key, "error_type": etype, "oracle": oracle, "path": epath,
                                  "rules": c["rules"] if rules else [], "problem": problem, "shape": shape,
                                  "cases": [], "_field": set(), "_ops": {}})
        for op in c["ops"]:
            f["_ops"][op] = f["_ops"].get(op, 0) + 1
        f["cases"].append(c)
        if c["origin"] == "field":
            f["_field"].add(_field_hash(c))
    out = []
    for f in fams.values():
        small = min(f["cases"], key=lambda c: (len(c["raw"] or ""), c["id"]))
        text = small["raw"] or ""
        n = len(f["cases"])
        op_counts = dict(sorted(f["_ops"].items(), key=lambda kv: (-kv[1], kv[0])))
        out.append({"key": f["key"], "count": n, "field_cases": len(f["_field"]),
                    "ops": [o for o, k in op_counts.items() if k == n], "op_counts": op_counts,
                    "rules": f["rules"], "error_type": f["error_type"], "oracle": f["oracle"], "path": f["path"],
                    "problem": f["problem"], "shape": f["shape"], "example": small["id"],
                    "example_text": text[:600] + ("\n..." if len(text) > 600 else ""),
                    "cases": [c["id"] for c in f["cases"]]})
    out.sort(key=lambda f: (-f["count"], -f["field_cases"], f["key"]))
    return out


# ---- proposals ----

def _walk_keys(v, depth=0):
    """(key, value) of every mapping entry in v, depth-first."""
    if depth > MAX_DEPTH:
        return
    if isinstance(v, dict):
        for k, x in v.items():
            yield k, x
            yield from _walk_keys(x, depth + 1)
    elif isinstance(v, list):
        for x in v:
            yield from _walk_keys(x, depth + 1)


_RAW_KEY = re.compile(r"^\s*(?:-\s+)?[\"']?([A-Za-z_][\w\-]{0,40})[\"']?\s*:(?:\s|$)", re.M)
_JSON_KEY = re.compile(r"\"([A-Za-z_][\w\-]{0,40})\"\s*:")


def _keys_of(c):
    if c["parsed"] is not None:
        return [k for k, _ in _walk_keys(c["parsed"]) if isinstance(k, str)]
    raw = c["raw"] or ""
    return _RAW_KEY.findall(raw) + _JSON_KEY.findall(raw)


def _wrapper_of(prof, v):
    """The unknown single top-level key wrapping an artifact of prof, or None."""
    if not prof.unwraps or not isinstance(v, dict) or len(v) != 1:
        return None
    k, inner = next(iter(v.items()))
    if not isinstance(k, str) or norm_key(k) in prof.known or prof.is_wrapper(k):
        return None
    if isinstance(inner, dict) and len(inner) == 1 and prof.is_wrapper(next(iter(inner))):
        inner = next(iter(inner.values()))  # a chain: payload -> output -> artifact
    if not isinstance(inner, dict) or not inner:
        return None
    ik = {norm_key(x) for x in inner}
    tops = {norm_key(x) for x in prof.top_level + prof.required}
    if (tops and ik & tops) or (not tops and ik and ik <= prof.known):
        return k
    return None


ALIAS_RULE = "norm.key-alias"


def _field_hash(c):
    return hashlib.sha1((c["raw"] or c["id"]).encode()).hexdigest()


def alias_evidence(p, cases_by_id, alias_ops):
    """Why an alias proposal may stand, or None: a fuzzer's bit-flip is no evidence;
    the misspelling must be in two independent field cases or come from an op
    that models key misspellings."""
    backing = [cases_by_id[i] for i in p["cases"] if i in cases_by_id]
    field = {_field_hash(c) for c in backing if c["origin"] == "field"}
    ops = sorted({o for c in backing for o in c["ops"] if o in alias_ops})
    if len(field) >= 2:
        return f"{len(field)} independent field cases"
    if ops:
        return f"op {', '.join(ops)} models it"
    return None


def propose(cases, profiles, alias_ops=(), withheld=None):
    """Proposals from every case whose profile file is known: [{id, kind, profile, patch, ...}].
    Alias proposals without evidence (alias_evidence) go to withheld instead."""
    props = {}

    def add(pid, kind, prof, patch, why, c, issue):
        p = props.setdefault(pid, {"id": pid, "kind": kind, "profile": prof.name, "patch": patch, "why": why,
                                   "issue": issue, "cases": [], "rejected": 0, "accepted": 0})
        if c["id"] not in p["cases"]:
            p["cases"].append(c["id"])
            p["accepted" if (c["result"] or {}).get("status") == "accepted" else "rejected"] += 1

    for c in cases:
        prof = profiles.get(c["profile"])
        if not prof:
            continue
        v = c["parsed"]
        wk = _wrapper_of(prof, v) if v is not None else None
        if wk:
            add(f"wrapper.{prof.name}.{wk}", "wrapper", prof, {"wrappers": [wk]},
                f"unknown single top-level key \"{wk}\" wraps a {prof.name} artifact", c, {"wrapper": wk})
        for k in set(_keys_of(c)):
            if k == wk or norm_key(k) in prof.known:
                continue
            canon = prof.closest_key(k)
            if canon:
                d = distance(norm_key(k), norm_key(canon), 3)
                add(f"alias.{prof.name}.{canon}.{k}", "alias", prof, {"aliases": {canon: [k]}},
                    f"unknown key \"{k}\" is {d} edit{'s' if d != 1 else ''} from schema key \"{canon}\"",
                    c, {"key": k})
        if v is None:
            continue
        for k, x in _walk_keys(v):
            if not isinstance(k, str):
                continue
            if k in prof.enums and isinstance(x, str) and x not in prof.enums[k] \
                    and x not in prof.enum_known.get(k, set()):
                allowed = prof.enums[k]
                if x.strip().lower() in {a.lower() for a in allowed}:
                    continue  # case folding is the core's job, not a new map entry
                nx = norm_key(x)
                hits = sorted((distance(nx, norm_key(a), 3), a) for a in allowed
                              if near(nx, norm_key(a)) or (len(nx) >= 4 and (nx.startswith(norm_key(a)) or
                                                                             norm_key(a).startswith(nx))))
                if hits and (len(hits) == 1 or hits[0][0] < hits[1][0]):
                    a = hits[0][1]
                    patch = {"enums": {k: {"map": {x: a}}}}
                    add(f"enum.{prof.name}.{k}.{x}", "enum", prof, patch,
                        f"\"{k}: {x}\" is a near miss of allowed value \"{a}\"", c, {"field": k, "value": x})
            if isinstance(x, list) and x and all(not isinstance(i, (dict, list)) for i in x) \
                    and prof.types.get(k) == {"string"} and k not in prof.prose:
                add(f"prose.{prof.name}.{k}", "prose", prof, {"prose_fields": [k]},
                    f"\"{k}\" arrives as a list of {len(x)} but the schema wants a string", c, {"field": k})
    by_id = {c["id"]: c for c in cases}
    out = []
    for p in props.values():
        if p["kind"] == "alias":
            why = alias_evidence(p, by_id, set(alias_ops))
            if why is None:
                if withheld is not None:
                    withheld.append({"id": p["id"], "cases": p["cases"],
                                     "reason": "seen in fewer than two independent field cases and no op models "
                                               "the misspelling (a fuzzer's bit-flip is no evidence)"})
                continue
            p["evidence"] = why
        out.append(p)
    out.sort(key=lambda p: (-len(p["cases"]), p["id"]))
    return out


def apply_patch(doc, patch):
    """A copy of a profile document with a proposal's patch merged in."""
    d = copy.deepcopy(doc) if isinstance(doc, dict) else {}
    for k, v in patch.items():
        if k in ("wrappers", "prose_fields"):
            lst = d.setdefault(k, [])
            lst.extend(x for x in v if x not in lst)
        elif k == "aliases":
            al = d.setdefault("aliases", {})
            for canon, sp in v.items():
                cur = al.setdefault(canon, [])
                cur.extend(x for x in sp if x not in cur)
        elif k == "enums":
            en = d.setdefault("enums", {})
            for field, e in v.items():
                cur = en.setdefault(field, {})
                cur.setdefault("map", {}).update(e.get("map", {}))
        else:
            d[k] = v
    return d


def _still_has(issue, value):
    """True when a repaired value still shows the problem a proposal targets."""
    if "wrapper" in issue:
        return isinstance(value, dict) and len(value) == 1 and issue["wrapper"] in value
    if "key" in issue:
        return any(k == issue["key"] for k, _ in _walk_keys(value))
    if "value" in issue:
        return any(k == issue["field"] and x == issue["value"] for k, x in _walk_keys(value))
    if "field" in issue:
        return any(k == issue["field"] and isinstance(x, list) for k, x in _walk_keys(value))
    return False


def check(proposals, cases, profiles, malform, problems):
    """Apply each proposal to a temp copy of the profiles and re-run the cases of
    its profile; fills proposal['check'] = {fixed, targets, newly_accepted, broken, error}."""
    with tempfile.TemporaryDirectory(prefix="malform-mine-") as tmp:
        for p in proposals:
            prof = profiles[p["profile"]]
            pdir = os.path.join(tmp, p["id"].replace("/", "_"), "profiles")
            src = os.path.dirname(prof.path)
            shutil.copytree(src, pdir, ignore=shutil.ignore_patterns(".*")) if os.path.isdir(src) else os.makedirs(pdir)
            path = os.path.join(pdir, os.path.basename(prof.path))
            with open(path, "w", encoding="utf-8") as f:  # JSON is YAML; the core's loader reads it
                json.dump(apply_patch(prof.doc, p["patch"]), f, indent=2, ensure_ascii=False)
            base_path = os.path.join(tmp, p["id"].replace("/", "_"), "base.yaml")
            with open(base_path, "w", encoding="utf-8") as f:
                json.dump(prof.doc, f, indent=2, ensure_ascii=False)
            res = {"targets": len(p["cases"]), "fixed": 0, "newly_accepted": 0, "broken": 0, "error": None}
            targets = set(p["cases"])
            mine = [c for c in cases if c["profile"] == p["profile"] and c["raw"] is not None]
            befores = cli.repair_many(malform, [{"profile": base_path, "input": c["raw"]} for c in mine])
            afters = cli.repair_many(malform, [{"profile": path, "input": c["raw"]} for c in mine])
            for c, before, after in zip(mine, (a["result"] for a in befores), (a["result"] for a in afters)):
                if after.get("status") == "error" or before.get("status") == "error":
                    res["error"] = ((after.get("error") or before.get("error")) or {}).get("message")
                    break
                ok_before, ok_after = before.get("status") == "accepted", after.get("status") == "accepted"
                if c["id"] in targets:
                    if ok_after and not _still_has(p["issue"], after.get("value")):
                        res["fixed"] += 1
                elif ok_after and not ok_before:
                    res["newly_accepted"] += 1
                if ok_before and (not ok_after or (c["id"] not in targets and before.get("value") != after.get("value"))):
                    res["broken"] += 1
            if res["error"]:
                problems.append(f"check {p['id']}: the patched profile does not load: {res['error']}")
            p["check"] = res


def proposals_yaml(proposals):
    """The proposals as a YAML document a maintainer can review and apply."""
    if not proposals:
        return "# malform mine: no profile patch proposed\nproposals: []\n"
    items = []
    for p in proposals:
        it = {"id": p["id"], "kind": p["kind"], "profile": p["profile"], "why": p["why"],
              "fixes": f"{len(p['cases'])} case(s): {p['rejected']} rejected, {p['accepted']} accepted with the problem",
              "patch": p["patch"]}
        if p.get("evidence"):
            it["evidence"] = p["evidence"]
        if p.get("check"):
            ch = p["check"]
            it["check"] = (f"error: {ch['error']}" if ch["error"] else
                           f"fixed {ch['fixed']} of {ch['targets']}; {ch['newly_accepted']} other case(s) now accepted; "
                           f"{ch['broken']} broken")
        it["cases"] = p["cases"][:50]
        items.append(it)
    head = ("# malform mine: proposed profile patches. Review each, then merge its `patch`\n"
            "# into core/profiles/<profile>.yaml (lists are appended, maps merged).\n")
    return head + to_yaml({"proposals": items}) + "\n"


# ---- entry points ----

def mine(paths, profile=None, malform=None, do_check=False, profiles_dir=PROFILES_DIR, limit=None, ops_reg=None):
    """The whole mining run: {cases, families, proposals, yaml, problems}; at most
    `limit` cases are read (the rest are counted in problems)."""
    problems = []
    cases = collect(paths, profile, problems, malform)
    if limit is not None and len(cases) > limit:
        problems.append(f"{len(cases) - limit} of {len(cases)} case(s) left out (limit {limit})")
        cases = cases[:limit]
    run_cases(cases, malform, problems, profiles_dir)
    profiles = {}
    for name in sorted({c["profile"] for c in cases if c["profile"]} | ({profile} if profile else set())):
        path = find_profile_file(name, profiles_dir)
        if not path:
            if name not in ("generic_yaml", "generic_json"):
                problems.append(f"profile {name}: no file in {profiles_dir}; no patches proposed for it")
            continue
        try:
            doc = load_yaml_file(path, malform)
        except (OSError, ValueError) as e:
            problems.append(f"profile {name}: cannot read ({e})")
            continue
        profiles[name] = Profile(doc.get("name", name) if isinstance(doc, dict) else name, path, doc)
    for c in cases:  # from here on a case names its profile by the profile's declared name
        prof = profiles.get(c["profile"])
        if prof:
            c["profile"] = prof.name
        c["format"] = prof.format if prof else None
    profiles = {p.name: p for p in profiles.values()}
    parse_cases(cases, malform)
    fams = cluster(cases)
    if ops_reg is None and malform:
        ops_reg = cli.registry(malform, "ops", problems)
    alias_ops = {o["id"] for o in ops_reg or [] if ALIAS_RULE in str(o.get("rules") or "").split()}
    withheld = []
    props = propose(cases, profiles, alias_ops, withheld)
    if do_check:
        if malform:
            check(props, cases, profiles, malform, problems)
        else:
            problems.append("--check needs the malform binary")
    return {"cases": len(cases), "failing": sum(1 for c in cases if failing(c)), "families": fams,
            "proposals": props, "withheld": withheld, "yaml": proposals_yaml(props), "problems": problems}


def report_section(workdir, rdirs, malform, profile, problems, ops_reg=None):
    """The report's mining section for a work dir (families and proposals, no --check)."""
    if not malform:
        return {"cases": 0, "families": [], "proposals": [], "yaml": "",
                "note": "Mining skipped: no malform binary (pass --malform PATH or build the default preset)."}
    # the work dir is mined as a work dir, never as a folder of field outputs (its README is no case)
    paths = ([workdir] if os.path.isdir(workdir) and _is_workdir(workdir) else []) + \
        [d for d in rdirs if not os.path.abspath(d).startswith(os.path.abspath(workdir) + os.sep)]
    try:
        m = mine(paths, profile=profile, malform=malform, limit=REPORT_LIMIT, ops_reg=ops_reg) if paths else None
    except Exception as e:  # mining must never cost the whole report
        problems.append(f"mining failed: {type(e).__name__}: {e}")
        return {"cases": 0, "families": [], "proposals": [], "yaml": "", "note": f"Mining failed: {e}"}
    if m is None:
        return {"cases": 0, "families": [], "proposals": [], "yaml": "",
                "note": "Nothing to mine: no campaign failures and no regression entries."}
    problems.extend(f"mining: {x}" for x in m["problems"])
    m["note"] = None if m["families"] else f"No failing case to mine ({m['cases']} case(s) read)."
    for f in m["families"]:
        f["cases"] = f["cases"][:20]
    return m


def print_text(m, out):
    """Human summary of a mining run."""
    w = out.write
    w(f"{m['cases']} case(s), {m['failing']} failing, {len(m['families'])} famil{'y' if len(m['families']) == 1 else 'ies'}\n\n")
    for i, f in enumerate(m["families"], 1):
        w(f"#{i}  {f['count']} case(s), {f['field_cases']} distinct field case(s)\n")
        w(f"    error: {f['error_type'] or '-'}   oracle: {f['oracle'] or '-'}"
          + (f"   rules: {', '.join(f['rules'])}" if f["rules"] else "") + "\n")
        if f["op_counts"]:
            w("    ops: " + ", ".join(f"{o} ({k})" for o, k in list(f["op_counts"].items())[:8])
              + (f"; in every case: {', '.join(f['ops'])}" if f["ops"] else "") + "\n")
        if f["problem"]:
            w(f"    problem: {f['problem']}" + (f"  (at {f['path']})" if f["path"] else "") + "\n")
        if f["shape"]:
            w(f"    line shape: {f['shape']}\n")
        w(f"    smallest: {f['example']}\n")
        for ln in f["example_text"].splitlines()[:8]:
            w(f"      | {ln}\n")
        w("\n")
    w(m["yaml"])
    for x in m.get("withheld") or []:
        w(f"withheld: {x['id']} ({len(x['cases'])} case(s)): {x['reason']}\n")
    for p in m["problems"]:
        w(f"note: {p}\n")
