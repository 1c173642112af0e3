"""A player's page never goes back to an older balance: an answer to its own fetch that
arrives after its stream brought newer news is not drawn over it (headless Chromium, phone
size)."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Route, expect

from .flows import PHONE, WAIT_MS, Api

EVERY_BALANCE_SHOWN = """() => {
  window.shown = [];
  new MutationObserver(() => shown.push(document.getElementById("balance").textContent))
    .observe(document.getElementById("live"),
             { subtree: true, childList: true, characterData: true });
}"""


def test_a_late_fetch_is_not_drawn_over_what_the_stream_brought_since(
    browser: Browser, live_server
):
    """The stream says "version N is out" (as it does when it cannot draw the part), the page
    fetches its part at N and the answer is slow; meanwhile the stream brings N+1. When the
    answer at N arrives, the balance stays at N+1's."""
    game = Api(live_server)
    bea = browser.new_context(viewport=PHONE, is_mobile=True).new_page()
    first_stream: list[Route] = []
    slow_fetches: list[tuple[Route, object]] = []

    def stream(route: Route) -> None:  # the first one is held; the next ones are the server's
        if first_stream:
            route.continue_()
        else:
            first_stream.append(route)

    def fetch(route: Route) -> None:  # answered by the server now, handed to the page later
        slow_fetches.append((route, route.fetch()))

    bea.route(re.compile(r"/live\?"), stream)
    bea.route(re.compile(r"\?fragment=1$"), fetch)
    bea.goto(game.player_url(1))
    expect(bea.locator("#balance")).to_have_text("$1,500")
    bea.evaluate(EVERY_BALANCE_SHOWN)

    out = game.act("bank_pay", player=1, amount=50)["game"]["version"]
    with bea.expect_request(re.compile(r"\?fragment=1$")):
        first_stream[0].fulfill(
            status=200,
            headers={"Content-Type": "text/event-stream"},
            body=f"retry: 200\n\nevent: version\ndata: {out}\n\n",
        )
    waited = 0
    while not slow_fetches:  # the fetch's answer is being read from the server
        assert waited < WAIT_MS, "the page's fetch was never answered"
        bea.wait_for_timeout(20)
        waited += 20
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
