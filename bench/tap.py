"""The banker's own tap, and the same tap to a player's phone, in headless Chromium (390x844),
against a floor measured in the same run.

Method. For each setup (server:database) a fresh database and a game of six players made
through the API; beside it bench/floor.py, the floor: the same pages' shapes and the same
static files (app.css, idiomorph, app.js), with nothing behind them (a balance in memory). A
banker browser (its own Chromium) opens the banker link once; a player browser (another
Chromium) holds the first player's page open, live. Each sample:

- the banker's page opens `/g/<id>/money?kind=bank_pay&player=0&amount=1` (not timed: the
  page with the confirm button, "The bank pays Ana $1");
- a MutationObserver is armed on the banker's page (the first player's figure on the
  dashboard, `.cash[data-seat="0"]`, showing the new amount) and on the player's page
  (`#balance`); both note Date.now() (one clock);
- a real click on the confirm button (a capturing listener notes the click's time). The form
  is posted by static/app.js with fetch, the answer (the dashboard) merged into the page.

Optionally a second build of the product (`--baseline-bin`: the bin/ folder of another
checkout's venv, whose `tablebank` and `gunicorn` are started the same way, on a database of
its own, with the static files of that checkout) as a third variant, interleaved with the
others in the same rounds, to compare two builds on the same machine at the same moments.

A second floor, "floor_page", serves the product's own dashboard (bench/floor.py
--dashboard): the page as the product's tap left it on the banker's screen, saved once before
the samples, the first player's figure put in by the floor. Its tap's answer asks the browser
for the same parse, style and layout as the product's, so it measures the same click-to-screen
work against a server that does nothing; the first floor's small page shows how much of the
figure is the page's weight.

A third floor, "floor_stack" (bench/floor_stack.py, on a fresh database of the setup's kind),
serves the first floor's small pages through the product's own stack: Flask under gevent, the
banker's signed session, Flask-WTF's CSRF check, and Flask-SQLAlchemy updating one row under a
write lock, adding one log row and committing before the answer and the phone's cash. What it
takes above the first floor is what the stack and a durable action cost on this machine,
before any of the product's own work (rules, log, pages); floor_stack / floor is reported.

Reported per setup and variant (product, baseline, floor, floor_page, floor_stack): the
banker's own tap (click until the banker's page shows the figure) and propagation (click
until the player's page shows it), p50 / p95 / max, missed (not shown within --timeout), and
the ratios of each build to each floor, of p50 and p95, with the issue's targets beside
product / floor (banker p50 <= 1.5x; propagation p50 <= 1.3x, p95 <= 2x). The variants
alternate in a shuffled order each round, after --warmup untimed rounds. The banker's tap is
split in two: click until the fetch's answer is in (the PerformanceResourceTiming of the
POST: network and server) and from there until the figure shows (the page's own work: parse,
merge, style, layout); of the first, the same timing's request sent until the answer's first
byte: the server's share as the browser sees it (on this one machine, while the other
browser takes the phone's news).

With --pin, the two Chromiums (and Playwright's driver) run on the machine's first core and
the servers (the product's, the baseline's, the floors) on the others: a banker's phone and
the server are two machines, and on a 2-core machine the browsers otherwise keep the server
waiting for a core for a third of its answer. The two browsers then share one core, so their
own work takes longer and every ratio shrinks: a view of how much the figure depends on where
each runs, not a truer one (docs/PERFORMANCE.md). PostgreSQL's own processes are not pinned.

Also: a player's page first visit in bytes on the wire (Chromium's network log, every
request of the page, a fresh browser context), against the 12 kB budget.

    python -m bench.tap                              # both setups, 40 samples each
    python -m bench.tap --setups tablebank:sqlite --samples 100
    python -m bench.tap --smoke
    python -m bench.tap --setups tablebank:sqlite --baseline-bin /work/wt-a/.venv/bin
    python -m bench.tap --pin                        # the browsers apart from the servers
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

from . import common

CHROMIUM = "/usr/bin/chromium"
TAP = """window.addEventListener('click', event => {
  if (event.target.closest && event.target.closest('form.act button')) {
    window.tapped = Date.now();
  }
}, true);"""
ARM = """([selector, expected, timeout]) => { window.shown = new Promise(resolve => {
  const seen = () => {
    const figure = document.querySelector(selector);
    if (figure && figure.textContent.replace(/\\D/g, '') === expected) {
      observer.disconnect(); resolve(Date.now()); return true;
    }
    return false;
  };
  const observer = new MutationObserver(seen);
  observer.observe(document.documentElement, {childList: true, subtree: true, characterData: true});
  if (!seen()) { setTimeout(() => { observer.disconnect(); resolve(null); }, timeout); }
}); }"""
# The tap's POST as the browser timed it: when its answer was all in, and how long from the
# request's sending to the answer's first byte (the server's share, seen from the browser).
ANSWERED = """() => {
  const posts = performance.getEntriesByType('resource').filter(
    e => e.initiatorType === 'fetch' && !e.name.includes('fragment'));
  const last = posts[posts.length - 1];
  return last ? [performance.timeOrigin + last.responseEnd,
                 last.responseStart - last.requestStart] : null;
}"""
FIGURE = re.compile(r'(<span class="cash" data-seat="0"[^>]*>)[^<]*(</span>)')
STREAM = re.compile(r'(<[^>]*id="live"[^>]*data-live=")[^"]*(")')
LAZY = re.compile(r"<script[^>]*data-lazy[^>]*></script>")  # idiomorph, fetched by the tap
BUDGET = 12_000
BUILDS = ("product", "baseline")
TARGETS = {"banker_p50": 1.5, "phone_p50": 1.3, "phone_p95": 2.0}
RATIOS = (  # (build, floor): each build to each floor, and the stack's floor to the floor
    *((name, floor) for floor in ("floor", "floor_page", "floor_stack") for name in BUILDS),
    ("floor_stack", "floor"),
)


class Variant:
    """A game to tap on: the product's (over the API) or the floor's."""

    def __init__(self, name: str, base: str, game: str, key: str, token: str, cash: int):
        self.name, self.base, self.game, self.key, self.token = name, base, game, key, token
        self.cash = cash
        self.rows: list[dict] = []
        self.server: common.Server | None = None  # the product's, when this is a build of it
        self.second_token = ""  # another player's link, for the first visit's bytes


def measure(variants: list[Variant], args) -> None:
    from playwright.sync_api import sync_playwright

    shuffle = random.Random(args.seed)
    with sync_playwright() as pw:
        banker_browser = pw.chromium.launch(executable_path=args.chromium, args=common.BROWSER_ARGS)
        player_browser = pw.chromium.launch(executable_path=args.chromium, args=common.BROWSER_ARGS)
        bankers, players = {}, {}
        for variant in variants:
            context = banker_browser.new_context(viewport=common.PHONE)
            context.add_init_script(TAP)
            banker = context.new_page()
            banker.goto(f"{variant.base}/g/{variant.game}/?key={variant.key}")
            player = player_browser.new_context(viewport=common.PHONE).new_page()
            player.goto(f"{variant.base}/p/{variant.token}")
            player.wait_for_selector("#balance")
            bankers[variant.name], players[variant.name] = banker, player
        time.sleep(1)  # every stream open
        for round_ in range(args.warmup + args.samples):
            order = list(variants)
            shuffle.shuffle(order)
            for variant in order:
                banker, player = bankers[variant.name], players[variant.name]
                money = f"/g/{variant.game}/money?kind=bank_pay&player=0&amount=1"
                banker.goto(variant.base + money)
                expected, wait = str(variant.cash + 1), args.timeout * 1000
                banker.evaluate(ARM, ['.cash[data-seat="0"]', expected, wait])
                player.evaluate(ARM, ["#balance", expected, wait])
                banker.locator("form.act button").click()
                shown_banker = banker.evaluate("() => window.shown")
                shown_phone = player.evaluate("() => window.shown")
                tapped = banker.evaluate("() => window.tapped")
                answered, server = banker.evaluate(ANSWERED) or (None, None)
                variant.cash += 1
                if round_ >= args.warmup:
                    variant.rows.append(
                        {
                            "banker": None if shown_banker is None else shown_banker - tapped,
                            "phone": None if shown_phone is None else shown_phone - tapped,
                            "answered": None if answered is None else answered - tapped,
                            "server": server,
                            "drawn": None
                            if None in (answered, shown_banker)
                            else shown_banker - answered,
                        }
                    )
                if shown_phone is None:
                    player.reload()
                    player.wait_for_selector("#balance")
                time.sleep(args.pause)
        banker_browser.close()
        player_browser.close()


def first_visit(base: str, token: str, chromium: str) -> tuple[int, int]:
    """Bytes on the wire for a player's page's first visit (every request), and requests."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=common.BROWSER_ARGS)
        context = browser.new_context(viewport=common.PHONE, is_mobile=True)
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        sizes: dict[str, int] = {}

        def finished(event) -> None:
            sizes[event["requestId"]] = int(event["encodedDataLength"])

        cdp.on("Network.loadingFinished", finished)
        cdp.on(
            "Network.dataReceived",
            lambda e: sizes.__setitem__(
                e["requestId"], sizes.get(e["requestId"], 0) + e["encodedDataLength"]
            ),
        )
        page.goto(f"{base}/p/{token}")
        page.wait_for_timeout(1500)
        browser.close()
    return sum(sizes.values()), len(sizes)


