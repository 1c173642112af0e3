"""Japanese messages in one spacing style (issue 22): ASCII colons and brackets with a space,
and a space between a name or figure put into the sentence and the Japanese around it, as
most of the catalogue was written; never the full-width forms beside them."""

from __future__ import annotations

import re
from pathlib import Path

from babel.messages.pofile import read_po
from tablebank.paths import ROOT

CJK = r"[\u3040-\u30ff\u3400-\u9fff]"
HOLDER = r"(?:%\(\w+\)s|\{\w+(?::\w+)?\})"


def japanese() -> list[str]:
    path = Path(ROOT) / "app" / "translations" / "ja" / "LC_MESSAGES" / "messages.po"
    found = []
    with path.open(encoding="utf-8") as po:
        catalogue = read_po(po)
    for message in catalogue:
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        found.extend(s for s in strings if message.id and s)
    return found


def test_japanese_messages_keep_one_spacing_style():
    mixed = [
        s
        for s in japanese()
        if "：" in s or "（" in s or re.search(rf"{HOLDER}{CJK}|{CJK}{HOLDER}", s)
    ]
    assert not mixed, mixed[:5]
