"""A long game's pages read a bounded slice of the log: the undo button, the history a page at
a time, a player's own history, the net-worth chart. None of them replays the log, and undo
still gives back exactly the state before the action it takes back (the log's own rule)."""

from __future__ import annotations

import html
import re

import pytest
from tablebank import bank
from tablebank.models import Game, db
from tablebank.rules import score

from ..support import ALL_EDITIONS, setup_of

US = ALL_EDITIONS["us-classic"]
BOARDWALK, PARK_PLACE = 39, 37


@pytest.fixture
def game(client):
    made = client.post("/api/games", json=setup_of()).get_json()
    with client.session_transaction() as session:
        session["banker_of"] = [made["id"]]  # this test client is the banker's phone
    return made["id"], {"X-Banker-Key": made["banker_key"]}


def act(client, game, kind, **fields):
    game_id, headers = game
    answer = client.post(
        f"/api/games/{game_id}/actions", json={"kind": kind, **fields}, headers=headers
    )
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


def snapshot(app, game_id) -> dict:
    with app.app_context():
        return db.session.get(Game, game_id).state


def replayed(app, game_id) -> dict:
    with app.app_context():
        return bank.replayed_state(db.session.get(Game, game_id)).to_dict()


def page_text(client, url: str) -> str:
    answer = client.get(url)
    assert answer.status_code == 200, url
    return html.unescape(answer.text)


def test_undo_after_undo_takes_back_the_next_action_still_in_force(client, app, game):
    """Undo is a stack: each undo takes back the latest action still in force, and leaves the
    game exactly as it was before that action (the snapshot equals the replayed log)."""
    game_id, _ = game
    states = [snapshot(app, game_id)]
    act(client, game, "buy", player=0, deed=BOARDWALK)
    states.append(snapshot(app, game_id))
    act(client, game, "transfer", **{"from": 1, "to": 2, "amount": 75})
    states.append(snapshot(app, game_id))
    act(client, game, "rent", player=1, deed=BOARDWALK)

    assert "Undo: Bea pays Ana $50 rent for Boardwalk" in page_text(client, f"/g/{game_id}/")
    act(client, game, "undo")
    assert snapshot(app, game_id) == states[2] == replayed(app, game_id)
    assert "Undo: Bea pays Cal $75" in page_text(client, f"/g/{game_id}/")
    act(client, game, "undo")
    assert snapshot(app, game_id) == states[1] == replayed(app, game_id)

    act(client, game, "buy", player=2, deed=PARK_PLACE)  # a new action after two undos
    assert "Undo: Cal buys Park Place" in page_text(client, f"/g/{game_id}/")
    act(client, game, "undo")
    act(client, game, "undo")
    assert snapshot(app, game_id) == states[0] == replayed(app, game_id)
    refused = client.post(f"/api/games/{game_id}/actions", json={"kind": "undo"}, headers=game[1])
    assert refused.status_code == 400 and "nothing to undo" in refused.get_json()["error"]


def test_history_comes_a_page_at_a_time_newest_first_with_undone_ones_marked(client, game):
    game_id, _ = game
    for n in range(1, 121):
        act(client, game, "bank_pay", player=n % 3, amount=n)
    act(client, game, "undo")  # takes back #120, the bank paying Ana $120

    first = page_text(client, f"/g/{game_id}/history")
    seqs = [int(s) for s in re.findall(r'class="seq">#(\d+)<', first)]
    assert seqs == list(range(121, 71, -1))
    assert re.search(r'class="undone[^"]*">\s*<span class="seq">#120</span>', first)
    older = re.search(r'href="\?before=(\d+)"', first).group(1)
    second = page_text(client, f"/g/{game_id}/history?before={older}")
    assert [int(s) for s in re.findall(r'class="seq">#(\d+)<', second)] == list(range(71, 21, -1))
    last = page_text(client, f"/g/{game_id}/history?before=22")
    assert [int(s) for s in re.findall(r'class="seq">#(\d+)<', last)] == list(range(21, 0, -1))
    assert "?before=" not in last  # no older page after the first action


