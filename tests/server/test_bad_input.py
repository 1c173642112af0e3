"""Bad input, wherever it comes in (the JSON API, the banker's forms, a player's phone): each
bad amount, deed or player is refused with a message in words, and nothing changes."""

from __future__ import annotations

import json

import pytest
from tablebank.models import Game, db

from ..support import setup_of
from ..tables import refusal, refused_with_words, snapshot

BAD_AMOUNTS = [-5, 0, 10**12, 12.5, "ten", "", None, True, [5], {"n": 5}, "1e3", "5.0"]


@pytest.fixture
def games(client):
    """Ana, Bea and Cal's game (Ana landed on Boardwalk and bought it; Bea's turn), and a
    six-player game beside it."""
    created = client.post("/api/games", json=setup_of()).get_json()
    six = setup_of(("Dan", "Eve", "Fay", "Gus", "Hal", "Ivy"))
    other = client.post("/api/games", json=six).get_json()
    headers = {"X-Banker-Key": created["banker_key"]}
    url = f"/api/games/{created['id']}/actions"
    bought = {"kind": "land", "player": 0, "space": 39, "choices": [{"kind": "buy"}]}
    game = client.post(url, json=bought, headers=headers).get_json()["game"]
    assert game["deeds"][-1]["owner"] == 0 and game["turn"]["seat"] == 1
    return created, other


@pytest.mark.parametrize("amount", BAD_AMOUNTS)
@pytest.mark.parametrize(
    "action",
    [
        {"kind": "bank_pay", "player": 0},
        {"kind": "bank_collect", "player": 0},
        {"kind": "transfer", "from": 0, "to": 1},
        {"kind": "roll", "player": 1, "doubles": False},  # Bea's turn: a bad dice total
    ],
    ids=lambda a: a["kind"],
)
def test_a_bad_amount_is_refused_by_the_api(client, app, games, action, amount):
    created, _ = games
    before = snapshot(app, created["id"])
    field = "dice" if action["kind"] == "roll" else "amount"
    response = client.post(
        f"/api/games/{created['id']}/actions",
        data=json.dumps({**action, field: amount}),
        content_type="application/json",
        headers={"X-Banker-Key": created["banker_key"]},
    )
    if amount in ("1e3", "5.0"):  # text that reads as a number elsewhere is still not one
        assert response.status_code == 400
    refused_with_words(response, status=(400,))
    assert snapshot(app, created["id"]) == before


@pytest.mark.parametrize(
    ("action", "words"),
    [
        ({"kind": "buy", "player": 1, "deed": 99}, "between"),
        ({"kind": "buy", "player": 1, "deed": -1}, "between"),
        ({"kind": "buy", "player": 1, "deed": "Boardwalk"}, "whole number"),
        ({"kind": "buy", "player": 1, "deed": 1}, "Nothing of that kind waits"),  # no landing
        ({"kind": "rent", "player": 1, "deed": 39}, "Unknown action"),  # the landing's own now
        ({"kind": "visit", "player": 1, "space": 7}, "Unknown action"),
        ({"kind": "mortgage", "player": 0, "deed": 38}, "not a deed"),  # a tax space
        ({"kind": "mortgage", "player": 1, "deed": 39}, "not Bea's deed"),  # Ana's
        ({"kind": "build", "player": 0, "group": "nowhere", "levels": [1, 1]}, "group"),
        ({"kind": "trade", "player": 0, "partner": 1, "give": {"deeds": [3]}}, "not Ana's"),
        ({"kind": "card", "player": 1, "card": "no-such-card"}, "Nothing of that kind waits"),
        ({"kind": "roll", "player": 0, "dice": 7}, "Bea's turn"),
        ({"kind": "bankrupt", "player": 1}, "owes nothing"),
        ({"kind": "pay_debt", "player": 1}, "owes nothing"),
    ],
)
def test_an_unknown_or_wrong_deed_is_refused_by_the_api(client, app, games, action, words):
    created, _ = games
    before = snapshot(app, created["id"])
    response = client.post(
        f"/api/games/{created['id']}/actions",
        json=action,
        headers={"X-Banker-Key": created["banker_key"]},
    )
    assert words in refused_with_words(response)
    assert snapshot(app, created["id"]) == before


