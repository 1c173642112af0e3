"""Two checkouts of tablebank side by side: banker's tap -> player's balance shown, for the
code of each, interleaved in one run, with the floor beside them; what a change to the live
path is worth, as a ratio on the same machine at the same moments.

Method: as propagation.py (its `measure`: headless Chromium at a phone's size, a real click
that follows the redirect, a MutationObserver on the player's page), with one game of
--length actions on each checkout's one-process server (the `tablebank` command, run from
that checkout), each on a fresh database of its own, and bench/floor.py as a third variant.
Both servers share one SECRET_KEY: they serve the same host, so the banker's browser keeps
one session cookie for both.

    git worktree add /tmp/before 0ce3e6a
    python -m bench.propagation_ab --before /tmp/before --databases sqlite,postgres
"""

from __future__ import annotations

import argparse
import os
import secrets
import sys
from contextlib import ExitStack
from pathlib import Path

from . import common, propagation

ROOT = Path(__file__).resolve().parent.parent


def command(port: int) -> list[str]:
    """The `tablebank` command of the checkout on the PYTHONPATH (common.checkout_path)."""
    code = f"from tablebank.cli import main; main(['--host', '127.0.0.1', '--port', '{port}'])"
    return [sys.executable, "-c", code]


def run(database: str, args) -> dict:
    with ExitStack() as stack:
        games, servers = {}, []
        for name, checkout in (("before", args.before), ("after", args.after)):
            url = stack.enter_context(common.fresh_database(database, args.pg_admin_url))
            port = common.free_port()
            path = {"PYTHONPATH": common.checkout_path(checkout)}
            server = stack.enter_context(common.Server(command(port), url, port, name, path))
            caller = common.Http(server.url)
            game = common.grown_game(caller, common.edition_data(caller), args.length, 11)[0]
            game.caller, game.base = caller, server.url
            games[name] = game
            servers.append(server)
        port = common.free_port()
        floor_cmd = [sys.executable, "-m", "bench.floor", "--port", str(port)]
        floor = stack.enter_context(common.Server(floor_cmd, url, port, "floor"))
        games["floor"] = propagation.FloorGame(floor)
        samples = propagation.measure(servers[0], games, args)
    return {name: propagation.figures(rows) for name, rows in samples.items()}


def report(database: str, figures: dict, samples: int) -> None:
    print(f"\n## {database}: tap -> player's balance shown, {samples} samples each, interleaved")
    rows = [
        [
            name,
            common.fmt_ms(f["shown"]["p50"]),
            common.fmt_ms(f["shown"]["p95"]),
            common.fmt_ms(f["shown"]["max"]),
            f["missed"],
            common.fmt_ms(f["landed"]["p50"]),
        ]
        for name, f in figures.items()
    ]
    print(common.table(["code", "p50", "p95", "max", "missed", "banker lands p50"], rows))
    for figure in ("p50", "p95"):
        after, before = figures["after"]["shown"][figure], figures["before"]["shown"][figure]
        print(f"after/before {figure}: x{common.ratio(after, before)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, help="the older checkout (required but in a smoke)")
    parser.add_argument("--after", type=Path, default=ROOT, help="default: this checkout")
    parser.add_argument("--databases", default="sqlite", help="sqlite and/or postgres")
    parser.add_argument("--samples", type=int, default=40)
    parser.add_argument("--length", type=int, default=50, help="actions in each game's log")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--pg-admin-url", default=common.PG_ADMIN)
    parser.add_argument("--smoke", action="store_true", help="a run of a few seconds")
    args = parser.parse_args()
    if args.smoke:
        args.samples, args.length, args.before = 2, 20, args.before or args.after
    if args.before is None:
        parser.error("--before is required")
    args.warmup, args.seed, args.timeout, args.reshuffle = 2, 1, 5, 0
    args.pause, args.amount, args.verbose = 0.3, 1, False
    os.environ["SECRET_KEY"] = secrets.token_hex(32)
    for database in common.split_list(args.databases):
        report(database, run(database, args), args.samples)


if __name__ == "__main__":
    main()
