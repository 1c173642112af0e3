"""Bounded input: only the fields the published schema names are stored, numbers are plain
and short, JSON is flat enough, and every bad body is a 400 with words that changes nothing."""

from __future__ import annotations

import pytest
from tablebank.models import Action, Game, db

from ..support import setup_of
from ..tables import refused_with_words, snapshot


def post_raw(client, url, text, headers):
    return client.post(url, data=text, content_type="application/json", headers=headers)


@pytest.mark.parametrize(
    "text",
    [
        '{"kind": "bank_pay", "player": 0, "amount": NaN}',
        '{"kind": "bank_pay", "player": 0, "amount": Infinity}',
        '{"kind": "bank_pay", "player": 0, "amount": -Infinity}',
        '{"kind": "bank_pay", "player": 0, "amount": 1e3}',
        '{"kind": "bank_pay", "player": 0, "amount": 5.0}',
        '{"kind": "bank_pay", "player": 0, "amount": "²"}',
        '{"kind": "bank_pay", "player": 0, "amount": "٣"}',
        '{"kind": "bank_pay", "player": 0, "amount": ' + "9" * 5000 + "}",
        '{"kind": "bank_pay", "player": 0, "amount": "' + "9" * 5000 + '"}',
        '{"kind": "bankrupt", "player": 1, "lift": 7}',
        '{"kind": "bankrupt", "player": 1, "lift": {"a": 1}}',
        '{"kind": "build", "player": 0, "group": "green", "levels": [[1]]}',
        '{"kind": "trade", "player": 0, "partner": 1, "give": [1]}',
        '{"kind": "trade", "player": 0, "partner": 1, "give": {"cash": NaN}}',
        '{"kind": "deal", "hands": [[1, [2]]]}',
        '{"kind": "pass_go", "player": 0, "x": ' + "[" * 1000 + "]" * 1000 + "}",
        "[" * 20000 + "]" * 20000,
        '{"kind": "pass_go", "player": 0',
        b'{"kind": "pass_go", "player": "\xff"}',
        '{"kind": "pass_go", "player": 0, "expected_version": 1e400}',
        '{"kind": "pass_go", "player": 0, "idempotency_key": ["a"]}',
        '{"kind": "pass_go", "player": 0, "idempotency_key": "a\\u0000b"}',
        '{"kind": "bank_pay", "player": 0, "amount": 5, "note": "a\\u0000b"}',
    ],
)
def test_a_bad_body_is_refused_with_words_and_changes_nothing(client, app, api_game, text):
    game_id, headers = api_game
    before = snapshot(app, game_id)
    meta = isinstance(text, str) and ("expected_version" in text or "idempotency" in text)
    paths = ["actions"] if meta else ["actions", "preview"]
    for path in paths:
        response = post_raw(client, f"/api/games/{game_id}/{path}", text, headers)
        refused_with_words(response, status=(400,))
    assert snapshot(app, game_id) == before


def test_only_the_known_fields_of_an_action_are_stored(client, app, api_game):
    game_id, headers = api_game
    junk = "x" * 3_000  # within the bound on any one text (inputs.TEXT_MAX)
    action = {"kind": "bank_pay", "player": "0", "amount": 5, "junk": junk, "note": "tea"}
    done = client.post(f"/api/games/{game_id}/actions", json=action, headers=headers)
    assert done.status_code == 201
    with app.app_context():
        row = db.session.query(Action).filter_by(game_id=game_id).one()
        assert row.payload == {"player": 0, "amount": 5, "note": "tea"}


def test_only_the_known_settings_of_a_new_game_are_stored(client, app):
    setup = setup_of(junk=["x" * 1000] * 30)
    setup["players"][0]["secret"] = "y" * 1000
    created = client.post("/api/games", json=setup)
    assert created.status_code == 201
    with app.app_context():
        stored = db.session.get(Game, created.get_json()["id"]).setup
        assert "junk" not in stored and "secret" not in stored["players"][0]
        assert len(repr(stored)) < 400


@pytest.mark.parametrize(
    ("setup", "words"),
    [
        (setup_of(starting_cash="1500²"), "starting cash"),
        (setup_of(starting_cash=float("nan")), "not valid JSON"),
        (setup_of(ends_at="x" * 100, mode="timed"), "ends_at"),
        ({**setup_of(), "edition": "x" * 5000}, "edition"),
        ({**setup_of(), "players": "Ana"}, "players"),
        ({**setup_of(), "players": [{"name": "A" * 500, "colour": "#000000"}] * 2}, "name"),
    ],
)
def test_a_bad_setup_is_refused_with_words(client, app, setup, words):
    import json

    text = json.dumps(setup)  # NaN goes out as NaN: a client that sends it gets told
    response = post_raw(client, "/api/games", text, {})
    assert words in refused_with_words(response, status=(400, 422))
    with app.app_context():
        assert db.session.query(Game).count() == 0


def test_a_form_with_a_damaged_payload_is_refused_on_the_page(client, app):
    form = {"edition": "us-classic", "name0": "Ana", "name1": "Bea"}
    game_id = client.post("/new", data=form).headers["Location"].split("/")[2]
    before = snapshot(app, game_id)
    for payload in ("[" * 3000, '{"player": NaN}', '{"player": 0, "amount": "²"}'):
        form = {"kind": "bank_pay", "payload": payload}
        page = client.post(f"/g/{game_id}/do", data=form, follow_redirects=True)
        assert page.status_code == 200 and 'class="flash error"' in page.text
    # Text no field may hold is refused before the view: a 400 page that says which field.
    for form in (
        {"kind": "bank_pay", "payload": "[" * 15000},  # longer than any text the app takes
        {"kind": "pass_go", "player": "0", "key": "\x00"},  # a 500 on PostgreSQL once
    ):
        page = client.post(f"/g/{game_id}/do", data=form)
        assert page.status_code == 400 and 'class="flash error"' in page.text
    assert snapshot(app, game_id) == before


def test_form_fields_are_read_as_numbers_and_stored_as_numbers(client, app):
    form = {"edition": "us-classic", "name0": "Ana", "name1": "Bea", "starting_cash": "2000"}
    game_id = client.post("/new", data=form).headers["Location"].split("/")[2]
    client.post(f"/g/{game_id}/do", data={"kind": "bank_pay", "player": "1", "amount": "50"})
    with app.app_context():
        game = db.session.get(Game, game_id)
        assert game.setup["starting_cash"] == 2000
        row = db.session.query(Action).filter_by(game_id=game_id).one()
        assert row.payload == {"player": 1, "amount": 50}
        assert [p["cash"] for p in game.state["players"]] == [2000, 2050]


def test_a_nul_character_or_a_huge_page_number_in_an_address_is_no_error(client, api_game):
    game_id, headers = api_game
    assert client.get("/api/games/a%00b", headers=headers).status_code == 404
    assert client.get("/g/a%00b/").status_code == 404
    assert client.get("/p/a%00b").status_code == 404
    history = client.get(f"/api/games/{game_id}/actions?before=999999999999", headers=headers)
    assert history.status_code == 200
    assert client.get(f"/g/{game_id}/history?before=999999999999").status_code in (200, 403)
