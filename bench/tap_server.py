"""The server's share of the banker's tap: bench/tap.py's tap sent by a plain HTTP client, no
browser, against the floor in the same run.

Method. For each setup (server:database) a fresh database and a game of six players made
through the API; beside it bench/floor.py, and bench/floor_stack.py (the same tap through
the product's stack: Flask, a session, CSRF, one row and one log row committed; its own fresh
database of the setup's kind). Optionally a second build of the product
(`--baseline-bin`: the bin/ folder of another checkout's venv, whose `tablebank` and
`gunicorn` are started the same way, on a database of its own), to compare two builds in
the same run. Each target gets a keep-alive connection, as the banker's page has, holding the
banker's cookies, and a second connection holding the first player's live stream (the
phone). Each sample, per target in a shuffled order:

- the money page `/g/<id>/money?kind=bank_pay&player=0&amount=1` (not timed), its confirm
  form's fields and CSRF token read as static/app.js sends them;
- the POST with `X-Tablebank-Tap: 1`, timed from its sending until its whole answer (the
  dashboard) is read: "answered";
- from the same moment until the phone's stream brings the action's `event: cash`: "cash".

Reported per setup and target: p50 / p95 / max of both, and the ratios of each product to
the floor; and each server's CPU per tap (user + system, every process of it, from /proc,
over the timed samples): the money page, the tap, and what its open streams draw for it.
What the browsers add (fetch, parse, merge, layout, the two Chromiums sharing the machine
with the server) is bench/tap.py's to measure; this is the server's part of it.

    python -m bench.tap_server
    python -m bench.tap_server --setups tablebank:sqlite --samples 200
    python -m bench.tap_server --baseline-bin /work/main/.venv/bin
"""

from __future__ import annotations

import argparse
import html
import http.client
import random
import re
import sys
import threading
import time
from contextlib import ExitStack
from urllib.parse import urlencode, urlsplit

from . import common

TARGETS = ("product", "baseline", "floor", "floor_stack")  # in the order reported
FORM = re.compile(r"<form([^>]*class=\"act\"[^>]*)>(.*?)</form>", re.S)
ACTION = re.compile(r'action="([^"]+)"')
FIELD = re.compile(r'name="([^"]+)" value="([^"]*)"')


class Target:
    """A server to tap on: its banker's connection, its phone's stream, its figures."""

    def __init__(self, name: str, base: str, money: str, phone: str, server) -> None:
        self.name, self.money, self.server = name, money, server
        self.cpu_s = 0.0  # the server's CPU over the timed samples
        self.port = port = urlsplit(base).port
        self.banker = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        self.cookies: dict[str, str] = {}
        self.cash_at: list[float] = []
        self.rows: list[dict] = []
        self.phone = http.client.HTTPConnection("127.0.0.1", port, timeout=None)
        self.phone.request("GET", phone)
        answer = self.phone.getresponse()
        if answer.status != 200:
            raise common.BenchError(f"{name}: the phone's stream answered {answer.status}")
        threading.Thread(target=self.listen, args=(answer,), daemon=True).start()

    def follow_dashboard(self, path: str) -> None:
        """The banker's own page's live stream, with the banker's cookies: read and dropped."""
        self.dashboard = http.client.HTTPConnection("127.0.0.1", self.port, timeout=None)
        cookie = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        self.dashboard.request("GET", path, headers={"Cookie": cookie})
        answer = self.dashboard.getresponse()
        if answer.status != 200:
            raise common.BenchError(f"{self.name}: the dashboard's stream answered {answer.status}")
        threading.Thread(target=lambda: all(iter(answer.fp.readline, b"")), daemon=True).start()

    def cpu(self) -> float:
        return self.server.usage()["cpu_s"]

    def listen(self, answer) -> None:
        while line := answer.fp.readline():
            if line.startswith(b"event: cash"):
                self.cash_at.append(time.perf_counter())

    def send(self, method: str, path: str, body: str | None = None, headers=None) -> str:
        sent = dict(headers or {})
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        try:
            answer = self.ask(method, path, body, sent)
        except (OSError, http.client.HTTPException) as error:
            if method != "GET":
                raise common.BenchError(f"{self.name}: {method} {path}: {error!r}") from error
            self.banker.close()  # an idle connection the server let go: a browser reconnects
            answer = self.ask(method, path, body, sent)
        text = answer.read().decode()
        for name, value in answer.getheaders():
            if name.lower() == "set-cookie":
                key, _, rest = value.partition("=")
                self.cookies[key] = rest.split(";")[0]
        if answer.status >= 400:
            raise common.BenchError(f"{self.name}: {method} {path}: {answer.status}")
        return text

    def ask(self, method: str, path: str, body: str | None, headers: dict):
        self.banker.request(method, path, body=body, headers=headers)
        return self.banker.getresponse()

    def tap(self, keep: bool) -> None:
        action, fields, headers = confirm_form(self.name, self.send("GET", self.money))
        headers["Content-Type"] = "application/x-www-form-urlencoded"
        time.sleep(0.05)  # the phone's stream has sent what the money page's read woke
        self.cash_at.clear()
        began = time.perf_counter()
        self.send("POST", action, urlencode(fields), headers)
        answered = time.perf_counter()
        deadline = answered + 5
        while not self.cash_at and time.perf_counter() < deadline:
            time.sleep(0.001)
        cash = self.cash_at[0] if self.cash_at else None
        if keep:
            self.rows.append(
                {
                    "answered": (answered - began) * 1000,
                    "cash": None if cash is None else (cash - began) * 1000,
                }
            )


