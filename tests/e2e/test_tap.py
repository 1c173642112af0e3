"""The banker stays on the page (headless Chromium, 390x844): a tap on an action posts without
leaving the page and the figure changes in place, the address follows, the banner's Undo
works the same way; a page drawn before another phone acted says the turn was already taken;
with JavaScript off the same buttons post and redirect."""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from playwright.sync_api import Browser, Page, expect

from ..support import US
from .flows import PHONE, Api, balance

MARK = "window.__stayed = 'yes'"  # a page that is left loses it; a page merged in keeps it


def stayed(page: Page) -> bool:
    return page.evaluate("window.__stayed === 'yes'")


def passed_go(page: Page, who: str = "Ana") -> None:
    page.get_by_role("link", name="Passed GO").click()
    page.evaluate(MARK)
    page.get_by_role("button", name=f"{who} collects $200 salary").click()


def test_a_tap_changes_the_figure_without_leaving_the_page(phone: Page, live_server):
    game = Api(live_server)
    game.banker(phone)
    passed_go(phone)
    expect(balance(phone, 0)).to_have_text("$1,700")
    expect(phone.locator(".flash.done")).to_contain_text("Ana collects $200 salary")
    assert stayed(phone), "the page was left: the tap navigated"
    assert phone.url == game.dashboard  # the address of the page shown
    expect(phone.locator(".flash.done")).to_be_focused()


def test_the_banner_s_undo_takes_it_back_in_place(phone: Page, live_server):
    game = Api(live_server)
    game.banker(phone)
    passed_go(phone)
    expect(balance(phone, 0)).to_have_text("$1,700")
    phone.locator(".flash.done").get_by_role("button", name="Undo").click()
    expect(balance(phone, 0)).to_have_text("$1,500")
    expect(phone.locator(".flash.done")).to_contain_text("Undo: Ana collects $200 salary")
    assert stayed(phone)


def test_the_live_page_goes_on_after_a_tap(phone: Page, live_server):
    """The dashboard's stream still brings what another device does."""
    game = Api(live_server)
    game.banker(phone)
    passed_go(phone)
    expect(balance(phone, 0)).to_have_text("$1,700")
    game.act("bank_pay", player=1, amount=50)
    expect(balance(phone, 1)).to_have_text("$1,550")
    assert stayed(phone)


def test_a_page_drawn_before_another_phone_acted_says_the_game_moved_on(phone: Page, live_server):
    game = Api(live_server)
    game.banker(phone)
    phone.get_by_role("link", name="Passed GO").click()
    phone.route(re.compile(r"/live\?"), lambda route: route.abort())  # it hears no news
    game.act("bank_pay", player=1, amount=50)  # another device acts first
    phone.evaluate(MARK)
    phone.get_by_role("button", name="Ana collects $200 salary").click()
    expect(phone.locator("header .title")).to_have_text("The game has moved on")
    assert stayed(phone)
    assert game_cash(game) == [1500, 1550]


def test_back_after_a_tap_says_the_game_moved_on_and_a_second_tap_needs_a_fresh_page(
    phone: Page, live_server
):
    """G1: Back to the page a tap left does not offer the same tap again (it would pay the
    salary twice): the page says the game has moved on; opened afresh, it offers it again."""
    game = Api(live_server)
    game.banker(phone)
    passed_go(phone)
    expect(balance(phone, 0)).to_have_text("$1,700")
    phone.go_back()
    expect(phone).to_have_url(re.compile(r"/pick/pass_go\?v=0$"))
    expect(phone.locator("header .title")).to_have_text("The game has moved on")
    expect(phone.get_by_role("button", name="Ana collects $200 salary")).to_have_count(0)
    assert game_cash(game) == [1700, 1500]
    phone.get_by_role("link", name="Open this page again").click()
    expect(phone.get_by_role("button", name="Ana collects $200 salary")).to_be_visible()
    expect(phone).to_have_url(re.compile(r"/pick/pass_go\?v=1$"))


@contextmanager
def without_javascript(browser: Browser) -> Iterator[Page]:
    """A phone's page with JavaScript off, for the length of the block."""
    context = browser.new_context(viewport=PHONE, is_mobile=True, java_script_enabled=False)
    try:
        yield context.new_page()
    finally:
        context.close()


