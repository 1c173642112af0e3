"""`tablebank`: start the bank on the local network and show the address as a QR code."""

from __future__ import annotations

import argparse
import socket
import sys

import qrcode


def lan_address() -> str:
    """This machine's address on the home network, as a phone on the same Wi-Fi sees it."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # a UDP "connect" sends nothing; it picks a route
            return probe.getsockname()[0]
    except OSError:
        return "127.0.0.1"


def print_qr(url: str) -> None:
    code = qrcode.QRCode(border=1)
    code.add_data(url)
    code.print_ascii(out=sys.stdout, invert=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="tablebank", description=__doc__)
    parser.add_argument("--host", default="0.0.0.0", help="address to listen on")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--threads", type=int, default=32, help="one per open phone, and more")
    args = parser.parse_args(argv)

    from waitress import serve

    from . import create_app

    app = create_app()
    host = lan_address() if args.host == "0.0.0.0" else args.host
    url = f"http://{host}:{args.port}/"
    print(f"tablebank is open at {url}\nScan this with the banker's phone:\n")
    print_qr(url)
    sys.stdout.flush()
    serve(app, host=args.host, port=args.port, threads=args.threads)


if __name__ == "__main__":
    main()
