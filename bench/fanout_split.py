"""Where the fan-out's CPU goes: bench/fanout.py's run (7 open pages of one game, a game with
none, the same banker actions on each) with the `tablebank` command started under a CPU
account of its own greenlets, and what each step of a live page's wake costs per action.

Method. The server (this script's --serve mode, then the `tablebank` command as ever) adds
each greenlet's thread CPU at every switch between greenlets (greenlet's `settrace`), so a
greenlet's own CPU is known at any moment; the streams' greenlets (web/carried.py: a stream
woken by the news) and the requests' (the server's handler) are named. Each step below is
timed as the CPU of the greenlet that runs it, from its start to its end (a wait for another
greenlet costs the step nothing). Counted from the first counted batch on (the pages'
openings and the warm-up apart: the bench signals the server). Reported per action of the
batches with pages open: the streams' CPU and each step's, with how many times it ran (the
requests' CPU covers both games' batches). Sampling profilers (py-spy) count wall time
instead: a socket write then looks as dear as the reader's process is slow. The account
costs a third more CPU in every figure; the split, not the sum, is what it is for.

    python -m bench.fanout_split                    # one process on SQLite, 3 rounds
    python -m bench.fanout_split --database postgres --rounds 5
    python -m bench.fanout_split --smoke
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import shlex
import signal
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

from . import common, fanout

WARM_UPS = 2  # bench/fanout.py's batches before it counts (one on each game): not counted

# The steps timed, as (module, object, attribute): what a stream does when woken.
STEPS = (
    ("tablebank.web.carried", "Carried", "run"),
    ("tablebank.web.carried", "Carried", "write"),
    ("tablebank.web.carried", "Carried", "wake"),
    ("tablebank.web.carried", "Carried", "waits"),
    ("tablebank.web.streams", None, "news"),
    ("tablebank.web.streams", None, "player_part"),
    ("tablebank.web.streams", None, "table_part"),
    ("tablebank.web.streams", None, "player_signature"),
    ("tablebank.web.streams", None, "player_fills"),
    ("tablebank.web.streams", None, "table_signature"),
    ("tablebank.web.streams", None, "table_fills"),
    ("tablebank.web.streams", None, "data_lines"),
    ("tablebank.web.streams", None, "cash_event"),
    ("tablebank.web.shared", None, "drawn"),
    ("tablebank.web.shared", None, "drawn_as_shared"),
    ("tablebank.kept", "Kept", "at"),
    ("tablebank.web.shared", None, "own"),
    ("tablebank.snapshots", None, "at"),
    ("tablebank.live", "Watcher", "settle"),
    ("tablebank.live", "Watcher", "shown"),
)


# -- the server's side (--serve) ---------------------------------------------------------------


class Account:
    """Thread CPU per greenlet and per kind of greenlet, and per step."""

    def __init__(self) -> None:
        self.since = time.thread_time()
        self.kinds: defaultdict[str, float] = defaultdict(float)
        self.steps: defaultdict[str, float] = defaultdict(float)
        self.calls: Counter[str] = Counter()

    def switched(self, event: str, args) -> None:
        if event not in ("switch", "throw"):
            return
        origin = args[0]
        now = time.thread_time()
        spent, self.since = now - self.since, now
        self.kinds[kind_of(origin)] += spent
        with contextlib.suppress(AttributeError):  # the hub and a few others take no attribute
            origin.bench_cpu = getattr(origin, "bench_cpu", 0.0) + spent

    def own(self) -> float:
        """The CPU the running greenlet has used so far."""
        import greenlet

        return getattr(greenlet.getcurrent(), "bench_cpu", 0.0) + time.thread_time() - self.since

    def timed(self, name: str, function):
        def step(*args, **kwargs):
            began = self.own()
            try:
                return function(*args, **kwargs)
            finally:
                self.steps[name] += self.own() - began
                self.calls[name] += 1

        return step

    def reset(self) -> None:
        self.kinds.clear()
        self.steps.clear()
        self.calls.clear()

    def figures(self) -> dict:
        return {
            "kinds_ms": {k: round(v * 1000, 1) for k, v in self.kinds.items()},
            "steps_ms": {k: round(v * 1000, 1) for k, v in self.steps.items()},
            "calls": dict(self.calls),
        }


def kind_of(greenlet) -> str:
    if type(greenlet).__name__ == "Hub":
        return "hub"
    return getattr(greenlet, "bench_kind", "other")


def named(kind: str, function):
    def run(*args, **kwargs):
        import greenlet

        greenlet.getcurrent().bench_kind = kind
        return function(*args, **kwargs)

    return run


def serve(out: Path, server_args: list[str]) -> None:
    """The `tablebank` command with the account on; its figures written to `out` each
    second."""
    from gevent import monkey

    monkey.patch_all()
    import importlib
    import inspect
    import signal

    import gevent
    import greenlet

    account = Account()
    greenlet.settrace(account.switched)
    for module_name, owner_name, name in STEPS:
        module = importlib.import_module(module_name)
        owner = getattr(module, owner_name) if owner_name else module
        label = f"{owner_name or module_name.rsplit('.', 1)[1]}.{name}"
        found = inspect.getattr_static(owner, name)
        if isinstance(found, staticmethod):  # Watcher.settle: still called without `self`
            setattr(owner, name, staticmethod(account.timed(label, found.__func__)))
        else:
            setattr(owner, name, account.timed(label, getattr(owner, name)))
    from tablebank import home_server
    from tablebank.web import carried

    carried.Carried.woken = named("stream", carried.Carried.woken)
    handler = home_server.Handler
    handler.handle_one_request = named("request", handler.handle_one_request)

    def write_often() -> None:
        while True:
            gevent.sleep(1)
            out.write_text(json.dumps(account.figures()))

    gevent.spawn(write_often)
    gevent.signal_handler(signal.SIGUSR1, account.reset)  # the counted batches begin
    from tablebank.cli import main

    sys.argv = ["tablebank", *server_args]
    main()


# -- the bench's side --------------------------------------------------------------------------


def split(figures: dict, actions: int) -> list[list]:
    """Each step's CPU per action (ms) and per call (us), largest first."""
    rows = []
    steps, calls = figures["steps_ms"], figures["calls"]
    for name in sorted(steps, key=lambda n: -steps[n]):
        count = calls.get(name, 0)
        per_call = steps[name] * 1000 / count if count else 0
        per_action = round(steps[name] / actions, 3)
        rows.append([name, per_action, round(count / actions, 1), round(per_call, 1)])
    return rows


