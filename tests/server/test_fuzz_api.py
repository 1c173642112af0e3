"""The JSON API fuzzed from its own OpenAPI document (schemathesis, valid and invalid calls
both): no 500 ever, a refused call says why, and it changes nothing in the game in progress."""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from tablebank.models import Game, db

from ..support import setup_of


@pytest.fixture
def banker(app):
    """A game in progress and its banker's key, that every generated call is aimed at."""
    client = app.test_client()
    created = client.post("/api/games", json=setup_of()).get_json()
    client.post(
        f"/api/games/{created['id']}/actions",
        json={"kind": "buy", "player": 0, "deed": 39},
        headers={"X-Banker-Key": created["banker_key"]},
    )
    return created["id"], created["banker_key"]


@pytest.fixture
def api_schema(app):
    return schemathesis.openapi.from_wsgi("/api/openapi.json", app)


schema = schemathesis.pytest.from_fixture("api_schema")


@schema.parametrize()
@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
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
