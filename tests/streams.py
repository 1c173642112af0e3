"""One open live page read in-process, event by event: its stream asked for and read by a
thread of its own (as a server gives each its own); and the templates the app draws."""

from __future__ import annotations

import queue
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from flask import template_rendered

from .servers import HANG_GUARD

PAGE = "open page"  # the threads reading streams


class Opened:
    """One open live page: its stream asked for and read by a thread of its own (as a
    server gives each its own), its events handed over one at a time."""

    def __init__(self, client, path: str, seen: int) -> None:
        self.events: queue.Queue = queue.Queue()
        self.answer = None
        self.reader = threading.Thread(
            target=self.read, args=(client, f"{path}?v={seen}"), name=PAGE, daemon=True
        )
        self.reader.start()
        assert "retry" in self.next(), path

    def read(self, client, url: str) -> None:
        try:
            self.answer = client.get(url, buffered=False)
            assert self.answer.status_code == 200, url
            for chunk in self.answer.response:
                if chunk:  # a server writes nothing for an empty piece
                    self.events.put(chunk.decode() if isinstance(chunk, bytes) else chunk)
        except Exception as error:  # noqa: BLE001  handed to the test
            self.events.put(error)

    def next(self) -> str:
        chunk = self.events.get(timeout=HANG_GUARD)
        if isinstance(chunk, Exception):
            raise chunk
        return chunk

    def next_live(self) -> tuple[int, str]:
        """The next live part: its version and its HTML."""
        while True:
            chunk = self.next()
            if "event: live" in chunk:
                version = int(re.search(r"^id: (\d+)", chunk, re.M)[1])
                html = "\n".join(re.findall(r"^data: ?(.*)$", chunk, re.M))
                return version, html

    def close(self) -> None:
        """The page goes away: its stream ends at the next event (a server notices the
        closed connection then)."""


@contextmanager
def templates_drawn(app) -> Iterator[list[str]]:
    """The names of the templates `app` draws inside the block, in order (Flask's
    template_rendered; an include is drawn with the template that includes it)."""
    drawn: list[str] = []

    def noted(_app, template, **_extra) -> None:
        drawn.append(template.name)

    template_rendered.connect(noted, app)
    try:
        yield drawn
    finally:
        template_rendered.disconnect(noted, app)
