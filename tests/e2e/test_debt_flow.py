"""A debt as the banker sees it (issue 19; K1, G1, M1): a throw passes GO and lands on a hotel
the player cannot pay; the throw happens, the debt waits with one set of figures on every
page that shows it, and a mortgage and the payment settle it in a few taps from the turn page
(headless Chromium at 390x844)."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Locator, Page, expect

from ..support import US
from .flows import Api, balance, own_phone, pad

LIGHT_BLUE, VERMONT = (6, 8, 9), 8
DARK_BLUE_AND_GREENS = (37, 39, 31, 32)  # Park Place, Boardwalk, Pacific, North Carolina
BOARDWALK = US.spaces[39]
HOTEL = US.spaces[VERMONT].rent[5]  # 550
SALARY = 200


def cost(*deeds: int) -> int:
    return sum(US.spaces[i].price for i in deeds)


def table(url: str) -> tuple[Api, int, int]:
    """Ana holds the light blues with a hotel on each; Bea four deeds and little cash, on
    Luxury Tax, to throw. Ana's cash and Bea's, then."""
    api = Api(url)
    api.own(0, *LIGHT_BLUE)
    api.act("build", player=0, group="light_blue", levels=[5, 5, 5])
    api.own(1, *DARK_BLUE_AND_GREENS)
    api.before(1, VERMONT, dice=10)  # from Luxury Tax (38), past GO
    hotels = 3 * 5 * US.groups["light_blue"].house_price
    return api, 1500 - cost(*LIGHT_BLUE) - hotels, 1500 - cost(*DARK_BLUE_AND_GREENS)


def amounts(locator: Locator) -> set[int]:
    """Every sum of money a part of the page shows."""
    return {int(a.replace(",", "")) for a in re.findall(r"\$([\d,]+)", locator.inner_text())}


def test_k1_g1_a_throw_onto_a_hotel_leaves_one_debt_settled_by_a_mortgage_in_four_taps(
    browser: Browser, phone: Page, live_server
):
    api, ana, bea = table(live_server)
    api.banker(phone)
    taps = []

    def tap(target: Locator) -> None:
        taps.append(target)
        target.click()

    pad(phone, 10)  # the turn page
    throw = phone.get_by_role("button", name=re.compile("^Bea throws 10 and moves to Vermont"))
    expect(throw).to_contain_text(f"Bea collects ${SALARY} salary")
    expect(throw).to_contain_text(f"Bea owes Ana ${HOTEL} rent for Vermont Avenue")
    short = HOTEL - (bea + SALARY)
    expect(throw).to_contain_text(f"Bea is ${short} short: the debt waits")
    tap(throw)

    # K1, G1: the throw happened, the salary is Bea's; one set of figures for the debt.
    cash = bea + SALARY
    could = cash + sum(US.spaces[i].mortgage for i in DARK_BLUE_AND_GREENS)
    debt = phone.locator(".debt")
    expect(debt).to_have_count(1)
    expect(debt.locator("p").first).to_have_text(f"Bea owes Ana ${HOTEL}")
    expect(debt.locator(".figures dd")).to_have_text([f"${cash}", f"${could:,}"])
    assert amounts(debt) <= {HOTEL, cash, could, short}, debt.inner_text()
    expect(balance(phone, 1)).to_have_text(f"${cash}")
    expect(balance(phone, 0)).to_have_text(f"${ana}")  # nothing paid yet
    pay = debt.get_by_role("button", name="Pay the debt")
    expect(pay).to_be_disabled()
    expect(debt).to_contain_text(f"Bea is ${short} short: sell buildings, mortgage or trade")
    expect(debt.get_by_role("button", name="Declare bankruptcy")).to_be_disabled()
    expect(debt).to_contain_text(f"Bea could still raise ${could:,}")
    expect(phone.locator(".pad")).to_have_count(0)  # nobody throws while the debt is open

    # Bea's own phone says the same debt, with the same figures.
    bea_phone = own_phone(browser, api.player_url(1))
    expect(bea_phone.locator(".debt h2")).to_have_text(f"You owe Ana ${HOTEL}")
    assert amounts(bea_phone.locator(".debt")) <= {HOTEL, cash, could, short}
    expect(bea_phone.locator("#balance")).to_have_text(f"${cash}")

    # M1, K1: a mortgage raises the money, then one tap pays Ana.
    tap(debt.get_by_role("link", name="Mortgage"))
    expect(phone.locator(".debt")).to_contain_text(f"Bea owes Ana ${HOTEL}")  # still in sight
    tap(phone.get_by_role("button", name=f"Bea mortgages Boardwalk for ${BOARDWALK.mortgage}"))
    paid = phone.locator(".debt").get_by_role("button", name=f"Bea pays Ana the ${HOTEL} owed")
    tap(paid)
    assert len(taps) <= 4, f"{len(taps)} taps from the turn page"

    expect(phone.get_by_role("status")).to_contain_text(f"Bea pays Ana the ${HOTEL} owed")
    expect(phone.locator(".debt")).to_have_count(0)
    expect(balance(phone, 0)).to_have_text(f"${ana + HOTEL:,}")
    expect(balance(phone, 1)).to_have_text(f"${cash + BOARDWALK.mortgage - HOTEL}")
    expect(phone.locator(".turn")).to_contain_text("Ana's turn")
    expect(bea_phone.locator(".debt")).to_have_count(0)  # live, no reload
    expect(bea_phone.locator("#balance")).to_have_text(f"${cash + BOARDWALK.mortgage - HOTEL}")
    bea_phone.context.close()


def test_k1_sg4_a_game_ended_while_a_debt_is_open_does_not_forget_the_debt(
    phone: Page, live_server
):
    """K1, SG4: the banker ends the game while Bea owes Ana the hotel's rent. The debt is
    money the rules gave Ana: it counts in the standings, so Bea, who holds $1,700 of which
    $550 is Ana's, does not win over Ana's $1,500 + $550 owed to her."""
    api, ana, bea = table(live_server)
    api.banker(phone)
    pad(phone, 10)
    phone.get_by_role("button", name=re.compile("^Bea throws 10 and moves to Vermont")).click()
    expect(phone.locator(".debt")).to_contain_text(f"Bea owes Ana ${HOTEL}")

    phone.get_by_role("link", name="End the game").click()
    phone.get_by_role("button", name="the game ends").click()
    expect(phone).to_have_url(re.compile(r"/results$"))
    expect(phone.locator(".winner")).to_have_text(re.compile(r"Ana\s+wins the game"))
