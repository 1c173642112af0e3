"""Schema migrations (Alembic): a database left at the first migration with a game in
progress is upgraded when a newer app starts and the game goes on; the migrations build
exactly the models' schema; several processes starting at once upgrade it once."""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, datetime

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from flask_migrate import upgrade
from sqlalchemy import JSON, DateTime, Integer, String, column, inspect, table, text
from tablebank import create_app
from tablebank.bank import edition_of
from tablebank.logbook import replayed_state
from tablebank.models import Game, db
from tablebank.paths import ROOT
from tablebank.rules import GameState, Outcome, RuleError, apply, new_game

from ..servers import HANG_GUARD
from ..support import US, setup_of

FIRST = "13e6e4e29e6f"
SCRIPTS = ScriptDirectory(str(ROOT / "migrations"))
BOUGHT = {"player": 0, "space": 39, "choices": [{"kind": "buy"}]}

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


NEW_FIELDS = ("pending", "moved", "again")  # what the snapshot holds since issue 19


def bought_under_the_first_rules(us, setup) -> tuple[dict, Outcome]:
    """The snapshot the first rules wrote after Ana bought Boardwalk (a `buy` of any deed,
    her turn still): the same figures as today's landing and buy, without the turn's state
    the snapshot holds now."""
    landed = apply(new_game(us, setup), us, "land", BOUGHT)
    state = {k: v for k, v in landed.state.to_dict().items() if k not in NEW_FIELDS}
    state["turn"] = 0
    return state, Outcome(landed.state, "Ana buys Boardwalk for $400", landed.movements)


def bea_paid_the_bank_after(state: dict, us) -> tuple[dict, Outcome]:
    """The first rules' snapshot after Bea then paid the bank $100 (a card, say)."""
    paid = apply(GameState.from_dict(state), us, "bank_collect", {"player": 1, "amount": 100})
    after = {k: v for k, v in paid.state.to_dict().items() if k not in NEW_FIELDS}
    return {**after, "turn": 0}, paid


def at_first_migration(url: str, fee: bool = False) -> None:
    """A database at the first migration, holding a game where Ana bought Boardwalk (and,
    with `fee`, Bea then paid the bank $100), logged under the first rules (its setup names
    no rules' version)."""
    old = create_app({"SQLALCHEMY_DATABASE_URI": url, "UPGRADE_ON_START": False})
    us = US
    setup = setup_of()
    state, bought = bought_under_the_first_rules(us, setup)
    rows = [("buy", {"player": 0, "deed": 39}, bought, "first-buy")]
    if fee:
        state, paid = bea_paid_the_bank_after(state, us)
        rows.append(("bank_collect", {"player": 1, "amount": 100}, paid, None))
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
                    version=len(rows),
                    state=state,
                )
            )
            connection.execute(
                PLAYER.insert(),
                [{"game_id": "oldgame1", "seat": s, "token": f"{s}" * 22} for s in range(3)],
            )
            connection.execute(
                ACTION.insert(),
                [
                    {
                        "game_id": "oldgame1",
                        "seq": seq,
                        "kind": kind,
                        "payload": payload,
                        "actor": "banker",
                        "idempotency_key": key,
                        "created_at": now,
                        "text": done.text,
                        "movements": [[m.payer, m.payee, m.amount] for m in done.movements],
                        "lines": [],
                    }
                    for seq, (kind, payload, done, key) in enumerate(rows, start=1)
                ],
            )
        db.engine.dispose()


@pytest.fixture
def upgraded(tmp_path, database_url):
    """The database at the first migration, opened by today's app (which upgrades it at
    start); its test client, the game's banker key."""
    url = database_url(tmp_path)
    at_first_migration(url)
    new = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": url})
    yield new, new.test_client(), {"X-Banker-Key": "b" * 22}
    with new.app_context():
        db.session.remove()
        db.engine.dispose()


def bea_lands_on_boardwalk(client, headers) -> list[int]:
    """R1, P2: the banker records Bea's landing on Ana's Boardwalk; every seat's cash."""
    rent = client.post(
        "/api/games/oldgame1/actions",
        json={"kind": "land", "player": 1, "space": 39, "expected_version": 1},
        headers=headers,
    )
    assert rent.status_code == 201, rent.get_json()
    return [p["cash"] for p in rent.get_json()["game"]["players"]]


