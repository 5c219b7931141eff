"""The worker side of the malform pipeline protocol (harness/pipelines/PROTOCOL.md,
version 1) for Python adapters.

    from malform_pipeline import serve, Rejected

    def repair(text, request):
        return {"status": "accepted", "value": json.loads(text)}

    serve("my-pipeline", "1.0", ["json"], ["task_breakdown"], False, repair)

repair(text, request) returns {"status", "value", "warnings", "error"} (a
protocol status and only those keys; any other value means accepted with that
value - wrap a value that could look like a response) or raises Rejected(type, message)
to reject. Any other exception is answered as status "crashed" (the worker
stays up); the traceback goes to stderr.
"""
import json
import os
import sys
import sysconfig
import traceback

PROTOCOL = 1


class Rejected(Exception):
    """Raised by a repair function to reject its input with an error type."""

    def __init__(self, type_, message=""):
        super().__init__(message)
        self.type = type_
        self.message = message


def _fnv1a(data):
    h = 0x811C9DC5
    for b in data:
        h = ((h ^ b) * 0x01000193) & 0xFFFFFFFF
    return h


class _LineCoverage:
    """sys.settrace line events of one call, as hashed (file, prev line, line) edges
    of the files outside the standard library and this module."""

    def __init__(self):
        paths = sysconfig.get_paths()
        self.skip = tuple({paths["stdlib"], paths["platstdlib"], os.path.abspath(__file__)})
        self.files = {}
        self.edges = set()
        self.prev = 0

    def _file_hash(self, filename):
        h = self.files.get(filename)
        if h is None:
            h = 0 if filename.startswith(self.skip) or filename.startswith("<") else _fnv1a(filename.encode())
            self.files[filename] = h
        return h

    def _local(self, frame, event, arg):
        if event == "line":
            cur = (self._file_hash(frame.f_code.co_filename) ^ frame.f_lineno * 0x9E3779B1) & 0xFFFFFFFF
            self.edges.add((cur ^ (self.prev >> 1)) & 0xFFFFFFFF)
            self.prev = cur
        return self._local

    def _global(self, frame, event, arg):
        return self._local if self._file_hash(frame.f_code.co_filename) else None

    def run(self, fn, *args):
        self.edges = set()
        self.prev = 0
        sys.settrace(self._global)
        try:
            return fn(*args)
        finally:
            sys.settrace(None)


_RESPONSE_KEYS = {"status", "value", "warnings", "error"}


def _normalize(out):
    """A response (a protocol status and no other keys) or the bare value: an
    artifact that merely has a "status" key ({"status": "ok"}) is a value."""
    if isinstance(out, dict) and out.get("status") in ("accepted", "rejected", "crashed") and set(out) <= _RESPONSE_KEYS:
        return dict(out)
    return {"status": "accepted", "value": out}


def _answer(repair, request, cover):
    try:
        if cover:
            out = cover.run(repair, request.get("input", ""), request)
        else:
            out = repair(request.get("input", ""), request)
        res = _normalize(out)
    except Rejected as e:
        res = {"status": "rejected", "error": {"type": e.type, "message": e.message}}
    except Exception as e:  # the pipeline's bug: a crash the worker survives
        stack = traceback.format_exc()
        sys.stderr.write("uncaught " + stack)
        sys.stderr.flush()
        res = {"status": "crashed", "error": {"type": type(e).__name__, "message": str(e)[:2000], "stack": stack[-4000:]}}
    res["id"] = request.get("id")
    if cover:
        res["coverage"] = sorted(cover.edges)
    return res


def serve(name, version, formats, profiles, warnings, repair):
    """Write the handshake, then answer one request line per line of stdin until EOF."""
    cover = _LineCoverage() if os.environ.get("MALFORM_COVERAGE") == "1" else None
    out = sys.stdout
    hello = {"malform_pipeline": PROTOCOL, "name": name, "version": version, "formats": list(formats),
             "profiles": list(profiles), "warnings": bool(warnings), "coverage": True}
    out.write(json.dumps(hello) + "\n")
    out.flush()
    for line in sys.stdin:
        res = _answer(repair, json.loads(line), cover)
        try:
            text = json.dumps(res, allow_nan=False)
        except (TypeError, ValueError) as e:
            text = json.dumps({"id": res["id"], "status": "crashed",
                               "error": {"type": type(e).__name__, "message": "value is not JSON: " + str(e)}})
        out.write(text + "\n")
        out.flush()
