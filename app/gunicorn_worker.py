"""What the gunicorn settings (app/gunicorn_conf.py) name: the worker and the logger.

The worker is gunicorn's gevent worker with a cap on connections per client (an IPv4
address, an IPv6 /64: CONNECTIONS_PER_CLIENT, per worker process). gunicorn's own
`keepalive` bounds the wait for each request's line and headers, a new connection's first
included; the app reads each body whole in its own time (app/serving.py). A live stream may
take its connection over (serving.Takeover): it then starts once its request is let go, in
the connection's greenlet, holds none while it waits (app/web/carried.py), and counts under
the cap until it ends (not in the worker's pool while it waits).

With several workers, a game's live streams are carried by one of them, the game's home: a
stream that opens in another worker is handed there, connection and all, and so is a
request that names its game, which the home answers and whose connection it keeps serving
(app/stream_homes.py).

The logger masks players' tokens and banker keys in the error and access logs (app/logs.py).

Imported by gunicorn's master too: nothing here loads Flask or a database driver.
"""

from __future__ import annotations

import gc
import io
import os
import sys
import time
from datetime import datetime
from types import SimpleNamespace

import gevent
from gevent.server import StreamServer
from gunicorn.glogging import Logger as GunicornLogger
from gunicorn.workers.ggevent import GeventWorker

from .logs import mask_logger
from .serving import (
    BODY_LATE,
    TAKEOVER,
    ConnectionCap,
    HandedOver,
)
from .stream_homes import (
    BODY,
    HOMES,
    MOST_BODY,
    MOVED,
    Homes,
    game_named,
    hand,
    is_stream,
    keeps_alive,
    received,
    request_text,
    server_name,
    whole_answer,
)

CLAIM_AGAIN = 2.0  # seconds between a homeless worker's looks for a free slot


