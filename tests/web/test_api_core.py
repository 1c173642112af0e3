"""The JSON API through Flask's test client: the same door and the same errors as the pages.
A turn is a `roll` that carries the dice and the choices; the core works out the rest, and
each answer says who paid whom (`movements`)."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

import pytest
from openapi_spec_validator import validate

from ..support import (
    BOARDWALK,
    CHANCE,
    ELECTRIC,
    GO_TO_JAIL,
    INCOME_TAX,
    JAIL,
    LUXURY_TAX,
    ORIENTAL,
    PARK_PLACE,
    PARKING,
    READING,
    US,
    card_of,
    setup_of,
)

PRICE = US.spaces[BOARDWALK].price


@pytest.fixture
def game(table):
    """A classic US game for Ana, Bea and Cal (T1's 10% option on), the banker's key kept."""
    table.new_game(("Ana", "Bea", "Cal"), income_tax_percent="on")
    return table


def test_s1_new_game_has_every_player_with_the_starting_cash(game):
    assert game.cash() == [1500, 1500, 1500]


def test_p1_a_throw_onto_a_bank_deed_and_the_buy_charge_the_printed_price(game):
    """P1: the roll and the buy in one action; the price goes from Ana to the bank."""
    done = game.throws_onto(0, BOARDWALK, 7, {"kind": "buy"})
    assert done["text"] == f"Ana throws 7 and moves to Boardwalk; Ana buys Boardwalk for ${PRICE}"
    assert game.paid(done) == [(0, None, PRICE)]
    assert game.cash() == [1500 - PRICE, 1500, 1500]
    assert game.state().deeds[BOARDWALK].owner == 0


def test_p1_the_buy_waits_after_the_throw_and_answers_it_alone(game):
    """P1: a throw onto a bank deed leaves the choice pending for the thrower (the API's game
    says so), and the turn waits for it."""
    game.throws_onto(0, BOARDWALK)
    pending = game.game()["pending"]
    assert [(p["what"], p["seat"], p["space"]) for p in pending] == [("buy", 0, BOARDWALK)]
    assert pending[0]["figures"] == {"price": PRICE}
    assert game.game()["turn"]["seat"] == 0
    bought = game.act("buy", player=0, deed=BOARDWALK)
    assert game.paid(bought) == [(0, None, PRICE)]
    assert bought["game"]["turn"]["seat"] == 1 and bought["game"]["pending"][0]["what"] == "roll"


def test_p3_rent_doubles_on_a_whole_group_through_the_api(game):
    game.own(0, PARK_PLACE, BOARDWALK)
    landed = game.throws_onto(1, BOARDWALK)
    assert game.paid(landed) == [(1, 0, 2 * US.spaces[BOARDWALK].rent[0])]


def test_p6_a_utility_charges_four_times_the_throw_that_landed_there(game):
    """P6: the dice of the throw itself, never a total the client names."""
    game.own(0, ELECTRIC)
    landed = game.throws_onto(1, ELECTRIC, 8)
    assert game.paid(landed) == [(1, 0, US.spaces[ELECTRIC].rent[0] * 8)]


def test_p6_a_landing_the_banker_records_waits_for_the_dice_of_the_rent(game):
    """P6, R1: no throw is known for a landing recorded by hand, so the rent waits for one."""
    game.own(0, ELECTRIC)
    landed = game.act("land", player=1, space=ELECTRIC)
    assert game.paid(landed) == [] and landed["game"]["pending"][0]["what"] == "throw"
    missing = game.act("throw", 400, player=1)
    assert "dice total" in missing["error"]
    thrown = game.act("throw", player=1, dice=9)
    assert game.paid(thrown) == [(1, 0, US.spaces[ELECTRIC].rent[0] * 9)]


def test_g1_t1_t2_c2_j1_j3_every_action_of_the_foundation_goes_through_the_api(game):
    """Each action's money goes to the party the rules name (None: the bank)."""
    dividend = card_of(US, "collect", deck="chance")
    assert game.paid(game.act("pass_go", player=0)) == [(None, 0, US.salary)]  # G1
    luxury = US.spaces[LUXURY_TAX].amount
    assert game.paid(game.throws_onto(1, LUXURY_TAX)) == [(1, None, luxury)]  # T2
    flat = US.spaces[INCOME_TAX].amount  # T1: the flat way chosen at the landing
    assert game.paid(game.throws_onto(2, INCOME_TAX, 4, {"kind": "tax"})) == [(2, None, flat)]
    card = {"kind": "card", "card": dividend.id}  # C2
    assert game.paid(game.throws_onto(0, CHANCE, 7, card)) == [(None, 0, dividend.amount)]
    assert game.paid(game.act("go_to_jail", player=1)) == []  # J1
    assert game.paid(game.act("jail_fine", player=1)) == [(1, None, US.jail_fine)]  # J3
    assert game.paid(game.act("bank_pay", player=2, amount=100, note="prize")) == [(None, 2, 100)]
    assert game.paid(game.act("bank_collect", player=2, amount=40)) == [(2, None, 40)]
    assert game.paid(game.act("transfer", **{"from": 0, "to": 1, "amount": 25})) == [(0, 1, 25)]
    assert game.paid(game.throws_onto(2, PARKING)) == []  # Free Parking: nothing happens
    assert game.cash() == [
        1500 + US.salary + dividend.amount - 25,
        1500 - luxury - US.jail_fine + 25,
        1500 - flat + 100 - 40,
    ]


def test_preview_says_what_would_happen_and_changes_nothing(game):
    fields = {"player": 0, "dice": 5, "choices": [{"kind": "buy"}]}
    answer = game.preview("roll", **fields).get_json()
    price = US.spaces[READING].price
    assert answer["text"] == (
        f"Ana throws 5 and moves to Reading Railroad; Ana buys Reading Railroad for ${price}"
    )
    assert game.paid(answer) == [(0, None, price)]
    assert game.cash() == [1500, 1500, 1500] and game.state().players[0].position == 0
    assert game.history() == []


def test_idempotency_key_applies_a_retry_once(game):
    first = game.send("pass_go", player=0, idempotency_key="tap-1")
    again = game.send("pass_go", player=0, idempotency_key="tap-1")
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.get_json()["repeated"] is True
    assert game.cash()[0] == 1500 + US.salary


def test_stale_expected_version_is_refused_with_409(game):
    game.act("pass_go", player=0, expected_version=0)
    stale = game.act("pass_go", 409, player=1, expected_version=0)
    assert stale["rule"] == "stale" and stale["error"]
    assert game.cash()[1] == 1500


def test_undo_restores_the_cash_and_history_marks_the_undone_action(game):
    game.act("transfer", **{"from": 0, "to": 1, "amount": 300})
    undo = game.act("undo")
    assert undo["text"] == "Undo: Ana pays Bea $300"
    assert game.cash() == [1500, 1500, 1500]
    history = game.history()
    assert [(e["kind"], e["undone"]) for e in history] == [("undo", False), ("transfer", True)]


def test_the_history_s_times_say_they_are_utc_as_the_export_s_do(game):
    """A client reads each action's time with its offset (UTC), on SQLite as on PostgreSQL:
    SQLite gave it without one ("2026-11-27T19:42:46"), a local time to a client."""
    game.act("pass_go", player=0)
    at = datetime.fromisoformat(game.history()[0]["at"])
    exported = game.client.get(f"/api/games/{game.id}/export", headers=game.headers).get_json()
    assert at.utcoffset() == timedelta(0)
    assert at == datetime.fromisoformat(exported["log"][0]["at"])


def test_r1_one_undo_takes_a_whole_turn_back(game):
    """R1: the throw, the move, the buy and the turn passing are one action."""
    before = game.game()
    game.throws_onto(0, ORIENTAL, 6, {"kind": "buy"})
    moved = game.game()
    assert moved["turn"]["seat"] == 1 and moved["players"][0]["position"] == ORIENTAL
    game.act("undo")
    after = game.game()
    assert after["players"] == before["players"] and after["deeds"] == before["deeds"]
    assert after["turn"]["seat"] == 0  # turn_to and place (two actions) are still in force
    assert after["pending"] == before["pending"]


def test_k1_payment_larger_than_cash_is_refused_with_shortfall_and_raisable(game):
    game.own(0, BOARDWALK)
    body = game.act("bank_collect", 422, player=0, amount=1200)
    cash_left = 1500 - PRICE
    assert body["rule"] == "K1"
    assert body["shortfall"] == 1200 - cash_left
    assert body["raisable"] == cash_left + US.spaces[BOARDWALK].mortgage
    assert game.cash()[0] == cash_left


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"kind": "bank_pay", "player": 0, "amount": -5}, "amount must be between"),
        ({"kind": "bank_pay", "player": 0, "amount": 10**12}, "amount must be between"),
        ({"kind": "bank_pay", "player": 0, "amount": 12.5}, "amount must be a whole number"),
        ({"kind": "bank_pay", "player": 0, "amount": "ten"}, "amount must be a whole number"),
        ({"kind": "bank_pay", "player": 0}, "amount must be a whole number"),
        ({"kind": "bank_pay", "player": 9, "amount": 5}, "player must be between"),
        ({"kind": "mortgage", "player": 0, "deed": 7}, "Chance is not a deed"),
        ({"kind": "place", "player": 0, "space": 99}, "space must be between"),
        ({"kind": "roll", "player": 0, "dice": 13}, "dice total must be between"),
        ({"kind": "roll", "player": 0, "dice": 5, "choices": "buy"}, "choices is not valid"),
        ({"kind": "fly", "player": 0}, "Unknown action"),
        ({"kind": "pass_go", "player": 0, "idempotency_key": 5}, "idempotency key"),
    ],
)
def test_bad_input_is_refused_with_a_message_and_changes_nothing(game, fields, words):
    before = game.game()
    response = game.client.post(f"/api/games/{game.id}/actions", json=fields, headers=game.headers)
    assert response.status_code == 400
    assert words in response.get_json()["error"]
    assert game.game() == before


