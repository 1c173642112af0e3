"""Lighthouse (mobile) on the four pages people keep open: the banker's dashboard, a player's
page, the table screen and the results, of a game grown through the API.

Method: the `tablebank` command (one process, the README's) on a fresh SQLite database; a
six-player game grown by a realistic mix of actions (common.Mix), one player in jail, a
Get Out of Jail Free card held; then npm's `lighthouse` (mobile form factor, its default
throttling) on each page with Debian's Chromium (CHROME_PATH), categories performance,
accessibility and best practices. The banker's pages are opened with the X-Banker-Key
header, as a phone holding the banker link would. Prints a table, the audits that lost
points, and one JSON line; exits 1 when a run fails or a score is below --at-least.

Install: `npm install lighthouse` (any folder; give its bin with --lighthouse or put it on
PATH). Run: `.venv/bin/python -m bench.lighthouse`.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from .common import (
    BenchError,
    Http,
    Server,
    add_server_options,
    command_for,
    edition_data,
    free_port,
    fresh_database,
    grown_game,
    table,
)

CATEGORIES = ("performance", "accessibility", "best-practices")


def lighthouse_bin(given: str | None) -> list[str]:
    if given:
        return [given]
    found = shutil.which("lighthouse")
    if found:
        return [found]
    return ["npx", "--no-install", "lighthouse"]


def audit(
    command: list[str], url: str, headers: dict, out: Path, chrome: str, slowdown: float | None
) -> dict:
    """One Lighthouse run: the category scores (0-100) and the audits that lost points."""
    args = [
        *command,
        url,
        "--quiet",
        "--output=json",
        f"--output-path={out}",
        f"--only-categories={','.join(CATEGORIES)}",
        "--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage",
    ]
    if headers:
        args.append(f"--extra-headers={json.dumps(headers)}")
    if slowdown is not None:
        args.append(f"--throttling.cpuSlowdownMultiplier={slowdown}")
    done = subprocess.run(
        args, env={**os.environ, "CHROME_PATH": chrome}, capture_output=True, text=True
    )
    if done.returncode != 0 or not out.exists():
        raise BenchError(f"lighthouse failed on {url}:\n{done.stderr[-2000:]}")
    report = json.loads(out.read_text())
    scores = {c: round(report["categories"][c]["score"] * 100) for c in CATEGORIES}
    lost = []
    for category in CATEGORIES:
        for ref in report["categories"][category]["auditRefs"]:
            result = report["audits"][ref["id"]]
            if ref["weight"] and result["score"] is not None and result["score"] < 1:
                lost.append(f"{category}:{ref['id']} ({result['score']:.2f})")
    return {"scores": scores, "lost": lost, "benchmark": report["environment"]["benchmarkIndex"]}


def median_run(runs: list[dict]) -> dict:
    """The run with the median performance score (Lighthouse's own advice for variance),
    with every run's performance score alongside."""
    ordered = sorted(runs, key=lambda r: r["scores"]["performance"])
    middle = ordered[len(ordered) // 2]
    return {
        **middle,
        "performance_runs": [r["scores"]["performance"] for r in runs],
        "benchmarks": [round(r["benchmark"]) for r in runs],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_server_options(parser, servers_default="tablebank")
    parser.add_argument("--lighthouse", help="the lighthouse command (default: PATH, or npx)")
    parser.add_argument("--chrome", default=os.environ.get("CHROME_PATH", "/usr/bin/chromium"))
    parser.add_argument("--actions", type=int, default=80, help="actions grown (default 80)")
    parser.add_argument("--runs", type=int, default=3, help="runs per page, median kept")
    parser.add_argument("--pages", help="comma-separated subset, e.g. 'table screen,results'")
    parser.add_argument(
        "--cpu-slowdown",
        type=float,
        help="Lighthouse's CPU slowdown (default: its own, 4x, meant for a fast desktop; a "
        "busy or slow machine, see each run's benchmark index, may want less)",
    )
    parser.add_argument("--at-least", type=int, default=100, help="lowest score accepted")
    parser.add_argument("--keep", help="folder to keep the JSON reports in")
    parser.add_argument("--smoke", action="store_true", help="a run of a few seconds")
    args = parser.parse_args()
    if args.smoke:
        args.runs, args.actions, args.pages = 1, 10, args.pages or "player page"
    command = lighthouse_bin(args.lighthouse)
    reports = Path(args.keep or tempfile.mkdtemp(prefix="tablebank-lighthouse-"))
    reports.mkdir(parents=True, exist_ok=True)
    results: dict[str, dict] = {}
    with fresh_database("sqlite") as db_url:
        port = free_port()
        with Server(command_for(args, "tablebank", port), db_url, port) as server:
            caller = Http(server.url)
            game, mix = grown_game(caller, edition_data(caller), args.actions, seed=7)
            seat = game.view["players"][0]["seat"]
            game.act("card", {"player": seat, "card": "chest-5"}, expect=(201, 422))
            game.act("go_to_jail", {"player": game.view["players"][-1]["seat"]}, expect=(201, 422))
            banker = {"X-Banker-Key": game.key}
            pages = {
                "dashboard": (f"/g/{game.id}/", banker),
                "player page": (f"/p/{game.player_tokens[0]}", {}),
                "table screen": (f"/t/{game.table_token}", {}),
                "results": (f"/g/{game.id}/results", banker),
            }
            if args.pages:
                wanted = [name.strip() for name in args.pages.split(",")]
                pages = {name: pages[name] for name in wanted}
            runs: dict[str, list[dict]] = {name: [] for name in pages}
            for n in range(args.runs):  # round robin: a busy moment hits every page alike
                for name, (path, headers) in pages.items():
                    out = reports / f"{name.replace(' ', '-')}-{n + 1}.json"
                    runs[name].append(
                        audit(
                            command,
                            server.url + path,
                            headers,
                            out,
                            args.chrome,
                            args.cpu_slowdown,
                        )
                    )
            results = {name: median_run(found) for name, found in runs.items()}
    rows = [
        [
            name,
            *(r["scores"][c] for c in CATEGORIES),
            " ".join(map(str, r["performance_runs"])),
            " ".join(map(str, r["benchmarks"])),
        ]
        for name, r in results.items()
    ]
    print(table(["page", *CATEGORIES, "performance, each run", "benchmark index"], rows))
    for name, r in results.items():
        if r["lost"]:
            print(f"{name}: points lost on {', '.join(r['lost'])}")
    print(f"reports: {reports}")
    print(
        json.dumps(
            {name: {**r["scores"], "runs": r["performance_runs"]} for name, r in results.items()}
        )
    )
    low = [n for n, r in results.items() if min(r["scores"].values()) < args.at_least]
    return 1 if low else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BenchError as error:
        print(error, file=sys.stderr)
        sys.exit(1)
