"""The JSON API fuzzed from its own OpenAPI document (schemathesis, valid and invalid calls
both), and with nasty text (lone surrogates, NUL, controls, noncharacters, huge combining
runs, very long text) in every field of every action kind, every setting of a new game and
every part of an archive: no 500 ever, a refused call says why and changes nothing, and
whatever is taken is stored clean.

Every field gets every kind of nasty text on every run (the `every_..._gets_...` sweeps);
hypothesis then tries a few mixes in the quick profile and many with HYPOTHESIS_PROFILE=
thorough (with schemathesis's coverage phase), or FUZZ_EXAMPLES of each."""

from __future__ import annotations

import json
import os

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.config import SchemathesisConfig
from tablebank.models import Action, Game, db
from tablebank.rules import KINDS

from ..support import PROFILE, THOROUGH, examples, setup_of


@pytest.fixture
def banker(app):
    """A game in progress and its banker's key, that every generated call is aimed at."""
    client = app.test_client()
    created = client.post("/api/games", json=setup_of()).get_json()
    client.post(
        f"/api/games/{created['id']}/actions",
        json={"kind": "bank_pay", "player": 0, "amount": 5, "note": "tip"},
        headers={"X-Banker-Key": created["banker_key"]},
    )
    return created["id"], created["banker_key"]


# Schemathesis's coverage phase calls every boundary case the schema defines, whatever the
# count of examples (about 2,000 calls for the actions): thorough runs make them.
PHASES = {"coverage": {"enabled": PROFILE == THOROUGH}}


@pytest.fixture
def api_schema(app):
    config = SchemathesisConfig.from_dict({"phases": PHASES})
    return schemathesis.openapi.from_wsgi("/api/openapi.json", app, config=config)


