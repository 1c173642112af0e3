"""Banker's tap to the player's phone: the time from a real click on the banker's page to the
player's page showing the new balance, in headless Chromium at a phone's size (390x844).

Method. For each database (a fresh SQLite file, a fresh PostgreSQL database) two games are
grown through the JSON API with a realistic mix of actions (common.Mix), one per log length
(50 and 5,000 by default). Then for each server (the `tablebank` command, one process; and
gunicorn with 2+ workers), on that same database:

- a banker browser (a Chromium of its own) opens each game's banker link once, so its
  session cookie makes it the banker, as a phone that scanned the banker's QR code;
- one more Chromium per game opens the first player's private page `/p/<token>`; the page
  keeps itself up to date through its live stream and fragment fetches (static/app.js);
- each sample: the banker opens the money page `/g/<id>/money?kind=bank_pay&player=0&amount=1`
  (not timed) and clicks its confirm button: the browser posts the form and follows the
  redirect to the dashboard. A capturing click listener notes the tap's time (Date.now(), in
  sessionStorage, since the page goes away); a MutationObserver on the player's page notes
  when `#balance` shows the expected amount (Date.now(): both pages read one system clock).
  Also noted: when the banker's dashboard was loaded (DOMContentLoaded) after the tap.
- samples alternate between the games (in a shuffled order within each round), so both
  lengths see the same machine at the same moments;
- under gunicorn the kernel decides which worker gets which connection. `ss` (iproute2) tells
  which worker holds the player's stream (the player's connection that received data after
  the tap and sent none) and which one holds the banker's most recently used connection
  just before the tap (Chromium reuses it for the form's POST; marked as guessed when the
  banker's connections end in more than one worker). Figures are also given apart for the
  taps where the action and the stream were in the same worker and where they crossed.
  Every --reshuffle samples the player's page is reloaded (not timed), so its stream lands
  on a worker drawn again, as when a phone wakes up.

The floor. Beside each server runs bench/floor.py: the same pages and the same client code
(static/app.js) with nothing behind them (a balance in memory, no database, no templates).
Its game is one more variant in the same shuffled rounds, so the machine's and Chromium's
share of a figure, at that moment, is seen next to the product's.

Reported per (database, server, length): p50/p95/max of tap -> player's balance, and the p50
of its two steps on the player's page (the news heard: its fragment fetch starts; the
fragment received, from the page's Resource Timing), missed
updates (not shown within --timeout), banker tap -> dashboard loaded; and the 5,000/50
ratios; the server's log ("database is locked", tracebacks), RSS and threads.

    python -m bench.propagation                      # full run: 100 samples, both databases
    python -m bench.propagation --samples 10 --lengths 50,500 --databases sqlite
    python -m bench.propagation --servers gunicorn --workers 3 --worker-class gthread
"""

from __future__ import annotations

import argparse
import random
import re
import subprocess
import sys
import time
from pathlib import Path

from . import common

TAP = """window.addEventListener('click', event => {
  if (event.target.closest && event.target.closest('form.act button')) {
    sessionStorage.setItem('tap', String(Date.now()));
  }
}, true);"""

ARM = """([expected, timeout]) => { window.shown = new Promise(resolve => {
  const box = document.getElementById('live');
  const seen = () => {
    const balance = document.getElementById('balance');
    if (balance && balance.textContent.replace(/\\D/g, '') === expected) {
      observer.disconnect();
      const fetched = performance.getEntriesByType('resource')
        .filter(e => e.name.includes('fragment=1')).pop();
      const at = t => fetched ? performance.timeOrigin + t : null;
      resolve([Date.now(), at(fetched && fetched.startTime), at(fetched && fetched.responseEnd)]);
      return true;
    }
    return false;
  };
  const observer = new MutationObserver(seen);
  observer.observe(box, {childList: true, subtree: true, characterData: true});
  seen();
  setTimeout(() => { observer.disconnect(); resolve(null); }, timeout);
}); }"""

# The banker's page shows the dashboard it landed on (a tap merged in place by static/app.js):
# the first green banner, noted when it appears.
LANDING = """() => { window.landed = new Promise(resolve => {
  const observer = new MutationObserver(() => {
    if (document.querySelector('.flash.done')) { observer.disconnect(); resolve(Date.now()); }
  });
  observer.observe(document.documentElement, {childList: true, subtree: true});
}); }"""


# -- which worker holds which connection (/proc) ---------------------------------------------


SOCKET = re.compile(r"^\S+\s+\S+\s+\S+:(\d+)\s+\S+:(\d+)\s*(.*)$")


