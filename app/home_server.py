"""The `tablebank` command's server: gevent's WSGIServer with time limits on each connection
and a cap on connections per client, so that idle or slow clients (10,000 half-open
connections from one laptop on the home Wi-Fi) cost a little memory and never the banker's
answer.

- A connection waits at most KEEPALIVE_SECONDS for its next request to start (a new
  connection for its first), then the request line and headers must be in within
  HEADER_SECONDS; else the connection is closed (a 408 once the request has begun).
- The body is read whole within its own time (serving.bodies_in_time). Whatever the app left
  unread of it (a 413 from the Content-Length) gets one more second, then the connection
  is closed rather than waited on.
- A client (an IPv4 address, an IPv6 /64) holds at most CONNECTIONS_PER_CLIENT connections.
- A live stream may take its connection over (serving.Takeover): it then starts once its
  request and handler are let go, in the connection's greenlet, and while it waits holds
  none (app/web/carried.py); its connection counts against its client's cap until it ends,
  but not in the server's pool while it waits.
"""

from __future__ import annotations

import gevent
from gevent.pywsgi import WSGIHandler, WSGIServer

from .logs import mask
from .serving import (
    TAKEOVER,
    ConnectionCap,
    HandedOver,
    Takeover,
    plain_answer,
)

SLOW_HEAD = plain_answer("408 Request Timeout", "The request took too long to arrive: try again.")
UNREAD_BODY_SECONDS = 1.0
# bytes: what a connection reads ahead. gevent's 8 kB would be kept by each open page's
# connection for its whole life; a request's head is a few hundred bytes, read a line at a time.
READ_AHEAD = 1024


class Handler(WSGIHandler):
    def __init__(self, sock, address, server, takeover: Takeover) -> None:
        super().__init__(sock, address, server)
        self.rfile = sock.makefile("rb", READ_AHEAD)  # gevent's own, with 8 kB, let go
        self.takeover = takeover

    def get_environ(self):
        environ = super().get_environ()
        environ[TAKEOVER] = self.takeover
        return environ

    def process_result(self):
        if isinstance(self.result, HandedOver):  # a stream has the connection now
            self.status = self.result.status
            self.close_connection = True
            return
        super().process_result()

    def handle_one_request(self):
        if not self._next_request_starts():
            return None  # idle too long, or closed by the client: close
        self._head = gevent.Timeout(self.server.limits["HEADER_SECONDS"])
        self._head.start()
        try:
            return super().handle_one_request()
        except gevent.Timeout as expired:
            if expired is not self._head:
                raise
            return "408", SLOW_HEAD
        finally:
            self._head.close()

    def _next_request_starts(self) -> bool:
        if self.rfile.closed:
            return False
        with gevent.Timeout(self.server.limits["KEEPALIVE_SECONDS"], False):
            try:
                return bool(self.rfile.peek(1))
            except OSError:  # reset by the client
                return False
        return False

    def read_request(self, raw_requestline):
        try:
            return super().read_request(raw_requestline)
        finally:
            self._head.close()  # the head is in: the app's time is its own

    def run_application(self):
        try:
            super().run_application()
        finally:
            self._drop_unread_body()

    def _drop_unread_body(self) -> None:
        """The rest of a body the app did not read: a second to arrive, then the connection
        is closed instead of read to its end (gevent would wait for it indefinitely)."""
        body = self.wsgi_input
        if body is None or not (body.chunked_input or body.position < (body.content_length or 0)):
            return
        with gevent.Timeout(UNREAD_BODY_SECONDS, False):
            try:
                body._discard()
                return
            except OSError:  # the client left, or sent less than it said
                pass
        self.close_connection = True
        body._chunked_input_error = True  # gevent's own way to say: do not read it further

    def format_request(self):
        return mask(super().format_request())


class Server(WSGIServer):
    handler_class = Handler

    def __init__(self, listener, app, **kwargs) -> None:
        super().__init__(listener, app, **kwargs)
        config = app.config
        self.limits = {name: config[name] for name in ("KEEPALIVE_SECONDS", "HEADER_SECONDS")}
        self.cap = ConnectionCap.of(config)

    def handle(self, sock, address):
        takeover = self.cap.admit(sock, address)
        if takeover is None:
            return
        try:
            self.handler_class(sock, address, self, takeover).handle()
        except BaseException:
            takeover.drop()
            raise
        takeover.run()  # the cap is left once its stream ends, if one took the connection
