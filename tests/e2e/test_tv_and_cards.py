"""The table screen runs the room, and the cards fit a phone (issue 22), in headless Chromium:
whose turn it is and the last throw in type that grows with the screen, an open auction as a
banner, the standings at the end on the TV and on every phone; every card of the deck on one
390x844 screen, the ones drawn lately too."""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from .tour import act, grown_game


def font_px(page, selector: str) -> float:
    return page.locator(selector).first.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")


def test_the_tv_says_whose_turn_and_the_last_throw_in_type_that_scales(
    browser: Browser, live_server
):
    banker = browser.new_context()
    tour = grown_game(banker, live_server)
    act(banker, tour, "roll", {"player": 0, "dice": 4})  # Boardwalk to Income Tax... a throw
    sizes = {}
    for width, height in ((1280, 800), (1920, 1080), (3840, 2160)):
        tv = browser.new_context(viewport={"width": width, "height": height}).new_page()
        tv.goto(f"{live_server}/t/{tour.table}")
        expect(tv.locator(".last-throw")).to_contain_text("4")
        expect(tv.locator(".whose-turn").first).to_be_visible()
        sizes[width] = (font_px(tv, ".whose-turn"), font_px(tv, ".sq .nm"))
        tv.context.close()
    turn, label = zip(*sizes.values(), strict=True)
    assert turn[0] >= 30 and label[0] >= 14  # readable across the room at 1280x800
    assert turn[0] < turn[1] < turn[2] and label[0] < label[1] < label[2]
    assert turn[2] >= 2 * turn[1] * 0.9  # 4K is twice 1080p's size
    banker.close()


def test_an_open_auction_is_a_banner_and_the_end_shows_the_standings_everywhere(
    browser: Browser, live_server
):
    banker = browser.new_context()
    tour = grown_game(banker, live_server)
    tv = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    tv.goto(f"{live_server}/t/{tour.table}")
    cy = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    cy.goto(f"{live_server}/p/{tour.tokens['Cy']}")
    act(banker, tour, "turn_to", {"player": 2})
    act(banker, tour, "land", {"player": 2, "space": 1, "choices": [{"kind": "decline"}]})
    expect(tv.locator(".auction-banner")).to_contain_text("Auction: Mediterranean Avenue")
    act(banker, tour, "auction_close", {})
    act(banker, tour, "end_game", {})
    for page in (tv, cy):
        standings = page.locator(".standings li")
        expect(standings).to_have_count(3)
        expect(standings.first).to_contain_text("Ana")
    expect(cy.locator(".me")).not_to_contain_text("rank")
    banker.close()
    tv.context.close()
    cy.context.close()


def test_every_card_fits_one_phone_screen(browser: Browser, live_server):
    banker = browser.new_context(viewport={"width": 390, "height": 844})
    tour = grown_game(banker, live_server)
    page = banker.new_page()
    page.goto(f"{live_server}{tour.banker_pages()[3]}")  # Ana throws 8: onto Chance
    cards = page.locator(".card-btn")
    assert cards.count() >= 15
    bottoms = [box["y"] + box["height"] for box in (c.bounding_box() for c in cards.all())]
    assert max(bottoms) <= 844, f"the last card is {max(bottoms) - 844:.0f} px below the screen"
    banker.close()
