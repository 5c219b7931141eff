"""bench_inprocess.py ADAPTER.py INPUTS ROUNDS - the baseline of the pipeline
bench for Python adapters: the adapter's repair(text, request) called
in-process on the same inputs (one JSON string per line), ROUNDS untimed
rounds then ROUNDS timed ones. Prints one JSON
line {"execs", "seconds"}."""
import importlib.util
import json
import sys
import time

from malform_pipeline import Rejected


def main():
    adapter, path, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
    spec = importlib.util.spec_from_file_location("adapter", adapter)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    with open(path, encoding="utf-8") as f:
        inputs = [json.loads(line) for line in f if line.strip()]
    execs, sink, t0 = 0, 0, 0.0
    for r in range(2 * rounds):
        if r == rounds:  # the first rounds warm up, as for the worker
            execs, t0 = 0, time.perf_counter()
        for text in inputs:
            try:
                sink += len(json.dumps(mod.repair(text, {"input": text})))
            except Rejected:
                sink += 1
            except Exception:  # noqa: BLE001 - a crash is an answer here too
                sink += 2
            execs += 1
    print(json.dumps({"execs": execs, "seconds": time.perf_counter() - t0, "sink": sink}))


if __name__ == "__main__":
    main()
