"""A deliberately broken pipeline for the protocol tests: it answers like a
plain json.loads pipeline, except that an input naming a failure acts it out.
argv[1] == "no-handshake" / "bad-version" breaks the start instead."""
import json
import os
import signal
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from malform_pipeline import Rejected, serve  # noqa: E402


def repair(text, request):
    if "EXIT-3" in text:
        sys.stderr.write("about to exit 3\n")
        sys.stderr.flush()
        os._exit(3)
    if "SIGSEGV" in text:
        os.kill(os.getpid(), signal.SIGSEGV)
    if "EXCEPTION" in text:
        raise KeyError("no such key")
    if "HANG" in text:
        time.sleep(3600)
    if "GARBAGE" in text:
        sys.stdout.write("this is not json\n")
        sys.stdout.flush()
    if "WRONG-ID" in text:
        sys.stdout.write(json.dumps({"id": request["id"] + 1000, "status": "accepted", "value": 1}) + "\n")
        sys.stdout.flush()
    if "BAD-STATUS" in text:
        sys.stdout.write(json.dumps({"id": request["id"], "status": "fine"}) + "\n")
        sys.stdout.flush()
    if "HUGE" in text:
        sys.stdout.write("[" + "1," * (9 * 1024 * 1024))
        sys.stdout.flush()
        time.sleep(3600)
    if "GROW" in text:
        hoard = []
        while True:
            hoard.append(bytearray(16 * 1024 * 1024))
            time.sleep(0.01)
    if "STDERR-FLOOD" in text:
        for _ in range(2000):
            sys.stderr.write("x" * 200 + "\n")
        sys.stderr.flush()
    try:
        return {"status": "accepted", "value": json.loads(text),
                "warnings": [{"rule": "none", "message": "parsed as is", "line": 0}] if "WARN" in text else []}
    except json.JSONDecodeError as e:
        raise Rejected("JSON_SYNTAX_ERROR", str(e))


if __name__ == "__main__":
    mode = sys.argv[1] if len(sys.argv) > 1 else ""
    if mode == "no-handshake":
        sys.stderr.write("starting slowly\n")
        sys.stderr.flush()
        time.sleep(3600)
    if mode == "bad-version":
        print(json.dumps({"malform_pipeline": 99, "name": "broken", "formats": ["json"]}), flush=True)
        time.sleep(3600)
    serve("broken", "1", ["json"], ["*"], True, repair)
