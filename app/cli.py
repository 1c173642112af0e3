"""`tablebank`: start the bank on the local network and show the address as a QR code.

One process serves everything with gevent: each connection is a greenlet, not a thread, so
the players' open live pages cost memory only and never starve the banker's taps (a thread
per open page froze the old server at 32 phones).
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import gc
import io
import os
import signal
import socket
import sys
from pathlib import Path

from . import version

# Requests and live streams at work at once, far above a home's phones (a stream waiting for
# news is not counted: it holds no greenlet; CONNECTIONS_PER_PROCESS and its client's cap
# still count it).
MOST_CONNECTIONS = 10_000


def lan_address() -> str:
    """This machine's address on the home network, as a phone on the same Wi-Fi sees it."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # a UDP "connect" sends nothing; it picks a route
            return probe.getsockname()[0]
    except OSError:
        return "127.0.0.1"


def print_qr(url: str, folder: Path) -> None:
    """The address as a QR code, drawn once per address and kept in `folder` (the instance
    folder): importing qrcode and drawing took 10 ms of each start before its first answer."""
    kept = folder / "address-qr.txt"
    try:
        known, drawn = kept.read_text(encoding="utf-8").split("\n", 1)
    except (OSError, ValueError):  # not drawn yet, or not readable: drawn again
        known = drawn = ""
    if known != url:
        drawn = drawn_qr(url)
        with contextlib.suppress(OSError):  # a read-only folder: drawn at each start
            part = kept.with_suffix(".part")  # never half a drawing kept (a full disk)
            part.write_text(f"{url}\n{drawn}", encoding="utf-8")
            part.replace(kept)
    sys.stdout.write(drawn)


def drawn_qr(url: str) -> str:
    import qrcode

    code = qrcode.QRCode(border=1)
    code.add_data(url)
    drawing = io.StringIO()
    code.print_ascii(out=drawing, invert=True)
    return drawing.getvalue()


def listen(host: str, port: int) -> socket.socket:
    """The listening socket, or a clear word when the port is taken."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    # Each answer goes out at once: without this, an answer written in two parts waits for
    # the phone's delayed acknowledgement (40 ms on Linux) on a kept-alive connection.
    listener.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    try:
        listener.bind((host, port))
    except OSError as error:
        listener.close()
        if error.errno == errno.EADDRINUSE:
            sys.exit(f"tablebank: port {port} is taken: try --port {port + 1}")
        sys.exit(f"tablebank: cannot listen on {host}:{port}: {error.strerror}")
    listener.listen(1024)
    return listener


def more_open_files() -> None:
    """Each open page is a socket: allow as many as the system lets this process have."""
    try:
        import resource
    except ImportError:  # Windows
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


class ShowVersion(argparse.Action):
    """--version, looked up only when asked: reading the installed version takes 9 ms that a
    start would otherwise spend before its first answer."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, **kwargs) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        print(f"tablebank {version()}")
        parser.exit()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="tablebank", description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="0.0.0.0", help="address to listen on")
    parser.add_argument("--port", type=int, default=8000, help="port to listen on (8000)")
    parser.add_argument(
        "--no-access-log", action="store_true", help="do not print a line per request"
    )
    parser.add_argument("--version", action=ShowVersion, help="show the version and exit")
    args = parser.parse_args(argv)

    # No cyclic garbage collection while the modules load and the app is made: nearly all
    # they make stays, and its collections took a tenth of the time to the first answer to
    # free 2% of it (about 3,000 objects, then kept by the freeze below).
    gc.disable()
    from gevent import monkey

    monkey.patch_all()  # before Flask, SQLAlchemy and the drivers are imported

    from gevent.pool import Pool

    from . import create_app
    from .home_server import Server
    from .logs import access_logger

    listener = listen(args.host, args.port)
    more_open_files()
    app = create_app()
    gc.freeze()  # what start-up made stays: later collections do not walk it again
    gc.enable()
    host = lan_address() if args.host == "0.0.0.0" else args.host
    url = f"http://{host}:{args.port}/"
    print(f"tablebank is open at {url}\nScan this with the banker's phone:\n")
    print_qr(url, Path(app.instance_path))
    sys.stdout.flush()
    log = access_logger(sys.stdout) if app.config["ACCESS_LOG"] and not args.no_access_log else None
    # The server's name is the address printed: else gevent looks the listening address's name
    # up as it starts, in a thread of its resolver's, loaded for it (docs/PERFORMANCE.md: 15-30
    # ms before the first answer), for a name read only when a request names no Host.
    environ = {"SERVER_NAME": host}
    server = Server(listener, app, spawn=Pool(MOST_CONNECTIONS), log=log, environ=environ)
    serve(server, app)


def serve(server, app) -> None:
    """Serve until Ctrl-C or SIGTERM; then the open streams end at once and requests under
    way get two seconds to finish."""
    import gevent

    from .live import watcher

    def shut() -> None:
        watcher(app).stop()
        server.stop(timeout=2)

    if os.name == "posix":  # Ctrl-C too: handled in a greenlet, no traceback from the hub
        gevent.signal_handler(signal.SIGTERM, gevent.spawn, shut)
        gevent.signal_handler(signal.SIGINT, gevent.spawn, shut)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        shut()
    print("tablebank has stopped.", flush=True)


if __name__ == "__main__":
    main()
