"""Houses and hotels, mortgages and trades on the banker's phone (headless Chromium at
390x844): the buttons a person reads before tapping, and the balances after.

The table is set through the JSON API (what happened before the flow under test); every
step of the flow itself is a tap on the phone.
"""

from __future__ import annotations

from playwright.sync_api import Page, expect

from ..support import US
from .flows import Api, balance, no_sideways_scroll

GREENS = list(US.groups["green"].deeds)
GREEN_HOUSE = US.groups["green"].house_price
PARK_PLACE, BOARDWALK, READING = 37, 39, 5


class Table(Api):
    """A game made through the API, opened on the phone with the banker's link."""

    def __init__(self, phone: Page, url: str) -> None:
        super().__init__(url)
        self.phone = phone
        self.banker(phone)

    def open(self, link: str, who: str) -> None:
        """A tile of the dashboard, then the player."""
        self.phone.goto(self.dashboard)
        self.phone.get_by_role("link", name=link).click()
        self.phone.get_by_role("link", name=who).click()


def supply(phone: Page):
    return phone.locator(".supply").first


def test_b1_b6_hotels_built_then_sold_as_one_when_the_bank_is_short(phone: Page, live_server):
    table = Table(phone, live_server)
    table.act("bank_pay", player=0, amount=10_000)
    table.own(0, *GREENS)
    cash = 1500 + 10_000 - sum(US.spaces[i].price for i in GREENS)

    table.open("Houses and hotels", "Ana")
    expect(supply(phone)).to_have_text("Bank: 32 houses · 12 hotels")
    expect(phone.get_by_text("A hotel needs 4 houses on every street")).to_be_visible()
    phone.get_by_text("Hotels", exact=True).click()
    cost = 3 * 5 * GREEN_HOUSE
    confirm = phone.get_by_role("button", name=f"Ana pays the bank ${cost:,} to build")
    expect(confirm).to_contain_text("a hotel on Pacific Avenue")
    expect(confirm).to_contain_text("the bank has 32 houses and 9 hotels left")
    confirm.click()
    expect(phone.get_by_role("status")).to_contain_text(f"Ana pays the bank ${cost:,} to build")
    expect(balance(phone, 0)).to_have_text(f"${cash - cost:,}")
    chips = phone.locator(".balance").first.locator(".deed-chip")
    expect(chips.locator("[aria-hidden=true]")).to_have_text(["H", "H", "H"])  # seen
    expect(chips.locator(".sr")).to_have_text(  # heard
        [f"{US.spaces[i].name} · 1 hotel" for i in GREENS]
    )
    cash -= cost

    # Bea's building leaves the bank 3 houses: no hotel of Ana's can be broken down (B6)
    table.act("bank_pay", player=1, amount=20_000)
    for group in ("orange", "red", "yellow"):
        table.own(1, *US.groups[group].deeds)
    for group, levels in (("orange", [4, 4, 4]), ("red", [4, 4, 4]), ("yellow", [2, 2, 1])):
        table.act("build", player=1, group=group, levels=levels)

    table.open("Houses and hotels", "Ana")
    expect(supply(phone)).to_have_text("Bank: 3 houses · 9 hotels")
    stuck = phone.locator(".stuck")
    expect(stuck.locator(".refused")).to_have_text(
        "Breaking the hotels down needs 4 houses and the bank has 3: "
        "sell the hotels as one (to no buildings) instead"
    )
    phone.get_by_text("4 houses on each", exact=True).first.click()
    expect(phone.locator("details[open] .refused")).to_contain_text("needs 12 houses")
    expect(phone.locator("details[open] button")).to_be_disabled()
    refund = cost // 2
    stuck.get_by_role("button", name=f"Ana sells to the bank for ${refund:,}").click()
    expect(balance(phone, 0)).to_have_text(f"${cash + refund:,}")
    expect(phone.locator(".supply")).to_contain_text("Bank: 3 houses · 12 hotels")
    no_sideways_scroll(phone)

    phone.get_by_role("link", name="Undo: Ana sells to the bank").click()
    phone.get_by_role("button", name="Undo: Ana sells to the bank").click()
    expect(balance(phone, 0)).to_have_text(f"${cash:,}")
    expect(phone.locator(".supply")).to_contain_text("Bank: 3 houses · 9 hotels")


