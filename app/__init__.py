"""tablebank: the bank of a board game on the banker's phone."""

from __future__ import annotations

import os

if __name__ != "tablebank":  # the folder app/ imported from the repository root
    raise ImportError(
        "Import the package as tablebank, not as app: a second name would load a second copy "
        "of every module (pip install -e . makes the folder app/ the package tablebank)."
    )


def version() -> str:
    """The installed package's version (`tablebank --version`)."""
    from importlib import metadata

    try:
        return metadata.version("tablebank")
    except metadata.PackageNotFoundError:  # a checkout that was never installed
        return "unknown"


def create_app(overrides: dict | None = None):
    """The Flask app (app/factory.py). Imported on first use, so that importing the package
    loads nothing else: the `tablebank` command makes the standard library cooperative
    (gevent) before Flask and the database drivers are loaded."""
    zone_files_taken_as_shipped()
    from .factory import create_app as make

    return make(overrides)


def zone_files_taken_as_shipped() -> None:
    """Babel finds the local time zone as it is imported, and pytz then opens each of its
    ~600 zone files to list those that exist (10 ms of a start); its own switch
    PYTZ_SKIPEXISTSCHECK takes them as its wheel ships them, all there."""
    os.environ.setdefault("PYTZ_SKIPEXISTSCHECK", "1")
