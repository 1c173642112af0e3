"""Live parts drawn once per process: what several open pages show at a version (the table
screen's live part, the banker's dashboard and auction for every banker phone, a player's own
for each of their open pages), in one language, theme and time zone, is drawn once and sent
to each; a part whose page shows nothing new at a version (`signature`: what it shows is the
same) is not drawn again at all. What is each page's own, or each version's, is put in as it
is sent: its CSRF token, a fresh idempotency key for each form (so no two phones ever share
a key), and the version its forms were drawn for."""

from __future__ import annotations

import re
import secrets
import threading
import uuid
from collections import OrderedDict
from collections.abc import Callable

from flask import g

MARK = secrets.token_hex(6)  # never in anything a user typed
CSRF = f"csrf-{MARK}"
KEY = f"key-{MARK}"
VERSION = f"version-{MARK}"
KEYS = re.compile(re.escape(KEY))
MOST = 4096  # live parts kept per process (the newest version of each), least recent out
WAIT = 5.0  # seconds a stream waits for another's drawing before it looks again

# key -> (version, HTML, signature of what it shows)
_drawn: OrderedDict[tuple, tuple[int, str, object]] = OrderedDict()
_pending: dict[tuple, threading.Event] = {}
_lock = threading.Lock()


def drawing_shared() -> bool:
    """Whether the part being drawn is shared: its forms get marks, not a page's own."""
    return bool(g.get("drawing_shared"))


def drawn(key: tuple, version: int, draw: Callable) -> tuple[int, str]:
    """The part `key` at `version` or later, and the version it shows: drawn by `draw` unless
    this process has it already, or is drawing it for another page (then that drawing is
    waited for). `draw(before)` is given what was kept for an earlier version, if anything
    (version, HTML, signature), and gives (version, HTML, signature): the same HTML again
    when its signature says nothing it shows changed."""
    while True:
        with _lock:
            found = _drawn.get(key)
            if found is not None and found[0] >= version:
                _drawn.move_to_end(key)
                return found[0], found[1]
            pending = _pending.get(key)
            if pending is None:
                mine = _pending[key] = threading.Event()
                break
        pending.wait(WAIT)
    try:
        g.drawing_shared = True
        found = draw(found)
        with _lock:
            _drawn[key] = found
            _drawn.move_to_end(key)
            while len(_drawn) > MOST:
                _drawn.popitem(last=False)
        return found[0], found[1]
    finally:
        g.drawing_shared = False
        with _lock:
            del _pending[key]
        mine.set()


def own(html: str, csrf: str, version: int) -> str:
    """A shared part as one page gets it: its CSRF token, a fresh key in each form, the
    version its forms were drawn for."""
    html = html.replace(CSRF, csrf).replace(VERSION, str(version))
    return KEYS.sub(lambda _: uuid.uuid4().hex, html) if KEY in html else html