def figures(rows: list[dict], which: str) -> dict:
    values = [r[which] for r in rows if r[which] is not None]
    return {**common.summary(values), "missed": sum(r[which] is None for r in rows)}


def dashboard_copy(variant: Variant, chromium: str, folder: str) -> Path:
    """The product's dashboard as a tap leaves it on the banker's screen, for the floor that
    serves the product's page: the first player's figure marked, its stream the floor's."""
    from playwright.sync_api import sync_playwright

    from .floor import CASH, GAME

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=common.BROWSER_ARGS)
        page = browser.new_context(viewport=common.PHONE).new_page()
        page.goto(f"{variant.base}/g/{variant.game}/?key={variant.key}")
        page.goto(f"{variant.base}/g/{variant.game}/money?kind=bank_pay&player=0&amount=1")
        page.locator("form.act button").click()
        variant.cash += 1
        figure = page.locator('.cash[data-seat="0"]')
        figure.filter(has_text=f"{variant.cash:,}").wait_for()
        html = page.content()
        browser.close()
    html, marked = FIGURE.subn(rf"\g<1>{CASH}\g<2>", html)
    html, streamed = STREAM.subn(rf"\g<1>/g/{GAME}/live\g<2>", html)
    if marked != 1 or streamed != 1:
        raise common.BenchError("the product's dashboard: no figure or no live part to mark")
    path = Path(folder) / "dashboard.html"
    path.write_text(LAZY.sub("", html))
    return path


