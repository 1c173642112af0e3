"""A turn in two taps in headless Chromium at 390x844, in English, Spanish and Japanese:
what a person sees (R1, P1, P2, C2, K1)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, Route, expect

from ..support import US
from .flows import NARROW, PHONE, balance, pad, start_game

READING = US.spaces[5]


def no_sideways_scroll(page: Page) -> None:
    page.set_viewport_size(NARROW)
    width = page.evaluate("document.documentElement.scrollWidth")
    page.set_viewport_size(PHONE)
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


def silent_stream(route: Route) -> None:
    """A live stream that says nothing for ten minutes: the page stays as it was drawn (a
    second banker phone asleep in a pocket, or out of the network's reach)."""
    body = "retry: 600000\n\n"
    route.fulfill(status=200, headers={"Content-Type": "text/event-stream"}, body=body)


def taken(page: Page, tap) -> None:
    """`tap` opens a turn page drawn for an earlier moment: 409, it says so, offers nothing."""
    with page.expect_response(re.compile(r"/turn\?")) as answer:
        tap()
    assert answer.value.status == 409
    expect(page.locator("header .title")).to_have_text("This turn was already taken")
    expect(page.locator("form.act")).to_have_count(0)


def test_r1_a_stale_pad_says_the_turn_was_already_taken_and_changes_nothing(
    phone: Page, live_server
):
    """R1 (issue 19): a dice pad drawn before the turn was taken (a second banker phone that
    has not heard the news, the Back button) opens no turn for anyone, and nothing changes."""
    start_game(phone, live_server)
    other = phone.context.new_page()  # the same banker, a second phone
    other.route(re.compile(r"/live\?"), silent_stream)
    other.goto(phone.url)
    expect(other.locator(".turn")).to_contain_text("Ana's turn")

    pad(phone, 5)
    phone.get_by_role("button", name=re.compile("Ana buys Reading Railroad")).click()
    expect(phone.locator(".turn")).to_contain_text("Bea's turn")
    after = f"${1500 - READING.price:,}"

    expect(other.locator(".turn")).to_contain_text("Ana's turn")  # drawn before the throw
    taken(other, lambda: pad(other, 6))
    other.get_by_role("link", name="Back to the game as it is now").click()
    expect(other.locator(".turn")).to_contain_text("Bea's turn")
    expect(balance(other, 0)).to_have_text(after)
    expect(balance(other, 1)).to_have_text("$1,500")
    expect(other.get_by_role("link", name=re.compile("^Undo: Ana throws 5"))).to_be_visible()

    # Back asks the server again only if the browser does not answer from its cache: the
    # turn page sends no Cache-Control, so Chromium may show the stale copy unasked (a
    # product issue, reported). Without a cache, Back asks, as the test means it to.
    no_cache = phone.context.new_cdp_session(phone)
    no_cache.send("Network.enable")
    no_cache.send("Network.setCacheDisabled", {"cacheDisabled": True})
    taken(phone, phone.go_back)  # the turn page of Ana's 5, asked for again
    phone.get_by_role("link", name="Back to the game as it is now").click()
    expect(phone.locator(".turn")).to_contain_text("Bea's turn")
    expect(balance(phone, 0)).to_have_text(after)
    expect(balance(phone, 1)).to_have_text("$1,500")


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

    with phone.expect_navigation():  # Ana's card, loaded before it is measured
        phone.locator(".balances a.balance").nth(0).click()
    no_sideways_scroll(phone)
    phone.get_by_label("Ana pays Bea").check()
    phone.get_by_role("button", name="$50", exact=True).click()
    expect(balance(phone, 0)).to_have_text("$1,650")
    expect(balance(phone, 1)).to_have_text("$1,550")


def test_k1_a_throw_the_cash_cannot_pay_leaves_a_debt_paid_once_the_money_is_there(
    phone: Page, live_server
):
    """K1: the throw happens and the rent it cannot pay waits as a debt, on the dashboard;
    "Pay the debt" is refused with the shortfall until the money is there, then one tap pays."""
    start_game(phone, live_server)
    pad(phone, 5)
    phone.get_by_role("button", name=re.compile("Ana buys Reading Railroad")).click()
    phone.locator(".balances a.balance").nth(1).click()
    phone.get_by_label("Other amount").fill("1490")
    phone.get_by_role("button", name="Pay", exact=True).click()  # to the bank
    expect(balance(phone, 1)).to_have_text("$10")

    pad(phone, 5)
    rent = READING.rent[0]
    throw = phone.get_by_role("button", name=re.compile("^Bea throws 5 and moves to Reading"))
    expect(throw).to_contain_text(f"Bea is ${rent - 10} short: the debt waits")
    throw.click()
    debt = phone.locator(".debt")
    expect(debt).to_contain_text(f"Bea owes Ana ${rent}")
    expect(debt.locator(".figures")).to_have_text(re.compile(r"Cash\s*\$10\s*Could raise in all"))
    pay = debt.get_by_role("button", name="Pay the debt")
    expect(pay).to_be_disabled()
    expect(debt.locator(".refused")).to_contain_text(f"Bea is ${rent - 10} short: sell buildings")
    bankrupt = debt.get_by_role("button", name=re.compile(f"^Bea is bankrupt, owing \\${rent}"))
    expect(bankrupt).to_be_enabled()  # K1: with no deeds, all she could raise is her $10
    expect(phone.locator(".pad")).to_have_count(0)  # nobody throws while the debt is open

    phone.locator(".balances a.balance").nth(1).click()
    phone.get_by_label("The bank pays Bea").check()
    phone.get_by_role("button", name="$100", exact=True).click()
    phone.locator(".debt").get_by_role("button", name=f"Bea pays Ana the ${rent} owed").click()
    expect(balance(phone, 1)).to_have_text(f"${10 + 100 - rent}")
    expect(balance(phone, 0)).to_have_text(f"${1500 - READING.price + rent:,}")
    expect(phone.locator(".debt")).to_have_count(0)
    expect(phone.locator(".turn")).to_contain_text("Ana's turn")


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
    # The bid's answer is in (the highest bidder named) before the next tap, as a person
    # waits for it: "No bid yet" is there before, and a tap on a page being redrawn can miss.
    expect(phone.locator(".auction .high")).to_contain_text("Ana")
    no_sideways_scroll(phone)
    phone.locator("form.act:has(input[name=kind][value=auction_close]) button").click()
    expect(phone).to_have_url(dashboard)
    context.close()