def test_with_javascript_off_back_to_a_confirm_page_never_pays_twice(browser: Browser, live_server):
    """Without JavaScript the money form puts the version in the confirm page's address:
    Back to it after the payment shows that page as the browser kept it (its button's key
    makes a second tap "Already done") or asks the server, which says the game moved on."""
    game = Api(live_server)
    with without_javascript(browser) as page:
        game.banker(page)
        page.get_by_role("link", name="Bank pays / collects").click()
        page.get_by_label("Ana").check()
        page.get_by_label("Amount").fill("50")
        page.get_by_role("button", name="Preview").click()
        expect(page).to_have_url(re.compile(r"[?&]v=0(&|$)"))
        with page.expect_navigation():
            page.get_by_role("button", name="The bank pays Ana $50").click()
        assert game_cash(game) == [1550, 1500]
        back_and_the_button_again(page, "The bank pays Ana $50")
        assert game_cash(game) == [1550, 1500]


def back_and_the_button_again(page: Page, button: str | re.Pattern) -> None:
    """Back to the confirm page a tap left, and its button again if the page still offers one
    (as the browser kept it, its key makes it "Already done")."""
    page.go_back()
    again = page.get_by_role("button", name=button)
    if again.count():
        with page.expect_navigation():
            again.click()
        expect(page.locator(".flash.done")).to_contain_text("Already done")
    else:
        expect(page.locator("header .title")).to_have_text("The game has moved on")


@pytest.mark.parametrize(
    ("link", "button", "after"),
    [
        ("Passed GO", "Ana collects $200 salary", [1900, 1550]),
        ("Undo: The bank pays Bea $50", re.compile("^Undo: "), [1700, 1500]),
    ],
)
def test_with_javascript_off_back_to_a_dashboard_link_s_page_never_does_it_twice(
    browser: Browser, live_server, link, button, after
):
    """G1, R1: without JavaScript, the dashboard's links to a confirm page (a pick, the undo)
    carry the version in its address: Back to that page after its tap and its button again
    does nothing more (a second undo would take back Ana's salary too)."""
    game = Api(live_server)
    game.act("pass_go", player=0)
    game.act("bank_pay", player=1, amount=50)
    with without_javascript(browser) as page:
        game.banker(page)
        page.get_by_role("link", name=link).click()
        with page.expect_navigation():
            page.get_by_role("button", name=button).click()
        assert game_cash(game) == after
        back_and_the_button_again(page, button)
        assert game_cash(game) == after


def test_with_javascript_off_back_to_a_landing_never_charges_it_twice(
    browser: Browser, live_server
):
    """R1, P2: "Landed on…", Ana, Baltic Avenue (Bea's): the rent, then Back and the same
    button again: the rent is paid once."""
    baltic = US.spaces[3]
    game = Api(live_server)
    game.own(1, baltic.index)
    due = baltic.rent[0]
    rent = f"Ana lands on Baltic Avenue; Ana pays Bea ${due} rent for Baltic Avenue"
    with without_javascript(browser) as page:
        game.banker(page)
        page.get_by_role("link", name="Landed on…").click()
        page.get_by_role("link", name="Ana").click()
        page.locator(".space", has_text="Baltic Avenue").click()
        with page.expect_navigation():
            page.get_by_role("button", name=rent).click()
        after = game_cash(game)
        assert after == [1500 - due, 1500 - baltic.price + due]
        back_and_the_button_again(page, rent)
        assert game_cash(game) == after


def test_a_dashboard_link_opens_its_page_at_the_game_s_version_after_a_live_change(
    phone: Page, live_server
):
    """With JavaScript the version the dashboard's links carry (for a browser without it) is
    dropped: after another device acts (the live part shows it), "Passed GO" opens the page
    pinned at the version it is drawn at, not one saying the game has moved on."""
    game = Api(live_server)
    game.banker(phone)
    game.act("bank_pay", player=1, amount=50)  # another device
    expect(balance(phone, 1)).to_have_text("$1,550")
    phone.get_by_role("link", name="Passed GO").click()
    expect(phone.get_by_role("button", name="Ana collects $200 salary")).to_be_visible()
    expect(phone).to_have_url(re.compile(r"/pick/pass_go\?v=1$"))


def test_with_javascript_off_the_same_tap_posts_and_redirects(browser: Browser, live_server):
    game = Api(live_server)
    with without_javascript(browser) as page:
        game.banker(page)
        page.get_by_role("link", name="Passed GO").click()
        with page.expect_navigation():
            page.get_by_role("button", name="Ana collects $200 salary").click()
        assert page.url == game.dashboard
        expect(balance(page, 0)).to_have_text("$1,700")
        expect(page.locator(".flash.done")).to_contain_text("Ana collects $200 salary")


