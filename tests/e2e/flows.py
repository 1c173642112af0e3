"""What the e2e tests share (no test module imports another): the phone's size, a game started
on the new-game page or made through the JSON API, the taps a banker makes (the dice pad, a
landing recorded by hand, money from the bank) and what a person reads (a balance)."""

from __future__ import annotations

import json
import re
import urllib.request

from playwright.sync_api import Browser, Page

from ..servers import HANG_GUARD
from ..support import setup_of

WAIT_MS = HANG_GUARD * 1000  # Playwright's waits give up after the hang guard, never sooner
PHONE = {"width": 390, "height": 844}
NARROW = {"width": 360, "height": 780}


# -- what a person reads ---------------------------------------------------------------------


def balance(page: Page, seat: int):
    """A player's cash on the banker's dashboard."""
    return page.locator(f'.cash[data-seat="{seat}"]')


def no_sideways_scroll(page: Page, width: int = PHONE["width"]) -> None:
    scrolled = page.evaluate("document.documentElement.scrollWidth")
    assert scrolled <= width, f"{page.url} is {scrolled} px wide on a {width} px phone"


def waited_until(page: Page, ready, failure) -> None:
    """Waits on the page's clock (Playwright hands over the network's events while a page
    waits) until `ready()`; else fails with `failure` (words, or what makes them then)."""
    waited = 0
    while not ready():
        assert waited < WAIT_MS, failure() if callable(failure) else failure
        page.wait_for_timeout(20)
        waited += 20


# -- the banker's taps -------------------------------------------------------------------------


def start_game(page: Page, url: str) -> None:
    """A classic game of Ana and Bea, started on the new-game page; the dashboard opens. (A
    tap on the dice pad's doubles toggle before its script runs is lost: static/app.js.)"""
    page.goto(url + "/")
    page.get_by_role("link", name="New game").click()
    page.get_by_label("Name of player 1").fill("Ana")
    page.get_by_label("Name of player 2").fill("Bea")
    with page.expect_navigation():  # until the dashboard has loaded, its scripts included
        page.get_by_role("button", name="Start the game").click()


def open_game(page: Page, url: str) -> str:
    """The banker's home page, then their game in its list: the dashboard's address."""
    page.goto(url + "/")
    with page.expect_navigation():
        page.locator(".list a").first.click()
    return page.url


def pad(page: Page, dice: int) -> None:
    """A tap on the dice pad: the turn page of that total opens."""
    page.locator(f'.pad button[value="{dice}"]').click()


def land(page: Page, who: str, space: str) -> None:
    """R1: "Landed on…", the player, the space: a move the dice pad did not see."""
    page.get_by_role("link", name="Landed on…").click()
    page.get_by_role("link", name=who).click()
    page.locator(".space", has_text=space).click()


def buy(page: Page, who: str, space: str) -> None:
    """`who` lands on a deed for sale (recorded by hand) and buys it, in one tap."""
    land(page, who, space)
    page.get_by_role("button", name=f"{who} lands on {space}; {who} buys {space}").click()


def give_cash(page: Page, who: str, amount: int) -> None:
    page.get_by_role("link", name="Bank pays / collects").click()
    page.locator(".choice", has_text=who).click()
    page.get_by_label("Amount").fill(str(amount))
    page.get_by_role("button", name="Preview").click()
    page.get_by_role("button", name=f"The bank pays {who}").click()


# -- the players' phones -----------------------------------------------------------------------


def player_links(page: Page, live_server: str) -> dict[str, str]:
    """Each player's private link, read on the banker's QR page (opened from the dashboard)."""
    with page.expect_navigation():  # the codes page, loaded: what is read below is on it
        page.get_by_role("link", name="Players' phones (QR)").click()
    links = {}
    for code in page.locator(".code").all():
        name = code.locator("h2").inner_text()
        link = code.locator(".link a")
        if link.count():
            links[name] = link.get_attribute("href")
    return links


def own_phone(browser: Browser, url: str) -> Page:
    """A player's own phone (a browser of its own) on `url`."""
    context = browser.new_context(viewport=PHONE, is_mobile=True)
    page = context.new_page()
    page.goto(url)
    return page


# -- a position reached through the API --------------------------------------------------------


class Api:
    """A game made through the JSON API with the banker key: what happened at the table
    before the flow under test. Every action goes through the rules, as a program sends it."""

    def __init__(self, url: str, names=("Ana", "Bea"), edition="us-classic", **setup) -> None:
        self.url, self.key = url, ""
        made = self.post("/api/games", {**setup_of(names=names, **setup), "edition": edition})
        self.id, self.key = made["id"], made["banker_key"]

    def post(self, path: str, body: dict) -> dict:
        request = urllib.request.Request(
            self.url + path,
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json", "X-Banker-Key": self.key},
        )
        with urllib.request.urlopen(request) as response:
            return json.loads(response.read())

    def act(self, kind: str, **fields) -> dict:
        return self.post(f"/api/games/{self.id}/actions", {"kind": kind, **fields})

    def own(self, seat: int, *deeds: int) -> None:
        """`seat` lands on each deed (recorded by the banker, no GO passed) and buys it."""
        for deed in deeds:
            self.act("land", player=seat, space=deed, choices=[{"kind": "buy"}])

    def before(self, seat: int, space: int, dice: int) -> None:
        """The banker gives `seat` the turn, their token `dice` spaces behind `space`."""
        self.act("turn_to", player=seat)
        self.act("place", player=seat, space=(space - dice) % 40)

    @property
    def dashboard(self) -> str:
        return f"{self.url}/g/{self.id}/"

    def banker(self, page: Page) -> None:
        """The banker link opened on `page`: that browser is the game's banker."""
        page.goto(f"{self.dashboard}?key={self.key}")

    def codes(self) -> str:
        """The banker's QR page, as the banker's program reads it."""
        request = urllib.request.Request(
            f"{self.url}/g/{self.id}/codes", headers={"X-Banker-Key": self.key}
        )
        with urllib.request.urlopen(request) as response:
            return response.read().decode()

    def table_url(self) -> str:
        """The table screen's address, read on the banker's QR page."""
        page = self.codes()
        start = page.index(f"{self.url}/t/")
        return page[start : page.index('"', start)]

    def player_url(self, seat: int) -> str:
        """A player's private link, read on the banker's QR page."""
        page = self.codes()
        section = page[page.index(f'id="seat{seat}"') :]
        return re.search(r'<p class="link"><a href="([^"]+)"', section).group(1)
