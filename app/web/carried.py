"""A live stream carried on its own connection once its request is let go.

The servers that run this product (the `tablebank` command's, the gunicorn worker) offer
each request the takeover of its connection (app/serving.Takeover). A stream takes it:
Flask's answer is made as for any request (status, headers, the session's cookie), then the
stream writes that head itself and starts in the connection's greenlet, after the request,
its handler, Flask's contexts and the WSGI environ are gone. While it waits for news it
holds no greenlet either (no saved stack, no contexts): the news, or the keep-alive's
timer, wakes it in a greenlet of its own. What an open page holds while it waits is then
its stream (what it follows, how to draw it, suspended where it waits) and its socket
(docs/PERFORMANCE.md: about 7 to 9 kB a page in one process).

The stream runs in an app context in its reader's language, pushed each time it runs; a
drawing also needs a request (the reader's theme and time zone, the page's own links): it
is drawn in one made from the headers that opened the stream, with the session it opened
with (a few hundred bytes kept, a cookie's signature not checked again). Under a server
that offers no takeover (Flask's test client, another WSGI server), the stream is the
request's answer as before, each wait blocking (web/streams.py).
"""

from __future__ import annotations

import io
import socket
from collections.abc import Callable, Generator
from contextlib import suppress

from babel import Locale
from flask import Flask, Response, current_app, g
from flask.ctx import RequestContext
from flask.sessions import SessionMixin
from flask_babel import force_locale

from ..live import Waiting

WRITE_SECONDS = 30  # a page that reads nothing for this long is let go (it reconnects)
# What a drawing's request is made of, besides the headers: the address the stream was
# opened at, as Flask saw it (behind the proxy fix).
KEPT = (
    "REQUEST_METHOD",
    "SCRIPT_NAME",
    "PATH_INFO",
    "QUERY_STRING",
    "SERVER_NAME",
    "SERVER_PORT",
    "SERVER_PROTOCOL",
    "REMOTE_ADDR",
    "wsgi.url_scheme",
)
# Headers no drawing reads (the browser's make, what it accepts, the fetch's own metadata):
# not kept while the page waits, a few hundred bytes a page from a browser.
UNREAD = (
    "HTTP_USER_AGENT",
    "HTTP_ACCEPT",
    "HTTP_ACCEPT_ENCODING",
    "HTTP_CONNECTION",
    "HTTP_CACHE_CONTROL",
    "HTTP_PRAGMA",
    "HTTP_REFERER",
    "HTTP_ORIGIN",
    "HTTP_LAST_EVENT_ID",
    "HTTP_PRIORITY",
    "HTTP_DNT",
)
UNREAD_FAMILY = "HTTP_SEC_"  # Sec-Fetch-*, Sec-CH-UA-*
NOT_OURS = ("connection", "content-length", "transfer-encoding")  # the stream's own framing
LAST_CHUNK = b"0\r\n\r\n"


def reader_of(environ: dict) -> dict:
    """What a drawing's request needs of the request that opened the stream."""
    return {k: v for k, v in environ.items() if k in KEPT or read_header(k)}


def read_header(key: str) -> bool:
    return key.startswith("HTTP_") and key not in UNREAD and not key.startswith(UNREAD_FAMILY)


def drawn_as_opened(
    app: Flask, reader: dict, path: str, draw: Callable, session: SessionMixin
) -> Callable:
    """`draw(game)` in a request made from `reader`, as the stream's own request drew, with
    the session the stream opened with (its cookie read and checked once, not at each
    drawing; a drawing writes no cookie)."""

    def drawn(game):
        with RequestContext(app, {**reader, "wsgi.input": io.BytesIO()}, session=session):
            g.page_path = path  # where a refused form of the live part goes back to
            return draw(game)

    return drawn


