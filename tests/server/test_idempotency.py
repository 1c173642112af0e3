"""Idempotency keys belong to who sent them, in one game: a retry is applied once, a key
reused for another action is refused with words, and no one can take or read another's key."""

from __future__ import annotations

import pytest
from tablebank.models import Action, Game, db

from ..support import setup_of


@pytest.fixture
def game(client, app):
    created = client.post("/api/games", json=setup_of(starting_cash=1000)).get_json()
    with app.app_context():
        tokens = [p.token for p in db.session.get(Game, created["id"]).players]
        db.session.remove()
    return created["id"], {"X-Banker-Key": created["banker_key"]}, tokens


def cash(client, game_id, headers) -> list[int]:
    view = client.get(f"/api/games/{game_id}", headers=headers).get_json()
    return [p["cash"] for p in view["players"]]


def test_a_key_reused_for_another_action_is_refused_with_words(client, game):
    game_id, headers, _ = game
    url = f"/api/games/{game_id}/actions"
    first = {"kind": "bank_pay", "player": 0, "amount": 50, "idempotency_key": "tap-1"}
    assert client.post(url, json=first, headers=headers).status_code == 201
    assert client.post(url, json=first, headers=headers).status_code == 200  # a retry
    other = {**first, "amount": 500}
    refused = client.post(url, json=other, headers=headers)
    assert refused.status_code == 422
    assert refused.get_json()["rule"] == "idempotency"
    assert "already used for a different action" in refused.get_json()["error"]
    assert cash(client, game_id, headers) == [1050, 1000, 1000]


def test_a_player_cannot_take_the_banker_s_key(client, app, game):
    """Bea's phone uses the key first: the banker's action with it is still done."""
    game_id, headers, tokens = game
    phone = app.test_client()
    form = {"kind": "transfer", "to": "0", "amount": "10", "key": "k-7"}
    phone.post(f"/p/{tokens[1]}/do", data=form)
    banker = {"kind": "bank_pay", "player": 2, "amount": 300, "idempotency_key": "k-7"}
    done = client.post(f"/api/games/{game_id}/actions", json=banker, headers=headers)
    assert done.status_code == 201 and done.get_json()["repeated"] is False
    assert cash(client, game_id, headers) == [1010, 990, 1300]


def test_a_player_cannot_read_another_action_through_its_key(client, app, game):
    game_id, headers, tokens = game
    secret = {"kind": "bank_pay", "player": 2, "amount": 7, "note": "tip", "idempotency_key": "x"}
    client.post(f"/api/games/{game_id}/actions", json=secret, headers=headers)
    phone = app.test_client()
    form = {"kind": "transfer", "to": "0", "amount": "10", "key": "x"}
    page = phone.post(f"/p/{tokens[1]}/do", data=form, follow_redirects=True).text
    assert "Already done" not in page and "tip" not in page
    assert cash(client, game_id, headers) == [1010, 990, 1007]  # Bea's payment was her own


def test_each_player_s_retry_is_applied_once(client, app, game):
    game_id, headers, tokens = game
    phone = app.test_client()
    form = {"kind": "transfer", "to": "0", "amount": "10", "key": "same"}
    for _ in range(3):
        phone.post(f"/p/{tokens[1]}/do", data=form)
    phone.post(f"/p/{tokens[2]}/do", data=form)  # Cal's own key, the same text
    assert cash(client, game_id, headers) == [1020, 990, 990]
    with app.app_context():
        keys = [a.idempotency_key for a in db.session.query(Action).filter_by(game_id=game_id)]
        assert len(set(keys)) == 2 and all("same" not in k for k in keys)
