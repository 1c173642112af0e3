"""Cold start: from the command's start to its first answer (the home page, 200), against a
minimal Flask app in the same venv served the same way, in one run.

Method. Variants, each started --rounds times in a shuffled order per round, on a database
at the newest schema (made once by a first start, timed apart as "first start, empty
database"): the `tablebank` command (one gevent process) on SQLite; gunicorn with 4 gevent
workers (the product's settings) on PostgreSQL; and their floors: a minimal Flask app (one
route, "hello") served by gevent's WSGIServer after gevent's patching, as the `tablebank`
command serves, and by gunicorn with 4 gevent workers. A variant's time is from the process
started to the first 200 from `/`, asked every 10 ms (a refused connection is asked again).
Each variant keeps one port for the run, as a server at home keeps its address.
Reported: p50 / max per variant, the ratios product / floor (target: <= 2x for the one
process command) and gunicorn's time to its first answer (target: <= 3 s).

The package's modules are compiled to bytecode first, as an installed server has them (pip
compiles them; an editable install writes them at its first start), so that each start
does not compile the app's sources again when PYTHONDONTWRITEBYTECODE is set in the
shell that runs the bench (the floors' Flask and gevent are compiled in site-packages).

--one-process times the `tablebank` command and its floor only (no PostgreSQL needed);
--before times another checkout's `tablebank` command (and, without --one-process, its
gunicorn) as well, interleaved with this one's (its app/ on the PYTHONPATH, its own instance
folder, the same database).

    python -m bench.cold_start
    python -m bench.cold_start --smoke
    git archive e1932ef | tar -x -C /tmp/before
    python -m bench.cold_start --one-process --before /tmp/before
"""

from __future__ import annotations

import argparse
import contextlib
import random
import socket
import statistics
import sys
import time
from pathlib import Path

from . import common

MINIMAL = (
    "from gevent import monkey; monkey.patch_all()\n"
    "from flask import Flask\n"
    "from gevent.pywsgi import WSGIServer\n"
    "app = Flask('minimal')\n"
    "app.get('/')(lambda: 'hello')\n"
    "WSGIServer(('127.0.0.1', {port}), app, log=None).serve_forever()\n"
)
MINIMAL_APP = "from flask import Flask\napp = Flask('minimal')\napp.get('/')(lambda: 'hello')\n"
TARGET_RATIO, TARGET_GUNICORN_S = 2.0, 3.0
ONE, ONE_FLOOR, ONE_BEFORE = "tablebank, SQLite", "minimal Flask, gevent", "tablebank before"
MANY_BEFORE = "gunicorn before"


def first_answer(command: list[str], env: dict, port: int, timeout: float = 60) -> float:
    """Seconds from starting `command` to its first 200 on `/`; the process is stopped."""
    server = common.Server(command, env.get("DATABASE_URL", ""), port, Path(command[0]).name, env)
    began = time.monotonic()
    server.start_process()
    try:
        while time.monotonic() - began < timeout:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
                    sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                    if sock.recv(12).startswith(b"HTTP/1.1 200"):
                        return time.monotonic() - began
            except OSError:
                pass
            if server.process.poll() is not None:
                raise common.BenchError(f"{command[0]} exited:\n{server.log_text()[-2000:]}")
            time.sleep(0.01)
        raise common.BenchError(f"{' '.join(command)} did not answer in {timeout} s")
    finally:
        server.stop()
        server.log_path.unlink(missing_ok=True)


def compile_package(before: Path | None) -> None:
    """The installed package's modules compiled to bytecode, beside them (see above), and
    those of the checkout timed as before."""
    import compileall
    from importlib.util import find_spec

    folders = find_spec("tablebank").submodule_search_locations
    for folder in [*folders, *([before / "app"] if before else [])]:
        compileall.compile_dir(folder, quiet=1)


