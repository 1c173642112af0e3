"""A player's page never goes back to an older balance: an answer to its own fetch that
arrives after its stream brought newer news is not drawn over it (headless Chromium, phone
size)."""

from __future__ import annotations

import json
import re

from playwright.sync_api import Browser, Page, Route, expect

from .flows import PHONE, Api, waited_until

EVERY_BALANCE_SHOWN = """() => {
  window.shown = [];
  new MutationObserver(() => shown.push(document.getElementById("balance").textContent))
    .observe(document.getElementById("live"),
             { subtree: true, childList: true, characterData: true });
}"""
SSE = {"Content-Type": "text/event-stream"}


def test_a_late_fetch_is_not_drawn_over_what_the_stream_brought_since(
    browser: Browser, live_server
):
    """The stream says "version N is out" (as it does when it cannot draw the part), the page
    fetches its part at N and the answer is slow; meanwhile the stream brings N+1. When the
    answer at N arrives, the balance stays at N+1's."""
    game = Api(live_server)
    first_stream: list[Route] = []

    def stream(route: Route) -> None:  # the first one is held; the next ones are the server's
        if first_stream:
            route.continue_()
        else:
            first_stream.append(route)

    bea, slow_fetches = beas_phone(browser, game, stream)
    waited_until(bea, lambda: first_stream, "the page opened no stream")
    version_out(bea, first_stream[0], game.act("bank_pay", player=1, amount=50))
    waited_until(bea, lambda: slow_fetches, "the page's fetch was never answered")
    game.act("bank_pay", player=1, amount=25)
    expect(bea.locator("#balance")).to_have_text("$1,575")  # by the stream it reopened

    route, answer = slow_fetches[0]
    assert "$1,550" in answer.text()  # the fetch's answer is the game at N
    with bea.expect_event("requestfinished", lambda done: "fragment=1" in done.url):
        route.fulfill(response=answer)
    game.act("bank_pay", player=1, amount=10)
    expect(bea.locator("#balance")).to_have_text("$1,585")
    amounts = [int(re.sub(r"\D", "", text)) for text in bea.evaluate("shown")]
    assert amounts == sorted(amounts), f"the balance went back: {amounts}"
    bea.context.close()


def test_a_late_fetch_merged_before_the_streams_part_keeps_the_cash_the_stream_sent_first(
    browser: Browser, live_server
):
    """The stream sends every seat's cash at N+1 before it draws N+1's part. A late answer at N
    merged in between (what a CI run caught) keeps the balance at N+1's: no flash of N's."""
    game = Api(live_server)
    streams: list[Route] = []
    bea, slow_fetches = beas_phone(browser, game, streams.append)  # held until let through
    waited_until(bea, lambda: streams, "the page opened no stream")
    at_n = version_out(bea, streams[0], game.act("bank_pay", player=1, amount=50))
    waited_until(bea, lambda: slow_fetches and len(streams) > 1, "no fetch, or no second stream")
    at_next = game.act("bank_pay", player=1, amount=25)["game"]["version"]
    cash = json.dumps({"version": at_next, "cash": ["$1,500", "$1,575"]})
    streams[1].fulfill(status=200, headers=SSE, body=f"retry: 200\n\nevent: cash\ndata: {cash}\n\n")
    expect(bea.locator("#balance")).to_have_text("$1,575")  # the cash, ahead of its part

    waited_until(bea, lambda: len(streams) > 2, "no third stream")
    route, answer = slow_fetches[0]
    assert "$1,550" in answer.text()
    route.fulfill(response=answer)
    expect(bea.locator("#live")).to_have_attribute(
        "data-version", str(at_n)
    )  # the part at N merged
    expect(bea.locator("#balance")).to_have_text("$1,575")

    streams[2].continue_()  # the server's stream: N+1's part, then whatever comes
    game.act("bank_pay", player=1, amount=10)
    expect(bea.locator("#balance")).to_have_text("$1,585")
    amounts = [int(re.sub(r"\D", "", text)) for text in bea.evaluate("shown")]
    assert amounts == sorted(amounts), f"the balance went back: {amounts}"
    bea.context.close()


def beas_phone(browser: Browser, game: Api, stream) -> tuple[Page, list]:
    """Bea's page, every balance it shows recorded; its streams go to `stream`, and each of
    its fetches is answered by the server at once but handed to the page only when the test
    says (the list it returns: the route and the answer)."""
    bea = browser.new_context(viewport=PHONE, is_mobile=True).new_page()
    slow_fetches: list[tuple[Route, object]] = []
    bea.route(re.compile(r"/live\?"), lambda route: stream(route))
    bea.route(re.compile(r"\?fragment=1$"), lambda r: slow_fetches.append((r, r.fetch())))
    bea.goto(game.player_url(1))
    expect(bea.locator("#balance")).to_have_text("$1,500")
    bea.evaluate(EVERY_BALANCE_SHOWN)
    return bea, slow_fetches


def version_out(bea: Page, stream: Route, done: dict) -> int:
    """The held stream says only "version N is out" for the action `done` (as when it cannot
    draw the part), then ends: the page fetches its part. Returns N."""
    version = done["game"]["version"]
    with bea.expect_request(re.compile(r"\?fragment=1$")):
        stream.fulfill(
            status=200, headers=SSE, body=f"retry: 200\n\nevent: version\ndata: {version}\n\n"
        )
    return version
