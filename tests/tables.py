"""`WebTable`, the game behind the `table` fixture (tests/conftest.py): a game played through
Flask's test client the way a table plays it: the banker's phone (the client that made the
game, its pages and buttons), the JSON API (with the banker key), and the players' own phones
(their private links). And what the tests read off an app: a game's `snapshot`, a refusal's
words (`refused_with_words` from the API, `refusal` on a page).

The board is set up through play, never by writing the state: a deed is owned after a landing
on it and a buy (`own`), cash comes from the bank (`bank_pay`), a debt from a throw onto a
rent the debtor cannot pay. What a person reads is the page with its tags taken out (`text`).
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from unittest.mock import patch

from tablebank import bank
from tablebank.models import Game, db
from tablebank.rules import GameState

from .support import setup_of

COLOURS = ["#e03131", "#1971c2", "#2f9e44", "#f08c00"]


class WebTable:
    """One game at a time, through one app: `client` is the banker's phone."""

    def __init__(self, app, client) -> None:
        self.app, self.client = app, client
        self.id = ""
        self.headers: dict[str, str] = {}

    # -- a new game ----------------------------------------------------------------------

    def new_game(self, names=("Ana", "Bea"), mode="classic", **form) -> str:
        """A game made on the new-game page by the banker's phone (the form's options as
        "on"); its id, and the banker key kept for the API."""
        data = {"edition": "us-classic", "starting_cash": "1500", "mode": mode}
        if mode == "timed":  # app.js sends the browser's time zone (TL1: its end time's)
            data["time_zone"] = "UTC"
        data.update({f"name{i}": name for i, name in enumerate(names)})
        data.update({f"colour{i}": colour for i, colour in enumerate(COLOURS)})
        data.update(form)
        made = self.client.post("/new", data=data)
        assert made.status_code == 302, made.text
        self.id = made.headers["Location"].split("/")[2]
        with self.app.app_context():
            self.headers = {"X-Banker-Key": db.session.get(Game, self.id).banker_key}
        return self.id

    def new_api_game(self, names=("Ana", "Bea", "Cal"), **setup) -> str:
        """A game made through the API (the product's defaults for what `setup` leaves out);
        the banker's phone then opens the banker link, so its pages work too."""
        made = self.client.post("/api/games", json=setup_of(names, **setup))
        assert made.status_code == 201, made.get_json()
        body = made.get_json()
        self.id, self.headers = body["id"], {"X-Banker-Key": body["banker_key"]}
        assert self.client.get(f"/g/{self.id}/?key={body['banker_key']}").status_code == 302
        return self.id

    # -- acting --------------------------------------------------------------------------

    def send(self, kind: str, **fields):
        """An action through the API, as the banker's program sends it: the raw answer."""
        body = {"kind": kind, **fields}
        return self.client.post(f"/api/games/{self.id}/actions", json=body, headers=self.headers)

    def act(self, kind: str, status: int = 201, **fields) -> dict:
        """An action through the API, answered with `status` (201: done): the answer's JSON."""
        answer = self.send(kind, **fields)
        assert answer.status_code == status, (kind, fields, answer.get_json())
        return answer.get_json()

    def preview(self, kind: str, **fields):
        body = {"kind": kind, **fields}
        return self.client.post(f"/api/games/{self.id}/preview", json=body, headers=self.headers)

    def do(self, kind: str, **payload):
        """A banker's button: the kind and its JSON payload, posted to the one door."""
        data = {"kind": kind, "payload": json.dumps(payload)}
        answer = self.client.post(f"/g/{self.id}/do", data=data)
        assert answer.status_code == 302, answer.text
        return answer

    def press(self, page: str, words: str, client=None):
        """A tap on the button of `page` whose words (or the words it says to a screen
        reader) start with `words`; it must be there and enabled. Its form is posted as the
        browser posts it, hidden fields and all."""
        for form in re.findall(r"<form\b[^>]*>.*?</form>", page, re.S):
            found = re.search(r"<button([^>]*)>(.*?)</button>", form, re.S)
            said = re.search(r'aria-label="([^"]*)"', found.group(1)) if found else None
            if found and any(
                self.text(label).startswith(words) for label in (found[2], said and said[1] or "")
            ):
                assert "disabled" not in found.group(1), f"{words!r} is refused"
                action = html.unescape(re.search(r'action="([^"]*)"', form).group(1))
                fields = re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form)
                data = {name: html.unescape(value) for name, value in fields}
                return (client or self.client).post(action, data=data)
        raise AssertionError(f"no button {words!r} in {[b for b, _ in self.buttons(page)]}")

    def dice(self, page: str, total: int, doubles: bool = False, client=None):
        """A tap on the dice pad of `page` (the first): the turn page it opens, as the
        browser asks for it, with the seat and the version the pad was drawn for."""
        form = re.search(r'<form method="get" action="([^"]+)" class="pad".*?</form>', page, re.S)
        assert form, "no dice pad on the page"
        fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form[0]))
        fields["dice"] = str(total)
        if doubles:
            fields["doubles"] = "1"
        return (client or self.client).get(html.unescape(form[1]), query_string=fields)

    def phone_do(self, seat: int, kind: str, phone=None, **payload):
        """A player's phone (`phone`, else a browser of its own) sends an action from their
        page."""
        data = {"kind": kind, "payload": json.dumps(payload)}
        return (phone or self.app.test_client()).post(f"{self.phone(seat)}/do", data=data)

    # -- play, the way the table plays -----------------------------------------------------

    def roll(self, seat: int, dice: int, doubles: bool = False, *choices: dict) -> dict:
        """`seat` throws `dice`; `choices` answer what the landing leaves, in order."""
        fields = {"player": seat, "dice": dice, "doubles": doubles}
        if choices:
            fields["choices"] = list(choices)
        return self.act("roll", **fields)

    def throws_onto(self, seat: int, space: int, dice: int = 7, *choices: dict) -> dict:
        """The banker gives `seat` the turn and puts the token `dice` spaces before `space`
        (never past GO), then `seat` throws `dice`, not doubles."""
        assert space >= dice, "the throw would pass GO"
        self.act("turn_to", player=seat)
        self.act("place", player=seat, space=space - dice)
        return self.roll(seat, dice, False, *choices)

    def own(self, seat: int, *deeds: int) -> None:
        """`seat` lands on each deed (the banker records the landing, no GO passed) and buys
        it at its printed price."""
        for deed in deeds:
            self.act("land", player=seat, space=deed, choices=[{"kind": "buy"}])

    # -- reading -------------------------------------------------------------------------

    def state(self) -> GameState:
        with self.app.app_context():
            return GameState.from_dict(db.session.get(Game, self.id).state)

    def cash(self) -> list[int]:
        return [p.cash for p in self.state().players]

    def game(self) -> dict:
        """The game as the API gives it."""
        return self.client.get(f"/api/games/{self.id}", headers=self.headers).get_json()

    def history(self) -> list[dict]:
        return self.client.get(f"/api/games/{self.id}/actions", headers=self.headers).get_json()

    def tokens(self) -> list[str]:
        with self.app.app_context():
            players = db.session.get(Game, self.id).players
            return [p.token for p in sorted(players, key=lambda p: p.seat)]

    def phone(self, seat: int) -> str:
        """The address of a player's own page."""
        return f"/p/{self.tokens()[seat]}"

    def screen(self) -> str:
        """The address of the table screen (the TV)."""
        with self.app.app_context():
            return f"/t/{db.session.get(Game, self.id).table_token}"

    def page(self, url: str, client=None, status: int = 200) -> str:
        answer = (client or self.client).get(url)
        assert answer.status_code == status, (url, answer.status_code)
        return answer.text

    def read(self, url: str, client=None, status: int = 200) -> str:
        """The page at `url` as a person reads it."""
        return self.text(self.page(url, client, status))

    @staticmethod
    def paid(answer: dict) -> list[tuple[int | None, int | None, int]]:
        """Who paid whom how much in an API answer, in order: (payer, payee, amount), None
        the bank."""
        return [(m["payer"], m["payee"], m["amount"]) for m in answer["movements"]]

    @staticmethod
    def text(page: str) -> str:
        """HTML as a person reads it: tags out, entities decoded, spaces folded."""
        return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())

    @classmethod
    def buttons(cls, page: str) -> list[tuple[str, bool]]:
        """Every button's words, and whether it can be pressed."""
        found = re.findall(r"<button([^>]*)>(.*?)</button>", page, re.S)
        return [(cls.text(words), "disabled" not in attrs) for attrs, words in found]

    @classmethod
    def button(cls, page: str, words: str) -> bool:
        """Whether the button whose words start with `words` can be pressed (fails if absent)."""
        matches = [enabled for label, enabled in cls.buttons(page) if label.startswith(words)]
        assert matches, f"no button {words!r} in {[b for b, _ in cls.buttons(page)]}"
        return matches[0]


@contextmanager
def clock_at(when: str) -> Iterator[None]:
    """TL1: the bank's clock reads `when` (UTC) for the length of the block: a time-limited
    game made before its end (the door refuses an end already passed) sees its time run out."""
    moved = datetime.fromisoformat(when).replace(tzinfo=UTC)
    with patch.object(bank, "datetime", wraps=datetime) as clock:
        clock.now.return_value = moved
        clock.fromisoformat.side_effect = datetime.fromisoformat
        yield


def snapshot(app, game_id) -> tuple[int, dict]:
    """A game's version and stored state, as the database holds them now."""
    with app.app_context():
        game = db.session.get(Game, game_id)
        found = (game.version, game.state)
        db.session.remove()
    return found


def refusal(page) -> str:
    """The red banner a page shows after a refused action."""
    assert page.status_code == 200
    found = re.search(r'<div class="flash error" role="alert">([^<]+)</div>', page.text)
    assert found, page.text[:2000]
    return found.group(1)


def refused_with_words(response, status=(400, 422)) -> str:
    """An API refusal: its status, and its words (what it says)."""
    assert response.status_code in status, response.get_data(as_text=True)
    message = response.get_json()["error"]
    assert isinstance(message, str) and len(message) > 5
    return message