def counted_from_the_first_round(batch):
    """bench/fanout.py's batch, which tells the server to start its account afresh as the
    first counted batch begins: the pages' openings and the warm-up are not counted."""
    done = 0

    async def counted(server, *args, **kwargs):
        nonlocal done
        done += 1
        if done == WARM_UPS + 1:
            for pid in server.pids():
                os.kill(pid, signal.SIGUSR1)
            await asyncio.sleep(0.5)
        return await batch(server, *args, **kwargs)

    return counted


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    parser.add_argument("--database", default="sqlite", choices=["sqlite", "postgres"])
    fanout.add_run_options(parser, rounds=3)
    parser.add_argument("--smoke", action="store_true")
    args, rest = parser.parse_known_args()
    if args.serve:
        serve(Path(args.out), rest)
        return 0
    if args.smoke:
        fanout.smoke(args)
    setup = argparse.ArgumentParser()
    common.add_setup_options(setup)
    options = setup.parse_args([])  # bench/fanout.py's defaults, then this run's
    out = Path(tempfile.mkstemp(prefix="fanout-split-", suffix=".json")[1])
    serving = [sys.executable, "-m", "bench.fanout_split", "--serve", "--out", str(out)]
    options.tablebank_cmd = shlex.join(serving) + " --host 127.0.0.1 --port {port}"
    for name in ("rounds", "actions", "pace", "seed"):
        setattr(options, name, getattr(args, name))
    print(f"fanout_split: {common.machine()}")
    fanout.batch = counted_from_the_first_round(fanout.batch)
    with common.running(options, "tablebank", args.database) as server:
        result = asyncio.run(fanout.measure(server, options))
        time.sleep(1.5)  # the server's last figures written
        log = server.log_counts()
    figures = json.loads(out.read_text())
    out.unlink()
    actions = args.rounds * args.actions  # counted, with the pages open
    stream_ms = figures["kinds_ms"].get("stream", 0.0)
    print(f"\n## fan-out's CPU, split: tablebank, {args.database}, {actions} actions with 7 pages")
    print(
        f"under the account: extra CPU per action for 7 pages "
        f"{result['extra_cpu_ms_for_7_pages']} ms; the streams' greenlets "
        f"{round(stream_ms / actions, 2)} ms per action"
    )
    header = ["step", "ms per action", "calls per action", "us per call"]
    print(common.table(header, split(figures, actions)))
    common.print_json("fanout_split", {**result, **figures, "server_log": log})
    return 1 if result["updates_missed"] or result["stream_errors"] or any(log.values()) else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except common.BenchError as error:
        print(f"fanout_split: {error}", file=sys.stderr)
        sys.exit(1)
