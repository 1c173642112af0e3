"""The banker's dashboard follows the players' phones live, actions list included, in headless
Chromium at a phone's size: a phone's throw that fills the Free Parking pot brings "Pay out
the pot", a game ended elsewhere takes "Landed on…" and "End the game" away, with no reload.
What the banker was at stays: the focused link, and the banker link shown once as the game
starts. A waiting player's phone says whose turn it is, and keeps its open panel."""

from __future__ import annotations

import json
import re
import urllib.request

from playwright.sync_api import Browser, Page, expect

from .flows import PHONE, Api


def start_with_phone_turns_and_the_pot(banker: Page, url: str) -> None:
    """Ana and Bea's classic game, phone turns and the Free Parking pot on: the dashboard
    opens with the banker link to keep."""
    banker.goto(url + "/new")
    banker.get_by_label("Name of player 1").fill("Ana")
    banker.get_by_label("Name of player 2").fill("Bea")
    banker.get_by_label(re.compile("No banker needed")).check()
    banker.get_by_label(re.compile("Free Parking jackpot")).check()
    with banker.expect_navigation():
        banker.get_by_role("button", name="Start the game").click()


def banker_key(banker: Page) -> tuple[str, str]:
    """The game and its banker key, from the banker link the dashboard shows once."""
    link = banker.locator(".keep .link a").get_attribute("href")
    found = re.search(r"/g/([\w-]+)/\?key=([\w-]+)", link)
    return found[1], found[2]


def api(url: str, key: str, path: str, body: dict | None = None) -> str:
    """What the banker's program sends or reads with the key: another device than the page."""
    data = json.dumps(body).encode() if body is not None else None
    headers = {"X-Banker-Key": key, "Content-Type": "application/json"}
    with urllib.request.urlopen(urllib.request.Request(url + path, data, headers)) as answer:
        return answer.read().decode()


def player_link(url: str, game: str, key: str, seat: int) -> str:
    codes = api(url, key, f"/g/{game}/codes")
    section = codes[codes.index(f'id="seat{seat}"') :]
    return re.search(r'<p class="link"><a href="([^"]+)"', section)[1]


def test_h1_sg3_the_actions_list_follows_the_phones_and_keeps_focus_and_the_banker_link(
    browser: Browser, phone: Page, live_server
):
    banker = phone
    start_with_phone_turns_and_the_pot(banker, live_server)
    game, key = banker_key(banker)
    banker.evaluate("document.querySelector('.keep').dataset.seen = 'before'")
    passed_go = banker.get_by_role("link", name="Passed GO")
    passed_go.focus()
    expect(banker.get_by_role("link", name="Pay out the pot")).to_have_count(0)

    pages = [browser.new_context(viewport=PHONE, is_mobile=True).new_page() for _ in range(2)]
    ana, bea = pages
    ana.goto(player_link(live_server, game, key, 0))
    bea.goto(player_link(live_server, game, key, 1))
    expect(bea.locator(".turn-line")).to_have_text("A It is Ana's turn, not yours")
    bea.get_by_text("Pay someone").click()
    bea.get_by_placeholder("Other amount").fill("75")
    payee = bea.get_by_label("Bea pays Ana")
    payee.check()
    payee.focus()

    # R1, T1, H1: Ana throws 4 on her phone and pays the income tax into the pot.
    ana.locator('.pad button[value="4"]').click()
    ana.get_by_role(
        "button", name=re.compile("^Ana throws 4 and moves to Income Tax")
    ).first.click()

    expect(banker.get_by_role("link", name="Pay out the pot")).to_be_visible()
    expect(passed_go).to_be_focused()
    kept = banker.locator(".keep")
    expect(kept).to_have_attribute("data-seen", "before")  # the same node, not drawn again
    expect(kept).to_be_visible()
    order = "[...document.querySelectorAll('#live > *')].map(e => e.id || e.tagName)"
    shown = banker.evaluate(order)
    assert shown.index("kept") == len(shown) - 2 and shown[-1] == "NAV", shown

    expect(bea.locator(".turn")).to_contain_text("Bea's turn")  # her own pad now
    expect(bea.locator(".turn-line")).to_have_count(0)
    expect(bea.locator("details.pay")).to_have_attribute("open", "")
    expect(bea.get_by_placeholder("Other amount")).to_have_value("75")
    expect(payee).to_be_focused()
    expect(ana.locator(".turn-line")).to_have_text("B It is Bea's turn, not yours")

    # Another banker phone acts: the focused undo button names what it would take back now.
    undo = banker.get_by_role("link", name=re.compile("^Undo: "))
    expect(undo).to_have_text(re.compile("^Undo: Ana throws 4"))
    undo.focus()
    api(
        live_server,
        key,
        f"/api/games/{game}/actions",
        {"kind": "bank_pay", "player": 1, "amount": 10},
    )
    expect(undo).to_have_text("Undo: The bank pays Bea $10")
    expect(undo).to_be_focused()

    # SG3's end or the banker's word elsewhere: no more actions to take, the results instead.
    api(live_server, key, f"/api/games/{game}/actions", {"kind": "end_game"})
    expect(banker.get_by_role("link", name="The game has ended: results")).to_be_visible()
    for gone in ("Landed on…", "Passed GO", "Pay out the pot", "End the game"):
        expect(banker.get_by_role("link", name=gone)).to_have_count(0)
    expect(kept).to_have_attribute("data-seen", "before")
    for page in pages:
        page.context.close()


def test_sg3_a_focused_link_that_stays_keeps_the_focus_when_the_game_ends_elsewhere(
    phone: Page, live_server
):
    """SG3 ended on another device: the actions before "History" go, live, and the keyboard
    focus the banker had on "History" stays on it, not thrown back to the page's top."""
    game = Api(live_server, phone_turns=True)
    game.banker(phone)
    history = phone.get_by_role("link", name="History", exact=True)
    history.focus()
    game.act("end_game")
    expect(phone.get_by_role("link", name="Landed on…")).to_have_count(0)
    expect(phone.get_by_role("link", name="The game has ended: results")).to_be_visible()
    expect(history).to_be_focused()