def test_api_history_pages_follow_the_link_header(client, game):
    game_id, headers = game
    for n in range(1, 8):
        act(client, game, "bank_pay", player=0, amount=n)
    seen, url = [], f"/api/games/{game_id}/actions?limit=3"
    while url:
        answer = client.get(url, headers=headers)
        seen += [entry["seq"] for entry in answer.get_json()]
        link = answer.headers.get("Link")
        url = re.match(r'<([^>]+)>; rel="next"', link).group(1) if link else None
    assert seen == [7, 6, 5, 4, 3, 2, 1]


def test_a_players_page_shows_their_latest_actions_and_the_rest_a_page_at_a_time(client, game):
    game_id, headers = game
    for n in range(1, 31):
        act(client, game, "bank_pay", player=0, amount=n)  # Ana's
        act(client, game, "bank_pay", player=1, amount=1000 + n)  # Bea's, not Ana's
    act(client, game, "transfer", **{"from": 1, "to": 0, "amount": 7})  # both of theirs
    token = player_token(app=client.application, game_id=game_id, seat=0)

    phone = page_text(client, f"/p/{token}")
    mine = re.search(r'<ol class="list history">(.*?)</ol>', phone, re.S).group(1)
    assert mine.count("<li") == 20
    assert "Bea pays Ana $7" in mine and "$1,030" not in mine
    assert "The bank pays Ana $30" in mine and "The bank pays Ana $12" in mine
    assert "The bank pays Ana $11" not in mine
    everything = page_text(client, f"/p/{token}/history")
    assert everything.count('class="seq"') == 31
    older = re.search(r'href="\?before=(\d+)"', everything)
    assert older is None  # 31 rows fit on one page


def player_token(app, game_id: str, seat: int) -> str:
    with app.app_context():
        return next(p.token for p in db.session.get(Game, game_id).players if p.seat == seat)


def test_sg4_the_worth_chart_ends_at_every_players_score_and_skips_undone_actions(
    client, app, game
):
    game_id, _ = game
    act(client, game, "buy", player=0, deed=BOARDWALK)
    act(client, game, "bank_pay", player=1, amount=999)
    act(client, game, "undo")
    with app.app_context():
        from tablebank.web.endgame import worth_over_time

        found = db.session.get(Game, game_id)
        series = worth_over_time(found)
        state = bank.state_of(found)
    ana_after_buy = 1500 - US.spaces[BOARDWALK].price + US.spaces[BOARDWALK].price
    assert series == [(0, [1500, 1500, 1500]), (1, [ana_after_buy, 1500, 1500])]
    assert series[-1][1] == [score(state, US, seat) for seat in range(3)]


def test_sg4_a_long_games_chart_shows_evenly_spaced_points_first_and_last_kept(client, app, game):
    game_id, _ = game
    for amount in (10, 20, 30, 40):
        act(client, game, "bank_pay", player=2, amount=amount)
    with app.app_context():
        from tablebank.web.endgame import worth_over_time

        series = worth_over_time(db.session.get(Game, game_id), most=3)
    assert series == [(0, [1500, 1500, 1500]), (2, [1500, 1500, 1530]), (4, [1500, 1500, 1600])]


def test_no_page_replays_or_reads_the_whole_log(client, app, game, monkeypatch):
    """The pages a game shows all evening are drawn from the snapshot and a bounded slice of
    the log; replaying it, or reading it whole, is only for tests, recovery and export."""
    game_id, _ = game
    act(client, game, "buy", player=0, deed=BOARDWALK)
    act(client, game, "rent", player=1, deed=BOARDWALK)
    act(client, game, "undo")
    token = player_token(app, game_id, 1)
    with app.app_context():
        table = db.session.get(Game, game_id).table_token

    def whole_log(*_args, **_kwargs):
        raise AssertionError("a page read the whole log")

    monkeypatch.setattr(bank, "log_of", whole_log)
    monkeypatch.setattr(bank, "replay", whole_log)
    for url in (
        f"/g/{game_id}/",
        f"/g/{game_id}/?fragment=1",
        f"/g/{game_id}/undo",
        f"/g/{game_id}/history",
        f"/g/{game_id}/results",
        f"/p/{token}",
        f"/p/{token}?fragment=1",
        f"/p/{token}/history",
        f"/t/{table}",
        f"/t/{table}?fragment=1",
    ):
        page_text(client, url)
    act(client, game, "undo")  # the undo itself loads a checkpoint, it does not replay
    assert snapshot(app, game_id)["players"][0]["cash"] == 1500
