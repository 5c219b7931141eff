"""Shared fixtures: the fixture dir, the package on sys.path, the malform binary."""
import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "reports"))
FIX = os.path.join(HERE, "fixtures")
MALFORM = os.environ.get("MALFORM") or os.path.join(REPO, "build", "default", "harness", "malform")


@pytest.fixture
def fix():
    return FIX


@pytest.fixture
def malform():
    """The built CLI; the tests that need it are skipped, with the reason, when it is not built."""
    if not (os.path.isfile(MALFORM) and os.access(MALFORM, os.X_OK)):
        pytest.skip(f"malform binary not built at {MALFORM} (cmake --preset default && "
                    f"cmake --build --preset default, or set MALFORM=PATH)")
    return MALFORM
