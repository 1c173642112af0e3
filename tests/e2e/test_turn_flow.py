"""A turn in two taps in headless Chromium at 390x844, in English, Spanish and Japanese:
what a person sees (R1, P1, P2, C2, K1)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from ..conftest import ALL_EDITIONS
from .test_banker_flow import balance, start_game

US = ALL_EDITIONS["us-classic"]
READING = US.spaces[5]
NARROW = {"width": 360, "height": 780}


def pad(page: Page, dice: int) -> None:
    page.locator(f'.pad button[value="{dice}"]').click()


def no_sideways_scroll(page: Page) -> None:
    page.set_viewport_size(NARROW)
    width = page.evaluate("document.documentElement.scrollWidth")
    page.set_viewport_size({"width": 390, "height": 844})
    assert width <= NARROW["width"], f"{page.url} scrolls sideways at 360 px"


def test_r1_p1_p2_two_taps_a_turn_and_the_undo_in_sight(phone: Page, live_server):
    start_game(phone, live_server)
    expect(phone.locator(".turn")).to_contain_text("Ana's turn")
    no_sideways_scroll(phone)

    pad(phone, 5)
    moved = "Ana throws 5 and moves to Reading Railroad"
    buy = f"{moved}; Ana buys Reading Railroad for ${READING.price}"
    expect(phone.get_by_role("button", name=buy)).to_be_visible()
    no_sideways_scroll(phone)
    phone.get_by_role("button", name=buy).click()
    expect(balance(phone, 0)).to_have_text(f"${1500 - READING.price:,}")
    expect(phone.locator(".turn")).to_contain_text("Bea's turn")

    undo = phone.get_by_role("status").get_by_role("button", name="Undo")
    expect(undo).to_be_in_viewport()
    undo.click()
    expect(balance(phone, 0)).to_have_text("$1,500")
    expect(phone.locator(".turn")).to_contain_text("Ana's turn")

    pad(phone, 5)
    phone.get_by_role("button", name=buy).click()
    pad(phone, 5)
    rent = READING.rent[0]
    phone.get_by_role("button", name=re.compile(f"Bea pays Ana \\${rent} rent")).click()
    expect(balance(phone, 1)).to_have_text(f"${1500 - rent:,}")


def test_c1_c2_a_card_in_two_taps_and_money_in_three(phone: Page, live_server):
    start_game(phone, live_server)
    phone.locator(".pad .doubles").click()
    expect(phone.locator('.pad button[value="7"]')).to_be_disabled()  # R2: doubles are even
    pad(phone, 2)  # Community Chest, with doubles
    card = phone.locator(".card-btn", has_text="Bank error in your favour")
    expect(card).to_contain_text("+$200")
    no_sideways_scroll(phone)
    card.click()
    expect(balance(phone, 0)).to_have_text("$1,700")
    expect(phone.locator(".turn")).to_contain_text("Ana's turn")  # doubles: again

    phone.locator(".balances a.balance").nth(0).click()
    no_sideways_scroll(phone)
    phone.get_by_label("Ana pays Bea").check()
    phone.get_by_role("button", name="$50", exact=True).click()
    expect(balance(phone, 0)).to_have_text("$1,650")
    expect(balance(phone, 1)).to_have_text("$1,550")


def test_k1_cannot_pay_leads_to_the_way_out_then_one_tap_pays(phone: Page, live_server):
    start_game(phone, live_server)
    pad(phone, 5)
    phone.get_by_role("button", name=re.compile("Ana buys Reading Railroad")).click()
    phone.locator(".balances a.balance").nth(1).click()
    phone.get_by_label("Other amount").fill("1490")
    phone.get_by_role("button", name="Pay", exact=True).click()
    pad(phone, 5)
    expect(phone.locator(".refused")).to_contain_text("Bea cannot pay $25")
    phone.get_by_role("link", name=re.compile("Raise the money")).click()
    debt = phone.locator(".debt")
    expect(debt).to_contain_text("Bea owes Ana $25")
    expect(debt.get_by_role("link", name="Bankruptcy")).to_be_visible()
    expect(debt.get_by_role("button", name="Now pay the $25")).to_be_disabled()
    phone.locator(".balances a.balance").nth(1).click()
    phone.get_by_label("The bank pays Bea").check()
    phone.get_by_role("button", name="$100", exact=True).click()
    phone.locator(".debt").get_by_role("button", name="Now pay the $25").click()
    expect(balance(phone, 1)).to_have_text("$85")
    expect(phone.locator(".debt")).to_have_count(0)


def test_p1_the_auction_page_shows_a_phones_bid_at_once(browser, phone: Page, live_server):
    start_game(phone, live_server)
    pad(phone, 5)
    phone.get_by_role("button", name=re.compile("Ana declines Reading Railroad")).click()
    expect(phone.locator(".auction")).to_contain_text("No bid yet")
    no_sideways_scroll(phone)
    phone.get_by_role("button", name="Ana bids $100").click()
    expect(phone.locator(".auction")).to_contain_text("Highest $100 by Ana")

    codes = phone.url.replace("/auction", "/codes")
    banker_page = phone.url
    phone.goto(codes)
    bea_link = phone.locator(".code").nth(1).locator(".link a").get_attribute("href")
    phone.goto(banker_page)
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    bea = context.new_page()
    bea.goto(bea_link)
    bea.get_by_placeholder("Your bid").fill("150")
    bea.get_by_role("button", name="Bid").click()
    bea.get_by_role("button", name=re.compile("Bea bids")).click()
    expect(phone.locator(".auction")).to_contain_text("Highest $150 by Bea")  # no reload
    context.close()
    phone.get_by_role("button", name=re.compile("Reading Railroad")).last.click()
    expect(balance(phone, 1)).to_have_text(f"${1500 - 150:,}")


def banker_in(browser, live_server: str, language: str):
    """A phone in `language`, banker of a new game of Ana and Bea, on its dashboard: the
    browser context, the page, and the dashboard's address."""
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, locale=language
    )
    phone = context.new_page()
    players = [{"name": "Ana", "colour": "#e03131"}, {"name": "Bea", "colour": "#1971c2"}]
    made = phone.request.post(
        live_server + "/api/games", data={"edition": "us-classic", "players": players}
    ).json()
    dashboard = f"{live_server}/g/{made['id']}/"
    phone.goto(f"{dashboard}?key={made['banker_key']}")
    return context, phone, dashboard


