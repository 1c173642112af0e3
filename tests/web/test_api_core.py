"""The JSON API through Flask's test client: the same door and the same errors as the pages."""

from __future__ import annotations

import re

import pytest
from openapi_spec_validator import validate

from ..support import ALL_EDITIONS, setup_of

US = ALL_EDITIONS["us-classic"]
BOARDWALK, PARK_PLACE, ELECTRIC = 39, 37, 12


@pytest.fixture
def game(client):
    """A classic US game for Ana, Bea and Cal through the API: (id, banker headers)."""
    response = client.post("/api/games", json=setup_of(income_tax_percent=True))
    assert response.status_code == 201
    body = response.get_json()
    return body["id"], {"X-Banker-Key": body["banker_key"]}


def act(client, game, kind, **fields):
    game_id, headers = game
    return client.post(
        f"/api/games/{game_id}/actions", json={"kind": kind, **fields}, headers=headers
    )


def cash(client, game) -> list[int]:
    game_id, headers = game
    state = client.get(f"/api/games/{game_id}", headers=headers).get_json()
    return [p["cash"] for p in state["players"]]


def test_s1_new_game_has_every_player_with_the_starting_cash(client, game):
    assert cash(client, game) == [1500, 1500, 1500]


def test_p1_buy_charges_the_printed_price(client, game):
    response = act(client, game, "buy", player=0, deed=BOARDWALK)
    assert response.status_code == 201
    assert response.get_json()["text"] == f"Ana buys Boardwalk for ${US.spaces[BOARDWALK].price}"
    assert cash(client, game)[0] == 1500 - US.spaces[BOARDWALK].price


def test_p3_rent_doubles_on_a_whole_group_through_the_api(client, game):
    act(client, game, "buy", player=0, deed=BOARDWALK)
    act(client, game, "buy", player=0, deed=PARK_PLACE)
    response = act(client, game, "rent", player=1, deed=BOARDWALK)
    assert response.get_json()["movements"] == [
        {"payer": 1, "payee": 0, "amount": 2 * US.spaces[BOARDWALK].rent[0]}
    ]


def test_p6_utility_rent_needs_the_dice(client, game):
    act(client, game, "buy", player=0, deed=ELECTRIC)
    missing = act(client, game, "rent", player=1, deed=ELECTRIC)
    assert missing.status_code == 400
    assert "dice total" in missing.get_json()["error"]
    done = act(client, game, "rent", player=1, deed=ELECTRIC, dice=8)
    assert done.get_json()["movements"][0]["amount"] == US.spaces[ELECTRIC].rent[0] * 8


def test_every_action_of_the_foundation_goes_through_the_api(client, game):
    """G1, T1, T2, C2, J1, J3 and the bank's own payments, one call each."""
    chance = US.deck("chance")
    dividend = next(c for c in chance if c.effect == "collect")
    steps = [
        ("pass_go", {"player": 0}, [US.salary, 0, 0]),
        ("tax", {"player": 1, "space": 38}, [0, -US.spaces[38].amount, 0]),
        ("tax", {"player": 2, "space": 4}, [0, 0, -US.spaces[4].amount]),
        ("card", {"player": 0, "card": dividend.id, "space": 7}, [dividend.amount, 0, 0]),
        ("go_to_jail", {"player": 1}, [0, 0, 0]),
        ("jail_fine", {"player": 1}, [0, -US.jail_fine, 0]),
        ("bank_pay", {"player": 2, "amount": 100, "note": "prize"}, [0, 0, 100]),
        ("bank_collect", {"player": 2, "amount": 40}, [0, 0, -40]),
        ("transfer", {"from": 0, "to": 1, "amount": 25}, [-25, 25, 0]),
        ("visit", {"player": 2, "space": 20}, [0, 0, 0]),
    ]
    for kind, fields, change in steps:
        before = cash(client, game)
        response = act(client, game, kind, **fields)
        assert response.status_code == 201, (kind, response.get_json())
        assert cash(client, game) == [b + c for b, c in zip(before, change, strict=True)], kind


def test_preview_says_what_would_happen_and_changes_nothing(client, game):
    game_id, headers = game
    response = client.post(
        f"/api/games/{game_id}/preview",
        json={"kind": "buy", "player": 2, "deed": BOARDWALK},
        headers=headers,
    )
    assert response.get_json()["text"] == f"Cal buys Boardwalk for ${US.spaces[BOARDWALK].price}"
    assert cash(client, game) == [1500, 1500, 1500]
    assert client.get(f"/api/games/{game_id}/actions", headers=headers).get_json() == []


