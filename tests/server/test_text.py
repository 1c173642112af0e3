"""Text is valid or refused at the edge: every string from a user (a JSON key or value, a form
field, a query argument, a header, an idempotency key) is valid Unicode without lone
surrogates, control characters or noncharacters, bounded in length and in combining marks,
and kept in NFC. Anything else is a 400 with words that changes nothing; a game never ends up
holding text its pages cannot show."""

from __future__ import annotations

import json
import unicodedata

import pytest
from tablebank.models import Action, Game, db

from ..support import setup_of
from ..tables import refused_with_words, snapshot

# What the issue found and what a fuzzer sends, as JSON escapes (a lone surrogate cannot even
# be written as UTF-8: only JSON's "\ud800" carries one).
BAD_JSON_TEXT = {
    "lone high surrogate": "\\ud800",
    "lone low surrogate": "\\udfff",
    "NUL": "a\\u0000b",
    "a control character": "a\\u0007b",
    "noncharacter U+FFFF": "a\\uffffb",
    "noncharacter U+FDD0": "\\ufdd0",
    "noncharacter U+1FFFE": "\\ud83f\\udffe",
    "a huge combining run": "e" + "\\u0301" * 500,
    "ten marks on one letter": "e" + "\\u0301" * 10,
    "too long": "x" * 5000,
    "a right-to-left override": "a\\u202eb",
    "a left-to-right isolate": "a\\u2066b",
}


def games_and_actions(app) -> tuple[int, int]:
    with app.app_context():
        found = db.session.query(Game).count(), db.session.query(Action).count()
        db.session.remove()
    return found


def post_json(client, url: str, text: str, headers=None):
    return client.post(url, data=text, content_type="application/json", headers=headers or {})


@pytest.mark.parametrize("bad", BAD_JSON_TEXT.values(), ids=BAD_JSON_TEXT.keys())
def test_bad_text_in_any_json_field_is_a_400_and_changes_nothing(client, app, api_game, bad):
    game_id, headers = api_game
    before, counts = snapshot(app, game_id), games_and_actions(app)
    url = f"/api/games/{game_id}/actions"
    bodies = [
        f'{{"kind": "bank_pay", "player": 0, "amount": 5, "note": "{bad}"}}',
        f'{{"kind": "pass_go", "player": 0, "idempotency_key": "{bad}"}}',
        f'{{"kind": "pass_go", "player": 0, "junk": "{bad}"}}',  # even a field no one reads
        f'{{"kind": "pass_go", "player": 0, "{bad}": 1}}',  # a key
        f'{{"kind": "{bad}", "player": 0}}',
    ]
    for body in bodies:
        for path in (url, f"/api/games/{game_id}/preview"):
            refused_with_words(post_json(client, path, body, headers), status=(400,))
    name = f'{{"edition": "us-classic", "players": [{{"name": "{bad}", "colour": "#e03131"}},'
    name += ' {"name": "Bea", "colour": "#1971c2"}]}'
    refused_with_words(post_json(client, "/api/games", name), status=(400,))
    assert snapshot(app, game_id) == before
    assert games_and_actions(app) == counts


def test_the_message_names_the_field_and_never_echoes_the_text(client, api_game):
    game_id, headers = api_game
    body = '{"kind": "bank_pay", "player": 0, "amount": 5, "note": "tea\\ud800"}'
    answer = post_json(client, f"/api/games/{game_id}/actions", body, headers)
    message = refused_with_words(answer, status=(400,))
    assert "note" in message and "not allowed" in message and "tea" not in message
    answer.get_data().decode("utf-8")  # the answer itself is valid UTF-8


def test_a_player_named_with_a_lone_surrogate_is_refused_not_made(client, app):
    """The issue's case: a game made through the API with a player named "\\udfff" was 201,
    then every page of it a 500 forever."""
    counts = games_and_actions(app)
    setup = json.dumps(setup_of(("Ana", "Bea"))).replace("Bea", "\\udfff")
    refused_with_words(post_json(client, "/api/games", setup), status=(400,))
    assert games_and_actions(app) == counts