# -- the turn's bad input (issue 19): a 4xx with words, and nothing changed -------------------


def refused(table, status: int, kind: str, **fields) -> dict:
    """The action's refusal through the API: its status, its words, no change at all."""
    before, rows = table.game(), len(table.history())
    body = table.act(kind, status, **fields)
    assert body["error"] and body["rule"]
    assert table.game() == before and len(table.history()) == rows
    return body


def test_r1_a_roll_out_of_turn_is_refused_in_words(game):
    body = refused(game, 422, "roll", player=1, dice=6)
    assert (body["rule"], body["error"]) == ("R1", "It is Ana's turn")


def test_r1_nobody_rolls_while_a_buy_waits(game):
    game.throws_onto(0, ORIENTAL, 6)
    body = refused(game, 422, "roll", player=0, dice=5)
    assert (body["rule"], body["error"]) == ("R1", "Ana has a choice to make first")
    assert refused(game, 422, "turn_to", player=1)["rule"] == "R1"


def test_p1_nobody_rolls_while_an_auction_is_open(game):
    game.throws_onto(0, ORIENTAL, 6, {"kind": "decline"})
    assert game.game()["auction"]["deed"] == ORIENTAL
    body = refused(game, 422, "roll", player=1, dice=4)
    assert (body["rule"], body["error"]) == ("P1", "Close the auction first")