def connections(port: int) -> list[dict]:
    """Established TCP connections to or from `port`, read by `ss` (iproute2): each end's
    port, the processes holding it, and how long ago it last sent and received data (ms)."""
    out = subprocess.run(
        ["ss", "-tnpiH", "state", "established", f"( sport = :{port} or dport = :{port} )"],
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    found = []
    for line in out.splitlines():
        head = SOCKET.match(line)
        if head and not line.startswith(("\t", " ")):
            pids = {int(pid) for pid in re.findall(r"pid=(\d+)", head.group(3))}
            found.append({"local": int(head.group(1)), "peer": int(head.group(2)), "pids": pids})
        elif found:
            for name in ("lastsnd", "lastrcv"):
                value = re.search(rf"\b{name}:(\d+)", line)
                found[-1][name] = int(value.group(1)) if value else 10**9
    return found


def browser_pids(role: str) -> set[int]:
    """The Chromium launched with --bench-role=<role>, and all its descendants."""
    parents, roots = {}, []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            words = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        parents[int(entry.name)] = int(stat[1])
        if f"--bench-role={role}".encode() in words:
            roots.append(int(entry.name))
    found, grew = set(roots), True
    while grew:
        more = {pid for pid, parent in parents.items() if parent in found} - found
        found |= more
        grew = bool(more)
    return found


def worker_of(socket: dict, table: list[dict], port: int) -> int | None:
    """The server process at the other end of a client's connection."""
    for other in table:
        if other["local"] == port and other["peer"] == socket["local"] and other["pids"]:
            return min(other["pids"])
    return None


def banker_worker(port: int, banker: set[int]) -> tuple[int | None, bool]:
    """Before the tap: the worker at the end of the banker's most recently used connection
    (Chromium reuses its most recently used idle connection for the next request), and
    whether all the banker's connections end in that one worker (then it is certain)."""
    table = connections(port)
    mine = [s for s in table if s["peer"] == port and s["pids"] & banker]
    if not mine:
        return None, False
    latest = min(mine, key=lambda s: s.get("lastrcv", 10**9))
    worker = worker_of(latest, table, port)
    return worker, all(worker_of(s, table, port) == worker for s in mine)


def stream_worker(port: int, player: set[int], since_ms: float) -> int | None:
    """After the update: the worker holding the player's live stream, i.e. the player's
    connection that received data since the tap but sent nothing since then (a fetch sends
    its request; a stream only receives)."""
    table = connections(port)
    streams = [
        s
        for s in table
        if s["peer"] == port
        and s["pids"] & player
        and s.get("lastrcv", 10**9) <= since_ms
        and s.get("lastsnd", 0) > since_ms
    ]
    return worker_of(streams[0], table, port) if len(streams) == 1 else None


# -- one server ------------------------------------------------------------------------------


class FloorGame:
    """bench/floor.py's one game, in the shape measure() uses."""

    def __init__(self, server: common.Server) -> None:
        self.base, self.caller = server.url, common.Http(server.url)
        self.id, self.key, self.player_tokens = "floor", "", ["floor"]

    def refresh(self) -> dict:
        return common.call_json(self.caller, "GET", "/api/floor")[1]


def measure(server: common.Server, games: dict, args) -> dict:
    """Samples per variant: the log lengths on `server`, and "floor" on bench/floor.py."""
    from playwright.sync_api import sync_playwright

    lengths = list(games)
    shuffle = random.Random(args.seed)
    samples = {n: [] for n in lengths}
    with sync_playwright() as pw:

        def launch(role: str):
            return pw.chromium.launch(
                executable_path=args.chromium, args=[*common.BROWSER_ARGS, f"--bench-role={role}"]
            )

        banker_browser = launch("banker")
        player_browsers = {n: launch(f"player-{n}") for n in lengths}  # one each: see ss
        context = banker_browser.new_context(viewport=common.PHONE)
        context.add_init_script(TAP)
        banker = context.new_page()
        banker.set_default_timeout(args.timeout * 1000 + 30_000)
        players, cash = {}, {}
        for n, game in games.items():
            base = game.base
            banker.goto(f"{base}/g/{game.id}/?key={game.key}")  # the banker's link, once
            page = player_browsers[n].new_context(viewport=common.PHONE).new_page()
            page.set_default_timeout(args.timeout * 1000 + 30_000)
            page.goto(f"{base}/p/{game.player_tokens[0]}")
            page.wait_for_selector("#balance")
            players[n] = page
            cash[n] = game.refresh()["players"][0]["cash"]
        time.sleep(1)  # every stream open
        several = len(server.pids()) > 1
        count = 0
        for round_ in range(args.warmup + args.samples):
            order = list(lengths)
            shuffle.shuffle(order)
            for n in order:
                game, page = games[n], players[n]
                base = game.base
                if args.reshuffle and count and count % args.reshuffle == 0:
                    page.reload()
                    page.wait_for_selector("#balance")
                    time.sleep(0.5)
                count += 1
                banker.goto(f"{base}/g/{game.id}/money?kind=bank_pay&player=0&amount={args.amount}")
                button = banker.locator("form.act button")
                expected = cash[n] + args.amount
                page.evaluate(ARM, [str(expected), args.timeout * 1000])
                banker.evaluate(LANDING)
                crossing = "one process" if n == "floor" or not several else None
                if crossing is None:
                    acting, certain = banker_worker(server.port, browser_pids("banker"))
                button.click()
                landed = banker.evaluate("() => window.landed")
                seen = page.evaluate("() => window.shown")
                shown, heard, fetched = seen if seen else (None, None, None)
                tap = float(banker.evaluate("() => sessionStorage.getItem('tap')") or "nan")
                if crossing is None:
                    since = time.time() * 1000 - tap
                    streaming = stream_worker(server.port, browser_pids(f"player-{n}"), since)
                    if acting is None or streaming is None:
                        crossing = "unknown"
                    else:
                        crossing = "same" if acting == streaming else "cross"
                        crossing += "" if certain else "?"
                if banker.locator(".flash.done").count() == 0:
                    raise common.BenchError(
                        f"the tap was refused: {banker.locator('.flash').all_inner_texts()}"
                    )
                cash[n] = expected
                if shown is None:
                    cash[n] = game.refresh()["players"][0]["cash"]
                    page.reload()
                    page.wait_for_selector("#balance")
                if args.verbose:
                    took = "missed" if shown is None else f"{shown - tap:.0f} ms"
                    if heard is not None:
                        took += f" (news {heard - tap:.0f}, fragment {fetched - tap:.0f})"
                    print(
                        f"  log {n}: {took}, landed {landed - tap:.0f} ms, {crossing}",
                        file=sys.stderr,
                    )
                if round_ >= args.warmup:
                    samples[n].append(
                        {
                            "shown_ms": None if shown is None else shown - tap,
                            "news_ms": None if heard is None else heard - tap,
                            "fragment_ms": None if fetched is None else fetched - tap,
                            "landed_ms": landed - tap,
                            "crossing": crossing,
                        }
                    )
                time.sleep(args.pause)
        banker_browser.close()
        for browser in player_browsers.values():
            browser.close()
    return samples


def figures(rows: list[dict]) -> dict:
    shown = [r["shown_ms"] for r in rows if r["shown_ms"] is not None]
    result = {
        "samples": len(rows),
        "missed": sum(r["shown_ms"] is None for r in rows),
        "shown": common.summary(shown),
        "news": common.summary([r["news_ms"] for r in rows if r["news_ms"] is not None]),
        "fragment": common.summary(
            [r["fragment_ms"] for r in rows if r["fragment_ms"] is not None]
        ),
        "landed": common.summary([r["landed_ms"] for r in rows]),
    }
    kinds = sorted({r["crossing"].rstrip("?") for r in rows})
    if kinds != ["one process"]:
        result["by_crossing"] = {
            kind: common.summary(
                [
                    r["shown_ms"]
                    for r in rows
                    if r["crossing"].rstrip("?") == kind and r["shown_ms"] is not None
                ]
            )
            for kind in kinds
        }
        result["banker_worker_guessed"] = sum(r["crossing"].endswith("?") for r in rows)
    return result


def run_database(database: str, args) -> list[dict]:
    results = []
    with common.fresh_database(database, args.pg_admin_url) as url:
        games: dict[int, common.Game] = {}
        for kind in args.servers:
            port = common.free_port()
            command = common.command_for(args, kind, port)
            print(f"{database} / {kind}: {' '.join(command)}", file=sys.stderr)
            with common.Server(command, url, port, kind) as server:
                caller = common.Http(server.url)
                if not games:
                    edition = common.edition_data(caller)
                    started = time.monotonic()
                    for n in args.lengths:
                        games[n] = common.grown_game(
                            caller, edition, n, args.seed + n, f"{database} game of {n}"
                        )[0]
                    print(
                        f"  grew the games in {time.monotonic() - started:.0f} s", file=sys.stderr
                    )
                for game in games.values():
                    game.caller, game.base = caller, server.url
                variants: dict = dict(games)
                floor_port = common.free_port()
                floor_cmd = [sys.executable, "-m", "bench.floor"]
                floor_cmd += ["--port", str(floor_port)]
                with common.Server(floor_cmd, url, floor_port, "floor") as floor:
                    if args.floor:
                        variants["floor"] = FloorGame(floor)
                    samples = measure(server, variants, args)
                usage = server.usage()
                logs = server.log_counts()
            result = {
                "database": database,
                "server": kind,
                "command": " ".join(command),
                "lengths": {n: figures(rows) for n, rows in samples.items()},
                "server_usage_end": usage,
                "server_log": logs,
            }
            short, long_ = args.lengths[0], args.lengths[-1]
            for figure in ("p50", "p95"):
                result[f"{figure} {long_}/{short}"] = common.ratio(
                    result["lengths"][long_]["shown"][figure],
                    result["lengths"][short]["shown"][figure],
                )
                if args.floor:
                    result[f"{figure} {short}/floor"] = common.ratio(
                        result["lengths"][short]["shown"][figure],
                        result["lengths"]["floor"]["shown"][figure],
                    )
            report(result, args)
            results.append(result)
    return results


def report(result: dict, args) -> None:
    print(f"\n## {result['database']}, {result['server']}: tap -> player's balance shown")
    print(f"server: {result['command']}")
    rows = []
    for n, f in result["lengths"].items():
        rows.append(
            [
                n if n == "floor" else f"{n:,}",
                f["samples"],
                f["missed"],
                common.fmt_ms(f["shown"]["p50"]),
                common.fmt_ms(f["shown"]["p95"]),
                common.fmt_ms(f["shown"]["max"]),
                common.fmt_ms(f["news"]["p50"]),
                common.fmt_ms(f["fragment"]["p50"]),
                common.fmt_ms(f["landed"]["p50"]),
                common.fmt_ms(f["landed"]["p95"]),
            ]
        )
    print(
        common.table(
            [
                "log",
                "samples",
                "missed",
                "p50",
                "p95",
                "max",
                "news p50",
                "fragment p50",
                "banker lands p50",
                "banker lands p95",
            ],
            rows,
        )
    )
    short, long_ = args.lengths[0], args.lengths[-1]
    print(
        f"{long_}/{short}: p50 x{result[f'p50 {long_}/{short}']}, "
        f"p95 x{result[f'p95 {long_}/{short}']}"
    )
    if args.floor:
        print(
            f"{short}/floor: p50 x{result[f'p50 {short}/floor']}, "
            f"p95 x{result[f'p95 {short}/floor']}"
        )
    for n, f in result["lengths"].items():
        for kind, s in f.get("by_crossing", {}).items():
            print(
                f"  log {n}, action and stream in {kind} worker(s): {s['n']} samples, "
                f"p50 {common.fmt_ms(s['p50'])}, p95 {common.fmt_ms(s['p95'])}"
            )
    print(f"server at the end: {result['server_usage_end']}; its log: {result['server_log']}")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    common.add_server_options(parser)
    parser.add_argument("--databases", default="sqlite,postgres", help="default %(default)s")
    parser.add_argument("--lengths", default="50,5000", help="log lengths (default %(default)s)")
    parser.add_argument("--samples", type=int, default=100, help="per length and variant")
    parser.add_argument("--warmup", type=int, default=2, help="untimed rounds first")
    parser.add_argument("--amount", type=int, default=1, help="the bank pays this much a tap")
    parser.add_argument("--timeout", type=float, default=10, help="s before a sample is missed")
    parser.add_argument("--pause", type=float, default=0.1, help="s between two samples")
    parser.add_argument(
        "--reshuffle",
        type=int,
        default=10,
        help="reload the player's page every N samples (0: never), default %(default)s",
    )
    parser.add_argument(
        "--no-floor", dest="floor", action="store_false", help="leave out bench/floor.py"
    )
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--verbose", action="store_true", help="print every sample")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--smoke", action="store_true", help="a run of a few seconds")
    args = parser.parse_args()
    if args.smoke:
        args.databases, args.lengths, args.samples, args.warmup = "sqlite", "20", 2, 1
        args.servers = "tablebank"
    args.lengths = common.split_ints(args.lengths)
    args.servers = common.split_list(args.servers)
    print(f"propagation: {common.machine()}; {args.samples} samples per length and variant")
    results = []
    for database in common.split_list(args.databases):
        results += run_database(database, args)
    for result in results:
        common.print_json("propagation", result)
    missed = sum(f["missed"] for r in results for f in r["lengths"].values())
    return 1 if missed else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except common.BenchError as error:
        print(f"propagation: {error}", file=sys.stderr)
        sys.exit(1)
