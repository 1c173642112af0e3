"""The banker's main flow in headless Chromium at a phone's size: what a person sees."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from ..support import ALL_EDITIONS

US = ALL_EDITIONS["us-classic"]
BOARDWALK = US.spaces[39]


def balance(page: Page, seat: int):
    return page.locator(f'.cash[data-seat="{seat}"]')


def start_game(page: Page, url: str) -> None:
    page.goto(url + "/")
    page.get_by_role("link", name="New game").click()
    page.get_by_label("Name of player 1").fill("Ana")
    page.get_by_label("Name of player 2").fill("Bea")
    page.get_by_role("button", name="Start the game").click()


def land(page: Page, who: str, space: str) -> None:
    page.get_by_role("link", name="Landed on…").click()
    page.get_by_role("link", name=who).click()
    page.locator(".space", has_text=space).click()


def test_p1_p2_banker_buys_charges_rent_and_undoes_on_a_phone(phone: Page, live_server):
    start_game(phone, live_server)
    expect(balance(phone, 0)).to_have_text("$1,500")

    land(phone, "Ana", "Boardwalk")
    phone.get_by_role("button", name=f"Ana buys Boardwalk for ${BOARDWALK.price}").click()
    expect(phone.get_by_role("status")).to_contain_text("Ana buys Boardwalk")
    expect(balance(phone, 0)).to_have_text(f"${1500 - BOARDWALK.price:,}")

    land(phone, "Bea", "Boardwalk")
    rent = BOARDWALK.rent[0]
    phone.get_by_role("button", name=f"Bea pays Ana ${rent} rent for Boardwalk").click()
    expect(balance(phone, 1)).to_have_text(f"${1500 - rent:,}")

    phone.get_by_role("link", name="Undo: Bea pays Ana").click()
    phone.get_by_role("button", name="Undo: Bea pays Ana").click()
    expect(balance(phone, 1)).to_have_text("$1,500")

    phone.get_by_role("link", name="History").click()
    expect(phone.locator(".history .undone")).to_contain_text("Bea pays Ana")

    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, "the page scrolls sideways on a phone"


def test_k1_payment_over_cash_is_refused_with_what_could_be_raised(phone: Page, live_server):
    start_game(phone, live_server)
    phone.get_by_role("link", name="Bank pays / collects").click()
    phone.get_by_label("The player pays the bank").check()
    phone.locator(".choice", has_text="Bea").click()
    phone.get_by_label("Amount").fill("2000")
    phone.get_by_role("button", name="Preview").click()
    expect(phone.locator(".refused")).to_contain_text("Bea cannot pay $2,000: $500 short")
    expect(phone.get_by_role("button", name="Pay the bank")).to_be_disabled()