def test_k1_nobody_rolls_while_a_debt_is_open(game):
    game.own(0, READING)
    game.act("bank_collect", player=1, amount=1490)
    game.throws_onto(1, READING, 5)  # $25 rent, $10 cash
    body = refused(game, 422, "roll", player=2, dice=4)
    assert (body["rule"], body["error"]) == ("K1", "Bea owes $25: pay or raise it first")


COLLECT = {"kind": "card", "card": card_of(US, "collect", deck="chance").id}


@pytest.mark.parametrize(
    ("dice", "choices"),
    [
        (READING, [COLLECT]),  # Reading Railroad is not Chance
        (READING, [{"kind": "buy"}, {"kind": "buy"}]),  # one landing, one buy
        (READING, [{"kind": "tax"}]),
        (CHANCE, [COLLECT, COLLECT]),  # one landing, one card (C1)
        (INCOME_TAX, [{"kind": "tax"}, {"kind": "tax"}]),  # one landing, one tax (T1)
    ],
)
def test_r1_a_landing_choice_the_board_does_not_call_for_is_refused(game, dice, choices):
    body = refused(game, 422, "roll", player=0, dice=dice, choices=choices)
    assert body["rule"] == "R1" and body["error"].startswith("The landing does not call for")


def test_r1_a_choice_answered_when_none_waits_is_refused(game):
    body = refused(game, 422, "buy", player=0, deed=BOARDWALK)
    assert (body["rule"], body["error"]) == ("R1", "Nothing of that kind waits for Ana")