schema = schemathesis.pytest.from_fixture("api_schema")
# Examples of each kind (each of the API's operations): a few in the suite, many when thorough.
SETTINGS = settings(
    max_examples=int(os.environ.get("FUZZ_EXAMPLES") or examples(12, 1000)),
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@schema.parametrize()
@SETTINGS
def test_no_call_is_a_server_error_and_a_refused_call_changes_nothing(case, app, banker):
    game_id, key = banker
    if "game_id" in (case.path_parameters or {}):
        case.path_parameters["game_id"] = game_id
    with app.app_context():
        before = db.session.get(Game, game_id).version
        db.session.remove()
    response = case.call(headers={"X-Banker-Key": key})
    assert response.status_code < 500, response.text
    with app.app_context():
        after = db.session.get(Game, game_id).version
        db.session.remove()
    if response.status_code >= 400 or case.method != "POST":
        assert after == before, (case.method, case.path, response.status_code)
    if response.status_code >= 400:  # refused with words, as JSON
        message = response.json()["error"]
        assert isinstance(message, str) and message, response.text


# -- nasty text in every string the API takes ----------------------------------------------------

ANY_CODE_POINT = st.characters(exclude_categories=())  # lone surrogates included
BAD_TEXT = [
    "\ud800", "a\udfffb", "\udc00\ud800", "\x00", "B\x00b", "\x1b[31m", "\x7f", "\x85",
    "\uffff", "\ufffe", "\ufdd0", "\U0001ffff", "\U0010fffe", "e" + "\u0301" * 9,
    "e" + "\u0301" * 3000, "x" * 5000,
]  # fmt: skip
TEXT = st.one_of(
    st.sampled_from(BAD_TEXT),
    st.text(ANY_CODE_POINT, max_size=30),
    st.builds(lambda base, n: base + "\u0301" * n, st.sampled_from("ae€"), st.integers(1, 600)),
)
FIELDS = sorted({name for kind in KINDS.values() for name in kind.fields})
SETUP_TEXT = ["edition", "mode", "ends_at", "time_zone", "name", "colour", "(a key)"]


def body_with(value, where: str, kind: str) -> dict:
    """An action of `kind` with `value` in the field `where` (a declared field, a meta field,
    the kind itself, an unknown field, a key)."""
    body = {"kind": kind, "player": 0, "amount": 5}
    if where == "(a key)":
        body[value] = 1
    else:
        body[where] = value
    return body


def setup_with(value, where: str) -> dict:
    setup = setup_of()
    if where in ("name", "colour"):
        setup["players"][1][where] = value
    elif where == "(a key)":
        setup["players"][1][value] = "x"
    else:
        setup[where] = value
    return setup


def strings(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (*strings(k), *strings(v))]
    if isinstance(value, list | tuple):
        return [s for item in value for s in strings(item)]
    return []


def stored_text_is_clean(app, game_id) -> None:
    """Every text the game holds is text a page can show (app/inputs.py: FORBIDDEN)."""
    from tablebank.inputs import FORBIDDEN

    with app.app_context():
        game = db.session.get(Game, game_id)
        rows = db.session.query(Action).filter_by(game_id=game_id).all()
        held = [game.setup, game.state, *[(r.payload, r.text, r.lines) for r in rows]]
        db.session.remove()
    bad = [text for text in strings(held) if FORBIDDEN.search(text)]
    assert not bad, [ascii(text)[:80] for text in bad]


ACTION_PLACES = [*FIELDS, "idempotency_key", "kind", "junk", "(a key)"]
ARCHIVE_PLACES = ["edition", "created_at", "checksum", "kind", "actor", "at", "note", "name"]


def a_kind_with(field: str) -> str:
    """A kind that declares `field` (so the text reaches its checks), else a plain one."""
    return next((name for name in sorted(KINDS) if field in KINDS[name].fields), "bank_pay")


def action_text_is_taken_clean_or_refused(app, banker, value, where, kind, path) -> None:
    game_id, key = banker
    client = app.test_client()
    said = (where, kind, path, ascii(value)[:40])
    with app.app_context():
        before = db.session.get(Game, game_id).version
        db.session.remove()
    text = json.dumps(body_with(value, where, kind))  # a lone surrogate goes as "\ud800"
    answer = client.post(
        f"/api/games/{game_id}/{path}",
        data=text,
        content_type="application/json",
        headers={"X-Banker-Key": key},
    )
    assert answer.status_code < 500, (said, answer.get_data())
    if answer.status_code >= 400:
        assert answer.get_json()["error"], said
        with app.app_context():
            assert db.session.get(Game, game_id).version == before, said
            db.session.remove()
    stored_text_is_clean(app, game_id)
    assert client.get(f"/api/games/{game_id}", headers={"X-Banker-Key": key}).status_code == 200


def setup_text_is_taken_clean_or_refused(app, value, where) -> None:
    client = app.test_client()
    said = (where, ascii(value)[:40])
    text = json.dumps(setup_with(value, where))
    answer = client.post("/api/games", data=text, content_type="application/json")
    assert answer.status_code < 500, (said, answer.get_data())
    if answer.status_code == 201:
        made = answer.get_json()
        stored_text_is_clean(app, made["id"])
        with client.session_transaction() as session:
            session["banker_of"] = [made["id"]]
        assert client.get(f"/g/{made['id']}/").status_code == 200, said
    else:
        assert answer.get_json()["error"], said


def archive_text_is_taken_clean_or_refused(app, banker, value, where) -> None:
    game_id, key = banker
    client = app.test_client()
    said = (where, ascii(value)[:40])
    data = client.get(f"/api/games/{game_id}/export", headers={"X-Banker-Key": key}).get_json()
    entry = data["log"][0]
    if where in ("kind", "actor", "at"):
        entry[where] = value
    elif where == "note":
        entry["payload"]["note"] = value
    elif where == "name":
        data["setup"]["players"][0]["name"] = value
    else:
        data[where] = value
    answer = client.post(
        "/api/games/import", data=json.dumps(data), content_type="application/json"
    )
    assert answer.status_code < 500, (said, answer.get_data())
    assert answer.status_code in (201, 400), (said, answer.get_json())
    if answer.status_code == 201:
        stored_text_is_clean(app, answer.get_json()["id"])


# -- every place gets every nasty text, every run ------------------------------------------------


def test_every_field_of_every_kind_gets_every_nasty_text(app, banker):
    for where in ACTION_PLACES:
        for n, value in enumerate(BAD_TEXT):
            path = ("actions", "preview")[n % 2]
            action_text_is_taken_clean_or_refused(
                app, banker, value, where, a_kind_with(where), path
            )


def test_every_setting_of_a_new_game_gets_every_nasty_text(app):
    for where in SETUP_TEXT:
        for value in BAD_TEXT:
            setup_text_is_taken_clean_or_refused(app, value, where)


def test_every_part_of_an_archive_gets_every_nasty_text(app, banker):
    for where in ARCHIVE_PLACES:
        for value in BAD_TEXT:
            archive_text_is_taken_clean_or_refused(app, banker, value, where)


# -- and any text, mixed by hypothesis -----------------------------------------------------------


@given(
    value=TEXT,
    where=st.sampled_from(ACTION_PLACES),
    kind=st.sampled_from(sorted(KINDS)),
    path=st.sampled_from(["actions", "preview"]),
)
@SETTINGS
def test_any_text_in_any_field_of_any_kind_is_taken_clean_or_refused(
    app, banker, value, where, kind, path
):
    action_text_is_taken_clean_or_refused(app, banker, value, where, kind, path)


@given(value=TEXT, where=st.sampled_from(SETUP_TEXT))
@SETTINGS
def test_any_text_in_any_setting_of_a_new_game_is_taken_clean_or_refused(app, value, where):
    setup_text_is_taken_clean_or_refused(app, value, where)


@given(value=TEXT, where=st.sampled_from(ARCHIVE_PLACES))
@SETTINGS
def test_any_text_anywhere_in_an_archive_is_taken_clean_or_refused(app, banker, value, where):
    archive_text_is_taken_clean_or_refused(app, banker, value, where)
