"""A long game's pages read a bounded slice of the log: the undo button, the history a page at
a time, a player's own history, the net-worth chart. None of them replays the log, and undo
still gives back exactly the state before the action it takes back (the log's own rule)."""

from __future__ import annotations

import html
import re

import pytest
from tablebank import bank, logbook
from tablebank.models import Game, db
from tablebank.rules import score

from ..support import BOARDWALK, PARK_PLACE, US


@pytest.fixture
def game(table):
    """A classic US game for Ana, Bea and Cal made through the API; this test client is
    also the banker's phone."""
    table.new_api_game()
    return table


def snapshot(app, game_id) -> dict:
    with app.app_context():
        return db.session.get(Game, game_id).state


def replayed(app, game_id) -> dict:
    with app.app_context():
        game = db.session.get(Game, game_id)
        return logbook.replayed_state(game, bank.edition_of(game)).to_dict()


def test_undo_after_undo_takes_back_the_next_action_still_in_force(app, game):
    """Undo is a stack: each undo takes back the latest action still in force, and leaves the
    game exactly as it was before that action (the snapshot equals the replayed log)."""
    states = [snapshot(app, game.id)]
    game.own(0, BOARDWALK)  # Ana lands on Boardwalk and buys it: one action
    states.append(snapshot(app, game.id))
    game.act("transfer", **{"from": 1, "to": 2, "amount": 75})
    states.append(snapshot(app, game.id))
    game.act("land", player=1, space=BOARDWALK)  # the banker records Bea's landing

    undo = "Undo: Bea lands on Boardwalk; Bea pays Ana $50 rent for Boardwalk"
    assert undo in game.read(f"/g/{game.id}/")
    game.act("undo")
    assert snapshot(app, game.id) == states[2] == replayed(app, game.id)
    assert "Undo: Bea pays Cal $75" in game.read(f"/g/{game.id}/")
    game.act("undo")
    assert snapshot(app, game.id) == states[1] == replayed(app, game.id)

    game.own(2, PARK_PLACE)  # a new action after two undos
    assert "Undo: Cal lands on Park Place; Cal buys Park Place" in game.read(f"/g/{game.id}/")
    game.act("undo")
    game.act("undo")
    assert snapshot(app, game.id) == states[0] == replayed(app, game.id)
    refused = game.act("undo", 400)
    assert "nothing to undo" in refused["error"]


def page_text(table, url: str) -> str:
    return html.unescape(table.page(url))


def test_history_comes_a_page_at_a_time_newest_first_with_undone_ones_marked(game):
    for n in range(1, 121):
        game.act("bank_pay", player=n % 3, amount=n)
    game.act("undo")  # takes back #120, the bank paying Ana $120

    first = page_text(game, f"/g/{game.id}/history")
    seqs = [int(s) for s in re.findall(r'class="seq">#(\d+)<', first)]
    assert seqs == list(range(121, 71, -1))
    assert re.search(r'class="undone[^"]*">\s*<span class="seq">#120</span>', first)
    older = re.search(r'href="\?before=(\d+)"', first).group(1)
    second = page_text(game, f"/g/{game.id}/history?before={older}")
    assert [int(s) for s in re.findall(r'class="seq">#(\d+)<', second)] == list(range(71, 21, -1))
    last = page_text(game, f"/g/{game.id}/history?before=22")
    assert [int(s) for s in re.findall(r'class="seq">#(\d+)<', last)] == list(range(21, 0, -1))
    assert "?before=" not in last  # no older page after the first action


def test_an_older_history_page_marks_the_actions_undone_from_a_newer_one(game):
    for n in range(1, 61):
        game.act("bank_pay", player=0, amount=n)
    for _ in range(51):
        game.act("undo")  # #61 to #111 take back #60 down to #10

    def undone_on(url: str) -> list[int]:
        text = page_text(game, url)
        return [
            int(s) for s in re.findall(r'class="undone[^"]*">\s*<span class="seq">#(\d+)<', text)
        ]

    assert undone_on(f"/g/{game.id}/history") == []  # #111 to #62: the undos themselves
    assert undone_on(f"/g/{game.id}/history?before=62") == list(range(60, 11, -1))
    assert undone_on(f"/g/{game.id}/history?before=12") == [11, 10]