def test_r1_a_roll_with_a_stale_expected_version_is_refused_with_409(game):
    version = game.game()["version"]
    game.act("pass_go", player=2)
    body = refused(game, 409, "roll", player=0, dice=5, expected_version=version)
    assert body["rule"] == "stale"


def test_j1_a_throw_onto_go_to_jail_jails_the_player_with_nothing_else_sent(game):
    landed = game.throws_onto(0, GO_TO_JAIL, 8)
    ana = landed["game"]["players"][0]
    assert (ana["position"], ana["in_jail"], ana["cash"]) == (JAIL, True, 1500)
    assert game.paid(landed) == [] and landed["game"]["turn"]["seat"] == 1


def test_c2_p1_a_card_that_moves_onto_a_bank_deed_keeps_the_turn_for_the_buy(game):
    to_boardwalk = {"kind": "card", "card": card_of(US, "advance", to=BOARDWALK).id}
    moved = game.throws_onto(0, CHANCE, 7, to_boardwalk)
    assert [(p["what"], p["seat"], p["space"]) for p in moved["game"]["pending"]] == [
        ("buy", 0, BOARDWALK)
    ]
    assert refused(game, 422, "roll", player=1, dice=4)["rule"] == "R1"
    assert game.paid(game.act("buy", player=0, deed=BOARDWALK)) == [(0, None, PRICE)]


@pytest.mark.parametrize(
    ("kind", "fields"),
    [
        ("roll", {"player": 0, "dice": 6}),  # before the deal
        ("deal", {"hands": [[1, 3, 6], [8, 9]]}),  # three deeds for Ana
        ("deal", {"hands": [[1, 3], []]}),  # none for Bea
    ],
)
def test_sg1_the_deal_comes_first_two_deeds_to_each_player(table, kind, fields):
    table.new_game(("Ana", "Bea"), mode="short")
    assert refused(table, 422, kind, **fields)["rule"] == "SG1"


def test_sg1_a_second_deal_is_refused_and_changes_nothing(table):
    table.new_game(("Ana", "Bea"), mode="short")
    table.act("deal", hands=[[PARK_PLACE, BOARDWALK], [READING, ORIENTAL]])
    body = refused(table, 422, "deal", hands=[[1, 3], [6, 8]])
    assert body["rule"] == "SG1" and "dealt once already" in body["error"]


def test_body_that_is_not_json_is_a_400(game):
    response = game.client.post(
        f"/api/games/{game.id}/actions", data="amount=5", headers=game.headers
    )
    assert response.status_code == 400
    assert response.get_json()["error"] == "The request body must be a JSON object"


def test_unknown_game_is_a_404_with_a_message(client):
    response = client.get("/api/games/nope")
    assert response.status_code == 404
    assert response.get_json()["error"]


def test_a_game_needs_its_banker_key(client):
    made = client.post("/api/games", json=setup_of()).get_json()
    other = client.application.test_client()
    assert other.get(f"/api/games/{made['id']}").status_code == 403
    body = {"kind": "pass_go", "player": 0}
    assert other.post(f"/api/games/{made['id']}/actions", json=body).status_code == 403
    headers = {"X-Banker-Key": made["banker_key"]}
    game = client.get(f"/api/games/{made['id']}", headers=headers).get_json()
    assert game["players"][0]["cash"] == 1500


def test_a_client_without_the_key_or_with_a_wrong_game_is_told_so_as_the_document_says(client):
    """The API's 403 names the header the banker key goes in (not a link to open on a
    phone); its 404 says there is no such game (not that a URL is unknown)."""
    made = client.post("/api/games", json=setup_of()).get_json()
    no_key = client.application.test_client().get(f"/api/games/{made['id']}")
    assert no_key.status_code == 403 and "X-Banker-Key" in no_key.get_json()["error"]
    nowhere = client.get("/api/games/nosuchgame", headers={"X-Banker-Key": made["banker_key"]})
    assert nowhere.status_code == 404
    assert nowhere.get_json()["error"] == "There is no such game here"


