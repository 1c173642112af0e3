"""PostgreSQL's pooled connections: one that the database dropped while it sat idle (a restart,
a firewall) is replaced before a request uses it; one dropped right after its use costs at
most one answer "try again in a few seconds", never a server error, and the pool starts
afresh."""

from __future__ import annotations

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool

from ..support import POSTGRES, setup_of

pytestmark = pytest.mark.skipif(not POSTGRES, reason="the pool tests PostgreSQL's connections")


@pytest.fixture
def game(app, client):
    made = client.post("/api/games", json=setup_of())
    assert made.status_code == 201
    return made.get_json()["id"], {"X-Banker-Key": made.get_json()["banker_key"]}


def drop_pooled_connection(app) -> None:
    """The database ends the app's pooled connection, as a restart would."""
    from tablebank.models import db

    with app.app_context():
        pid = db.session.execute(text("SELECT pg_backend_pid()")).scalar()
        db.session.remove()  # back in the pool, as after a request
        outside = create_engine(db.engine.url, poolclass=NullPool)
    with outside.connect() as connection:
        ended = connection.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
        assert ended.scalar() is True
    outside.dispose()


def test_a_connection_dropped_while_idle_is_replaced_before_use(app, client, game, monkeypatch):
    from tablebank import db_setup

    game_id, banker = game
    drop_pooled_connection(app)
    monkeypatch.setattr(db_setup, "IDLE_BEFORE_TEST", 0.0)  # as after a pause at the table
    answer = client.get(f"/api/games/{game_id}", headers=banker)
    assert answer.status_code == 200
    assert [p["name"] for p in answer.get_json()["players"]] == ["Ana", "Bea", "Cal"]


def test_a_connection_dropped_just_after_use_costs_one_try_again_at_most(app, client, game):
    game_id, banker = game
    drop_pooled_connection(app)
    first = client.get(f"/api/games/{game_id}", headers=banker)
    assert first.status_code in (200, 503)
    if first.status_code == 503:
        assert first.get_json()["rule"] == "unavailable"
    again = client.get(f"/api/games/{game_id}", headers=banker)
    assert again.status_code == 200
