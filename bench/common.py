"""What every benchmark in bench/ shares: databases made for one run, servers started by a
command line, games grown through the JSON API with a realistic mix of actions, the players'
links read from the banker's QR page, and the figures (percentiles, memory, threads).

The benchmarks talk to the app only as its users do (pages, forms, the JSON API), so they run
against any version of the server. Nothing here is imported by the app or the tests.
"""

from __future__ import annotations

import contextlib
import copy
import http.client
import importlib.util
import json
import math
import os
import random
import re
import resource
import secrets
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BROWSER_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"width": 390, "height": 844}
NAMES = ("Ana", "Bea", "Cal", "Dan", "Eve", "Fay", "Gus", "Hal")
COLOURS = ("#e03131", "#1971c2", "#2f9e44", "#f08c00", "#7048e8", "#0c8599", "#d6336c", "#495057")
EDITION = "us-classic"
PG_ADMIN = "postgresql://postgres:postgres@127.0.0.1:5432/postgres"

# Defaults for --tablebank-cmd and --gunicorn-cmd; {port}, {workers}, {worker_class} and
# {threads} are filled in. {bin} is the folder of this Python (the venv's bin/).
TABLEBANK_CMD = "{bin}/tablebank --host 127.0.0.1 --port {port}"
GUNICORN_CMD = (  # the README's server: the product's gunicorn settings (gevent workers)
    "{bin}/gunicorn -c python:tablebank.gunicorn_conf --workers {workers} "
    "{worker_option}{thread_option}--bind 127.0.0.1:{port} --timeout 120 "
    "tablebank:create_app()"
)


class BenchError(RuntimeError):
    """Something went wrong that makes the run's figures meaningless: the script exits 1."""


# -- figures -----------------------------------------------------------------------------------


def percentile(values: list[float], share: float) -> float:
    """Nearest-rank percentile (p50 of 1..100 is 50, p95 is 95, p100 the maximum)."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[max(0, math.ceil(len(ordered) * share) - 1)]


def summary(values: list[float], digits: int = 1) -> dict:
    """n, p50, p95 and max of a list of milliseconds."""
    if not values:
        return {"n": 0, "p50": None, "p95": None, "max": None}
    return {
        "n": len(values),
        "p50": round(percentile(values, 0.50), digits),
        "p95": round(percentile(values, 0.95), digits),
        "max": round(max(values), digits),
    }


def ratio(a: float | None, b: float | None) -> float | None:
    return round(a / b, 2) if a is not None and b else None


def fmt_ms(value: float | None) -> str:
    return "-" if value is None else f"{value:,.1f} ms"


def table(headers: list[str], rows: list[list]) -> str:
    """A plain-text table for the terminal (and, pasted, for docs/PERFORMANCE.md)."""
    cells = [[str(c) for c in row] for row in [headers, *rows]]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    lines = [
        "| " + " | ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)) + " |"
        for row in cells
    ]
    lines.insert(1, "|" + "|".join("-" * (w + 2) for w in widths) + "|")
    return "\n".join(lines)


def machine() -> str:
    cpu = "unknown CPU"
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    return f"{os.cpu_count()} cores, {cpu}, Python {sys.version.split()[0]}"


def split_cores() -> tuple[set[int], set[int]]:
    """The first core for the browsers, the others for the servers: a banker's phone and the
    server it taps on are two machines, and on a machine with few cores two Chromiums on the
    server's cores make it wait for one (docs/PERFORMANCE.md, tenth session)."""
    cores = sorted(os.sched_getaffinity(0))
    if len(cores) < 2:
        raise BenchError("--pin needs two cores at least")
    return {cores[0]}, set(cores[1:])


@contextlib.contextmanager
def on_cores(cores: set[int] | None) -> Iterator[None]:
    """This process, and whatever it starts in the block (a server, Chromium), on `cores`;
    None: wherever the system puts it."""
    if cores is None:
        yield
        return
    before = os.sched_getaffinity(0)
    os.sched_setaffinity(0, cores)
    try:
        yield
    finally:
        os.sched_setaffinity(0, before)