def test_m1_m3_mortgage_and_lift_with_the_amounts_on_the_buttons(phone: Page, live_server):
    table = Table(phone, live_server)
    table.own(0, PARK_PLACE, BOARDWALK)
    cash = 1500 - 350 - 400

    table.open("Mortgages", "Ana")
    expect(supply(phone)).to_have_text("Bank: 32 houses · 12 hotels")
    phone.get_by_role("button", name="Ana mortgages Park Place for $175").click()
    expect(balance(phone, 0)).to_have_text(f"${cash + 175:,}")
    chips = phone.locator(".balance").first.locator(".deed-chip")
    expect(chips.first).to_have_class("deed-chip mortgaged")
    expect(chips.first).to_have_attribute("title", "Park Place · mortgaged")

    phone.locator(".balance").first.click()
    rows = phone.locator(".deeds li")
    expect(rows.filter(has_text="Park Place")).to_contain_text("mortgaged")
    expect(rows.filter(has_text="Park Place")).to_contain_text("rent now $0")
    expect(rows.filter(has_text="Boardwalk")).to_contain_text(f"rent now ${2 * 50}")

    phone.get_by_role("link", name="Mortgages").click()
    phone.get_by_role("button", name="Ana lifts the mortgage on Park Place for $193").click()
    expect(balance(phone, 0)).to_have_text(f"${cash + 175 - 193:,}")
    expect(chips.first).to_have_class("deed-chip")
    no_sideways_scroll(phone)


def test_x1_m4_trade_with_cash_and_a_lift_chosen_deed_by_deed(phone: Page, live_server):
    table = Table(phone, live_server)
    for deed in (PARK_PLACE, READING):
        table.own(0, deed)
        table.act("mortgage", player=0, deed=deed)
    ana = 1500 - 350 - 200 + 175 + 100

    phone.goto(table.dashboard)
    phone.get_by_role("link", name="Trade").click()
    phone.get_by_role("button", name="Show their deeds").click()
    phone.get_by_label("Park Place").check()
    phone.get_by_label("Reading Railroad").check()
    phone.get_by_label("Amount").fill("100")
    phone.get_by_label("Bea pays it").check()
    phone.get_by_role("button", name="Preview the trade").click()

    rows = phone.locator(".before-after tr")
    expect(rows.nth(1)).to_have_text(f"Ana${ana:,}${ana + 100:,}")
    expect(rows.nth(2)).to_have_text(f"Bea$1,500${1500 - 100 - 18 - 10:,}")
    expect(phone.get_by_label("Lift Park Place now ($193)")).not_to_be_checked()
    phone.get_by_label("Lift Reading Railroad now ($110)").check()
    phone.get_by_role("button", name="Preview the trade").click()
    expect(rows.nth(2)).to_have_text(f"Bea$1,500${1500 - 100 - 18 - 110:,}")
    trade = phone.get_by_role("button", name="Ana trades with Bea")
    expect(trade).to_contain_text("Bea pays $18 interest and keeps Park Place mortgaged")
    expect(trade).to_contain_text("Bea lifts Reading Railroad now for $110")
    no_sideways_scroll(phone)
    trade.click()

    expect(balance(phone, 0)).to_have_text(f"${ana + 100:,}")
    expect(balance(phone, 1)).to_have_text(f"${1500 - 100 - 18 - 110:,}")
    bea = phone.locator(".balance").nth(1).locator(".deed-chip")
    expect(bea).to_have_count(2)
    expect(phone.locator(".balance").nth(1).locator(".deed-chip.mortgaged")).to_have_count(1)


def test_x1_a_trade_of_a_built_group_is_refused_on_the_phone(phone: Page, live_server):
    table = Table(phone, live_server)
    table.act("bank_pay", player=0, amount=5_000)
    table.own(0, *GREENS)
    table.act("build", player=0, group="green", levels=[1, 1, 1])

    phone.goto(table.dashboard)
    phone.get_by_role("link", name="Trade").click()
    phone.get_by_role("button", name="Show their deeds").click()
    phone.get_by_label("Pacific Avenue").check()
    phone.get_by_label("Amount").fill("500")
    phone.get_by_label("Bea pays it").check()
    phone.get_by_role("button", name="Preview the trade").click()
    expect(phone.locator(".preview .refused")).to_have_text(
        "The Green group has buildings: sell them to the bank first"
    )
    expect(phone.locator(".preview button")).to_be_disabled()
    expect(phone.locator(".before-after")).to_have_count(0)