def test_api_history_pages_follow_the_link_header(game):
    for n in range(1, 8):
        game.act("bank_pay", player=0, amount=n)
    seen, url = [], f"/api/games/{game.id}/actions?limit=3"
    while url:
        answer = game.client.get(url, headers=game.headers)
        seen += [entry["seq"] for entry in answer.get_json()]
        link = answer.headers.get("Link")
        url = re.match(r'<([^>]+)>; rel="next"', link).group(1) if link else None
    assert seen == [7, 6, 5, 4, 3, 2, 1]


def test_a_players_page_shows_their_latest_actions_and_the_rest_a_page_at_a_time(game):
    for n in range(1, 31):
        game.act("bank_pay", player=0, amount=n)  # Ana's
        game.act("bank_pay", player=1, amount=1000 + n)  # Bea's, not Ana's
    game.act("transfer", **{"from": 1, "to": 0, "amount": 7})  # both of theirs

    phone = page_text(game, game.phone(0))
    mine = re.search(r'<ol class="list history">(.*?)</ol>', phone, re.S).group(1)
    assert mine.count("<li") == 20
    assert "Bea pays Ana $7" in mine and "$1,030" not in mine
    assert "The bank pays Ana $30" in mine and "The bank pays Ana $12" in mine
    assert "The bank pays Ana $11" not in mine
    everything = page_text(game, f"{game.phone(0)}/history")
    assert everything.count('class="seq"') == 31
    older = re.search(r'href="\?before=(\d+)"', everything)
    assert older is None  # 31 rows fit on one page


def test_sg4_the_worth_chart_ends_at_every_players_score_and_skips_undone_actions(app, game):
    game.own(0, BOARDWALK)
    game.act("bank_pay", player=1, amount=999)
    game.act("undo")
    with app.app_context():
        from tablebank.web.endgame import worth_over_time

        found = db.session.get(Game, game.id)
        series = worth_over_time(found)
        state = bank.state_of(found)
    ana_after_buy = 1500 - US.spaces[BOARDWALK].price + US.spaces[BOARDWALK].price
    assert series == [(0, [1500, 1500, 1500]), (1, [ana_after_buy, 1500, 1500])]
    assert series[-1][1] == [score(state, US, seat) for seat in range(3)]


def test_sg4_a_long_games_chart_shows_evenly_spaced_points_first_and_last_kept(app, game):
    for amount in (10, 20, 30, 40):
        game.act("bank_pay", player=2, amount=amount)
    with app.app_context():
        from tablebank.web.endgame import worth_over_time

        series = worth_over_time(db.session.get(Game, game.id), most=3)
    assert series == [(0, [1500, 1500, 1500]), (2, [1500, 1500, 1530]), (4, [1500, 1500, 1600])]


def test_no_page_replays_or_reads_the_whole_log(app, game, monkeypatch):
    """The pages a game shows all evening are drawn from the snapshot and a bounded slice of
    the log; replaying it, or reading it whole, is only for tests, recovery and export."""
    game.own(0, BOARDWALK)
    game.throws_onto(1, BOARDWALK)  # rent to Ana
    game.act("undo")
    phone, screen = game.phone(1), game.screen()

    def whole_log(*_args, **_kwargs):
        raise AssertionError("a page read the whole log")

    monkeypatch.setattr(logbook, "log_entries", whole_log)
    monkeypatch.setattr(logbook, "replay", whole_log)
    for url in (
        f"/g/{game.id}/",
        f"/g/{game.id}/?fragment=1",
        f"/g/{game.id}/undo",
        f"/g/{game.id}/history",
        f"/g/{game.id}/results",
        f"/g/{game.id}/land/1/{BOARDWALK}",
        phone,
        f"{phone}?fragment=1",
        f"{phone}/history",
        screen,
        f"{screen}?fragment=1",
    ):
        page_text(game, url)
    game.act("undo")  # the undo itself loads a checkpoint, it does not replay
    after = snapshot(app, game.id)["players"]
    assert after[1]["position"] == 0  # Bea's token put before the throw: taken back
    assert after[0]["cash"] == 1500 - US.spaces[BOARDWALK].price