def floor_variant(stack: ExitStack, name: str, *options: str) -> Variant:
    port = common.free_port()
    command = [sys.executable, "-m", "bench.floor", "--port", str(port), *options]
    floor = stack.enter_context(common.Server(command, "", port, name))
    return Variant(name, floor.url, "floor", "", "floor", 1500)


def stack_floor_variant(stack: ExitStack, args, database: str) -> Variant:
    """bench/floor_stack.py on a fresh database of the setup's kind: the same tap through
    Flask, Flask-SQLAlchemy and a commit, and nothing of the product's own."""
    floor = common.stack_floor(stack, database, args.pg_admin_url)
    return Variant("floor_stack", floor.url, "floor", "floor", "floor", 1500)


def product(stack: ExitStack, args, kind: str, database: str, name: str) -> Variant:
    server = stack.enter_context(common.running(args, kind, database))
    game = common.Game(common.Http(server.url))
    variant = Variant(name, server.url, game.id, game.key, game.player_tokens[0], 1500)
    variant.server, variant.second_token = server, game.player_tokens[1]
    return variant


def run(args, kind: str, database: str) -> dict:
    browsers, servers = common.split_cores() if args.pin else (None, None)
    with ExitStack() as stack:
        with common.on_cores(servers):
            variants = [product(stack, args, kind, database, "product")]
            if args.baseline_bin:
                baseline = common.built_from(args, args.baseline_bin)
                variants.append(product(stack, baseline, kind, database, "baseline"))
            variants.append(floor_variant(stack, "floor"))
            variants.append(stack_floor_variant(stack, args, database))
        folder = stack.enter_context(tempfile.TemporaryDirectory())
        with common.on_cores(browsers):
            saved = dashboard_copy(variants[0], args.chromium, folder)
        with common.on_cores(servers):
            variants.append(floor_variant(stack, "floor_page", "--dashboard", str(saved)))
        mine = variants[0]
        with common.on_cores(browsers):
            measure(variants, args)
            page_bytes, requests = first_visit(mine.base, mine.second_token, args.chromium)
        log = mine.server.log_counts()
    result = {"server": kind, "database": database, "samples": args.samples}
    for variant in variants:
        result[variant.name] = {
            w: figures(variant.rows, w) for w in ("banker", "phone", "answered", "server", "drawn")
        }
    result["ratios"] = {
        f"{name}/{floor}": {
            f"{which}_{p}": common.ratio(result[name][which][p], result[floor][which][p])
            for which in ("banker", "phone")
            for p in ("p50", "p95")
        }
        for name, floor in RATIOS
        if name in result
    }
    ratios = result["ratios"]["product/floor"]
    result["met"] = {name: (ratios[name] or 99) <= most for name, most in TARGETS.items()}
    result["first_visit_bytes"], result["first_visit_requests"] = page_bytes, requests
    result["server_log"] = log
    return result


