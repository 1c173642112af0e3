"""Connections as both servers take them (the `tablebank` command: app/home_server.py;
gunicorn: app/gunicorn_worker.py): who a client is, how many connections one client may
hold, and a request's body read whole, in bounded time, before anything else runs for it.

Slow or idle clients must cost a little memory and never a normal request's answer: a body
that dribbles in must not hold a pooled database connection (the banker check reads the
game before the view reads the body), nor count against the request's deadline, which is
the database's (db_setup.with_deadline).
"""

from __future__ import annotations

import ipaddress
from collections import Counter
from collections.abc import Callable
from functools import partial

IPV6_NETWORK = 64  # an IPv6 host gets a /64 to itself: 2^64 addresses, one client


def plain_answer(status: str, words: str) -> bytes:
    """A whole HTTP answer in words, for a connection about to be closed."""
    body = words.encode()
    return (
        f"HTTP/1.1 {status}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8"
        f"\r\nContent-Length: {len(body)}\r\n\r\n"
    ).encode() + body


TOO_MANY = plain_answer(
    "429 Too Many Requests",
    "Too many connections from your network: close some pages, then try again.",
)
FULL = plain_answer(
    "503 Service Unavailable",
    "The server holds as many connections as it can: try again in a moment.",
)
PLAIN = "text/plain; charset=utf-8"
SLOW_BODY = "The request took too long to arrive: check the connection and try again."
API = "/api/"  # the JSON API's paths: answered in JSON, never with a page


def is_api(path: str) -> bool:
    """Whether a request's path is the JSON API's."""
    return path.startswith(API)


def client_group(address: str | None) -> str:
    """What the limits count a client by: its IPv4 address, or its IPv6 /64 network (an
    IPv4 address written in IPv6 is the IPv4 one). Anything else counts as itself."""
    try:
        ip = ipaddress.ip_address((address or "").split("%", 1)[0])
    except ValueError:
        return address or "unknown"
    if ip.version == 6 and ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    if ip.version == 6:
        return str(ipaddress.ip_network(f"{ip}/{IPV6_NETWORK}", strict=False))
    return str(ip)


def connections_per_client(config) -> int:
    """CONNECTIONS_PER_CLIENT, or 0 (no cap) behind a proxy: every connection then comes from
    the proxy, which has its own limits (docs/SECURITY.md)."""
    return 0 if int(config.get("PROXY_FIX") or 0) else int(config["CONNECTIONS_PER_CLIENT"])


class ConnectionCap:
    """Open connections in one process, per client and all together (greenlets of one thread:
    no lock). A connection counts from its accept until it is done with; a live stream's, until
    the stream ends: it waits holding no greenlet, so the servers' pools do not count it."""

    def __init__(self, most: int, most_open: int = 0) -> None:
        self.most, self.most_open = most, most_open
        self.open: Counter[str] = Counter()
        self.total = 0

    @classmethod
    def of(cls, config) -> ConnectionCap:
        """The caps the app's settings name: CONNECTIONS_PER_CLIENT (none behind a proxy) and
        CONNECTIONS_PER_PROCESS."""
        return cls(connections_per_client(config), int(config.get("CONNECTIONS_PER_PROCESS", 0)))

    def admit(self, sock, address) -> Takeover | None:
        """A new connection counted, with its Takeover, which gives it back once done with;
        None if it is over a cap: it is then told so in words, and closed."""
        group = group_of(address)
        refusal = self.refusal(group)
        if refusal is not None:
            refuse(sock, refusal)
            return None
        self.enter(group)
        return Takeover(sock, partial(self.leave, group))

    def refusal(self, group: str) -> bytes | None:
        """The answer in words that refuses a new connection of `group`; None if it may enter."""
        if self.most_open and self.total >= self.most_open:
            return FULL
        if self.most and self.open[group] >= self.most:
            return TOO_MANY
        return None

    def enter(self, group: str) -> None:
        self.open[group] += 1
        self.total += 1

    def leave(self, group: str) -> None:
        self.total -= 1
        self.open[group] -= 1
        if self.open[group] <= 0:
            del self.open[group]


def group_of(address) -> str:
    """The client group of a server's peer address (a tuple; a UNIX socket's is a string)."""
    return client_group(address[0] if isinstance(address, tuple) else None)


