"""Under gunicorn, a game's live streams in one worker: its home.

Every worker that holds a page of a game reads the game's row at each new version, parses it
and works out what its pages share (app/snapshots.py, app/web/shared.py). A table's 7 pages
spread over 4 workers did that up to 4 times per action (docs/PERFORMANCE.md, fan-out). So
each worker claims a slot, 0 to workers - 1, as a listening UNIX socket in Linux's abstract
namespace (it goes with its process: nothing to clean up after a crash), named after the
server (gunicorn's master, its addresses, its database); a game's home is the slot
crc32(game id) % workers. A stream that opens in another worker hands its connection (the
socket itself, over SCM_RIGHTS) and its request's text to the home, which runs the request
again as its own, and carries the stream from there. So does a request that names its game
(a banker's page, form or API call; a phone's, by a token whose game this worker found
before), body and all: the home answers it and serves its connection from then on, so that
the game's actions are done where its streams draw.

Homing only saves work. While no worker holds a game's slot (one booting or restarting, a
server run with fewer workers since), the next slot that is held stands in, and the streams
it carries end after a short while, so that the pages reconnect and find the home once it
is back; with no slot at all (the old workers of a reload still holding them) a stream stays
where it opened. A handed request is never handed again; only a worker of the same user may
hand one (the socket's peer credentials), and only a live stream or a GET or POST that names
a game or a phone's token is run for it. Off under TLS in gunicorn and off Linux.
Imported by the gunicorn worker and the streams: no Flask here.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import socket
import struct
import zlib
from collections import OrderedDict
from collections.abc import Callable

HOMES = "tablebank.homes"  # the environ's key for the worker's Homes
MOVED = "tablebank.moved"  # the environ's key of a request a worker handed here
BODY = "tablebank.body"  # a handed request's body (bytes), in what `handed` gives
MOST = 256 * 1024  # bytes of a handed request's text (gunicorn's own caps are below it)
MOST_BODY = 64 * 1024  # a body handed with its request (a form, an action); larger: not handed
# The game a banker's page, form or API call names in its address; a phone's names its token
NAMED = re.compile(r"/(?:g|api/games)/([A-Za-z0-9_-]{1,64})(?:/|$)")
PHONE = re.compile(r"/p/([A-Za-z0-9_-]{1,64})(?:/|$)")
TOKENS_KNOWN = 4096  # phones' tokens whose game this process knows, least recent out
_games_of: OrderedDict[str, str] = OrderedDict()
HAND_SECONDS = 30.0  # the most a worker waits for the home's word (a burst queues hand-overs)
# What a request is made of besides its headers; the rest of its environ is the server's own.
REQUEST = (
    "REQUEST_METHOD",
    "SCRIPT_NAME",
    "PATH_INFO",
    "QUERY_STRING",
    "RAW_URI",
    "SERVER_NAME",
    "SERVER_PORT",
    "SERVER_PROTOCOL",
    "REMOTE_ADDR",
    "REMOTE_PORT",
    "CONTENT_TYPE",
    "CONTENT_LENGTH",
    "wsgi.url_scheme",
)
CREDENTIALS = struct.Struct("3i")  # SO_PEERCRED: pid, uid, gid
BACKLOG = 1024  # hand-overs waiting for the home to take them: a thousand pages reconnecting


def door_name(server: str, slot: int) -> bytes:
    """The abstract address (a leading NUL) of slot `slot` of the server `server` names."""
    return b"\0tablebank-homes-" + f"{server}-{slot}".encode()


def server_name(master: int, binds: list[str], database: str) -> str:
    """What tells this server's workers from another's on the same host: its master's pid,
    the addresses it listens on and its database (a container's master is often pid 1)."""
    named = json.dumps([master, sorted(binds), database])
    return hashlib.sha256(named.encode()).hexdigest()[:24]


def is_stream(environ: dict) -> bool:
    """Whether a request is a live stream's GET (or HEAD)."""
    method, path = environ.get("REQUEST_METHOD"), environ.get("PATH_INFO", "")
    return method in ("GET", "HEAD") and path.endswith("/live")


def game_named(environ: dict) -> str | None:
    """The game a GET or POST names: in its address (a banker's page, form or API call:
    `/g/<id>/...`, `/api/games/<id>/...`), or by a phone's token (`/p/<token>/...`) whose
    game this process found before (`noted`); else None."""
    found = naming(environ)
    if found is None:
        return None
    return found.group(1) if found.re is NAMED else _games_of.get(found.group(1))


def naming(environ: dict) -> re.Match | None:
    """A GET's or POST's address, matched as one that names a game or a phone's token."""
    if environ.get("REQUEST_METHOD") not in ("GET", "POST"):
        return None
    path = environ.get("PATH_INFO", "")
    return NAMED.match(path) or PHONE.match(path)


def noted(token: str, game_id: str) -> None:
    """A phone's token and its game, as the app found them: the phone's next requests to this
    process name that game (a phone's page loads here, its actions then go home)."""
    _games_of[token] = game_id
    _games_of.move_to_end(token)
    while len(_games_of) > TOKENS_KNOWN:
        _games_of.popitem(last=False)


def runs_at_home(environ: dict) -> bool:
    """Whether a request is one a home runs for another worker: a live stream, or a GET or
    POST that names its game, by its id or a phone's token (its connection then stays with
    the game's home)."""
    return is_stream(environ) or naming(environ) is not None


class Homes:
    """One worker's view of the homes: its own slot, once claimed, and the others' doors."""

    def __init__(self, server: str, slots: int) -> None:
        self.server, self.slots = server, slots
        self.slot: int | None = None

    def claim(self) -> socket.socket | None:
        """A free slot's listening socket, now this worker's; None if every slot is taken
        (the old workers of a reload still serve) or there is no abstract namespace."""
        for slot in range(self.slots):
            listener = self.named(slot, "bind")
            if listener is not None:
                listener.listen(BACKLOG)
                self.slot = slot
                return listener
        return None

    def named(self, slot: int, how: str) -> socket.socket | None:
        """A UNIX socket bound to slot `slot`'s name (`how`: "bind") or connected to it
        ("connect"); None if the name is taken, or no one holds it."""
        made = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            getattr(made, how)(door_name(self.server, slot))
        except OSError:
            made.close()
            return None
        return made

    def home_of(self, game_id: str) -> int:
        return zlib.crc32(game_id.encode()) % self.slots

    def is_home(self, game_id: str) -> bool:
        """Whether this worker is the game's home (so is the only worker of a server)."""
        return self.slots < 2 or self.home_of(game_id) == self.slot

    def door(self, game_id: str) -> socket.socket | None:
        """A connection to the game's home, or, while no worker holds its slot (one booting
        or restarting; a server run with fewer workers since), to the next slot's that is
        held: each worker finds the same one. None if this worker's slot comes first."""
        home = self.home_of(game_id)
        for step in range(self.slots):
            slot = (home + step) % self.slots
            if slot == self.slot:
                return None
            door = self.named(slot, "connect")
            if door is not None:
                return door
        return None


def request_text(environ: dict, body: bytes = b"") -> bytes:
    """What the home needs to run the request again: its line and headers as the server read
    them (a proxy fix's changes undone: the home's app applies it again), then a NUL (which
    JSON text never holds) and its body, read whole."""
    sent = {k: v for k, v in environ.items() if isinstance(v, str) and is_request(k)}
    original = environ.get("werkzeug.proxy_fix.orig") or {}
    sent.update({k: v for k, v in original.items() if isinstance(v, str)})
    return json.dumps(sent).encode() + b"\0" + body


def is_request(key: str) -> bool:
    return key in REQUEST or key.startswith("HTTP_")


def hand(door: socket.socket, connection: socket.socket, text: bytes) -> bool:
    """Give `connection` and its request's `text` to the home behind `door`: whether it is
    the home's now (else it is still this worker's to answer). A home that has not said
    within HAND_SECONDS whether it took it (stuck, or far behind) is left with it: were this
    worker to answer too, both might write on it; if the home never takes it, it is closed
    with the door, and the page reconnects."""
    try:
        sent = socket.send_fds(door, [text], [connection.fileno()])
        door.sendall(text[sent:])  # a body may not go in one message
        door.shutdown(socket.SHUT_WR)
        door.settimeout(HAND_SECONDS)
        return door.recv(1) == b"1"  # the home has the connection: it answers from here on
    except TimeoutError:
        return True
    except OSError:
        return False
    finally:
        door.close()


def handed(conn: socket.socket) -> tuple[socket.socket, dict] | None:
    """A connection a worker of the same user handed over, and its request's environ text
    (its body under BODY); None (and nothing kept) for anything else."""
    _pid, uid, _gid = CREDENTIALS.unpack(
        conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, CREDENTIALS.size)
    )
    if uid != os.getuid():
        return None
    text, fds, _flags, _address = socket.recv_fds(conn, MOST, 1)
    connection = socket.socket(fileno=fds[0]) if fds else None
    while text and len(text) <= MOST:
        more = conn.recv(MOST)
        if not more:
            break
        text += more
    head, _, body = text.partition(b"\0")
    try:
        request = json.loads(head) if connection is not None and len(text) <= MOST else None
    except ValueError:
        request = None
    if not isinstance(request, dict) or not runs_at_home(request):
        if connection is not None:
            connection.close()
        return None
    return connection, {**{k: str(v) for k, v in request.items() if is_request(k)}, BODY: body}