def report(r: dict) -> None:
    print(f"\n## tap: {r['server']}, {r['database']}: {r['samples']} samples per variant")
    rows = []
    for name in ("product", "baseline", "floor", "floor_page", "floor_stack"):
        if name not in r:
            continue
        for which, label in (
            ("banker", "banker's own tap"),
            ("answered", "  of which: click until the answer is in"),
            ("server", "    of which: request sent until first byte"),
            ("drawn", "  of which: answer in until shown"),
            ("phone", "to a player's phone"),
        ):
            f = r[name][which]
            rows.append([name, label, f["p50"], f["p95"], f["max"], f["missed"]])
    print(common.table(["variant", "click until shown", "p50 ms", "p95 ms", "max", "missed"], rows))
    met = r["met"]
    for name, ratios in r["ratios"].items():
        verdicts = (
            (
                f" (target <= 1.5: {'met' if met['banker_p50'] else 'NOT met'})",
                f" (<= 1.3: {'met' if met['phone_p50'] else 'NOT met'})",
                f" (<= 2: {'met' if met['phone_p95'] else 'NOT met'})",
            )
            if name == "product/floor"
            else ("", "", "")
        )
        print(
            f"{name}: banker p50 {ratios['banker_p50']}{verdicts[0]}, "
            f"p95 {ratios['banker_p95']}; phone p50 {ratios['phone_p50']}{verdicts[1]}, "
            f"p95 {ratios['phone_p95']}{verdicts[2]}"
        )
    if "baseline" in r:
        mine, theirs = r["product"], r["baseline"]
        print(
            "product/baseline p50: banker "
            f"{common.ratio(mine['banker']['p50'], theirs['banker']['p50'])}, answer in "
            f"{common.ratio(mine['answered']['p50'], theirs['answered']['p50'])}, shown after "
            f"{common.ratio(mine['drawn']['p50'], theirs['drawn']['p50'])}, phone "
            f"{common.ratio(mine['phone']['p50'], theirs['phone']['p50'])}"
        )
    verdict = "met" if r["first_visit_bytes"] <= BUDGET else "NOT met"
    print(
        f"a player's page, first visit: {r['first_visit_bytes']:,} bytes in "
        f"{r['first_visit_requests']} requests (budget {BUDGET:,}: {verdict})"
    )
    print(f"server log: {r['server_log']}")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    common.add_setup_options(parser)
    parser.add_argument("--samples", type=int, default=40)
    parser.add_argument("--warmup", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=5, help="s before a figure is missed")
    parser.add_argument("--pause", type=float, default=0.2, help="s between two taps")
    parser.add_argument("--chromium", default=CHROMIUM)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--baseline-bin", default="", help="another build's venv bin/ folder")
    parser.add_argument(
        "--pin",
        action="store_true",
        help="the Chromiums on the first core, the servers on the others (PostgreSQL unpinned)",
    )
    args = parser.parse_args()
    if args.smoke:
        args.samples, args.warmup = 2, 1
    print(f"tap: {common.machine()}" + (" (pinned: browsers on one core)" if args.pin else ""))
    results = common.run_each_setup("tap", args, run, report)
    missed = any(
        r[v][w]["missed"]
        for r in results
        for v in (*BUILDS, "floor", "floor_page", "floor_stack")
        if v in r
        for w in ("banker", "phone")
    )
    return 1 if missed or any(any(r["server_log"].values()) for r in results) else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except common.BenchError as error:
        print(f"tap: {error}", file=sys.stderr)
        sys.exit(1)
