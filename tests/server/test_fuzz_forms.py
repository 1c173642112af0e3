"""The pages' forms fuzzed (hypothesis): any fields, any values, on every form route, as the
banker and from a player's phone. Never a server error; a refused post changes nothing."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tablebank.models import Game, db
from tablebank.rules import KINDS

FIELDS = sorted({name for kind in KINDS.values() for name in kind.fields})
NASTY = [
    "", "0", "1", "-1", "7", "39", "99", "1e3", "12.5", "NaN", "Infinity", "²", "٣", "true",
    "9" * 5000, "[" * 2000, '{"player": 0}', "\x00", "a,b", "1,1,1", "<script>", "%s",
]  # fmt: skip
VALUES = st.one_of(st.sampled_from(NASTY), st.text(max_size=40), st.integers().map(str))
FORMS = st.dictionaries(
    st.one_of(st.sampled_from([*FIELDS, "payload", "key", "version"]), st.text(max_size=8)),
    VALUES,
    max_size=6,
)
KIND = st.one_of(st.sampled_from(sorted(KINDS)), st.text(max_size=10))
ROUTES = ["banker", "player", "new", "new_link"]


@pytest.fixture
def table(app):
    client = app.test_client()
    form = {"edition": "us-classic", "name0": "Ana", "name1": "Bea", "name2": "Cal"}
    game_id = client.post("/new", data=form).headers["Location"].split("/")[2]
    client.post(f"/g/{game_id}/do", data={"kind": "buy", "player": "0", "deed": "39"})
    with app.app_context():
        token = db.session.get(Game, game_id).players[1].token
        db.session.remove()
    return client, game_id, token


def state_of(app, game_id):
    with app.app_context():
        game = db.session.get(Game, game_id)
        found = (game.version, game.state, [p.token for p in game.players])
        db.session.remove()
    return found


@given(route=st.sampled_from(ROUTES), kind=KIND, fields=FORMS, seat=st.integers(-2, 9))
@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_no_form_post_is_a_server_error(app, table, route, kind, fields, seat):
    client, game_id, token = table
    before = state_of(app, game_id)
    url = {
        "banker": f"/g/{game_id}/do",
        "player": f"/p/{token}/do",
        "new": "/new",
        "new_link": f"/g/{game_id}/codes/{max(seat, 0)}/new",
    }[route]
    form = {**fields, "kind": kind}
    response = client.post(url, data=form)
    assert response.status_code < 500, (url, form)
    if response.status_code >= 400:
        assert state_of(app, game_id) == before, (url, form)
    if response.status_code == 302:  # the page it lands on is no error either
        landed = client.get(response.headers["Location"])
        assert landed.status_code < 500, (url, form)
