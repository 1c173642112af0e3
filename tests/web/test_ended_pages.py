"""K4, SG3, TL1, SG4: the banker's pages for doing something, opened on a finished game (a typed
address, a bookmark, Back), say once that the game has ended, in the rules core's words, with
the way to the results, and draw no form: only the post was refused before. The game ended
each way: the banker's word, the clock, a bankruptcy that leaves one player."""

from __future__ import annotations

import re

import pytest

from ..support import BOARDWALK, READING
from ..tables import clock_at
from .test_property_endgame_pages import bea_cannot_pay_ana

ACTION_PAGES = (
    "pick/pass_go",
    "pick/go_to_jail",
    "pick/parking_pot",
    "land",
    "land/0",
    f"land/0/{READING}",
    "money",
    "money?kind=bank_collect&player=0&amount=5",
    "transfer",
    "transfer?from=0&to=1&amount=5",
    "build",
    "build?player=0",
    "mortgages?player=0",
    "trade",
    f"trade?player=0&partner=1&give_deeds={BOARDWALK}&cash=5",
    "auction",
    "bankrupt?player=1",
    "deal",
    "end",
    "player/0",
    "codes",
)
BANKER_ENDS = "The banker ended this game: the richest won. See the results."
CLOCK_ENDS = "This time-limited game has ended. See the results."
ANA_IS_LEFT = "Ana is the last player left: the game has ended."


def said_once_without_a_form(table, path: str, words: str) -> None:
    page = table.page(f"/g/{table.id}/{path}")
    assert table.text(page).count(words) == 1, path
    assert "<form" not in page and table.buttons(page) == [], path
    assert f'href="/g/{table.id}/results"' in page, path


def test_sg4_a_game_the_banker_ended_draws_no_form_on_any_action_page(table):
    table.new_game()
    table.do("end_game")
    table.page(f"/g/{table.id}/")  # the flashes of the end are read there
    for path in ACTION_PAGES:
        said_once_without_a_form(table, path, BANKER_ENDS)
    undo = table.page(f"/g/{table.id}/undo")  # the core still takes the end back
    assert table.button(undo, "Undo: The game ends")


def test_k4_a_game_left_with_one_player_draws_no_form_on_any_action_page(table):
    table.new_game()
    bea_cannot_pay_ana(table, BOARDWALK)
    table.do("bankrupt", player=1)
    table.page(f"/g/{table.id}/")
    for path in (*ACTION_PAGES, "player/1"):
        said_once_without_a_form(table, path, ANA_IS_LEFT)


def test_tl1_an_action_page_opened_after_the_end_time_ends_the_game_and_draws_no_form(table):
    """The clock ends the game at the first page opened after its end time, whichever it is."""
    table.new_game(mode="timed", ends_at="2099-01-01T20:00")
    table.page(f"/g/{table.id}/deal")
    with clock_at("2099-01-01T20:01"):
        assert not table.state().ended
        for path in ACTION_PAGES:
            said_once_without_a_form(table, path, CLOCK_ENDS)
    assert table.state().ended


def test_tl1_a_page_opened_before_the_end_time_still_draws_its_form(table):
    table.new_game(mode="timed", ends_at="2099-01-01T20:00")
    with clock_at("2099-01-01T19:59"):
        page = table.page(f"/g/{table.id}/money")
    assert "<form" in page and CLOCK_ENDS not in table.text(page)


@pytest.mark.parametrize(
    "path, status",
    [
        ("land/0/99", 404),
        ("land/9", 404),
        ("player/9", 404),
        ("pick/roll", 404),
        ("money?player=x&amount=-1e9&kind=x", 200),
        ("money?note=%00", 400),
        ("transfer?from=&to=9&amount=", 200),
        ("trade?player=zz&partner=0&give_deeds=x", 200),
        ("bankrupt?player=-1&lift=x", 200),
        ("deal?hand0=zz", 200),
    ],
)
def test_sg4_bad_addresses_of_a_finished_game_are_answered_safely(table, path, status):
    """Bad input on a finished game: no such page (404) or the game's end, never a 500."""
    table.new_game()
    table.do("end_game")
    table.page(f"/g/{table.id}/")
    page = table.page(f"/g/{table.id}/{path}", status=status)
    assert "<form" not in page.split("<footer")[0]


def test_tl1_a_phone_s_deeds_and_trade_pages_opened_after_the_end_time_end_the_game(table, app):
    """With phone turns on, a player's deeds or trade page is the first page opened after the
    end time: the clock ends the game there, as the phone's own page does, and it says so
    once and offers nothing (it offered mortgages and a trade of a game already over)."""
    table.new_game(mode="timed", ends_at="2099-01-01T20:00")
    table.do("phone_turns", allow=True)
    table.page(f"/g/{table.id}/deal")
    for path in ("deeds", "trade?partner=1"):
        with clock_at("2099-01-01T20:01"):
            page = table.page(f"{table.phone(0)}/{path}", app.test_client())
        assert table.text(page).count(CLOCK_ENDS) == 1, path
        assert table.buttons(page) == [] and "<form" not in page, path
        assert table.state().ended


def refused_throw(table, answer, words: str) -> None:
    """A throw's page that takes no throw: the core's words as its heading, nothing done,
    nothing to confirm."""
    assert answer.status_code == 409
    heading = re.search(r"<h1[^>]*>(.*?)</h1>", answer.text, re.S)[1]
    assert table.text(heading) == words
    assert "Nothing was done." in table.text(answer.text)
    assert table.buttons(answer.text) == [] and "<form" not in answer.text


def test_tl1_a_throw_tapped_after_the_end_time_ends_the_game_and_offers_no_landing(table, app):
    """R1, TL1: a throw on the dice pad (a phone's with phone turns on, then the banker's), the
    pad drawn before the end time and tapped after it: the game's end in the core's words,
    nothing to confirm. It offered the landing of a throw in a game already over."""
    table.new_game(mode="timed", ends_at="2099-01-01T20:00")
    table.do("phone_turns", allow=True)
    table.do("deal", hands=[[BOARDWALK, READING], [1, 3]])  # SG1, for TL1
    phone = app.test_client()
    pads = table.page(table.phone(0), phone), table.page(f"/g/{table.id}/")
    with clock_at("2099-01-01T20:01"):
        for pad, client in zip(pads, (phone, table.client), strict=True):
            refused_throw(table, table.dice(pad, 7, client=client), CLOCK_ENDS)
            assert table.state().ended


def test_sg4_a_throw_tapped_on_a_game_the_banker_ended_offers_no_landing(table):
    """R1, SG4: a dice pad drawn before the banker ended the game (another tab, Back)."""
    table.new_game()
    pad = table.page(f"/g/{table.id}/")
    table.do("end_game")
    table.page(f"/g/{table.id}/")
    refused_throw(table, table.dice(pad, 7), BANKER_ENDS)