def variants(args, sqlite: str, postgres: str, folder: Path) -> dict:
    """name -> a function starting it once: its seconds to the first answer. Each variant
    keeps its port from start to start, as a server at home keeps its address (the
    `tablebank` command prints the QR code it drew for that address at an earlier start)."""
    bin_dir = Path(sys.executable).parent
    app_file = folder / "minimal_app.py"
    app_file.write_text(MINIMAL_APP)
    instance = {"TABLEBANK_INSTANCE": str(folder / "instance")}
    one, one_floor, one_before, many, many_floor, many_before = free_ports(6)

    def tablebank(port: int, url: str, env: dict | None = None):
        command = common.command_for(args, "tablebank", port)
        return first_answer(command, {"DATABASE_URL": url, **instance, **(env or {})}, port)

    def gunicorn(url: str, port: int = many, env: dict | None = None):
        command = common.command_for(args, "gunicorn", port)
        return first_answer(command, {"DATABASE_URL": url, **instance, **(env or {})}, port)

    def minimal():
        return first_answer([sys.executable, "-c", MINIMAL.format(port=one_floor)], {}, one_floor)

    def minimal_gunicorn():
        command = [
            str(bin_dir / "gunicorn"), "--workers", str(args.workers), "--worker-class",
            "gevent", "--bind", f"127.0.0.1:{many_floor}", "--chdir", str(folder),
            "minimal_app:app",
        ]  # fmt: skip
        return first_answer(command, {}, many_floor)

    starts = {ONE: lambda: tablebank(one, sqlite), ONE_FLOOR: minimal}
    if args.before:
        before = {
            "PYTHONPATH": common.checkout_path(args.before),
            "TABLEBANK_INSTANCE": str(folder / "instance-before"),
        }
        starts[ONE_BEFORE] = lambda: tablebank(one_before, sqlite, before)
    if not args.one_process:
        starts[gunicorn_name(args)] = lambda: gunicorn(postgres)
        starts[gunicorn_floor_name(args)] = minimal_gunicorn
        if args.before:
            starts[MANY_BEFORE] = lambda: gunicorn(postgres, many_before, before)
    return starts


def free_ports(count: int) -> list[int]:
    """Ports free now, each a different one."""
    with contextlib.ExitStack() as stack:
        probes = [stack.enter_context(socket.socket()) for _ in range(count)]
        for probe in probes:
            probe.bind(("127.0.0.1", 0))
        return [probe.getsockname()[1] for probe in probes]


def gunicorn_name(args) -> str:
    return f"gunicorn {args.workers} workers, PostgreSQL"


def gunicorn_floor_name(args) -> str:
    return f"minimal Flask, gunicorn {args.workers} workers"


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    common.add_setup_options(parser)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument(
        "--one-process", action="store_true", help="only the `tablebank` command and its floor"
    )
    parser.add_argument("--before", type=Path, help="a checkout also timed, as before")
    args = parser.parse_args()
    if args.smoke:
        args.rounds = 1
    print(f"cold start: {common.machine()}")
    import tempfile

    rng = random.Random(args.seed)
    compile_package(args.before)
    postgres = (
        contextlib.nullcontext("")
        if args.one_process
        else common.fresh_database("postgres", args.pg_admin_url)
    )
    with (
        common.fresh_database("sqlite") as sqlite,
        postgres as postgres_url,
        tempfile.TemporaryDirectory() as folder,
    ):
        starts = variants(args, sqlite, postgres_url, Path(folder))
        # the first start of each upgrades an empty database
        empty = {"tablebank, SQLite": starts[ONE]()}
        if not args.one_process:
            empty["gunicorn, PostgreSQL"] = starts[gunicorn_name(args)]()
        if args.before:
            starts[ONE_BEFORE]()  # its own instance folder made, as this one's was
            if not args.one_process:
                starts[MANY_BEFORE]()
        times: dict[str, list[float]] = {name: [] for name in starts}
        for _ in range(args.rounds):
            for name in rng.sample(list(starts), len(starts)):
                times[name].append(starts[name]())
    names = list(starts)
    p50 = {name: statistics.median(values) for name, values in times.items()}
    rows = [[n, f"{p50[n]:.2f}", f"{max(times[n]):.2f}"] for n in names]
    print(common.table(["variant (start to first answer)", "p50 s", "max s"], rows))
    one = common.ratio(p50[ONE], p50[ONE_FLOOR])
    print(f"first start on an empty database: {empty}")
    print(f"tablebank / minimal Flask: {one} (target <= {TARGET_RATIO}: {met(one, TARGET_RATIO)})")
    figures = {"p50_s": p50, "max_s": {n: max(v) for n, v in times.items()}, "ratio_one": one}
    if args.before:
        before = figures["ratio_one_before"] = common.ratio(p50[ONE_BEFORE], p50[ONE_FLOOR])
        print(f"tablebank before / minimal Flask: {before}")
    if not args.one_process:
        gunicorn, gunicorn_floor = gunicorn_name(args), gunicorn_floor_name(args)
        many = figures["ratio_gunicorn"] = common.ratio(p50[gunicorn], p50[gunicorn_floor])
        print(
            f"gunicorn {args.workers} workers: {p50[gunicorn]:.2f} s (target <= "
            f"{TARGET_GUNICORN_S} s: {met(p50[gunicorn], TARGET_GUNICORN_S)}), "
            f"{many}x its minimal Flask"
        )
        if args.before:
            print(f"gunicorn before: {p50[MANY_BEFORE]:.2f} s")
    common.print_json(
        "cold_start", {**figures, "first_start_empty_s": empty, "rounds": args.rounds}
    )
    return 0


def met(value: float, target: float) -> str:
    return "met" if value <= target else "NOT met"


if __name__ == "__main__":
    try:
        sys.exit(main())
    except common.BenchError as error:
        print(f"cold start: {error}", file=sys.stderr)
        sys.exit(1)
