"""A table with no banker (R1, SG1, SG3, K1, K3): the banker's phone only starts a short game
and deals; three players then play the whole game from their own phones, in Chromium at a
phone's size, and the game ends at the second bankruptcy with the standings on every phone."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from ..support import US2008, setup_of

PHONE = {"width": 390, "height": 844}
INCOME_TAX = US2008.spaces[4].amount  # 200
HANDS = {0: (1, 3), 1: (6, 8), 2: (9, 11)}  # browns; Oriental, Vermont; Connecticut, St. Charles


def price(seat: int) -> int:
    return sum(US2008.spaces[i].price for i in HANDS[seat])


def start(banker: Page, url: str) -> list[str]:
    """The banker starts a short game with phone turns, deals by hand; the players' links."""
    banker.goto(url + "/new")
    banker.get_by_label("Edition").select_option("us-2008")
    for seat, name in enumerate(("Ana", "Bea", "Cal")):
        banker.get_by_label(f"Name of player {seat + 1}").fill(name)
    banker.get_by_label("Starting cash").fill("400")
    banker.get_by_label(re.compile("Short game")).check()
    banker.get_by_label(re.compile("No banker needed")).check()
    with banker.expect_navigation():
        banker.get_by_role("button", name="Start the game").click()
    game = re.search(r"/g/([\w-]+)/", banker.url).group(1)
    hands = "&".join(f"hand{s}={i}" for s, deeds in HANDS.items() for i in deeds)
    banker.goto(f"{url}/g/{game}/deal?{hands}")
    banker.get_by_role("button", name=re.compile("^Ana is dealt")).click()
    expect(banker.get_by_role("status")).to_contain_text("Ana is dealt")
    banker.goto(f"{url}/g/{game}/codes")
    return [banker.locator(f"#seat{s} .link a").get_attribute("href") for s in range(3)]


def throw(phone: Page, dice: int) -> None:
    phone.locator(f'.pad button[value="{dice}"]').click()


def cash(phone: Page):
    return phone.locator("#balance")


@pytest.mark.slow  # a whole game, tap by tap on three phones
def test_r1_sg3_a_whole_short_game_played_from_the_players_phones(browser: Browser, live_server):
    banker = browser.new_context(viewport=PHONE, is_mobile=True).new_page()
    links = start(banker, live_server)
    ana, bea, cal = (browser.new_context(viewport=PHONE, is_mobile=True).new_page() for _ in links)
    for phone, link in zip((ana, bea, cal), links, strict=True):
        phone.goto(link)
    expect(cash(ana)).to_have_text(f"${400 - price(0)}")

    # Ana and Bea throw 4 onto Income Tax and pay it at once; Bea's phone has no pad meanwhile.
    expect(bea.locator(".pad")).to_have_count(0)
    throw(ana, 4)
    ana.get_by_role(
        "button", name=f"Ana throws 4 and moves to Income Tax; Ana pays ${INCOME_TAX}"
    ).click()
    expect(cash(ana)).to_have_text(f"${400 - price(0) - INCOME_TAX}")
    bea.reload()
    throw(bea, 4)
    bea.get_by_role("button", name=re.compile("^Bea throws 4")).click()
    expect(cash(bea)).to_have_text("$0")

    # Cal owes the tax and cannot pay it from his cash: he mortgages on his phone, then pays.
    cal.reload()
    throw(cal, 4)
    cal.get_by_role("button", name=re.compile("^Cal throws 4")).click()
    debt = cal.locator(".debt")
    expect(debt).to_contain_text(f"You owe the bank ${INCOME_TAX}")
    expect(debt.get_by_role("button", name="Declare bankruptcy")).to_be_disabled()
    debt.get_by_role("link", name="Mortgage, build or trade").click()
    connecticut = US2008.spaces[9]
    cal.get_by_role(
        "button", name=f"Cal mortgages {connecticut.name} for ${connecticut.mortgage}"
    ).click()
    cal.get_by_role(
        "button", name=re.compile(f"Cal pays the bank the \\${INCOME_TAX} owed")
    ).click()
    expect(cash(cal)).to_have_text(f"${400 - price(2) + connecticut.mortgage - INCOME_TAX}")

    # Ana draws "Go back 3 spaces" onto Income Tax again: she cannot raise it, and gives up.
    ana.reload()
    throw(ana, 3)
    ana.get_by_role("button", name=re.compile("^Go back 3 spaces")).click()
    expect(ana.locator(".debt")).to_contain_text(f"You owe the bank ${INCOME_TAX}")
    ana.get_by_role("button", name=re.compile("^Ana is bankrupt, owing")).click()
    expect(ana.locator(".badge", has_text="bankrupt")).to_be_visible()

    # K3: the bank auctions Ana's deeds; Bea, whose turn it is, closes each auction.
    bea.reload()
    for _ in HANDS[0]:
        bea.get_by_role("button", name=re.compile("stays with the bank")).click()
    throw(bea, 3)
    # every card is in view, the ones drawn lately too (issue 22): no panel to open
    bea.get_by_role("button", name=re.compile("^Go back 3 spaces")).click()
    bea.get_by_role("button", name=re.compile("^Bea is bankrupt, owing")).click()

    # SG3: the second bankruptcy ends the short game; Cal, the last one left, wins.
    for phone in (ana, bea, cal):
        phone.reload()
        expect(phone.get_by_text("The game has ended.")).to_be_visible()
        expect(phone.locator(".winner")).to_contain_text("Cal")


def test_r1_a_phone_without_phone_turns_sends_no_throw(browser: Browser, live_server):
    """R1: with phone turns off, a player's phone shows no pad (the phone's door refuses a
    throw: tests/web/test_kinds.py)."""
    page = browser.new_context(viewport=PHONE, is_mobile=True).new_page()
    made = page.request.post(f"{live_server}/api/games", data=setup_of()).json()
    codes = page.request.get(
        f"{live_server}/g/{made['id']}/codes", headers={"X-Banker-Key": made["banker_key"]}
    ).text()
    link = re.search(r'href="(http[^"]*/p/[^"]+)"', codes).group(1)
    page.goto(link)
    expect(page.locator("#balance")).to_have_text("$1,500")
    expect(page.locator(".pad")).to_have_count(0)
