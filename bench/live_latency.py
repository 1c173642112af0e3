"""Live update latency: a banker's action to the new balance on a player's phone.

Starts tablebank as one or more server processes on 127.0.0.1 sharing one SQLite file (the
banker on the first, the player's page on the last), opens both pages in headless Chromium
at a phone's size, and times N payments from the banker's tap (fetch sent) to the player's
page showing the new balance, both read from the browser's own clock. Prints p50/p95/max.

    python bench/live_latency.py --workers 2 --rounds 60
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SERVER = (
    "import sys; from waitress import serve; from app import create_app; "
    "serve(create_app({'SQLALCHEMY_DATABASE_URI': sys.argv[1]}), host='127.0.0.1', "
    "port=int(sys.argv[2]), threads=16)"
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(db_url: str, count: int) -> tuple[list[subprocess.Popen], list[str]]:
    procs, urls = [], []
    for _ in range(count):
        port = free_port()
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        procs.append(subprocess.Popen([sys.executable, "-c", SERVER, db_url, str(port)], env=env))
        urls.append(f"http://127.0.0.1:{port}")
    for url in urls:
        host, port = url.removeprefix("http://").split(":")
        for _ in range(100):
            try:
                socket.create_connection((host, int(port)), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
    return procs, urls


OBSERVE = """expected => { window.shown = new Promise(resolve => {
  const box = document.getElementById('live');
  const seen = () => { const b = document.getElementById('balance');
    if (b && b.textContent.trim() === expected) { observer.disconnect(); resolve(Date.now()); } };
  const observer = new MutationObserver(seen);
  observer.observe(box, {childList: true, subtree: true, characterData: true});
  seen();
}); }"""

PAY = """async amount => {
  const token = document.querySelector('meta[name=csrf-token]').content;
  const body = new URLSearchParams({csrf_token: token, kind: 'bank_pay',
    payload: JSON.stringify({player: 0, amount: amount})});
  const sent = Date.now();
  await fetch(location.pathname.replace(/\\/$/, '') + '/do', {method: 'POST', body: body,
    redirect: 'manual'});
  return sent;
}"""


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=50)
    args = parser.parse_args()
    db = Path(tempfile.mkdtemp()) / "bench.sqlite"
    procs, urls = start(f"sqlite:///{db}", args.workers)
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
            phone = {"width": 390, "height": 844}
            banker = browser.new_context(viewport=phone).new_page()
            banker.goto(urls[0] + "/new")
            banker.fill("input[name=name0]", "Ana")
            banker.fill("input[name=name1]", "Bea")
            banker.click("form.stack button.primary")
            dashboard = banker.url
            banker.goto(dashboard.replace("/g/", "/g/").rstrip("/") + "/codes")
            link = banker.locator(".code .link a").first.get_attribute("href")
            banker.goto(dashboard)
            player = browser.new_context(viewport=phone).new_page()
            player.goto(urls[-1] + link[link.index("/p/") :])
            player.wait_for_timeout(1000)
            delays, cash = [], 1500
            for _ in range(args.rounds):
                cash += 10
                expected = f"${cash:,}"
                player.evaluate(OBSERVE, expected)
                sent = banker.evaluate(PAY, 10)
                delays.append(player.evaluate("() => window.shown") - sent)
                banker.wait_for_timeout(50)
            browser.close()
    finally:
        for proc in procs:
            proc.terminate()
    delays.sort()
    p95 = delays[max(0, int(len(delays) * 0.95) - 1)]
    print(
        json.dumps(
            {
                "workers": args.workers,
                "rounds": len(delays),
                "p50_ms": statistics.median(delays),
                "p95_ms": p95,
                "max_ms": delays[-1],
            }
        )
    )


if __name__ == "__main__":
    main()