def test_a_name_that_would_turn_every_sentence_about_its_player_around_is_refused(client, app):
    """A right-to-left override at the start of Bea's name would show "Ana pays Bea $50" as
    "Ana pays 05$ aeB" in every history, on every phone: refused, in words, and no game is
    made. A Hebrew name needs no such character and is taken as it is."""
    counts = games_and_actions(app)
    setup = json.dumps(setup_of(("Ana", "Bea"))).replace("Bea", "\\u202eBea")
    message = refused_with_words(post_json(client, "/api/games", setup), status=(400,))
    assert "players.1.name" in message and "direction" in message
    assert games_and_actions(app) == counts
    made = post_json(client, "/api/games", json.dumps(setup_of(("Ana", "נועה"))))
    assert made.status_code == 201 and made.json["players"][1]["name"] == "נועה"


def test_a_name_too_long_says_how_long_a_name_may_be(client, app):
    """A 25-letter name through the API is told the bound the form's field has (24), not
    "the field players.name is not valid"."""
    counts = games_and_actions(app)
    setup = setup_of(("Ana", "B" * 25))
    message = refused_with_words(post_json(client, "/api/games", json.dumps(setup)), status=(400,))
    assert "Player 2 needs a name of 1 to 24 characters" in message
    assert games_and_actions(app) == counts


FORM_BAD = {
    "NUL": "B\x00b",
    "noncharacter": "B\uffffb",
    "a control character": "B\x1bb",
    "a huge combining run": "B" + "\u0301" * 300,
    "too long": "B" * 5000,
    "a right-to-left override": "B\u202eb",
}


@pytest.mark.parametrize("bad", FORM_BAD.values(), ids=FORM_BAD.keys())
def test_bad_text_in_a_form_is_a_400_page_with_words(client, app, bad):
    counts = games_and_actions(app)
    page = client.post("/new", data={"edition": "us-classic", "name0": "Ana", "name1": bad})
    assert page.status_code == 400
    assert "name1" in page.text and ("not allowed" in page.text or "at most" in page.text)
    assert games_and_actions(app) == counts
    form = {"edition": "us-classic", "name0": "Ana", "name1": "Bea"}
    game_id = client.post("/new", data=form).headers["Location"].split("/")[2]
    before = snapshot(app, game_id)
    note = {"kind": "bank_pay", "player": "0", "amount": "5", "note": bad}
    assert client.post(f"/g/{game_id}/do", data=note).status_code == 400
    keyed = {"kind": "pass_go", "player": "0", "key": bad}
    assert client.post(f"/g/{game_id}/do", data=keyed).status_code == 400
    assert snapshot(app, game_id) == before


@pytest.mark.parametrize("query", ["lang=%00", "x=%EF%BF%BF", "limit=1%07", "%00=1"])
def test_bad_text_in_a_query_string_is_a_400_with_words(client, api_game, query):
    game_id, headers = api_game
    answer = client.get(f"/api/games/{game_id}/actions?{query}", headers=headers)
    refused_with_words(answer, status=(400,))
    page = client.get(f"/new?{query}")
    assert page.status_code == 400 and "not allowed" in page.text


def test_a_header_with_a_control_character_is_a_400(client, api_game):
    game_id, headers = api_game
    for bad in ({"X-Banker-Key": headers["X-Banker-Key"] + "\x00"}, {"Last-Event-ID": "1\x01"}):
        answer = client.get(f"/api/games/{game_id}", headers=bad)
        assert "header" in refused_with_words(answer, status=(400,))
    assert client.get(f"/api/games/{game_id}", headers=headers).status_code == 200