def refuse(sock, answer: bytes) -> None:
    """A connection over a cap: `answer` (a 429 or a 503 in words), and closed."""
    try:
        sock.sendall(answer)
    except OSError:
        pass
    finally:
        sock.close()


def bodies_in_time(app, body_limit: Callable[[], int | None]) -> None:
    """Under gevent: a request's body (at most `body_limit()` bytes, its route's) is read
    whole before the request's deadline starts and before any hook runs, within
    BODY_SECONDS plus one second per BODY_RATE bytes; else a 408 in words, and the
    connection is closed. A body over the limit is left unread (the 413 comes from its
    Content-Length)."""
    import gevent
    from flask import jsonify, request
    from werkzeug.exceptions import HTTPException

    dispatch = app.full_dispatch_request

    def full_dispatch_request():
        chunked = "chunked" in request.headers.get("Transfer-Encoding", "").lower()
        length, limit = request.content_length, body_limit()
        if (length or chunked) and (limit is None or (length or 0) <= limit):
            seconds = app.config["BODY_SECONDS"] + (length or limit or 0) / app.config["BODY_RATE"]
            arrived = False
            try:
                if not request.environ.get(BODY_LATE):
                    with gevent.Timeout(seconds, False):
                        request.get_data(cache=True)  # what the form, JSON and views read
                        arrived = True
            except HTTPException as error:  # over the limit (chunked), or the client left
                return app.finalize_request(app.handle_user_exception(error))
            if not arrived:
                words = {"error": SLOW_BODY, "rule": "http"}
                api = is_api(request.path)
                answer, kind = (jsonify(words), None) if api else (SLOW_BODY, PLAIN)
                headers = {"Connection": "close", **({"Content-Type": kind} if kind else {})}
                response = app.make_response((answer, 408, headers))
                return app.finalize_request(response)
        return dispatch()

    app.full_dispatch_request = full_dispatch_request


TAKEOVER = "tablebank.takeover"  # the environ's key for a connection's Takeover
BODY_LATE = "tablebank.body_late"  # the server waited for the body in vain (gunicorn_worker)


class HandedOver:
    """What the app answers its server for a request whose connection a stream took over:
    nothing to write. The server stops reading requests from the connection and lets its
    own socket go; the stream keeps the connection (its duplicate)."""

    def __init__(self, status: str) -> None:
        self.status = status  # for the access log

    def __iter__(self):
        return iter(())


class Takeover:
    """A connection that the app may take over for a live stream once the stream's request
    is answered (app/web/carried.py), offered in the environ by the servers that run it
    afterwards: the `tablebank` command's and the gunicorn worker. The request, its
    handler and all they hold are let go first; then the stream starts in the connection's
    own greenlet and goes on in greenlets of its own, holding none while it waits. The
    connection counts as its client's (the cap) until the stream ends: `release` is called
    then, or as soon as the connection is done with if no stream took it."""

    __slots__ = ("socket", "stream", "release")

    def __init__(self, sock, release: Callable[[], None]) -> None:
        self.socket = sock
        self.stream: Callable | None = None
        self.release: Callable[[], None] | None = release

    @property
    def taken(self) -> bool:
        return self.stream is not None

    def take(self, stream: Callable, status: str) -> HandedOver:
        """Keep the connection for `stream(socket, done)`, started once the request is let
        go, whose answer has `status`; the stream calls `done()` when it ends. The server
        closes its own socket object: the stream gets a duplicate of it."""
        self.socket = self.socket.dup()
        self.stream = stream
        return HandedOver(status)

    def handed_away(self, status: str) -> HandedOver:
        """The connection is another worker's now (app/stream_homes.py), which answers on it:
        this server writes nothing more on it and lets its own socket go."""
        self.stream = lambda _sock, done: done()
        return HandedOver(status)

    def run(self) -> None:
        """The stream the connection was taken for, if any (it calls `done` when it ends,
        perhaps later); else the connection is done with now."""
        stream, self.stream = self.stream, None
        if stream is None:
            self.done()
        else:
            stream(self.socket, self.done)

    def done(self) -> None:
        release, self.release = self.release, None
        if release is not None:
            release()

    def drop(self) -> None:
        """The server failed before the stream could start: the connection is done with."""
        if self.stream is not None:
            self.stream = None
            self.socket.close()
        self.done()
