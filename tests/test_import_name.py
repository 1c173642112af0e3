"""One import name: the folder app/ is the package tablebank, and importing it as `app` from
the repository root (which would load every module a second time) is refused in words."""

from __future__ import annotations

import subprocess
import sys

from tablebank.paths import ROOT


def test_importing_app_from_the_repository_root_is_refused():
    tried = subprocess.run(
        [sys.executable, "-c", "import app"], cwd=ROOT, capture_output=True, text=True
    )
    assert tried.returncode != 0
    assert "Import the package as tablebank, not as app" in tried.stderr