@pytest.mark.parametrize(
    ("step", "in_the_roll", "answering"),
    [
        ({"kind": "card", "card": "no-such-card"}, "card", "card"),
        ({"kind": "buy"}, "does not call for buy", "Nothing of that kind waits"),  # no deed
        ({"kind": "card", "card": "chest-1"}, "card", "card"),  # a Community Chest card
    ],
)
def test_a_landing_step_the_board_does_not_call_for_is_refused_by_the_api(
    client, app, games, step, in_the_roll, answering
):
    """R1, C1: Bea throws 7 onto Chance; a card not of its deck, or a step not called for,
    whether in the roll or answering the card that waits, is refused in words and changes
    nothing."""
    created, _ = games
    url = f"/api/games/{created['id']}/actions"
    headers = {"X-Banker-Key": created["banker_key"]}
    before = snapshot(app, created["id"])
    roll = {"kind": "roll", "player": 1, "dice": 7, "doubles": False, "choices": [step]}
    assert in_the_roll in refused_with_words(client.post(url, json=roll, headers=headers))
    assert snapshot(app, created["id"]) == before
    thrown = client.post(url, json={**roll, "choices": []}, headers=headers).get_json()
    assert [w["what"] for w in thrown["game"]["pending"]] == ["card"]
    before = snapshot(app, created["id"])
    answer = client.post(url, json={**step, "player": 1}, headers=headers)
    assert answering in refused_with_words(answer)
    assert snapshot(app, created["id"]) == before


@pytest.mark.parametrize(
    "action",
    [
        {"kind": "pass_go", "player": 4},
        {"kind": "bank_pay", "player": 5, "amount": 5},
        {"kind": "transfer", "from": 0, "to": 3, "amount": 5},
        {"kind": "trade", "player": 0, "partner": 5, "give": {"cash": 5}},
        {"kind": "pass_go", "player": "Dan"},
        {"kind": "pass_go", "player": -1},
    ],
)
def test_a_player_of_another_game_is_refused_by_the_api(client, app, games, action):
    """Seats 3 to 5 are players in the six-player game beside it, not in this one."""
    created, _ = games
    before = snapshot(app, created["id"])
    response = client.post(
        f"/api/games/{created['id']}/actions",
        json=action,
        headers={"X-Banker-Key": created["banker_key"]},
    )
    refused_with_words(response, status=(400,))
    assert snapshot(app, created["id"]) == before


def test_another_game_s_banker_key_opens_nothing_here(client, app, games):
    created, other = games
    before = snapshot(app, created["id"])
    fresh = app.test_client()
    response = fresh.post(
        f"/api/games/{created['id']}/actions",
        json={"kind": "pass_go", "player": 0},
        headers={"X-Banker-Key": other["banker_key"]},
    )
    refused_with_words(response, status=(403,))
    assert snapshot(app, created["id"]) == before


def test_a_body_too_large_is_refused_with_a_message(client, app, games):
    created, _ = games
    before = snapshot(app, created["id"])
    response = client.post(
        f"/api/games/{created['id']}/actions",
        json={"kind": "bank_pay", "player": 0, "amount": 5, "note": "x" * 200_000},
        headers={"X-Banker-Key": created["banker_key"]},
    )
    refused_with_words(response, status=(413,))
    assert snapshot(app, created["id"]) == before


@pytest.mark.parametrize("amount", ["-5", "0", "1000000000000", "12.5", "ten", "", "1e3"])
def test_a_bad_amount_on_the_banker_s_page_is_refused_with_a_message(client, app, amount):
    form = {"edition": "us-classic", "name0": "Ana", "name1": "Bea"}
    game_id = client.post("/new", data=form).headers["Location"].split("/")[2]
    before = snapshot(app, game_id)
    form = {"kind": "bank_pay", "player": "0", "amount": amount}
    page = client.post(f"/g/{game_id}/do", data=form, follow_redirects=True)
    assert "amount" in refusal(page).lower()
    assert snapshot(app, game_id) == before


@pytest.mark.parametrize(
    "fields",
    [
        {"kind": "transfer", "to": "1", "amount": "-5"},
        {"kind": "transfer", "to": "1", "amount": "12.5"},
        {"kind": "transfer", "to": "1", "amount": "lots"},
        {"kind": "transfer", "to": "7", "amount": "5"},  # a seat of no one in this game
        {"kind": "transfer", "to": "0", "amount": "5"},  # herself
    ],
)
def test_a_bad_payment_from_a_phone_is_refused_with_a_message(client, app, fields):
    form = {"edition": "us-classic", "name0": "Ana", "name1": "Bea"}
    game_id = client.post("/new", data=form).headers["Location"].split("/")[2]
    with app.app_context():
        ana = db.session.get(Game, game_id).players[0].token
    before = snapshot(app, game_id)
    phone = app.test_client()
    page = phone.post(f"/p/{ana}/do", data=fields, follow_redirects=True)
    assert refusal(page)
    assert snapshot(app, game_id) == before


def test_an_unknown_api_url_or_method_is_answered_in_json(client):
    missing = client.get("/api/no-such-thing")
    assert refused_with_words(missing, status=(404,))
    wrong = client.delete("/api/editions")
    assert refused_with_words(wrong, status=(405,))
    assert "GET" in wrong.headers["Allow"]
