"""Building, mortgage, trade, a live auction bid from two players' own phones, and the
results: in headless Chromium at a phone's size, looking at what a person sees."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, expect

from ..support import US
from .flows import (
    PHONE,
    balance,
    buy,
    give_cash,
    land,
    open_game,
    own_phone,
    player_links,
    start_game,
)

BLUE_HOUSE = US.groups["dark_blue"].house_price


def test_b1_m1_x1_build_hotels_mortgage_and_trade_on_a_phone(phone: Page, live_server):
    start_game(phone, live_server)
    give_cash(phone, "Ana", 3000)
    buy(phone, "Ana", "Park Place")
    buy(phone, "Ana", "Boardwalk")
    cash = 1500 + 3000 - 350 - 400

    phone.get_by_role("link", name="Houses and hotels").click()
    phone.get_by_role("link", name="Ana").click()
    phone.get_by_text("Hotels", exact=True).click()
    cost = 2 * 5 * BLUE_HOUSE
    confirm = phone.get_by_role("button", name=f"Ana pays the bank ${cost:,} to build")
    expect(confirm).to_contain_text("the bank has 32 houses and 10 hotels left")
    confirm.click()
    expect(balance(phone, 0)).to_have_text(f"${cash - cost:,}")
    cash -= cost

    phone.get_by_role("link", name="Mortgages").click()
    phone.get_by_role("link", name="Ana").click()
    refund = cost // 2
    sentence = f"Ana sells the Dark blue buildings for ${refund:,}; Ana mortgages Park Place"
    phone.get_by_role("button", name=sentence).click()
    expect(balance(phone, 0)).to_have_text(f"${cash + refund + 175:,}")
    cash += refund + 175

    phone.get_by_role("link", name="Trade").click()
    phone.get_by_role("button", name="Show their deeds").click()
    phone.get_by_label("Park Place").check()
    phone.get_by_label("Amount").fill("300")
    phone.get_by_label("Bea pays it").check()
    phone.get_by_role("button", name="Preview the trade").click()
    expect(phone.locator(".before-after")).to_contain_text(f"${cash + 300:,}")
    phone.get_by_role("button", name="Ana trades with Bea").click()
    expect(balance(phone, 1)).to_have_text(f"${1500 - 300 - 18:,}")  # M4: 10% at once


def bid(page: Page, amount: int, confirm: bool = True) -> None:
    page.get_by_label("Your bid").fill(str(amount))
    page.get_by_role("button", name="Bid").click()
    if confirm:
        page.locator("form.act button").click()


def test_p1_two_players_bid_from_their_own_phones_and_see_it_live(
    browser: Browser, phone: Page, live_server
):
    start_game(phone, live_server)
    links = player_links(phone, live_server)
    ana = own_phone(browser, links["Ana"])
    bea = own_phone(browser, links["Bea"])

    open_game(phone, live_server)
    land(phone, "Ana", "Boardwalk")
    phone.get_by_role("button", name="Ana declines Boardwalk").click()
    expect(phone.locator(".auction .lot")).to_have_text("Boardwalk")

    expect(ana.locator(".auction")).to_contain_text("No bid yet")  # arrived without a reload
    bid(bea, 120)
    expect(ana.locator(".auction")).to_contain_text("Highest $120 by Bea")
    bid(ana, 150)
    expect(bea.locator(".auction")).to_contain_text("Highest $150 by Ana")
    bid(bea, 140, confirm=False)
    expect(bea.locator(".refused")).to_have_text("A bid must be at least $151")
    expect(bea.locator("form.act button")).to_be_disabled()
    bea.get_by_role("link", name="Cancel").click()

    phone.reload()
    phone.get_by_role("button", name="Ana wins Boardwalk for $150").click()
    expect(ana.locator("#balance")).to_have_text("$1,350")
    expect(ana.locator(".deeds")).to_contain_text("Boardwalk")
    expect(bea.locator("#balance")).to_have_text("$1,500")
    ana.context.close()
    bea.context.close()


def test_sg4_results_page_ranks_the_players_on_a_phone(phone: Page, live_server):
    start_game(phone, live_server)
    buy(phone, "Bea", "Boardwalk")
    land(phone, "Ana", "Boardwalk")
    rent = US.spaces[39].rent[0]
    phone.get_by_role("button", name=f"Ana lands on Boardwalk; Ana pays Bea ${rent} rent").click()
    phone.get_by_role("link", name="End the game").click()
    phone.get_by_role("button", name="the game ends").click()
    expect(phone).to_have_url(re.compile(r"/results$"))  # the ending lands on the results
    expect(phone.locator(".winner")).to_have_text(re.compile(r"Bea\s+wins the game"))
    ranking = phone.locator(".ranking li")
    expect(ranking.first).to_contain_text("Bea")
    expect(ranking.first.locator(".total")).to_have_text(f"Net worth ${1500 + rent:,}")
    expect(ranking.last.locator(".total")).to_have_text(f"Net worth ${1500 - rent:,}")
    expect(phone.locator("svg.chart polyline")).to_have_count(2)
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"]
