"""What the gunicorn settings (app/gunicorn_conf.py) name: the worker and the logger.

The worker is gunicorn's gevent worker with a cap on connections per client (an IPv4
address, an IPv6 /64: CONNECTIONS_PER_CLIENT, per worker process). gunicorn's own
`keepalive` bounds the wait for each request's line and headers, a new connection's first
included; the app reads each body whole in its own time (app/serving.py).

The logger masks players' tokens and banker keys in the error and access logs (app/logs.py).

Imported by gunicorn's master too: nothing here loads Flask or a database driver.
"""

from __future__ import annotations

import gc

from gunicorn.glogging import Logger as GunicornLogger
from gunicorn.workers.ggevent import GeventWorker

from .logs import mask_logger
from .serving import ConnectionCap, connections_per_client, refuse


class Worker(GeventWorker):
    cap: ConnectionCap | None = None

    def load_wsgi(self) -> None:
        """The app made without cyclic garbage collection, then what it made frozen, as the
        `tablebank` command does (app/cli.py, which says why)."""
        gc.disable()
        try:
            super().load_wsgi()
        finally:
            gc.freeze()
            gc.enable()

    def handle(self, listener, client, addr):
        if self.cap is None:
            self.cap = ConnectionCap(connections_per_client(getattr(self.wsgi, "config", {})))
        group = self.cap.enter(addr)
        if group is None:
            refuse(client)
            return
        try:
            super().handle(listener, client, addr)
        finally:
            self.cap.leave(group)


class Logger(GunicornLogger):
    def setup(self, cfg) -> None:
        super().setup(cfg)
        for logger in (self.error_log, self.access_log):
            mask_logger(logger)