def test_idempotency_key_applies_a_retry_once(client, game):
    first = act(client, game, "pass_go", player=0, idempotency_key="tap-1")
    again = act(client, game, "pass_go", player=0, idempotency_key="tap-1")
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.get_json()["repeated"] is True
    assert cash(client, game)[0] == 1500 + US.salary


def test_stale_expected_version_is_refused_with_409(client, game):
    act(client, game, "pass_go", player=0, expected_version=0)
    stale = act(client, game, "pass_go", player=1, expected_version=0)
    assert stale.status_code == 409
    assert stale.get_json()["rule"] == "stale"
    assert cash(client, game)[1] == 1500


def test_undo_restores_the_cash_and_history_marks_the_undone_action(client, game):
    game_id, headers = game
    act(client, game, "transfer", **{"from": 0, "to": 1, "amount": 300})
    undo = act(client, game, "undo")
    assert undo.get_json()["text"] == "Undo: Ana pays Bea $300"
    assert cash(client, game) == [1500, 1500, 1500]
    history = client.get(f"/api/games/{game_id}/actions", headers=headers).get_json()
    assert [(e["kind"], e["undone"]) for e in history] == [("undo", False), ("transfer", True)]


def test_k1_payment_larger_than_cash_is_refused_with_shortfall_and_raisable(client, game):
    act(client, game, "buy", player=0, deed=BOARDWALK)
    response = act(client, game, "bank_collect", player=0, amount=1200)
    body = response.get_json()
    assert response.status_code == 422
    cash_left = 1500 - US.spaces[BOARDWALK].price
    assert body["rule"] == "K1"
    assert body["shortfall"] == 1200 - cash_left
    assert body["raisable"] == cash_left + US.spaces[BOARDWALK].mortgage
    assert cash(client, game)[0] == cash_left


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"kind": "bank_pay", "player": 0, "amount": -5}, "amount must be between"),
        ({"kind": "bank_pay", "player": 0, "amount": 10**12}, "amount must be between"),
        ({"kind": "bank_pay", "player": 0, "amount": 12.5}, "amount must be a whole number"),
        ({"kind": "bank_pay", "player": 0, "amount": "ten"}, "amount must be a whole number"),
        ({"kind": "bank_pay", "player": 0}, "amount must be a whole number"),
        ({"kind": "bank_pay", "player": 9, "amount": 5}, "player must be between"),
        ({"kind": "buy", "player": 0, "deed": 7}, "Chance is not a deed"),
        ({"kind": "buy", "player": 0, "deed": 99}, "space must be between"),
        ({"kind": "fly", "player": 0}, "Unknown action"),
        ({"kind": "pass_go", "player": 0, "idempotency_key": 5}, "idempotency key"),
    ],
)
def test_bad_input_is_refused_with_a_message_and_changes_nothing(client, game, fields, words):
    game_id, headers = game
    response = client.post(f"/api/games/{game_id}/actions", json=fields, headers=headers)
    assert response.status_code == 400
    assert words in response.get_json()["error"]
    assert cash(client, game) == [1500, 1500, 1500]


def test_body_that_is_not_json_is_a_400(client, game):
    game_id, headers = game
    response = client.post(f"/api/games/{game_id}/actions", data="amount=5", headers=headers)
    assert response.status_code == 400
    assert response.get_json()["error"] == "The request body must be a JSON object"


def test_unknown_game_is_a_404_with_a_message(client):
    response = client.get("/api/games/nope")
    assert response.status_code == 404
    assert response.get_json()["error"]


def test_a_game_needs_its_banker_key(client, game):
    game_id, _ = game
    other = client.application.test_client()
    assert other.get(f"/api/games/{game_id}").status_code == 403
    response = other.post(f"/api/games/{game_id}/actions", json={"kind": "pass_go", "player": 0})
    assert response.status_code == 403
    assert cash(client, game)[0] == 1500


def test_openapi_document_is_valid_and_describes_every_route(client):
    document = client.get("/api/openapi.json").get_json()
    validate(document)
    for rule in client.application.url_map.iter_rules():
        if str(rule).startswith("/api"):
            path = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", str(rule))
            assert path in document["paths"], path