def game_cash(game: Api) -> list[int]:
    return [p["cash"] for p in game_state(game)["players"]]


def hold_the_first_tap(page: Page) -> list:
    """The page's first tap is held on its way (its route, to let go with `continue_()`); the
    ones after it go through."""
    held = []

    def hold(route) -> None:
        if held:
            route.continue_()
        else:
            held.append(route)

    page.route(re.compile(r"/do$"), hold)
    return held


def first_held(page: Page, held: list):
    """The first tap's route, once held. Playwright runs a route's handler as it dispatches
    the browser's events, which it does inside its own calls: a click can return before the
    fetch it started reached the route, so the page is asked something until it has."""
    for _ in range(10_000):
        if held:
            return held[0]
        page.evaluate("0")
    raise AssertionError("the first tap never reached the server")


def test_a_tap_made_while_another_is_on_its_way_is_sent_after_it(phone: Page, live_server):
    """P1: a bid chip, then the close at once, before the bid's answer came: both are done,
    in that order (the close sent from the page the bid brought, at its version)."""
    game = Api(live_server)
    game.act("land", player=1, space=3, choices=[{"kind": "decline"}])  # Baltic: auctioned
    game.banker(phone)
    phone.goto(f"{game.dashboard}auction")
    held = hold_the_first_tap(phone)  # the bid waits; the next goes through
    chip = phone.locator(".bid-chips form.act").first
    bid = json.loads(chip.locator("input[name=payload]").get_attribute("value"))
    chip.locator("button").click()
    phone.locator("form.act:has(input[name=kind][value=auction_close]) button").click()
    first = first_held(phone, held)
    assert len(held) == 1  # the close waits for the bid's answer
    first.continue_()
    expect(phone).to_have_url(game.dashboard)
    expect(phone.locator(".flash.done")).to_contain_text("Baltic Avenue")
    owner = {d["space"]: d["owner"] for d in game_state(game)["deeds"]}[3]
    assert owner == bid["player"]
    assert game_cash(game)[bid["player"]] == 1500 - bid["amount"]


def game_state(game: Api) -> dict:
    request = urllib.request.Request(
        f"{game.url}/api/games/{game.id}", headers={"X-Banker-Key": game.key}
    )
    with urllib.request.urlopen(request) as response:
        return json.loads(response.read())


def test_a_tap_made_while_another_is_on_its_way_is_never_lost_unheard(phone: Page, live_server):
    """G1: "Ana collects", then "Bea collects" before Ana's answer came. The page Ana's answer
    brings has no "Bea collects" button, so Bea's tap goes as it was drawn: the server says in
    words that nothing was done, instead of the tap vanishing; Bea is not paid unseen."""
    game = Api(live_server)
    game.banker(phone)
    phone.goto(f"{game.dashboard}pick/pass_go")
    held = hold_the_first_tap(phone)
    phone.get_by_role("button", name="Ana collects $200 salary").click()
    phone.get_by_role("button", name="Bea collects $200 salary").click()
    first = first_held(phone, held)
    assert len(held) == 1  # Bea's tap waits for Ana's answer
    first.continue_()
    expect(phone.locator(".flash.error")).to_contain_text("nothing was done")
    assert game_cash(game) == [1700, 1500]


def test_the_same_button_tapped_twice_is_done_once_and_keeps_its_undo(phone: Page, live_server):
    """G1: a double tap on "Ana collects" while the first is on its way: paid once, and the
    green banner of that payment (with its Undo) stays, not an "Already done" in its place."""
    game = Api(live_server)
    game.banker(phone)
    phone.goto(f"{game.dashboard}pick/pass_go")
    held = hold_the_first_tap(phone)
    phone.evaluate(COUNT_POSTS)
    button = phone.get_by_role("button", name="Ana collects $200 salary")
    button.click()
    button.click()
    first = first_held(phone, held)
    assert len(held) == 1
    first.continue_()
    banner = phone.locator(".flash.done")
    expect(banner).to_contain_text("Ana collects $200 salary")
    # a second tap would have been sent as the answer was put in, before anything reads it
    assert phone.evaluate("window.__posts") == 1
    expect(banner.get_by_role("button", name="Undo")).to_be_visible()
    assert game_cash(game) == [1700, 1500]


COUNT_POSTS = """() => {
  window.__posts = 0;
  const sent = window.fetch;
  window.fetch = (url, options) => {
    if (options && options.method === "POST") { window.__posts += 1; }
    return sent(url, options);
  };
}"""
