"""Abuse a real server the way an anonymous visitor could, and time what others feel:

1. a 20 MB request body: how long until the server refuses it (it must not read it all);
2. a flood of new games from one address for --seconds, while a banker keeps acting on
   games made before: how many new games got through (the rate limit), how many were turned
   away (429), and the banker's p50/p95 meanwhile against the same without the flood.

    .venv/bin/python -m bench.abuse --database sqlite --seconds 60
    .venv/bin/python -m bench.abuse --database postgres --seconds 60
"""

from __future__ import annotations

import argparse
import collections
import os
import socket
import sys
import threading
import time

import requests

from .common import Server, free_port, fresh_database, server_command, summary

SETUP = {
    "edition": "us-classic",
    "players": [{"name": n, "colour": "#e03131"} for n in ("Ana", "Bea", "Cal")],
    "starting_cash": 1_000_000,
}


def huge_body(base: str, size: int = 20 * 1024 * 1024) -> float:
    """Milliseconds from sending the headers of a `size`-byte POST to the server's answer."""
    host, port = base.split("//")[1].split(":")
    with socket.create_connection((host, int(port))) as connection:
        head = (
            f"POST /api/games HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {size}\r\nConnection: close\r\n\r\n"
        )
        started = time.perf_counter()
        connection.sendall(head.encode())
        connection.settimeout(30)
        sent = 0
        chunk = b"[" * 65536
        connection.setblocking(False)
        answer = b""
        while True:
            try:
                answer += connection.recv(65536)
                if b"\r\n\r\n" in answer:
                    break
            except BlockingIOError:
                pass
            if sent < size:
                try:
                    sent += connection.send(chunk[: size - sent])
                except (BlockingIOError, BrokenPipeError, ConnectionResetError):
                    time.sleep(0.001)
            else:
                time.sleep(0.001)
        took = (time.perf_counter() - started) * 1000
    status = answer.split(b"\r\n", 1)[0].decode()
    print(f"20 MB body: {status!r} after {took:.1f} ms, {sent / 1e6:.1f} MB sent")
    return took


def banker_times(base: str, games: list[tuple[str, str]], stop: threading.Event) -> list[float]:
    session = requests.Session()
    times: list[float] = []
    n = 0
    while not stop.is_set():
        game_id, key = games[n % len(games)]
        started = time.perf_counter()
        answer = session.post(
            f"{base}/api/games/{game_id}/actions",
            json={"kind": "bank_pay", "player": n % 3, "amount": 1},
            headers={"X-Banker-Key": key},
            timeout=30,
        )
        times.append((time.perf_counter() - started) * 1000)
        if answer.status_code != 201:
            print("banker:", answer.status_code, answer.text[:200])
        n += 1
        time.sleep(0.05)
    return times


def flood(base: str, stop: threading.Event, counts: collections.Counter) -> None:
    session = requests.Session()
    while not stop.is_set():
        counts[session.post(f"{base}/api/games", json=SETUP, timeout=30).status_code] += 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", default="sqlite", choices=["sqlite", "postgres"])
    parser.add_argument("--server", default="gunicorn", choices=["gunicorn", "tablebank"])
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--flooders", type=int, default=4)
    parser.add_argument("--smoke", action="store_true", help="a run of a few seconds")
    args = parser.parse_args()
    if args.smoke:
        args.seconds, args.flooders = 3, 2
    os.environ["TABLEBANK_RATELIMIT_ENABLED"] = "true"  # the limits are what is measured
    with fresh_database(args.database) as url:
        port = free_port()
        with Server(server_command(args.server, port), url, port) as server:
            base = server.url
            games = []
            for _ in range(3):
                made = requests.post(f"{base}/api/games", json=SETUP, timeout=30).json()
                games.append((made["id"], made["banker_key"]))
            huge = [huge_body(base) for _ in range(5)]
            quiet_stop = threading.Event()
            timer = threading.Timer(min(20, args.seconds), quiet_stop.set)
            timer.start()
            quiet = banker_times(base, games, quiet_stop)
            stop, counts = threading.Event(), collections.Counter()
            flooders = [
                threading.Thread(target=flood, args=(base, stop, counts))
                for _ in range(args.flooders)
            ]
            for thread in flooders:
                thread.start()
            threading.Timer(args.seconds, stop.set).start()
            busy = banker_times(base, games, stop)
            for thread in flooders:
                thread.join()
    print(f"{args.database}, {args.server}")
    print(f"20 MB refused: {summary(huge)}")
    print(f"banker alone: {summary(quiet)}")
    print(f"banker during a {args.seconds:.0f} s flood of new games: {summary(busy)}")
    print(f"flood answers by status: {dict(sorted(counts.items()))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