def test_text_is_kept_in_nfc_and_one_key_is_one_key_whatever_its_form(client, app, api_game):
    game_id, headers = api_game
    decomposed = unicodedata.normalize("NFD", "José")
    assert decomposed != "José"
    created = client.post("/api/games", json=setup_of(("Ana", decomposed)))
    assert created.status_code == 201
    assert created.get_json()["players"][1]["name"] == "José"
    url = f"/api/games/{game_id}/actions"
    action = {"kind": "bank_pay", "player": 0, "amount": 5, "note": decomposed}
    first = client.post(url, json={**action, "idempotency_key": decomposed}, headers=headers)
    assert first.status_code == 201
    again = client.post(url, json={**action, "idempotency_key": "José"}, headers=headers)
    assert again.status_code == 200 and again.get_json()["repeated"]
    with app.app_context():
        row = db.session.query(Action).filter_by(game_id=game_id).one()
        assert row.payload["note"] == "José"


def test_names_in_other_scripts_and_a_few_marks_are_welcome(client):
    for name in ("Nguyễn", "さくら", "Ærøskøbing"[:24], "Zoë", "🎲 Lucky", "\u200bAna", "❤️"):
        made = client.post("/api/games", json=setup_of(("Ana", name)))
        assert made.status_code == 201, (name, made.get_json())
        assert made.get_json()["players"][1]["name"] == unicodedata.normalize("NFC", name)


INVISIBLE_NAMES = {
    "a zero-width space": "\u200b",
    "a word joiner": "\u2060",
    "a byte order mark": "\ufeff",
    "zero-width joiners and spaces": "\u200d\u200b \u200c",
    "only combining marks": "\u0301\u0308",
    "a Hangul filler": "\u3164",
    "an ideographic space and a zero-width space": "\u3000\u200b",
}


@pytest.mark.parametrize("name", INVISIBLE_NAMES.values(), ids=INVISIBLE_NAMES.keys())
def test_a_player_name_with_nothing_to_see_is_refused_in_words_not_made(client, app, table, name):
    """A name is how the table tells its players apart: one of only invisible characters
    (or marks with no letter to sit on) is refused, on the new-game page and by the API."""
    counts = games_and_actions(app)
    page = client.post("/new", data={"edition": "us-classic", "name0": "Ana", "name1": name})
    assert page.status_code == 400
    said = "Player 2 needs a name with a character one can see"
    assert said in table.text(page.text)
    made = client.post("/api/games", json=setup_of(("Ana", name)))
    assert refused_with_words(made, status=(400,)) == said
    assert games_and_actions(app) == counts


UNNAMED = {
    "no player named": ([{}, {}], 1),
    "the second player unnamed": ([{"name": "Ana", "colour": "#e03131"}, {"colour": "#1971c2"}], 2),
}


@pytest.mark.parametrize(("players", "number"), UNNAMED.values(), ids=UNNAMED.keys())
def test_s1_a_player_sent_without_a_name_is_refused_in_words_not_a_500(
    client, app, players, number
):
    """Found by bench/fuzz.py: a new game whose players are objects without a name passed the
    schema's check (whose "required" the API says in its own words) and failed on the name's
    visibility with a 500. Now the unnamed player is named by number, and nothing is made."""
    counts = games_and_actions(app)
    made = client.post("/api/games", json={"edition": "us-classic", "players": players})
    said = refused_with_words(made, status=(400,))
    assert said == f"Player {number} needs a name with a character one can see"
    assert games_and_actions(app) == counts


@pytest.mark.parametrize("bad", BAD_JSON_TEXT.values(), ids=BAD_JSON_TEXT.keys())
def test_bad_text_anywhere_in_an_archive_is_a_400(client, app, bad):
    counts = games_and_actions(app)
    archive = (
        '{"format": "tablebank-game", "version": 2, "edition": "us-classic", "log": [], '
        f'"setup": {{"edition": "us-classic", "players": []}}, "final": {{"note": "{bad}"}}}}'
    )
    refused_with_words(post_json(client, "/api/games/import", archive), status=(400,))
    assert games_and_actions(app) == counts