def received(conn: socket.socket, run: Callable[[socket.socket, dict], None]) -> None:
    """Take what a worker hands over on `conn` and `run(connection, request)` it here, once
    the worker has been told that it was taken (if it is gone, or gave up waiting, so is the
    page's connection: it is closed unanswered)."""
    found = None
    with conn:
        try:
            found = handed(conn)
            if found is None:
                return
            conn.sendall(b"1")
        except OSError:  # the worker that handed it is gone: so is its page's connection
            if found is not None:
                found[0].close()
            return
    run(*found)


def whole_answer(
    status: str, headers: list[tuple[str, str]], body: bytes, close: bool = True
) -> bytes:
    """An answer the home's app gave that is not a carried stream (a page, a 404, a HEAD),
    in full; on a connection closed after it, unless `close` is False."""
    lines = [f"HTTP/1.1 {status}"]
    for name, value in headers:
        if name.lower() not in ("connection", "content-length", "transfer-encoding"):
            lines.append(f"{name}: {value}")
    lines.append(f"Content-Length: {len(body)}")
    if close:
        lines.append("Connection: close")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


def keeps_alive(request: dict) -> bool:
    """Whether the client of a handed request expects its connection to stay open."""
    asked = request.get("HTTP_CONNECTION", "").lower()
    if request.get("SERVER_PROTOCOL") == "HTTP/1.0":
        return "keep-alive" in asked
    return "close" not in asked