def raise_file_limit() -> int:
    """Raise this process's open-file limit to its hard limit (servers started later inherit
    it); returns the new soft limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def cpu_seconds() -> float:
    """CPU time (user + system) of this process so far."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


# -- databases ---------------------------------------------------------------------------------


@contextlib.contextmanager
def fresh_database(kind: str, pg_admin: str = PG_ADMIN) -> Iterator[str]:
    """A new empty database for one run, removed afterwards: a SQLite file under /tmp, or a
    `bench_<random>` database on the PostgreSQL server that `pg_admin` reaches."""
    if kind == "sqlite":
        folder = Path(tempfile.mkdtemp(prefix="tablebank-bench-"))
        try:
            yield f"sqlite:///{folder / 'bench.sqlite'}"
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        return
    if kind != "postgres":
        raise BenchError(f"unknown database {kind!r}: sqlite or postgres")
    import psycopg

    name = f"bench_{secrets.token_hex(6)}"
    admin = pg_admin.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    try:
        yield urllib.parse.urlparse(admin)._replace(path=f"/{name}").geturl()
    finally:
        with psycopg.connect(admin, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def stack_floor(stack: contextlib.ExitStack, database: str, pg_admin: str) -> Server:
    """bench/floor_stack.py started on a fresh database of the kind asked for, for the length
    of `stack` (the stack's floor beside the product, in tap.py and tap_server.py)."""
    url = stack.enter_context(fresh_database(database, pg_admin))
    port = free_port()
    command = [sys.executable, "-m", "bench.floor_stack", "--port", str(port), "--database", url]
    return stack.enter_context(Server(command, "", port, "floor_stack"))


def checkout_path(checkout: Path) -> str:
    """A PYTHONPATH under which `tablebank` is another checkout's app/ (an older revision, for
    a before-and-after run): a folder of one link, made for this run."""
    shim = Path(tempfile.mkdtemp(prefix="tablebank-checkout-"))
    (shim / "tablebank").symlink_to(Path(checkout).resolve() / "app")
    return str(shim)


def in_process_app(db_url: str):
    """The app itself (for the in-process benchmarks), on the given database."""
    from tablebank import create_app

    return create_app({"SQLALCHEMY_DATABASE_URI": db_url, "SECRET_KEY": secrets.token_hex(16)})


# -- servers -----------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def default_worker_class() -> str:
    """gevent when it is installed, else gthread (with many threads)."""
    return "gevent" if importlib.util.find_spec("gevent") else "gthread"


def server_command(
    kind: str,
    port: int,
    *,
    workers: int = 2,
    worker_class: str = "gevent",
    threads: int = 64,
    tablebank_cmd: str = TABLEBANK_CMD,
    gunicorn_cmd: str = GUNICORN_CMD,
) -> list[str]:
    """The command line that starts one server: `tablebank` (the README's command) or
    gunicorn with several workers."""
    template = {"tablebank": tablebank_cmd, "gunicorn": gunicorn_cmd}.get(kind)
    if template is None:
        raise BenchError(f"unknown server {kind!r}: tablebank or gunicorn")
    if worker_class == "gevent" and not importlib.util.find_spec("gevent"):
        print("note: gevent is not installed; gunicorn runs gthread instead", file=sys.stderr)
        worker_class = "gthread"
    thread_option = f"--threads {threads} " if worker_class == "gthread" else ""
    # gevent: the product's own worker (gunicorn_conf names it: gevent's, with limits)
    worker_option = "" if worker_class == "gevent" else f"--worker-class {worker_class} "
    line = template.format(
        worker_option=worker_option,
        bin=str(Path(sys.executable).parent),
        port=port,
        workers=workers,
        worker_class=worker_class,
        threads=threads,
        thread_option=thread_option,
    )
    return shlex.split(line)


def add_server_options(
    parser, servers_default: str = "tablebank,gunicorn", workers_default: int = 2
) -> None:
    """The options every HTTP benchmark shares: which servers, how started, which database."""
    parser.add_argument(
        "--servers",
        default=servers_default,
        help="comma-separated: tablebank (the `tablebank` command, one process) and/or "
        "gunicorn (several workers) (default: %(default)s)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=workers_default,
        help="gunicorn workers (default %(default)s)",
    )
    parser.add_argument(
        "--worker-class",
        default=default_worker_class(),
        help="gunicorn worker class (default: gevent if installed, else gthread)",
    )
    parser.add_argument(
        "--threads", type=int, default=64, help="threads per gthread worker (default 64)"
    )
    parser.add_argument(
        "--tablebank-cmd",
        default=TABLEBANK_CMD,
        help="command line of the one-process server (default: %(default)r)",
    )
    parser.add_argument(
        "--gunicorn-cmd",
        default=GUNICORN_CMD,
        help="command line of the gunicorn server (default: %(default)r)",
    )
    parser.add_argument("--pg-admin-url", default=PG_ADMIN, help="where to create databases")


# Many pages from this one machine stand for phones each with an address of their own: the
# cap of connections per client address (CONNECTIONS_PER_CLIENT) is lifted for them.
MANY_PAGES = {"TABLEBANK_CONNECTIONS_PER_CLIENT": "100000"}

# The two setups the issue measures: the one-process command on SQLite, and gunicorn with four
# gevent workers on PostgreSQL (server:database pairs).
SETUPS = "tablebank:sqlite,gunicorn:postgres"


def add_setup_options(parser, setups_default: str = SETUPS) -> None:
    """--setups (server:database pairs), the server options and --smoke."""
    add_server_options(parser, servers_default="", workers_default=4)
    parser.add_argument(
        "--setups",
        default=setups_default,
        help="comma-separated server:database pairs (default: %(default)s)",
    )
    parser.add_argument(
        "--smoke", action="store_true", help="a run of a few seconds: does it work at all?"
    )


def setups(args) -> list[tuple[str, str]]:
    pairs = [tuple(pair.split(":", 1)) for pair in split_list(args.setups)]
    for pair in pairs:
        if len(pair) != 2 or pair[0] not in ("tablebank", "gunicorn"):
            raise BenchError(f"a setup is server:database, e.g. gunicorn:postgres, not {pair}")
    return pairs


def run_each_setup(label: str, args, run, report) -> list[dict]:
    """`run(args, server, database)` for each of --setups, each result reported as it comes;
    then all of them as JSON lines (`print_json`)."""
    results = []
    for kind, database in setups(args):
        result = run(args, kind, database)
        report(result)
        results.append(result)
    for result in results:
        print_json(label, result)
    return results


@contextlib.contextmanager
def running(args, kind: str, database: str, **env) -> Iterator[Server]:
    """A fresh database and the server on it, for the length of the block."""
    with fresh_database(database, args.pg_admin_url) as url:
        port = free_port()
        command = command_for(args, kind, port)
        extra = {name: str(value) for name, value in env.items()}
        with Server(command, url, port, f"{kind}/{database}", extra) as server:
            if kind == "gunicorn":
                server.settle()  # every worker booted, as on a server that has run a while
            yield server


def built_from(args, bin_folder: str):
    """The same options, but the servers started from another build's venv (its bin/
    folder): a baseline to interleave with this build."""
    other = copy.copy(args)
    other.tablebank_cmd = args.tablebank_cmd.replace("{bin}", bin_folder)
    other.gunicorn_cmd = args.gunicorn_cmd.replace("{bin}", bin_folder)
    return other


def command_for(args, kind: str, port: int) -> list[str]:
    return server_command(
        kind,
        port,
        workers=args.workers,
        worker_class=args.worker_class,
        threads=args.threads,
        tablebank_cmd=args.tablebank_cmd,
        gunicorn_cmd=args.gunicorn_cmd,
    )


class Server:
    """A server process group on 127.0.0.1, its output kept in a log file, stopped with
    SIGTERM and then SIGKILL (open streams may hold a graceful stop)."""

    def __init__(
        self, command: list[str], db_url: str, port: int, name: str = "", env: dict | None = None
    ) -> None:
        self.command, self.db_url, self.port, self.env = command, db_url, port, env or {}
        self.name = name or Path(command[0]).name
        self.url = f"http://127.0.0.1:{port}"
        self.log_path = Path(tempfile.mkstemp(prefix="tablebank-server-", suffix=".log")[1])
        self.process: subprocess.Popen | None = None

    def start(self, timeout: float = 60) -> Server:
        self.start_process()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise BenchError(f"{self.name} exited at start:\n{self.log_text()[-3000:]}")
            try:
                status, _, _ = Http(self.url, timeout=2).request("GET", "/api/editions")
                if status == 200:
                    return self
            except OSError:
                pass
            time.sleep(0.2)
        self.stop()
        raise BenchError(f"{self.name} did not answer in {timeout} s:\n{self.log_text()[-3000:]}")

    def settle(self, idle_cpu_s: float = 0.05, seconds: float = 60) -> None:
        """Back once the server has used under `idle_cpu_s` of CPU in each of two half
        seconds in a row: gunicorn answers once its first worker has booted, the others boot
        after it (one per core at a time)."""
        deadline, quiet, last = time.monotonic() + seconds, 0, self.usage()["cpu_s"]
        while quiet < 2 and time.monotonic() < deadline:
            time.sleep(0.5)
            now = self.usage()["cpu_s"]
            quiet, last = (quiet + 1 if now - last < idle_cpu_s else 0), now

    def start_process(self) -> None:
        """The process started, not waited for."""
        env = {
            **os.environ,
            "DATABASE_URL": self.db_url,
            "SECRET_KEY": os.environ.get("SECRET_KEY") or secrets.token_hex(32),
            "PYTHONUNBUFFERED": "1",
            # Benchmarks make many games from one address: no rate limits unless asked for.
            "TABLEBANK_RATELIMIT_ENABLED": os.environ.get("TABLEBANK_RATELIMIT_ENABLED", "false"),
            **self.env,
        }
        with open(self.log_path, "wb") as log:
            self.process = subprocess.Popen(
                self.command,
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )

    def pids(self) -> list[int]:
        """Every live process of the server's process group (gunicorn's master and workers)."""
        if self.process is None:
            return []
        found = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) == self.process.pid and fields[0] != "Z":  # pgid, not a zombie
                found.append(int(entry.name))
        return found

    def usage(self) -> dict:
        """RSS (MiB, summed over the processes), threads, processes and CPU seconds used so
        far by the processes alive now, from /proc."""
        rss_kib = threads = count = ticks = 0
        for pid in self.pids():
            try:
                status = Path(f"/proc/{pid}/status").read_text()
                stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            ticks += int(stat[11]) + int(stat[12])  # utime + stime
            values = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
            rss_kib += int(values.get("VmRSS", "0 kB").split()[0])
            threads += int(values.get("Threads", "0"))
            count += 1
        return {
            "rss_mib": round(rss_kib / 1024, 1),
            "threads": threads,
            "processes": count,
            "cpu_s": round(ticks / os.sysconf("SC_CLK_TCK"), 2),
        }

    def log_text(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except OSError:
            return ""

    def log_counts(self) -> dict:
        """What the server's own output says went wrong."""
        text = self.log_text()
        return {
            "database_is_locked": text.count("database is locked"),
            "tracebacks": text.count("Traceback (most recent call last)"),
            "worker_timeouts": text.count("WORKER TIMEOUT"),
        }

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)
        # gunicorn's workers may outlive a killed master for a moment
        for pid in self.pids():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)

    def __enter__(self) -> Server:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
        if any(self.log_counts().values()):
            print(f"{self.name}'s output is kept in {self.log_path}", file=sys.stderr)
        else:
            self.log_path.unlink(missing_ok=True)


