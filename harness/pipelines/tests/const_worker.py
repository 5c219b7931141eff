"""A test pipeline that accepts every input with the same value, argv[1]
read as JSON: several of them with equal or different values make a
unanimous or a dissenting panel for the differential oracle. With argv[2]
it first starts a `sleep` grandchild and writes its pid there (the orphan
guard test)."""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from malform_pipeline import serve  # noqa: E402

VALUE = json.loads(sys.argv[1])


def repair(text, request):
    return {"status": "accepted", "value": VALUE, "warnings": []}


if __name__ == "__main__":
    if len(sys.argv) > 2:
        child = subprocess.Popen(["sleep", "300"])
        with open(sys.argv[2] + ".tmp", "w") as f:
            f.write("%d\n" % child.pid)
        os.rename(sys.argv[2] + ".tmp", sys.argv[2])
    serve("const", "1", ["json", "yaml"], ["*"], True, repair)
