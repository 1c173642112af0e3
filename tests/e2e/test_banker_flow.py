"""The banker's main flow in headless Chromium at a phone's size: what a person sees."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from ..support import US
from .flows import balance, land, no_sideways_scroll, start_game
from .tour import grown_game

BOARDWALK = US.spaces[39]


def test_r1_p1_p2_landings_recorded_by_hand_buy_charge_rent_and_undo(phone: Page, live_server):
    """R1: "Landed on…" records a move the dice pad did not see; the core works out the
    landing: a deed for sale is bought or declined (P1), an owned one charges its rent (P2)."""
    start_game(phone, live_server)
    expect(balance(phone, 0)).to_have_text("$1,500")

    land(phone, "Ana", "Boardwalk")
    expect(phone.locator(".hint")).to_contain_text(f"For sale: ${BOARDWALK.price}")
    declined = "Ana lands on Boardwalk; Ana declines Boardwalk; the bank auctions Boardwalk"
    expect(phone.get_by_role("button", name=declined)).to_be_enabled()
    bought = f"Ana lands on Boardwalk; Ana buys Boardwalk for ${BOARDWALK.price}"
    phone.get_by_role("button", name=bought).click()
    expect(phone.get_by_role("status")).to_contain_text("Ana buys Boardwalk")
    expect(balance(phone, 0)).to_have_text(f"${1500 - BOARDWALK.price:,}")

    land(phone, "Bea", "Boardwalk")
    expect(phone.locator(".hint")).to_contain_text(re.compile(r"Owner:\s+(A\s+)?Ana"))
    rent = BOARDWALK.rent[0]
    expect(phone.get_by_role("button", name="Bea declines Boardwalk")).to_have_count(0)
    phone.get_by_role(
        "button", name=f"Bea lands on Boardwalk; Bea pays Ana ${rent} rent for Boardwalk"
    ).click()
    expect(balance(phone, 1)).to_have_text(f"${1500 - rent:,}")
    expect(balance(phone, 0)).to_have_text(f"${1500 - BOARDWALK.price + rent:,}")

    phone.get_by_role("link", name="Undo: Bea lands on Boardwalk").click()
    phone.get_by_role("button", name="Undo: Bea lands on Boardwalk").click()
    expect(balance(phone, 1)).to_have_text("$1,500")

    phone.get_by_role("link", name="History").click()
    expect(phone.locator(".history .undone")).to_contain_text("Bea pays Ana")
    no_sideways_scroll(phone)


def test_k1_payment_over_cash_is_refused_with_what_could_be_raised(phone: Page, live_server):
    start_game(phone, live_server)
    phone.get_by_role("link", name="Bank pays / collects").click()
    phone.get_by_label("The player pays the bank").check()
    phone.locator(".choice", has_text="Bea").click()
    phone.get_by_label("Amount").fill("2000")
    phone.get_by_role("button", name="Preview").click()
    expect(phone.locator(".refused")).to_contain_text("Bea cannot pay $2,000: $500 short")
    expect(phone.get_by_role("button", name="Pay the bank")).to_be_disabled()


# Each visible choice of the page: its box, and where its words are.
CHOICES = """() => [...document.querySelectorAll("label.choice")]
  .filter(label => label.offsetParent !== null)
  .map(label => {
    const box = label.querySelector("input").getBoundingClientRect();
    const words = document.createRange();
    const texts = [...label.childNodes]
      .filter(n => n.nodeType === Node.TEXT_NODE && n.textContent.trim());
    words.setStartBefore(texts[0]);
    words.setEndAfter(texts[texts.length - 1]);
    const lines = [...words.getClientRects()].filter(r => r.width > 0);
    return {
      words: label.textContent.trim(),
      badges: label.querySelectorAll(".badge").length,
      beside: lines.every(r => r.left >= box.right),
      level: lines.some(r => r.top < box.bottom && r.bottom > box.top),
    };
  })"""


@pytest.mark.parametrize(
    ("width", "scale"),
    [(320, 1), (390, 1), (1280, 1), (640, 2)],
    ids=["320px", "390px", "desktop", "200%-zoom-on-a-desktop"],
)
def test_the_new_game_page_s_boxes_sit_beside_their_words(
    browser: Browser, live_server, width, scale
):
    """Each check box and radio button of the new-game page has its words beside it, on its
    line, the words wrapping there, at a phone's width as on a desktop (zoomed or not): not
    the box alone on a line above its words."""
    context = browser.new_context(
        viewport={"width": width, "height": 800}, device_scale_factor=scale
    )
    page = context.new_page()
    page.goto(live_server + "/new")
    choices = page.evaluate(CHOICES)
    assert len(choices) >= 7  # three kinds of game, phone turns, the house rules
    apart = [c["words"] for c in choices if not (c["beside"] and c["level"])]
    assert not apart, f"at {width} px, these words are not beside their box: {apart}"
    no_sideways_scroll(page, width)


@pytest.mark.parametrize("width", [195, 320, 390], ids=["200%-zoom-on-a-phone", "320px", "390px"])
def test_a_trade_s_deeds_with_badges_sit_beside_their_boxes(browser: Browser, live_server, width):
    """A deed offered in a trade carries a badge (built, mortgaged): at 195 px (200% zoom on a
    phone) its name went under its box; it stays beside it, the badge under the name, on the
    banker's trade page and on a phone's."""
    context = browser.new_context(viewport={"width": width, "height": 800})
    tour = grown_game(context, live_server)
    page = context.new_page()
    trades = {  # the banker's shows buildings too, a phone's the mortgages only
        f"/g/{tour.game}/trade?player=0&partner=1": 3,
        f"/p/{tour.tokens['Ana']}/trade?partner=1": 1,
    }
    for path, badged in trades.items():
        page.goto(live_server + path)
        deeds = [c for c in page.evaluate(CHOICES) if c["badges"]]
        assert len(deeds) == badged  # Park Place and Boardwalk built, Baltic Avenue mortgaged
        apart = [c["words"] for c in deeds if not (c["beside"] and c["level"])]
        assert not apart, f"at {width} px, {path}: these deeds are not beside their box: {apart}"
        no_sideways_scroll(page, width)