# -- talking to the app: over HTTP, or in-process through Flask's test client --------------------


class Http:
    """A keep-alive HTTP/1.1 connection for setting things up (not for timed clients)."""

    def __init__(self, base: str, timeout: float = 60) -> None:
        parts = urllib.parse.urlsplit(base)
        self.host, self.port, self.timeout = parts.hostname, parts.port, timeout
        self.connection: http.client.HTTPConnection | None = None

    def request(self, method: str, path: str, body=None, headers=None):
        """(status, body bytes, headers); JSON bodies when `body` is a dict."""
        headers = dict(headers or {})
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        for attempt in (1, 2):
            if self.connection is None:
                self.connection = http.client.HTTPConnection(
                    self.host, self.port, timeout=self.timeout
                )
            try:
                self.connection.request(method, path, data, headers)
                response = self.connection.getresponse()
                return response.status, response.read(), dict(response.getheaders())
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
                self.connection.close()
                self.connection = None
                if attempt == 2 or method != "GET":
                    raise
        raise AssertionError("unreachable")


class InProcess:
    """The same calls through Flask's test client: server time, no network."""

    def __init__(self, app) -> None:
        self.client = app.test_client()

    def request(self, method: str, path: str, body=None, headers=None):
        response = self.client.open(path, method=method, json=body, headers=headers or {})
        return response.status_code, response.get_data(), dict(response.headers)


