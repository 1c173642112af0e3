"""Schema migrations (Alembic): a database left at the first migration with a game in
progress is upgraded when a newer app starts and the game goes on; the migrations build
exactly the models' schema; several processes starting at once upgrade it once."""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, datetime

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from flask_migrate import upgrade
from sqlalchemy import JSON, DateTime, Integer, String, column, inspect, table, text
from tablebank import ROOT, create_app
from tablebank.bank import replayed_state
from tablebank.models import Game, db
from tablebank.rules import apply, new_game

from ..support import ALL_EDITIONS, setup_of

FIRST = "13e6e4e29e6f"
SCRIPTS = ScriptDirectory(str(ROOT / "migrations"))

# The tables as the first migration made them (not as the models are now).
GAME = table(
    "game",
    *(column(n, String) for n in ("id", "edition", "table_token", "banker_key")),
    column("created_at", DateTime(timezone=True)),
    column("setup", JSON),
    column("version", Integer),
    column("state", JSON),
)
PLAYER = table(
    "player", column("game_id", String), column("seat", Integer), column("token", String)
)
ACTION = table(
    "action",
    *(column(n, String) for n in ("game_id", "kind", "actor", "idempotency_key", "text")),
    column("seq", Integer),
    column("created_at", DateTime(timezone=True)),
    *(column(n, JSON) for n in ("payload", "movements", "lines")),
)


def test_the_first_migration_is_where_the_history_starts():
    assert [r.revision for r in SCRIPTS.walk_revisions()][-1] == FIRST


def at_first_migration(url: str) -> None:
    """A database at the first migration, holding a game where Ana bought Boardwalk."""
    old = create_app({"SQLALCHEMY_DATABASE_URI": url, "UPGRADE_ON_START": False})
    us = ALL_EDITIONS["us-classic"]
    setup = setup_of()
    start = new_game(us, setup)
    bought = apply(start, us, "buy", {"player": 0, "deed": 39})
    now = datetime.now(UTC)
    with old.app_context():
        upgrade(revision=FIRST)
        with db.engine.begin() as connection:
            connection.execute(
                GAME.insert().values(
                    id="oldgame1",
                    edition="us-classic",
                    table_token="t" * 22,
                    banker_key="b" * 22,
                    created_at=now,
                    setup=setup,
                    version=1,
                    state=bought.state.to_dict(),
                )
            )
            connection.execute(
                PLAYER.insert(),
                [{"game_id": "oldgame1", "seat": s, "token": f"{s}" * 22} for s in range(3)],
            )
            connection.execute(
                ACTION.insert().values(
                    game_id="oldgame1",
                    seq=1,
                    kind="buy",
                    payload={"player": 0, "deed": 39},
                    actor="banker",
                    idempotency_key="first-buy",
                    created_at=now,
                    text=bought.text,
                    movements=[[m.payer, m.payee, m.amount] for m in bought.movements],
                    lines=bought.lines,
                )
            )
        db.engine.dispose()


def test_a_game_made_at_the_first_migration_survives_the_upgrade(tmp_path, database_url):
    url = database_url(tmp_path)
    at_first_migration(url)

    new = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": url})  # upgrades to head
    with new.app_context():
        head = db.session.execute(text("select version_num from alembic_version")).scalar()
        assert head == SCRIPTS.get_current_head()
        game = db.session.get(Game, "oldgame1")
        assert game.version == 1 and game.state["deeds"]["39"]["owner"] == 0
        assert replayed_state(game).to_dict() == game.state
        db.session.remove()
    client = new.test_client()
    headers = {"X-Banker-Key": "b" * 22}
    assert client.get("/api/games/oldgame1/actions", headers=headers).get_json()[0]["seq"] == 1
    rent = client.post(
        "/api/games/oldgame1/actions",
        json={"kind": "rent", "player": 1, "deed": 39, "expected_version": 1},
        headers=headers,
    )
    assert rent.status_code == 201
    assert [p["cash"] for p in rent.get_json()["game"]["players"]] == [1100 + 50, 1450, 1500]
    again = client.post(  # the key of the action made before the upgrade still holds
        "/api/games/oldgame1/actions",
        json={"kind": "buy", "player": 0, "deed": 39, "idempotency_key": "first-buy"},
        headers=headers,
    )
    assert again.status_code == 200 and again.get_json()["repeated"]
    assert client.get(f"/p/{'1' * 22}").status_code == 200  # the players' links still work
    assert "Ana buys Boardwalk" in client.get(f"/p/{'0' * 22}").text  # her history, indexed
    for cash in ([1100, 1500, 1500], [1500, 1500, 1500]):  # undo reaches back past the upgrade
        undo = client.post("/api/games/oldgame1/actions", json={"kind": "undo"}, headers=headers)
        assert undo.status_code == 201
        assert [p["cash"] for p in undo.get_json()["game"]["players"]] == cash
    with new.app_context():
        db.session.remove()
        db.engine.dispose()


def test_the_migrations_build_exactly_the_models_schema(app):
    with app.app_context(), db.engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        assert compare_metadata(context, db.metadata) == []
        assert "alembic_version" in inspect(connection).get_table_names()


STARTS = (
    "import sys; from tablebank import create_app; "
    "create_app({'SQLALCHEMY_DATABASE_URI': sys.argv[1]})"
)


def test_processes_starting_at_once_on_a_new_database_all_come_up(tmp_path, database_url):
    """Workers started without --preload each upgrade at start: one at a time, not racing."""
    url = database_url(tmp_path)
    starts = [
        subprocess.Popen(
            [sys.executable, "-c", STARTS, url], cwd=ROOT, stderr=subprocess.PIPE, text=True
        )
        for _ in range(4)
    ]
    for process in starts:
        _, errors = process.communicate(timeout=60)
        assert process.returncode == 0, errors[-2000:]
