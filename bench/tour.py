"""Every kind of page of one game grown through the API, for bench/a11y.py (axe-core and
Lighthouse over them all): the banker's pages, a player's phone pages, the table screen, the
results. The bench's own copy of the list the e2e tests keep (the benchmarks import nothing
from tests/)."""

from __future__ import annotations

from dataclasses import dataclass, field

from playwright.sync_api import BrowserContext

from .common import BenchError

PLAYERS = [("Ana", "#e03131"), ("Bea", "#1971c2"), ("Cy", "#2b8a3e")]


@dataclass
class Tour:
    url: str
    game: str
    key: str
    tokens: dict[str, str] = field(default_factory=dict)
    table: str = ""

    def banker_pages(self) -> list[str]:
        g = f"/g/{self.game}"
        return [
            "/",
            "/new",
            f"{g}/",
            f"{g}/turn?seat=0&dice=8&v={self.version}",
            f"{g}/history",
            f"{g}/player/0",
            f"{g}/pick/pass_go",
            f"{g}/land",
            f"{g}/land/1",
            f"{g}/land/1/39",
            f"{g}/money",
            f"{g}/transfer?from=1&to=0&amount=50",
            f"{g}/undo",
            f"{g}/build?player=0",
            f"{g}/mortgages?player=1",
            f"{g}/trade?player=0&partner=1&give_deeds=37&cash=100",
            f"{g}/codes",
            f"{g}/codes/1/new",
            f"{g}/codes/banker-key",
            f"{g}/auction",
            f"{g}/bankrupt",
            f"{g}/deal",
            f"{g}/end",
            f"{g}/results",
            f"{g}/nowhere",  # an error page
        ]

    def phone_pages(self) -> list[str]:
        p = f"/p/{self.tokens['Ana']}"
        return [
            p,
            f"{p}/history",
            f"{p}/deeds",
            f"{p}/trade?partner=1&give_deeds=37",
            f"{p}/preview?to=1&amount=50",
        ]

    def table_pages(self) -> list[str]:
        return [f"/t/{self.table}"]

    def all_pages(self) -> list[str]:
        return [*self.banker_pages(), *self.phone_pages(), *self.table_pages()]

    version: int = 0


def grown_game(context: BrowserContext, url: str, phone_turns: bool = True) -> Tour:
    """Ana holds the dark blues with a house on each, Bea a mortgaged Baltic Avenue, Cy
    nothing; the browser context is the banker's (it opened the banker link)."""
    api = context.request
    players = [{"name": n, "colour": c} for n, c in PLAYERS]
    setup = {"edition": "us-classic", "players": players, "phone_turns": phone_turns}
    made = api.post(f"{url}/api/games", data=setup)
    if not made.ok:
        raise BenchError(made.text())
    body = made.json()
    tour = Tour(url, body["id"], body["banker_key"])
    for kind, fields in [
        ("land", {"player": 0, "space": 37, "choices": [{"kind": "buy"}]}),
        ("land", {"player": 0, "space": 39, "choices": [{"kind": "buy"}]}),
        ("build", {"player": 0, "group": "dark_blue", "levels": "1,1"}),
        ("land", {"player": 1, "space": 3, "choices": [{"kind": "buy"}]}),
        ("mortgage", {"player": 1, "deed": 3}),
        ("turn_to", {"player": 0}),
    ]:
        tour.version = act(context, tour, kind, fields)
    page = context.new_page()
    page.goto(f"{url}/g/{tour.game}/?key={tour.key}")
    page.goto(f"{url}/g/{tour.game}/codes")
    for code in page.locator(".code").all():
        link = code.locator(".link a")
        if link.count():
            tour.tokens[code.locator("h2").inner_text()] = link.get_attribute("href").split("/")[-1]
    tour.table = tour.tokens.pop("Table screen")
    page.close()
    return tour


def act(context: BrowserContext, tour: Tour, kind: str, fields: dict) -> int:
    """An action through the API with the banker key: the game's version after it."""
    answer = context.request.post(
        f"{tour.url}/api/games/{tour.game}/actions",
        data={"kind": kind, **fields},
        headers={"X-Banker-Key": tour.key},
    )
    if not answer.ok:
        raise BenchError(f"{kind}: {answer.text()}")
    return answer.json()["game"]["version"]