def confirm_form(name: str, page: str) -> tuple[str, dict, dict]:
    """The money page's confirm form as static/app.js posts it: its address, its fields and
    the headers of a tap (X-Tablebank-Tap, the page's CSRF token)."""
    found = FORM.search(page)
    token = common.CSRF.search(page)
    if not found or not token:
        raise common.BenchError(f"{name}: no confirm form on the money page")
    fields = {k: html.unescape(v) for k, v in FIELD.findall(found[2])}
    action = html.unescape(ACTION.search(found[1])[1])
    return action, fields, {"X-Tablebank-Tap": "1", "X-CSRFToken": token[1]}


def figures(rows: list[dict], which: str) -> dict:
    values = [r[which] for r in rows if r[which] is not None]
    return {**common.summary(values), "missed": sum(r[which] is None for r in rows)}


def product(stack: ExitStack, args, kind: str, database: str, name: str) -> Target:
    server = stack.enter_context(common.running(args, kind, database))
    game = common.Game(common.Http(server.url))
    target = Target(
        name,
        server.url,
        f"/g/{game.id}/money?kind=bank_pay&player=0&amount=1",
        f"/p/{game.player_tokens[0]}/live?v={game.view['version']}",
        server,
    )
    target.send("GET", f"/g/{game.id}/?key={game.key}")  # the banker's device remembered
    target.send("GET", f"/g/{game.id}/")  # its page, as the tap leaves it
    target.follow_dashboard(f"/g/{game.id}/live?v={game.view['version']}")
    return target


def stack_floor(stack: ExitStack, args, database: str, money: str, phone: str) -> Target:
    """bench/floor_stack.py on a fresh database of the setup's kind, its banker remembered."""
    server = common.stack_floor(stack, database, args.pg_admin_url)
    target = Target("floor_stack", server.url, money, phone, server)
    target.send("GET", "/g/floor/?key=floor")  # the banker's device remembered
    return target


def run(args, kind: str, database: str) -> dict:
    with ExitStack() as stack:
        targets = [product(stack, args, kind, database, "product")]
        if args.baseline_bin:
            baseline = common.built_from(args, args.baseline_bin)
            targets.append(product(stack, baseline, kind, database, "baseline"))
        port = common.free_port()
        floor_cmd = [sys.executable, "-m", "bench.floor", "--port", str(port)]
        floor = stack.enter_context(common.Server(floor_cmd, "", port, "floor"))
        money, phone = "/g/floor/money?amount=1", "/p/floor/live"
        targets.append(Target("floor", floor.url, money, phone, floor))
        targets.append(stack_floor(stack, args, database, money, phone))
        time.sleep(1)  # every stream open
        shuffle = random.Random(args.seed)
        for round_ in range(args.warmup + args.samples):
            shuffle.shuffle(targets)
            for target in targets:
                if round_ == args.warmup:
                    target.cpu_s = -target.cpu()
                target.tap(keep=round_ >= args.warmup)
                time.sleep(args.pause)
        for target in targets:
            target.cpu_s += target.cpu()
    result = {"server": kind, "database": database, "samples": args.samples}
    for target in targets:
        result[target.name] = {w: figures(target.rows, w) for w in ("answered", "cash")}
        result[target.name]["cpu_ms_per_tap"] = round(target.cpu_s / args.samples * 1000, 2)
    floor_ = result["floor"]
    result["ratios"] = {
        name: {
            f"{w}_{p}": common.ratio(result[name][w][p], floor_[w][p])
            for w in ("answered", "cash")
            for p in ("p50", "p95")
        }
        for name in ("product", "baseline", "floor_stack")
        if name in result
    }
    return result


def report(r: dict) -> None:
    print(f"\n## tap_server: {r['server']}, {r['database']}: {r['samples']} samples per target")
    rows = []
    for name in TARGETS:
        if name in r:
            for which, label in (("answered", "POST until answered"), ("cash", "POST until cash")):
                f = r[name][which]
                rows.append([name, label, f["p50"], f["p95"], f["max"], f["missed"]])
    print(common.table(["target", "what", "p50 ms", "p95 ms", "max", "missed"], rows))
    cpu = [f"{n} {r[n]['cpu_ms_per_tap']} ms" for n in TARGETS if n in r]
    print("server CPU per tap (money page, tap, its streams): " + ", ".join(cpu))
    for name, ratios in r["ratios"].items():
        print(f"{name}/floor: " + ", ".join(f"{k} {v}" for k, v in ratios.items()))


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    common.add_setup_options(parser)
    parser.add_argument("--samples", type=int, default=100)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--pause", type=float, default=0.05, help="s between two taps")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--baseline-bin", default="", help="another build's venv bin/ folder")
    args = parser.parse_args()
    if args.smoke:
        args.samples, args.warmup = 3, 1
    print(f"tap_server: {common.machine()}")
    results = common.run_each_setup("tap_server", args, run, report)
    missed = any(r[target]["cash"]["missed"] for r in results for target in r["ratios"])
    return 1 if missed else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except common.BenchError as error:
        print(f"tap_server: {error}", file=sys.stderr)
        sys.exit(1)
