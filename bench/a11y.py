"""Accessibility audit of every kind of page (issue 22): axe-core in Chromium on each page in
English, Spanish and Japanese (WCAG 2.x A/AA and best-practice rules), Lighthouse mobile
(accessibility and SEO) on the pages people keep open, and screenshots to look at.

Method: the `tablebank` command on a fresh SQLite database; a game grown through the API
(Ana holds the dark blues with a house on each, Bea a mortgaged Baltic Avenue, phone turns
on); the browser opens the banker link, then every page of bench/tour.py's list. axe-core
is npm's package (its axe.min.js injected into each page); Lighthouse is npm's `lighthouse`
with Debian's Chromium (CHROME_PATH).

Install once, in any folder: `npm i -E axe-core@4.14.1 lighthouse@12.2.3` (Lighthouse 13
wants Node 22); give that folder with --node-modules. Run:
    .venv/bin/python -m bench.a11y --node-modules /tmp/a11ytools/node_modules --shots /tmp/shots
Prints each violation and a JSON line; exits 1 when axe finds a violation or a Lighthouse
score is below 100.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from .common import (
    BROWSER_ARGS,
    PHONE,
    Server,
    add_server_options,
    command_for,
    free_port,
    fresh_database,
)

CHROMIUM = "/usr/bin/chromium"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]
LANGUAGES = ("en", "es", "ja")
LIGHTHOUSE_CATEGORIES = ("accessibility", "seo")


def axe_page(page, axe_js: str) -> list[dict]:
    page.add_script_tag(content=axe_js)
    options = {"runOnly": {"type": "tag", "values": TAGS}}
    return page.evaluate("(options) => axe.run(document, options).then(r => r.violations)", options)


def run_axe(context, tour, axe_js: str) -> dict:
    """Every page in every language: the violations found, by page."""
    page = context.new_page()
    found = {}
    for language in LANGUAGES:
        page.goto(f"{tour.url}/?lang={language}")  # the session keeps it
        for path in tour.all_pages():
            page.goto(tour.url + path)
            page.wait_for_load_state("load")
            for violation in axe_page(page, axe_js):
                nodes = [n["target"] for n in violation["nodes"]][:3]
                found.setdefault(f"{language} {path}", []).append(
                    f"{violation['id']} ({violation['impact']}): {nodes}"
                )
    page.goto(f"{tour.url}/?lang=en")
    page.close()
    return found


def lighthouse(bin_path: Path, url: str, headers: dict) -> dict:
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "report.json"
        args = [
            str(bin_path),
            url,
            "--quiet",
            "--output=json",
            f"--output-path={out}",
            f"--only-categories={','.join(LIGHTHOUSE_CATEGORIES)}",
            "--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage",
        ]
        if headers:
            args.append(f"--extra-headers={json.dumps(headers)}")
        done = subprocess.run(
            args, env={**os.environ, "CHROME_PATH": CHROMIUM}, capture_output=True, text=True
        )
        if done.returncode != 0 or not out.exists():
            return {"error": done.stderr[-500:]}
        report = json.loads(out.read_text())
    scores = {c: round(report["categories"][c]["score"] * 100) for c in LIGHTHOUSE_CATEGORIES}
    lost = [
        ref["id"]
        for c in LIGHTHOUSE_CATEGORIES
        for ref in report["categories"][c]["auditRefs"]
        if ref.get("weight") and (report["audits"][ref["id"]].get("score") or 0) < 1
        and report["audits"][ref["id"]].get("scoreDisplayMode") == "binary"
    ]  # fmt: skip
    return {**scores, "lost": lost}


def screenshots(browser, tour, folder: Path) -> list[str]:
    """What a player sees: phone pages (light, dark, Japanese), the TV at 1080p and 4K."""
    folder.mkdir(parents=True, exist_ok=True)
    made = []
    shots = [
        ("phone-dashboard", PHONE, f"/g/{tour.game}/", "light", "en"),
        ("phone-dashboard-dark", PHONE, f"/g/{tour.game}/", "dark", "en"),
        ("phone-dashboard-ja", PHONE, f"/g/{tour.game}/", "light", "ja"),
        ("phone-cards", PHONE, tour.banker_pages()[3], "light", "en"),
        ("phone-player", PHONE, f"/p/{tour.tokens['Ana']}", "light", "en"),
        ("phone-player-dark-ja", PHONE, f"/p/{tour.tokens['Ana']}", "dark", "ja"),
        ("phone-results", PHONE, f"/g/{tour.game}/results", "light", "en"),
        ("phone-new", {"width": 320, "height": 700}, "/new", "light", "ja"),
        ("tv-1280", {"width": 1280, "height": 800}, f"/t/{tour.table}", "light", "en"),
        ("tv-1080p", {"width": 1920, "height": 1080}, f"/t/{tour.table}", "light", "en"),
        ("tv-4k", {"width": 3840, "height": 2160}, f"/t/{tour.table}", "light", "ja"),
    ]
    for name, size, path, theme, language in shots:
        context = browser.new_context(viewport=size, storage_state=tour.state)
        page = context.new_page()
        page.goto(f"{tour.url}/?lang={language}&theme={theme}")
        page.goto(tour.url + path)
        if name == "phone-player":
            page.get_by_text("Pay someone").click()
        target = folder / f"{name}.png"
        page.screenshot(path=str(target), full_page=name.startswith("phone"))
        made.append(str(target))
        context.close()
    return made


def smoke(args) -> int:
    """Every page of the tour loads (the error page answers 404), in English: the tour and
    the server work; axe-core's and Lighthouse's own runs are the full run's."""
    from playwright.sync_api import sync_playwright

    from .tour import grown_game

    port = free_port()
    failed = []
    with (
        fresh_database("sqlite") as db_url,
        Server(command_for(args, "tablebank", port), db_url, port) as server,
        sync_playwright() as pw,
    ):
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=BROWSER_ARGS)
        context = browser.new_context(viewport=PHONE)
        tour = grown_game(context, server.url)
        page = context.new_page()
        for path in tour.all_pages():
            status = page.goto(tour.url + path).status
            if status != (404 if path.endswith("/nowhere") else 200):
                failed.append(f"{path}: {status}")
        browser.close()
    print(f"a11y smoke: {len(tour.all_pages())} pages, failed: {failed or 'none'}")
    return 1 if failed else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--node-modules", type=Path, help="where axe-core (and lighthouse) are")
    parser.add_argument("--shots", type=Path, help="write screenshots to this folder")
    parser.add_argument("--no-lighthouse", action="store_true")
    add_server_options(parser)
    parser.add_argument(
        "--smoke", action="store_true", help="the tour's pages in one language, without axe"
    )
    args = parser.parse_args()
    if args.smoke:
        return smoke(args)
    if args.node_modules is None:
        parser.error("--node-modules is required")
    axe_js = (args.node_modules / "axe-core" / "axe.min.js").read_text()
    from playwright.sync_api import sync_playwright

    from .tour import grown_game

    port = free_port()
    with (
        fresh_database("sqlite") as db_url,
        Server(command_for(args, "tablebank", port), db_url, port) as server,
    ):
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=BROWSER_ARGS)
            context = browser.new_context(viewport=PHONE, bypass_csp=True)
            tour = grown_game(context, server.url)
            tour.state = context.storage_state()
            violations = run_axe(context, tour, axe_js)
            shots = screenshots(browser, tour, args.shots) if args.shots else []
            browser.close()
        scores = {}
        if not args.no_lighthouse:
            bin_path = args.node_modules / ".bin" / "lighthouse"
            key = {"X-Banker-Key": tour.key}
            for name, path, headers in [
                ("dashboard", f"/g/{tour.game}/", key),
                ("player", f"/p/{tour.tokens['Ana']}", {}),
                ("table", f"/t/{tour.table}", {}),
                ("results", f"/g/{tour.game}/results", key),
                ("new game", "/new", {}),
            ]:
                scores[name] = lighthouse(bin_path, server.url + path, headers)
    pages = len(tour.all_pages()) * len(LANGUAGES)
    print(f"axe-core: {pages} pages ({len(LANGUAGES)} languages), tags {', '.join(TAGS)}")
    for where, found in violations.items():
        print(f"  {where}")
        for line in found:
            print(f"    {line}")
    print(f"  violations: {sum(len(v) for v in violations.values())}")
    for name, result in scores.items():
        print(f"lighthouse mobile {name}: {result}")
    for shot in shots:
        print(f"screenshot: {shot}")
    print(json.dumps({"axe_pages": pages, "axe_violations": violations, "lighthouse": scores}))
    low = [n for n, r in scores.items() if any(r.get(c, 0) < 100 for c in LIGHTHOUSE_CATEGORIES)]
    return 1 if violations or low else 0


if __name__ == "__main__":
    sys.exit(main())