class CarriedStream(Response):
    """A stream's answer under a server that offers its connection: the head Flask made
    for it, written by the stream, then its events, each a chunk (HTTP/1.1; HTTP/1.0: the
    connection's end is the body's), until it ends and closes the connection."""

    def __init__(self, events: Generator, takeover, locale: Locale, **kwargs) -> None:
        super().__init__(**kwargs)
        self.events, self.takeover, self.locale = events, takeover, locale

    def __call__(self, environ, start_response):
        if environ.get("REQUEST_METHOD") == "HEAD":
            self.events.close()
            return super().__call__(environ, start_response)
        chunked = environ.get("SERVER_PROTOCOL") == "HTTP/1.1"
        app = current_app._get_current_object()
        carried = Carried(app, self.head(environ, chunked), self.events, self.locale, chunked)
        return self.takeover.take(carried.start, self.status)

    def head(self, environ, chunked: bool) -> bytes:
        lines = [f"HTTP/1.1 {self.status}"]
        for name, value in self.get_wsgi_headers(environ).items():
            if name.lower() not in NOT_OURS:
                lines.append(f"{name}: {value}")
        lines.append("Connection: close")
        if chunked:  # as the servers send a stream: each event a chunk, read as it comes
            lines.append("Transfer-Encoding: chunked")
        return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


class Carried:
    """A stream on its socket: its head, then its events, written until the stream ends or
    the page is gone. While the stream waits for news (live.Waiting) it holds no greenlet:
    the news, or the keep-alive's timer, wakes it in a greenlet of its own. The app's
    context, in the reader's language, is pushed only while it runs."""

    __slots__ = ("app", "unsent", "events", "locale", "chunked", "sock", "ended", "waiting")

    def __init__(self, app: Flask, head: bytes, events: Generator, locale: Locale, chunked: bool):
        self.app, self.unsent, self.events = app, head, events  # the head: with the first write
        self.locale, self.chunked = locale, chunked
        self.sock = self.ended = self.waiting = None

    def start(self, sock, ended: Callable[[], None]) -> None:
        """Carry the stream on `sock`; `ended()` once it has ended and closed it."""
        self.sock, self.ended = sock, ended
        sock.settimeout(WRITE_SECONDS)
        with suppress(OSError):  # each event goes out at once, not held for the last one's ACK
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.run(None)

    def run(self, answer) -> None:
        """The stream's pieces written, `answer` sent to it first (what it waited for), until
        it waits again or ends."""
        waits = False
        try:
            with self.app.app_context(), force_locale(self.locale):
                try:
                    waits = self.write_until_waiting(answer)
                except OSError:  # the page is gone, or reads nothing (the timeout)
                    pass
                except Exception:  # noqa: BLE001  one stream's fault ends that stream only
                    self.app.logger.exception("live: a stream failed")
                finally:
                    if not waits:
                        self.events.close()  # it stops following its game
        finally:
            if not waits:
                self.ended()  # before the page sees its connection close
                self.sock.close()

    def write_until_waiting(self, answer) -> bool:
        """True once the stream waits for a wake-up, False once it has ended."""
        while True:
            try:
                piece = self.events.send(answer)
            except StopIteration:
                self.write(LAST_CHUNK if self.chunked else b"")
                return False
            answer = None
            if isinstance(piece, Waiting):
                if self.waits(piece):
                    return True
                answer = piece.now()
            elif piece:
                self.write(framed(piece.encode(), self.chunked))

    def write(self, data: bytes) -> None:
        self.sock.sendall(self.unsent + data)
        self.unsent = b""

    def waits(self, waiting: Waiting) -> bool:
        """Wait without a greenlet: woken by the news or the timer (True); False if there is
        nothing to wait for."""
        from gevent import get_hub  # only the servers that carry streams run gevent

        news = waiting.news()
        if news is None:
            return False
        timer = get_hub().loop.timer(waiting.timeout)
        self.waiting = (waiting, news, timer)
        news.rawlink(self.wake)
        timer.start(self.wake)
        return True

    def wake(self, _news=None) -> None:
        """In gevent's hub, by the news or the timer, whichever comes first: the stream runs
        again in a greenlet of its own, switched to at once, as a greenlet waiting on the news
        would be. Started later (gevent's spawn_raw), it would come after the acting request,
        which lets the streams it woke send their cash first (live.hand_over) and no more."""
        from gevent import get_hub, getcurrent, spawn_raw
        from greenlet import greenlet

        if self.waiting is None:
            return
        (waiting, news, timer), self.waiting = self.waiting, None
        news.unlink(self.wake)
        timer.close()
        hub = get_hub()
        if getcurrent() is hub:
            greenlet(self.woken, parent=hub).switch(waiting)
        else:
            spawn_raw(self.woken, waiting)

    def woken(self, waiting: Waiting) -> None:
        self.run(waiting.now())


def framed(data: bytes, chunked: bool) -> bytes:
    return b"%x\r\n%b\r\n" % (len(data), data) if chunked else data
