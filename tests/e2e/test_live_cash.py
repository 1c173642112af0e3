"""A new balance shows on a player's phone as soon as the stream sends the table's cash,
ahead of the rest of the live part: in headless Chromium at a phone's size."""

from __future__ import annotations

import json
import re

from playwright.sync_api import Browser, Page, Route, expect

from .flows import PHONE, player_links, start_game


def cash_only_stream(route: Route) -> None:
    """The page's stream as the server sends it before drawing: each seat's cash for the next
    version, after a stale one for the version the page already shows."""
    seen = int(re.search(r"[?&]v=(\d+)", route.request.url).group(1))
    events = [
        {"version": seen, "cash": ["$1", "$2"]},  # not newer than the page: ignored
        {"version": seen + 1, "cash": ["$1,234", "$5"]},
    ]
    body = "retry: 60000\n\n" + "".join(f"event: cash\ndata: {json.dumps(e)}\n\n" for e in events)
    route.fulfill(status=200, headers={"Content-Type": "text/event-stream"}, body=body)


def test_the_cash_sent_ahead_shows_in_the_players_own_balance(
    browser: Browser, phone: Page, live_server
):
    start_game(phone, live_server)
    ana = browser.new_context(viewport=PHONE, is_mobile=True).new_page()
    ana.route(re.compile(r"/live\?"), cash_only_stream)
    ana.goto(player_links(phone, live_server)["Ana"])
    expect(ana.locator("#balance")).to_have_text("$1,234")  # Ana's seat (0), not Bea's
    ana.context.close()