def test_a_game_made_at_the_first_migration_survives_the_upgrade(upgraded):
    """The game goes on under today's rules: its snapshot is what counts (a log of the first
    rules is history, not replayed), Ana's turn waits for her throw, Bea's landing on
    Boardwalk pays Ana her rent (P2), the old idempotency key holds, the links work."""
    new, client, headers = upgraded
    with new.app_context():
        head = db.session.execute(text("select version_num from alembic_version")).scalar()
        assert head == SCRIPTS.get_current_head()
        game = db.session.get(Game, "oldgame1")
        assert game.version == 1 and game.state["deeds"]["39"]["owner"] == 0
        with pytest.raises(RuleError) as history_only:
            replayed_state(game, edition_of(game))
        assert history_only.value.rule == "rules"
        db.session.remove()
    assert client.get("/api/games/oldgame1/actions", headers=headers).get_json()[0]["seq"] == 1
    game = client.get("/api/games/oldgame1", headers=headers).get_json()
    assert game["turn"]["seat"] == 0 and [w["what"] for w in game["pending"]] == ["roll"]
    assert bea_lands_on_boardwalk(client, headers) == [1100 + 50, 1450, 1500]
    again = client.post(  # the key of the action made before the upgrade still holds
        "/api/games/oldgame1/actions",
        json={"kind": "buy", "player": 0, "deed": 39, "idempotency_key": "first-buy"},
        headers=headers,
    )
    assert again.status_code == 200 and again.get_json()["repeated"]
    assert client.get(f"/p/{'1' * 22}").status_code == 200  # the players' links still work


def test_a_player_s_history_from_before_the_upgrade_shows_on_their_phone(upgraded):
    """The rows logged before the upgrade are indexed by who they concern: Ana's phone lists
    her purchase of Boardwalk, on her page and on her history page."""
    _, client, headers = upgraded
    bea_lands_on_boardwalk(client, headers)
    for page in (f"/p/{'0' * 22}", f"/p/{'0' * 22}/history"):
        assert "Ana buys Boardwalk" in client.get(page).text, page


def test_undo_reaches_back_past_the_upgrade_one_action_at_a_time(upgraded):
    """Undo takes back Bea's landing (Ana keeps Boardwalk and her $1,100), then Ana's
    purchase made under the first rules: never more than the one action."""
    _, client, headers = upgraded
    bea_lands_on_boardwalk(client, headers)
    for cash, owner in (([1100, 1500, 1500], 0), ([1500, 1500, 1500], None)):
        undo = client.post("/api/games/oldgame1/actions", json={"kind": "undo"}, headers=headers)
        assert undo.status_code == 201, undo.get_json()
        game = undo.get_json()["game"]
        assert ([p["cash"] for p in game["players"]], game["deeds"][-1]["owner"]) == (cash, owner)


def test_undo_stops_in_words_where_the_earlier_rules_kept_no_state(tmp_path, database_url):
    """Two actions logged under the first rules (Ana buys Boardwalk, Bea pays the bank $100):
    the first undo takes back Bea's payment to the saved state before it is unknown, so it is
    refused in words and nothing changes; Bea's payment still shows in her history."""
    url = database_url(tmp_path)
    at_first_migration(url, fee=True)
    new = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": url})
    client, headers = new.test_client(), {"X-Banker-Key": "b" * 22}
    before = client.get("/api/games/oldgame1", headers=headers).get_json()
    assert [p["cash"] for p in before["players"]] == [1100, 1400, 1500]
    undo = client.post("/api/games/oldgame1/actions", json={"kind": "undo"}, headers=headers)
    assert undo.status_code == 422 and "earlier version of the rules" in undo.get_json()["error"]
    assert client.get("/api/games/oldgame1", headers=headers).get_json() == before
    assert "Bea pays the bank $100" in client.get(f"/p/{'1' * 22}/history").text
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
        _, errors = process.communicate(timeout=HANG_GUARD)
        assert process.returncode == 0, errors[-2000:]
