"""The edition files in app/editions/: read, then checked and parsed by the rules core."""

from __future__ import annotations

import json
from pathlib import Path

from .paths import EDITIONS
from .rules.edition import Edition, EditionError, parse_edition


def load_edition_file(path: Path) -> Edition:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise EditionError(f"{path.name}: cannot be read as JSON ({exc})") from exc
    edition = parse_edition(data, path.name)
    if edition.id != path.stem:
        raise EditionError(f"{path.name}: id {edition.id!r} does not match the file name")
    return edition


def load_editions(folder: Path = EDITIONS) -> dict[str, Edition]:
    """Every `*.json` edition in `folder`, checked; the first fault stops the start-up."""
    return {e.id: e for e in map(load_edition_file, sorted(folder.glob("*.json")))}
