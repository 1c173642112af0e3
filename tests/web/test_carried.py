"""A stream carried on its connection (web/carried.py), as the servers run it under gevent: a
waiting stream holds no greenlet, and the news wakes it at once."""

from __future__ import annotations

import socket

import gevent
from gevent.event import Event
from tablebank.live import Waiting
from tablebank.web.carried import Carried


class Game:
    """The watcher's side of one game, as a waiting stream asks it: news past version 0."""

    def __init__(self) -> None:
        self.news, self.version = Event(), 0

    def news_after(self, followed, seen: int, keys: int) -> Event | None:
        return None if self.version > seen else self.news

    def now(self, followed) -> tuple[int, list | None, int]:
        return self.version, ["$1,525"], 0


def test_the_news_runs_a_waiting_stream_before_the_request_that_woke_it_goes_on(app):
    """The acting request lets the streams it woke run once (live.hand_over: a sleep(0) under
    gevent) so that each sends the new cash before the request draws its own answer; a
    stream woken in a greenlet started later would send it only after that answer."""
    game, said = Game(), []

    def stream():
        version, cash, _keys = yield Waiting(game, None, 0, 0, 15)
        said.append(f"the stream sends {cash[0]} for version {version}")
        yield "event: cash\n\n"

    def acting_request():
        game.version = 1
        game.news.set()
        gevent.sleep(0)  # live.hand_over, under the servers' gevent
        said.append("the acting request draws its answer")

    server_end, page_end = socket.socketpair()
    with server_end, page_end:
        carried = Carried(app, b"", stream(), "en", chunked=False)
        carried.start(server_end, ended=lambda: said.append("the stream ended"))
        assert said == []  # it waits, holding no greenlet
        gevent.spawn(acting_request).join()
        assert said == [
            "the stream sends $1,525 for version 1",
            "the stream ended",
            "the acting request draws its answer",
        ]
        assert page_end.recv(100) == b"event: cash\n\n"