class Worker(GeventWorker):
    cap: ConnectionCap | None = None
    homes: Homes | None = None
    answering = 0  # requests being answered: gunicorn waits for its pools, not for handed ones

    def load_wsgi(self) -> None:
        """The app made without cyclic garbage collection, then what it made frozen, as the
        `tablebank` command does (app/cli.py, which says why); each request offered the
        takeover of its connection."""
        gc.disable()
        try:
            super().load_wsgi()
        finally:
            gc.freeze()
            gc.enable()
        self.flask = self.wsgi
        self.offered: dict = {}  # a connection's socket -> its Takeover, while it is handled
        self.wsgi = self.offering

    def offering(self, environ, start_response):
        takeover = self.offered.get(environ.get("gunicorn.socket"))
        if takeover is not None and environ.get("HTTP_VERSION") != "2":  # not an HTTP/2 stream
            environ[TAKEOVER] = takeover
            if self.homes is not None:
                environ[HOMES] = self.homes
                if self.sent_home(environ, takeover):
                    return takeover.handed_away("200 OK")
        return self.flask(environ, start_response)

    def sent_home(self, environ, takeover) -> bool:
        """A request that names its game, in a worker that is not the game's home: handed
        there with its connection and its body (app/stream_homes.py), so that the game's
        streams draw from what its action committed, in the same process; whether it went.
        Else it is this worker's to answer, its body (read here) given to the app as read;
        one that did not arrive in time is answered as the app answers a slow body."""
        game = game_named(environ)
        if game is None or is_stream(environ) or self.homes.is_home(game):
            return False  # a stream is handed by its view, once it knows its game
        length = int(environ.get("CONTENT_LENGTH") or 0)
        if length > MOST_BODY or "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower():
            return False
        body = self.body_of(environ, length)
        environ["wsgi.input"] = io.BytesIO(body or b"")
        door = None if body is None else self.homes.door(game)
        return door is not None and hand(door, takeover.socket, request_text(environ, body))

    def body_of(self, environ, length: int) -> bytes | None:
        """The request's body, read whole in the time the app gives a body (serving.py);
        None, and the app told (BODY_LATE), if it did not arrive in it."""
        if not length:
            return b""
        config = self.flask.config
        with gevent.Timeout(config["BODY_SECONDS"] + length / config["BODY_RATE"], False):
            return environ["wsgi.input"].read(length)
        environ[BODY_LATE] = True
        return None

    def handle_request(self, listener_name, req, sock, addr):
        self.answering += 1
        try:
            super().handle_request(listener_name, req, sock, addr)
        finally:
            self.answering -= 1
        if self.offered[sock].taken:  # no next request is read: the connection is the stream's
            raise StopIteration()  # gunicorn's own way to end a connection's keep-alive loop

    def is_already_handled(self, respiter) -> bool:
        return isinstance(respiter, HandedOver) or super().is_already_handled(respiter)

    def handle(self, listener, client, addr):
        takeover = self.admitted(client, addr)
        if takeover is None:
            return
        self.offered[client] = takeover
        try:
            super().handle(listener, client, addr)
        except BaseException:
            takeover.drop()
            raise
        finally:
            self.offered.pop(client, None)
        takeover.run()  # the cap is left once its stream ends, if one took the connection

    def admitted(self, client, addr):
        if self.cap is None:
            self.cap = ConnectionCap.of(getattr(self.flask, "config", {}))
        return self.cap.admit(client, addr)

    # -- a game's streams in its home worker (app/stream_homes.py) -----------------------------

    def run(self):
        config = getattr(self.flask, "config", {})
        # A TLS connection cannot be handed to another process (its session is this one's);
        # the homes' sockets are in Linux's abstract namespace.
        if (
            config.get("LIVE_HOMES")
            and self.cfg.workers > 1
            and not self.cfg.is_ssl
            and sys.platform.startswith("linux")
        ):
            database = config.get("SQLALCHEMY_DATABASE_URI", "")
            server = server_name(os.getppid(), list(self.cfg.bind), str(database))
            self.homes = Homes(server, self.cfg.workers)
            gevent.spawn(self.keep_home)
        super().run()
        self.finish_handed()

    def finish_handed(self) -> None:
        """As the worker stops: the requests it was handed still being answered get the
        graceful time gunicorn gives its own (which it waits for by its servers' pools)."""
        until = time.monotonic() + self.cfg.graceful_timeout
        while self.answering and time.monotonic() < until:
            gevent.sleep(0.1)

    def keep_home(self) -> None:
        """Claim a slot (once the old workers of a reload have let theirs go), take the
        streams handed to it, and let it go as this worker stops."""
        listener = None
        while self.alive and listener is None:
            listener = self.homes.claim()
            if listener is None:
                gevent.sleep(CLAIM_AGAIN)
        if listener is None:
            return
        door = StreamServer(listener, handle=lambda conn, _: received(conn, self.run_handed))
        door.start()
        self.log.info("tablebank: this worker carries the live streams of slot %d", self.homes.slot)
        while self.alive:
            gevent.sleep(1.0)
        door.close()
        self.homes.slot = None

    def run_handed(self, connection, request: dict) -> None:
        """A request another worker handed here, run as this worker's own: a live stream,
        which takes the connection; else a request of a game's (a page, an action), after
        whose answer the connection is served here as any other."""
        address = (request.get("REMOTE_ADDR", ""), int(request.get("REMOTE_PORT") or 0))
        takeover = self.admitted(connection, address)
        if takeover is None:
            return
        environ = {
            **{k: v for k, v in request.items() if k != BODY},
            "wsgi.input": io.BytesIO(request.get(BODY, b"")),
            "wsgi.errors": sys.stderr,
            "wsgi.version": (1, 0),
            "wsgi.multithread": True,
            "wsgi.multiprocess": True,
            "wsgi.run_once": False,
            "gunicorn.socket": connection,
            TAKEOVER: takeover,
            HOMES: self.homes,  # whether this worker is the game's home, or stands in for it
            MOVED: True,
        }
        said: list = []

        def start_response(status, headers, _exc_info=None):
            said[:] = [status, headers]

        stays = not is_stream(request) and keeps_alive(request)
        began = datetime.now()
        self.answering += 1
        try:
            answer = self.flask(environ, start_response)
            try:
                body = b"".join(answer)
            finally:
                getattr(answer, "close", lambda: None)()
            if not takeover.taken:
                connection.sendall(whole_answer(said[0], said[1], body, close=not stays))
                self.log_access(environ, said, len(body), began)
                if not stays:
                    connection.close()
        except BaseException:
            takeover.drop()
            connection.close()
            raise
        finally:
            self.answering -= 1
        takeover.run()
        if stays and not takeover.taken:
            self.handle(self.listener_of(connection), connection, address)

    def log_access(self, environ, said: list, sent: int, began: datetime) -> None:
        """The access log's line of a request handed here and answered whole (gunicorn
        writes those it answers itself; a carried stream's, as ever, nowhere)."""
        headers = [(k[5:].replace("_", "-"), v) for k, v in environ.items() if k[:5] == "HTTP_"]
        answer = SimpleNamespace(status=said[0], headers=said[1], sent=sent)
        self.log.access(answer, SimpleNamespace(headers=headers), environ, datetime.now() - began)

    def listener_of(self, connection):
        """The listening socket of this worker a handed connection came in by."""
        local = connection.getsockname()
        return next((s for s in self.sockets if s.getsockname() == local), self.sockets[0])


class Logger(GunicornLogger):
    def setup(self, cfg) -> None:
        super().setup(cfg)
        for logger in (self.error_log, self.access_log):
            mask_logger(logger)
