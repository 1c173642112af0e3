"""Where the package's files are: in a checkout, the folders at the top of the repository;
installed, inside the package (pyproject.toml); and the instance folder for the games."""

from __future__ import annotations

import os
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
ROOT = PACKAGE.parent  # the repository, in a checkout
EDITIONS = PACKAGE / "editions"
# A wheel ships templates/, static/ and migrations/ inside the package (pyproject.toml); in
# the repository, and so in an editable install, they are folders at its top.
INSTALLED = (PACKAGE / "migrations").is_dir()
SHIPPED = PACKAGE if INSTALLED else ROOT


def instance_folder() -> Path:
    """Where the SQLite database, the secret key and config.py are kept: TABLEBANK_INSTANCE
    when set; else instance/ at the top of the repository; else, installed, the user's data
    folder (never the package's own, which the next upgrade replaces)."""
    if os.environ.get("TABLEBANK_INSTANCE"):
        return Path(os.environ["TABLEBANK_INSTANCE"]).expanduser().resolve()
    if not INSTALLED:
        return ROOT / "instance"
    if sys.platform == "win32":
        data = os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local"
    elif sys.platform == "darwin":
        data = Path.home() / "Library" / "Application Support"
    else:
        data = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(data) / "tablebank"
