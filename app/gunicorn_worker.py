"""What the gunicorn settings (app/gunicorn_conf.py) name: the worker and the logger.

The worker is gunicorn's gevent worker with a cap on connections per client (an IPv4
address, an IPv6 /64: CONNECTIONS_PER_CLIENT, per worker process). gunicorn's own
`keepalive` bounds the wait for each request's line and headers, a new connection's first
included; the app reads each body whole in its own time (app/serving.py). A live stream may
take its connection over (serving.Takeover): it then starts once its request is let go, in
the connection's greenlet, holds none while it waits (app/web/carried.py), and counts under
the cap until it ends (not in the worker's pool while it waits).

The logger masks players' tokens and banker keys in the error and access logs (app/logs.py).

Imported by gunicorn's master too: nothing here loads Flask or a database driver.
"""

from __future__ import annotations

import gc

from gunicorn.glogging import Logger as GunicornLogger
from gunicorn.workers.ggevent import GeventWorker

from .logs import mask_logger
from .serving import (
    TAKEOVER,
    ConnectionCap,
    HandedOver,
)


class Worker(GeventWorker):
    cap: ConnectionCap | None = None

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
        return self.flask(environ, start_response)

    def handle_request(self, listener_name, req, sock, addr):
        super().handle_request(listener_name, req, sock, addr)
        if self.offered[sock].taken:  # no next request is read: the connection is the stream's
            raise StopIteration()  # gunicorn's own way to end a connection's keep-alive loop

    def is_already_handled(self, respiter) -> bool:
        return isinstance(respiter, HandedOver) or super().is_already_handled(respiter)

    def handle(self, listener, client, addr):
        if self.cap is None:
            self.cap = ConnectionCap.of(getattr(self.flask, "config", {}))
        takeover = self.cap.admit(client, addr)
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


class Logger(GunicornLogger):
    def setup(self, cfg) -> None:
        super().setup(cfg)
        for logger in (self.error_log, self.access_log):
            mask_logger(logger)