def call_json(caller, method: str, path: str, body=None, key: str = "", expect=(200, 201)):
    headers = {"X-Banker-Key": key} if key else {}
    status, data, _ = caller.request(method, path, body, headers)
    answer = json.loads(data or b"null")
    if expect and status not in expect:
        raise BenchError(f"{method} {path}: {status} {answer}")
    return status, answer


LINK = re.compile(r'href="[^"]*?/(p|t)/([A-Za-z0-9_\-]+)"')
CSRF = re.compile(r'<meta name="csrf-token" content="([^"]+)"')
LIVE_VERSION = re.compile(r'id="live"[^>]*data-version="(\d+)"')
BALANCE = re.compile(r'id="balance"[^>]*>([^<]*)<')
TABLE_CASH = re.compile(r'<span class="cash"[^>]*>([^<]*)</span>')


def digits(text: str) -> int | None:
    only = re.sub(r"\D", "", text)
    return int(only) if only else None


def csrf_token(html: str) -> str:
    found = CSRF.search(html)
    if found is None:
        raise BenchError("no <meta name=csrf-token> on the page")
    return found.group(1)


class Game:
    """A game made through the API, with its banker's key and its players' links."""

    def __init__(
        self, caller, players: int = 6, starting_cash: int = 1500, edition=EDITION, **settings
    ):
        self.caller, self.edition = caller, edition
        setup = {
            "edition": edition,
            "players": [{"name": NAMES[i], "colour": COLOURS[i]} for i in range(players)],
            "starting_cash": starting_cash,
            **settings,
        }
        _, created = call_json(caller, "POST", "/api/games", setup)
        self.id, self.key = created["id"], created["banker_key"]
        self.view = created
        self.length = 0  # rows in the log (undos included)
        self.player_tokens, self.table_token = self.links()

    def links(self) -> tuple[list[str], str]:
        """The players' private links and the table screen's, from the banker's QR page."""
        status, html, _ = self.caller.request(
            "GET", f"/g/{self.id}/codes", headers={"X-Banker-Key": self.key}
        )
        if status != 200:
            raise BenchError(f"GET /g/{self.id}/codes: {status}")
        found = LINK.findall(html.decode())
        players = list(dict.fromkeys(t for kind, t in found if kind == "p"))
        tables = [t for kind, t in found if kind == "t"]
        if len(players) != len(self.view["players"]) or not tables:
            raise BenchError("the QR page did not list every player's link and the table's")
        return players, tables[0]

    def act(self, kind: str, fields: dict | None = None, expect=(201,)):
        body = {"kind": kind, **(fields or {})}
        status, answer = call_json(
            self.caller, "POST", f"/api/games/{self.id}/actions", body, self.key, expect
        )
        if status == 201:
            self.view = answer["game"]
            self.length += 1
        return status, answer

    def refresh(self) -> dict:
        _, self.view = call_json(self.caller, "GET", f"/api/games/{self.id}", key=self.key)
        return self.view

    def history(self) -> list[dict]:
        _, found = call_json(self.caller, "GET", f"/api/games/{self.id}/actions", key=self.key)
        return found