@pytest.mark.parametrize(
    ("language", "turn", "moves"),
    [("es", "Turno de Ana", "Ana saca 5 y avanza a"), ("ja", "Ana の番", "Ana は 5 を出して")],
)
def test_r1_the_turn_in_spanish_and_japanese(browser, live_server, language, turn, moves):
    context, phone, _ = banker_in(browser, live_server, language)
    expect(phone.locator(".turn")).to_contain_text(turn)
    pad(phone, 5)
    expect(phone.locator(".option").first).to_contain_text(moves)
    no_sideways_scroll(phone)
    phone.locator(".option button").first.click()
    expect(phone.locator(".flash.done form button")).to_be_visible()
    context.close()


@pytest.mark.parametrize(("language", "short"), [("es", "Dinero"), ("ja", "お金")])
def test_c1_p1_cards_money_and_auction_in_spanish_and_japanese(
    browser, live_server, language, short
):
    """The new flows read in the reader's language, and work by the same taps."""
    context, phone, dashboard = banker_in(browser, live_server, language)
    pad(phone, 2)  # Community Chest
    collect = phone.locator(".card-btn", has=phone.locator(".amount.in")).first
    gain = int(re.sub(r"\D", "", collect.locator(".amount").inner_text()))
    collect.click()
    expect(balance(phone, 0)).to_have_text(f"${1500 + gain:,}")
    expect(phone.get_by_role("status")).not_to_contain_text("Ana draws")

    phone.locator(".balances a.balance").nth(0).click()
    expect(phone.locator(".quick-money legend")).to_have_text(short)
    phone.locator(".quick-money input[name=to][value='1']").check()
    phone.locator(".quick button[value='50']").click()
    expect(balance(phone, 1)).to_have_text("$1,550")

    pad(phone, 3)  # Bea to Baltic Avenue: declined, auctioned
    phone.locator(".option button").nth(1).click()
    chip = phone.locator("form.act:has(input[name=kind][value=bid]) button").first
    chip.click()
    expect(phone.locator(".auction .high")).not_to_be_empty()
    no_sideways_scroll(phone)
    phone.locator("form.act:has(input[name=kind][value=auction_close]) button").click()
    expect(phone).to_have_url(dashboard)
    context.close()
