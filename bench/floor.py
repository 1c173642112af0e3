"""The floor: the least a server can do for tap.py's and propagation.py's tap, to tell the
machine's and the browsers' share of a figure from the product's.

It serves the same page shapes as tablebank, with no database, no rules and no templates,
and the product's own static files (app.css, idiomorph, app.js): the banker's money page (a
`form.act` button), the POST that adds 1 to a balance in memory and answers with the
dashboard (the figure `.cash[data-seat="0"]`, a `.flash.done` line) as the product does for
its page's script (X-Tablebank-Tap: the page itself, X-Tablebank-Page its address), or
redirects to it; and the player's page, whose live part (`#live`, `#balance`) is kept up to
date by app.js: a Server-Sent Events stream that sends, as tablebank's does, the cash first
and then the live part itself. The same browser work on the client side; the server side
reduced to nothing but HTTP.

With `--dashboard FILE` the banker's pages are the product's own instead of the small ones: the
file is the product's dashboard as a tap left it on the banker's screen (tap.py saves it),
with CASH where the first player's figure is; the money page is that document with its body
replaced by the confirm form, so both carry the product's head. The tap's answer is then as
heavy for the browser to parse, style and lay out as the product's: the same click-to-screen
work, on a server that does nothing. The dashboard's stream (`/g/floor/live`) stays silent.

    python -m bench.floor --port 8123      # then open /p/floor and /g/floor/money
    python -m bench.floor --port 8123 --dashboard /tmp/dashboard.html
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
from pathlib import Path

from aiohttp import web
from tablebank.web.static_files import minified

STATIC = Path(__file__).resolve().parent.parent / "static"
HEAD = (
    '<meta name="csrf-token" content="floor">'
    '<link rel="stylesheet" href="/static/app.css">'
    '<script src="/static/app.js" data-morph="/static/idiomorph.min.js" defer></script>'
)
GAME = "floor"
CASH = "FLOOR-CASH"  # where the first player's figure goes in a --dashboard page
BODY = re.compile(r"<body[^>]*>.*</body>", re.S)


class Table:
    def __init__(self) -> None:
        self.balance = 1500
        self.version = 1
        self.news = asyncio.Event()

    def pay(self, amount: int) -> None:
        self.balance += amount
        self.version += 1
        news, self.news = self.news, asyncio.Event()
        news.set()


def page_html(body: str, head: str = HEAD) -> str:
    return (
        '<!doctype html><html><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>floor</title>{head}</head><body><main>{body}</main>"
        '<footer><div id="announce" class="sr" aria-live="polite"></div></footer></body></html>'
    )


def page(body: str, headers: dict | None = None) -> web.Response:
    return web.Response(text=page_html(body), content_type="text/html", headers=headers)


def money_form(amount: int, token: str = "") -> str:
    """The money page's confirm button, as tablebank's (`form.act`, posted by app.js)."""
    hidden = f'<input type="hidden" name="csrf_token" value="{token}">' if token else ""
    return (
        f'<form class="act" method="post" action="/g/{GAME}/act">{hidden}'
        f'<input type="hidden" name="amount" value="{amount}">'
        f"<button>Bank pays ${amount}</button></form>"
    )


def live_div(version: int, balance: int) -> str:
    """The player's page's live part, followed by app.js through /p/floor/live."""
    return (
        f'<div id="live" data-live="/p/{GAME}/live" data-version="{version}">'
        f"{balance_html(balance)}</div>"
    )


def events(version: int, balance: int) -> tuple[bytes, bytes]:
    """What the player's stream sends at a new version, in two writes: the cash first, then
    the live part."""
    cash = {"version": version, "cash": [dollars(balance)]}
    return (
        f"event: cash\ndata: {json.dumps(cash)}\n\n".encode(),
        f"id: {version}\nevent: live\ndata: {balance_html(balance)}\n\n".encode(),
    )


def fragment(table: Table) -> str:
    return balance_html(table.balance)


def balance_html(balance: int) -> str:
    return f'<p>Balance <strong id="balance" data-cash="0">{dollars(balance)}</strong></p>'


def dollars(amount: int) -> str:
    return f"${amount:,}"


def dashboard_body(table: Table) -> str:
    return dashboard_html(table.balance)


def dashboard_html(balance: int) -> str:
    return (
        '<div class="flash done" role="status">Done.</div><h1>Dashboard</h1>'
        f'<p>Ana <span class="cash" data-seat="0">{dollars(balance)}</span></p>'
    )


def dashboard_page(table: Table, copy: str | None, headers: dict | None = None) -> web.Response:
    if copy is None:
        return page(dashboard_body(table), headers)
    html = copy.replace(CASH, dollars(table.balance))
    return web.Response(text=html, content_type="text/html", headers=headers)


async def dashboard(request: web.Request) -> web.Response:
    return dashboard_page(request.app["table"], request.app["copy"])


async def money(request: web.Request) -> web.Response:
    form = money_form(int(request.query.get("amount", "1")))
    copy = request.app["copy"]
    if copy is not None:  # the product's head, so that the tap's answer is merged, not loaded
        footer = '<footer><div id="announce" class="sr"></div></footer>'
        body = f"<body><main>{form}</main>{footer}</body>"
        html = BODY.sub(lambda _: body, copy)
        return web.Response(text=html, content_type="text/html")
    return page(form)


async def act(request: web.Request) -> web.Response:
    form = await request.post()
    table = request.app["table"]
    table.pay(int(form.get("amount", "1")))
    if request.headers.get("X-Tablebank-Tap"):  # the page's script: the page, at once
        return dashboard_page(table, request.app["copy"], {"X-Tablebank-Page": f"/g/{GAME}/"})
    raise web.HTTPSeeOther(f"/g/{GAME}/")


async def player(request: web.Request) -> web.Response:
    table = request.app["table"]
    if request.query.get("fragment"):
        return web.Response(text=fragment(table), content_type="text/html")
    return page(live_div(table.version, table.balance))


async def stream(request: web.Request) -> web.StreamResponse:
    table = request.app["table"]
    answer = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
    await answer.prepare(request)
    seen = int(request.query.get("v", "-1"))
    try:
        while True:
            if table.version > seen:
                seen = table.version
                for part in events(seen, table.balance):
                    await answer.write(part)
            news = table.news
            try:
                await asyncio.wait_for(news.wait(), 15)
            except TimeoutError:
                await answer.write(b": still here\n\n")
    except ConnectionResetError:  # the page went away
        return answer


async def silent(request: web.Request) -> web.StreamResponse:
    """The dashboard's stream: open, and nothing new to say (the page is the tap's answer)."""
    answer = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
    await answer.prepare(request)
    try:
        while True:
            await asyncio.sleep(15)
            await answer.write(b": still here\n\n")
    except ConnectionResetError:
        return answer


async def state(request: web.Request) -> web.Response:
    return web.json_response({"players": [{"cash": request.app["table"].balance}]})


FILES = {  # the same bytes the product serves (its scripts and style sheets minified)
    name: minified(name, (STATIC / name).read_bytes())
    for name in ("app.css", "app.js", "idiomorph.min.js")
}
TYPES = {"css": "text/css", "js": "text/javascript"}


async def static(request: web.Request) -> web.Response:
    name = request.match_info["name"]
    if name not in FILES:
        raise web.HTTPNotFound()
    return web.Response(
        body=FILES[name],
        content_type=TYPES[name.rsplit(".", 1)[1]],
        headers={"Cache-Control": "max-age=31536000"},
    )


def make_app(copy: str | None = None) -> web.Application:
    app = web.Application()
    app["table"] = Table()
    app["copy"] = copy
    app.router.add_get(f"/g/{GAME}/", dashboard)
    app.router.add_get(f"/g/{GAME}/money", money)
    app.router.add_post(f"/g/{GAME}/act", act)
    app.router.add_get(f"/p/{GAME}", player)
    app.router.add_get(f"/p/{GAME}/live", stream)
    app.router.add_get(f"/g/{GAME}/live", silent)
    app.router.add_get(f"/api/{GAME}", state)
    app.router.add_get("/api/editions", state)  # common.Server's "is it up?"
    app.router.add_get("/static/{name}", static)
    return app


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8123)
    parser.add_argument("--dashboard", type=Path, help="the product's dashboard, CASH marked")
    args = parser.parse_args()
    copy = args.dashboard.read_text() if args.dashboard else None
    web.run_app(make_app(copy), host=args.host, port=args.port, print=None)


if __name__ == "__main__":
    main()
