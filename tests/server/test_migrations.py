"""Schema migrations: a database made by the first migration, with a game in progress, is
upgraded by a newer app and the game goes on."""

from __future__ import annotations

from pathlib import Path

from alembic.script import ScriptDirectory
from flask_migrate import upgrade
from sqlalchemy import text

from app import ROOT, create_app
from app.models import Game, db

from ..conftest import setup_of

FIRST = "13e6e4e29e6f"


SCRIPTS = ScriptDirectory(str(ROOT / "migrations"))


def test_the_first_migration_is_where_the_history_starts():
    assert [r.revision for r in SCRIPTS.walk_revisions()][-1] == FIRST


def test_a_game_made_at_the_first_migration_survives_the_upgrade(tmp_path: Path, database_url):
    url = database_url(tmp_path)
    old = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": url})
    with old.app_context():
        upgrade(revision=FIRST)
    client = old.test_client()
    created = client.post("/api/games", json=setup_of()).get_json()
    headers = {"X-Banker-Key": created["banker_key"]}
    actions = f"/api/games/{created['id']}/actions"
    client.post(actions, json={"kind": "buy", "player": 0, "deed": 39}, headers=headers)
    with old.app_context():
        db.session.remove()
        db.engine.dispose()

    new = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": url})  # upgrades to head
    with new.app_context():
        head = db.session.execute(text("select version_num from alembic_version")).scalar()
        assert head == SCRIPTS.get_current_head()
        game = db.session.get(Game, created["id"])
        assert game.state["deeds"]["39"]["owner"] == 0
    client = new.test_client()
    rent = client.post(actions, json={"kind": "rent", "player": 1, "deed": 39}, headers=headers)
    assert rent.status_code == 201
    players = rent.get_json()["game"]["players"]
    assert [p["cash"] for p in players] == [1100 + 50, 1450, 1500]
    with new.app_context():
        db.session.remove()
        db.engine.dispose()