def edition_data(caller, edition: str = EDITION) -> dict:
    _, found = call_json(caller, "GET", f"/api/editions/{edition}")
    return found


class Mix:
    """A realistic game, one action at a time: buys (a group tends to end in one hand), rents,
    passing GO, taxes, bank payments, transfers, builds and sales, mortgages and lifts, jail
    and a few undos. Each action is chosen from the game as the API last showed it; one the
    rules refuse (422) is simply not counted and another is chosen."""

    WEIGHTS = {
        "rent": 24,
        "buy": 12,
        "pass_go": 12,
        "transfer": 12,
        "bank_pay": 6,
        "bank_collect": 6,
        "tax": 5,
        "build": 9,
        "mortgage": 4,
        "lift": 4,
        "go_to_jail": 2,
        "jail_fine": 3,
        "undo": 1,
    }

    def __init__(self, game: Game, edition: dict, seed: int = 1) -> None:
        self.game, self.random = game, random.Random(seed)
        spaces = edition["spaces"]
        self.deeds = {
            s["index"]: s for s in spaces if s["kind"] in ("street", "railroad", "utility")
        }
        self.taxes = [s["index"] for s in spaces if s["kind"] == "tax"]
        self.groups = {
            g["id"]: [s["index"] for s in spaces if s.get("group") == g["id"]]
            for g in edition["groups"]
            if g.get("house_price")
        }
        self.kinds = list(self.WEIGHTS)
        self.weights = list(self.WEIGHTS.values())
        self.counts: dict[str, int] = {}

    # what the game looks like now
    def players(self, free: bool = True) -> list[dict]:
        return [
            p
            for p in self.game.view["players"]
            if not p["bankrupt"] and not (free and p["in_jail"])
        ]

    def deed_states(self) -> dict[int, dict]:
        return {d["space"]: d for d in self.game.view["deeds"]}

    def pick_player(self, free: bool = True, rich: int = 0) -> dict | None:
        found = [p for p in self.players(free) if p["cash"] >= rich]
        return self.random.choice(found) if found else None

    # one action of each kind, or None when the game offers none
    def choose(self, kind: str) -> dict | None:
        r, deeds = self.random, self.deed_states()
        if kind == "buy":
            free = [i for i, d in deeds.items() if d["owner"] is None]
            if not free:
                return None
            index = r.choice(free)
            holders = [
                deeds[i]["owner"] for i in self.group_of(index) if deeds[i]["owner"] is not None
            ]
            player = self.pick_player(rich=self.deeds[index]["price"])
            seat = holders[0] if holders and r.random() < 0.7 else player and player["seat"]
            return None if seat is None else {"player": seat, "deed": index}
        if kind == "rent":
            owned = [i for i, d in deeds.items() if d["owner"] is not None and not d["mortgaged"]]
            if not owned:
                return None
            index = r.choice(owned)
            payers = [p for p in self.players() if p["seat"] != deeds[index]["owner"]]
            if not payers:
                return None
            fields = {"player": r.choice(payers)["seat"], "deed": index}
            if self.deeds[index]["kind"] == "utility":
                fields["dice"] = r.randint(2, 12)
            if r.random() < 0.2:
                fields["passed_go"] = True
            return fields
        if kind == "pass_go":
            player = self.pick_player()
            return player and {"player": player["seat"]}
        if kind == "transfer":
            payer = self.pick_player(free=False, rich=20)
            others = [p for p in self.players(free=False) if payer and p["seat"] != payer["seat"]]
            if not payer or not others:
                return None
            amount = r.randint(1, min(300, payer["cash"] // 2))
            return {"from": payer["seat"], "to": r.choice(others)["seat"], "amount": amount}
        if kind == "bank_pay":
            player = self.pick_player(free=False)
            return player and {"player": player["seat"], "amount": r.choice((10, 20, 50, 100, 200))}
        if kind == "bank_collect":
            player = self.pick_player(free=False, rich=200)
            return player and {"player": player["seat"], "amount": r.choice((10, 15, 50, 100))}
        if kind == "tax":
            player = self.pick_player(rich=300)
            return player and {"player": player["seat"], "space": r.choice(self.taxes)}
        if kind == "build":
            return self.choose_build(deeds)
        if kind == "mortgage":
            mine = [
                (i, d) for i, d in deeds.items() if d["owner"] is not None and not d["mortgaged"]
            ]
            if not mine:
                return None
            index, deed = r.choice(mine)
            return {"player": deed["owner"], "deed": index}
        if kind == "lift":
            cash = {p["seat"]: p["cash"] for p in self.players(free=False)}
            held = [(i, d) for i, d in deeds.items() if d["mortgaged"] and d["owner"] in cash]
            held = [(i, d) for i, d in held if cash[d["owner"]] > self.deeds[i]["mortgage"] * 2]
            if not held:
                return None
            index, deed = r.choice(held)
            return {"player": deed["owner"], "deed": index}
        if kind == "go_to_jail":
            player = self.pick_player()
            return player and {"player": player["seat"]}
        if kind == "jail_fine":
            jailed = [p for p in self.players(free=False) if p["in_jail"] and p["cash"] >= 100]
            return {"player": r.choice(jailed)["seat"]} if jailed else None
        if kind == "undo":
            return {} if self.game.length else None
        raise BenchError(f"no rule for {kind}")

    def group_of(self, index: int) -> list[int]:
        group = self.deeds[index]["group"]
        return self.groups.get(group) or [i for i, s in self.deeds.items() if s["group"] == group]

    def choose_build(self, deeds: dict[int, dict]) -> dict | None:
        r = self.random
        whole = []
        for group, indexes in self.groups.items():
            owners = {deeds[i]["owner"] for i in indexes}
            if (
                len(owners) == 1
                and None not in owners
                and not any(deeds[i]["mortgaged"] for i in indexes)
            ):
                whole.append((group, indexes, owners.pop()))
        if not whole:
            return None
        group, indexes, owner = r.choice(whole)
        levels = [5 if deeds[i]["hotel"] else deeds[i]["houses"] for i in indexes]
        now = max(levels)
        up = now < 5 and r.random() < 0.7
        target = now + 1 if up else max(0, min(levels) - 1) if now else 1
        return {"player": owner, "group": group, "levels": [target] * len(indexes)}

    def step(self) -> tuple[str, dict]:
        """Do one action the rules accept; returns its kind and the API's answer."""
        for _ in range(50):
            kind = self.random.choices(self.kinds, self.weights)[0]
            fields = self.choose(kind)
            if fields is None:
                continue
            status, answer = self.game.act(kind, fields, expect=(201, 422))
            if status == 201:
                self.counts[kind] = self.counts.get(kind, 0) + 1
                return kind, answer
        player = self.pick_player(free=False)  # always allowed: the bank never runs out
        _, answer = self.game.act("bank_pay", {"player": player["seat"], "amount": 100})
        self.counts["bank_pay"] = self.counts.get("bank_pay", 0) + 1
        return "bank_pay", answer

    def grow(self, length: int, progress: str = "") -> None:
        """Add actions until the log holds `length` rows."""
        started = time.monotonic()
        while self.game.length < length:
            self.step()
            if progress and self.game.length % 1000 == 0:
                print(
                    f"  {progress}: {self.game.length}/{length} actions "
                    f"({time.monotonic() - started:.0f} s)",
                    file=sys.stderr,
                )


def grown_game(
    caller, edition: dict, length: int, seed: int, progress: str = ""
) -> tuple[Game, Mix]:
    game = Game(caller)
    mix = Mix(game, edition, seed)
    mix.grow(length, progress)
    return game, mix


def pools_for(lengths: list[int], uses: int, drift: float = 0.1) -> dict[int, int]:
    """How many games of each length so that `uses` extra actions (one before each measured
    view) keep every game within `drift` of its nominal length: rotating over k games of 50
    actions, each gets uses/k more."""
    return {n: max(1, math.ceil(uses / max(1.0, drift * n))) for n in lengths}


def mix_counts(mixes: list[Mix]) -> dict[str, int]:
    total: dict[str, int] = {}
    for mix in mixes:
        for kind, count in mix.counts.items():
            total[kind] = total.get(kind, 0) + count
    return dict(sorted(total.items(), key=lambda item: -item[1]))


def split_list(value: str) -> list[str]:
    return [part.strip() for part in value.split(",") if part.strip()]


def split_ints(value: str) -> list[int]:
    return [int(part.replace("_", "")) for part in split_list(value)]


def print_json(label: str, data: dict) -> None:
    """The figures as one JSON line too, for whoever writes them down."""
    print(f"{label} {json.dumps(data, default=str)}")
