"""A tap's server time after a pause: the banker's tap of tap.py done in process, back to back
and after the pauses a banker leaves between taps, for the product and for the stack's floor.

Method. In process through Flask's test client (no network, no browser; under gevent's
monkey patching, as the servers run), each on a fresh database of the kind asked for: the
product (a game of six players made through the API, the banker's link opened) and
bench/floor_stack.py (Flask, a session, Flask-WTF's CSRF check, one row updated and one log
row added and committed). Each sample opens the money page (untimed, as the banker reads
the confirm button), waits the pause, then times the POST that app.js sends (X-Tablebank-Tap:
the answer is the dashboard). The (build, pause) pairs take turns in a shuffled order each
round, so each sees the same machine at the same moments. Reported: p50 / p95 per build and
pause, each pause's p50 against no pause, and product / stack floor.

What it shows: on a shared machine, code that ran a moment ago runs quicker than code that
waited (its caches warm, its core awake); a banker taps seconds apart, so the paused figures
are what a tap meets, and a benchmark that taps back to back undersells it.

    python -m bench.pause                                  # SQLite, pauses 0, 50 and 200 ms
    python -m bench.pause --database postgres --samples 100
    python -m bench.pause --smoke
"""

from . import floor_stack  # noqa: I001  (first: it patches the standard library for gevent)

import argparse
import random
import sys
import time

from . import common
from .tap_server import confirm_form

MONEY = "/g/{game}/money?kind=bank_pay&player=0&amount=1"


class Tapper:
    """One build in process: its test client with the banker's session, and its money page."""

    def __init__(self, name: str, client, money: str) -> None:
        self.name, self.client, self.money = name, client, money

    def tap(self, pause: float) -> float:
        page = self.client.get(self.money).get_data(as_text=True)
        action, fields, headers = confirm_form(self.name, page)
        time.sleep(pause)
        began = time.perf_counter()
        answer = self.client.post(action, data=fields, headers=headers)
        took = (time.perf_counter() - began) * 1000
        if answer.status_code != 200:
            raise common.BenchError(f"{self.name}: the tap answered {answer.status_code}")
        return took


def product(url: str) -> Tapper:
    app = common.in_process_app(url)
    game = common.Game(common.InProcess(app))
    client = app.test_client()
    client.get(f"/g/{game.id}/?key={game.key}")
    return Tapper("product", client, MONEY.format(game=game.id))


def stack_floor(url: str) -> Tapper:
    client = floor_stack.make_app(url).test_client()
    client.get("/g/floor/?key=floor")
    return Tapper("floor_stack", client, "/g/floor/money?amount=1")


def run(args) -> dict:
    with (
        common.fresh_database(args.database, args.pg_admin_url) as mine,
        common.fresh_database(args.database, args.pg_admin_url) as floors,
    ):
        tappers = [product(mine), stack_floor(floors)]
        pairs = [(t, p) for t in tappers for p in args.pauses]
        shuffle = random.Random(args.seed)
        taken: dict[tuple[str, float], list[float]] = {(t.name, p): [] for t, p in pairs}
        for round_ in range(args.warmup + args.samples):
            shuffle.shuffle(pairs)
            for tapper, pause in pairs:
                took = tapper.tap(pause)
                if round_ >= args.warmup:
                    taken[(tapper.name, pause)].append(took)
    result = {"database": args.database, "samples": args.samples, "builds": {}}
    for (name, pause), values in taken.items():
        result["builds"].setdefault(name, {})[str(pause)] = common.summary(values, 2)
    return result


def report(r: dict) -> None:
    print(f"\n## pause: {r['database']}, {r['samples']} taps per build and pause (in process)")
    rows = []
    builds = r["builds"]
    for name, by_pause in builds.items():
        still = by_pause[min(by_pause, key=float)]["p50"]
        for pause, f in by_pause.items():
            floor_ = builds["floor_stack"][pause]["p50"]
            rows.append(
                [
                    name,
                    f"{float(pause) * 1000:g} ms",
                    f["p50"],
                    f["p95"],
                    common.ratio(f["p50"], still),
                    common.ratio(f["p50"], floor_),
                ]
            )
    headers = ["build", "pause", "p50 ms", "p95 ms", "p50 / no pause", "p50 / floor_stack"]
    print(common.table(headers, rows))


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--database", default="sqlite", help="sqlite or postgres")
    parser.add_argument("--pg-admin-url", default=common.PG_ADMIN)
    parser.add_argument("--samples", type=int, default=60)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--pauses", default="0,0.05,0.2", help="seconds, comma-separated")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--smoke", action="store_true", help="a run of a few seconds")
    args = parser.parse_args()
    args.pauses = [float(p) for p in common.split_list(args.pauses)]
    if args.smoke:
        args.samples, args.warmup, args.pauses = 3, 1, [0.0, 0.05]
    print(f"pause: {common.machine()}")
    result = run(args)
    report(result)
    common.print_json("pause", result)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except common.BenchError as error:
        print(f"pause: {error}", file=sys.stderr)
        sys.exit(1)