def answers_as_documented(document: dict):
    """A check that an answer matches the schema the document gives its route and status."""
    from jsonschema import Draft202012Validator
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT202012

    base = "urn:tablebank:openapi"
    registry = Registry().with_resource(
        base, Resource.from_contents(document, default_specification=DRAFT202012)
    )

    def check(method: str, path: str, answer) -> None:
        documented = document["paths"][path][method]["responses"][str(answer.status_code)]
        content = documented["content"]["application/json"]["schema"]  # each one has a schema
        schema = {"$ref": base + content["$ref"]}
        Draft202012Validator(schema, registry=registry).validate(answer.get_json())

    return check


def test_every_answer_of_a_game_played_through_the_api_matches_the_document(client):
    """A client written from /api/openapi.json: each answer it gets (a new game, an action
    done and the same one repeated, a preview, the history, the editions, refusals) has the
    schema the document gives it, so the client knows who got what and who won."""
    check = answers_as_documented(client.get("/api/openapi.json").get_json())
    made = client.post("/api/games", json=setup_of(("Ana", "Bea")))
    check("post", "/api/games", made)
    game, key = made.get_json()["id"], {"X-Banker-Key": made.get_json()["banker_key"]}
    actions = f"/api/games/{game}/actions"
    roll = {"kind": "roll", "player": 0, "dice": 6, "choices": [{"kind": "buy"}]}
    for status in (201, 200):  # the same action again: the first result, who paid included
        done = client.post(actions, json={**roll, "idempotency_key": "k"}, headers=key)
        assert done.status_code == status
        check("post", "/api/games/{game_id}/actions", done)
        assert done.get_json()["movements"] == [{"payer": 0, "payee": None, "amount": 100}]
    pay = {"kind": "transfer", "from": 1, "to": 0, "amount": 5000}
    check("post", "/api/games/{game_id}/actions", client.post(actions, json=pay, headers=key))
    preview = client.post(f"/api/games/{game}/preview", json={**pay, "amount": 5}, headers=key)
    check("post", "/api/games/{game_id}/preview", preview)
    check("get", "/api/games/{game_id}/actions", client.get(actions, headers=key))
    check("get", "/api/games/{game_id}", client.get(f"/api/games/{game}"))
    check("get", "/api/games/{game_id}", client.get("/api/games/nosuchgame", headers=key))
    check("get", "/api/editions", client.get("/api/editions"))
    check("get", "/api/editions/{edition_id}", client.get("/api/editions/nosuchedition"))
    client.post(actions, json={"kind": "end_game"}, headers=key)
    ended = client.get(f"/api/games/{game}", headers=key)
    check("get", "/api/games/{game_id}", ended)
    assert ended.get_json()["winners"] == [0, 1]  # SG4: $1,400 and a $100 deed, or $1,500


def test_openapi_document_is_valid_and_describes_every_route(client):
    document = client.get("/api/openapi.json").get_json()
    validate(document)
    for rule in client.application.url_map.iter_rules():
        if str(rule).startswith("/api"):
            path = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", str(rule))
            assert path in document["paths"], path


def test_r1_k1_a_refusal_names_its_player_by_seat_and_by_name_as_the_document_says(game):
    """A refusal about a player gives their seat under "player", as a request names a player,
    and their name under "name". "It is Ana's turn" gave "player": "Ana", while a K1
    shortfall gave the seat."""
    check = answers_as_documented(game.client.get("/api/openapi.json").get_json())
    out_of_turn = game.send("roll", player=1, dice=6)
    short = game.send("bank_collect", player=1, amount=5000)
    for answer in (out_of_turn, short):
        assert answer.status_code == 422
        check("post", "/api/games/{game_id}/actions", answer)
    assert (out_of_turn.get_json()["player"], out_of_turn.get_json()["name"]) == (0, "Ana")
    assert out_of_turn.get_json()["error"] == "It is Ana's turn"
    assert (short.get_json()["player"], short.get_json()["name"]) == (1, "Bea")
