"""A seal that needs the secret: the snapshot is sealed with an HMAC keyed by the server's
SECRET_KEY, so someone with the database but not the secret cannot make an edited snapshot
look intact, neither by recomputing a plain checksum nor by clearing it. Such a game is
served read-only with the host's repair command; `check` and `repair` read one consistent
snapshot and wait politely for a game a running server is writing to."""

from __future__ import annotations

import copy
import hashlib
import json
from types import SimpleNamespace

import pytest
from sqlalchemy import event, text, update
from tablebank import bank, create_app, integrity, upkeep
from tablebank.models import Game, db

from ..support import POSTGRES


@pytest.fixture
def game(client):
    form = {"edition": "us-classic", "name0": "Ana", "name1": "Bea"}
    game_id = client.post("/new", data=form).headers["Location"].split("/")[2]
    client.post(f"/g/{game_id}/do", data={"kind": "bank_pay", "player": "0", "amount": "100"})
    return game_id


def plain_sha256(state: dict) -> str:
    """What anyone with the database could compute: the seal before it was keyed."""
    normal = json.dumps(json.loads(json.dumps(state)), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(normal.encode()).hexdigest()


def edit(app, game_id, cash: int, seal) -> None:
    """A hand edit in the database: Ana's cash, and the seal made to look right (or cleared)."""
    with app.app_context():
        state = json.loads(json.dumps(db.session.get(Game, game_id).state))
        state["players"][0]["cash"] = cash
        new_sum = seal(state) if callable(seal) else seal
        values = {"state": state, "state_sum": new_sum}
        db.session.execute(update(Game).where(Game.id == game_id).values(**values))
        db.session.commit()
        db.session.remove()


def cash(app, game_id) -> list[int]:
    with app.app_context():
        found = [p["cash"] for p in db.session.get(Game, game_id).state["players"]]
        db.session.remove()
    return found


@pytest.mark.parametrize("seal", [plain_sha256, None, ""], ids=["recomputed", "cleared", "empty"])
def test_an_edited_snapshot_resealed_without_the_secret_is_read_only(client, app, game, seal):
    edit(app, game, 1_000_000, seal)
    page = client.get(f"/g/{game}/")
    assert page.status_code == 200
    assert "shown read-only" in page.text
    assert f"flask --app tablebank repair {game}" in page.text
    form = {"kind": "transfer", "from": "0", "to": "1", "amount": "900000"}
    done = client.post(f"/g/{game}/do", data=form, follow_redirects=True)
    assert "does not match its log" in done.text
    assert cash(app, game) == [1_000_000, 1500]  # nothing moved
    with app.app_context():
        key = db.session.get(Game, game).banker_key
        token = db.session.get(Game, game).players[0].token
        db.session.remove()
    action = {"kind": "pass_go", "player": 0}
    answer = client.post(f"/api/games/{game}/actions", json=action, headers={"X-Banker-Key": key})
    assert answer.status_code == 409 and answer.get_json()["rule"] == "integrity"
    assert "shown read-only" in client.get(f"/p/{token}").text  # the players' phones too


def test_the_seal_depends_on_the_secret(tmp_path, database_url):
    url = database_url(tmp_path)
    first = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "one"})
    made = first.test_client().post("/api/games", json={"edition": "us-classic", "players": [
        {"name": "Ana", "colour": "#e03131"}, {"name": "Bea", "colour": "#1971c2"}]})  # fmt: skip
    game_id, key = made.get_json()["id"], made.get_json()["banker_key"]
    other = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "two"})
    action = {"kind": "pass_go", "player": 0}
    headers = {"X-Banker-Key": key}
    refused = other.test_client().post(
        f"/api/games/{game_id}/actions", json=action, headers=headers
    )
    assert refused.status_code == 409
    done = first.test_client().post(f"/api/games/{game_id}/actions", json=action, headers=headers)
    assert done.status_code == 201
    for app in (first, other):
        with app.app_context():
            db.session.remove()
            db.engine.dispose()


def test_repair_seals_a_game_again_and_check_says_what_was_wrong(client, app, game):
    edit(app, game, 1_000_000, plain_sha256)
    runner = app.test_cli_runner()
    listed = runner.invoke(args=["check"])
    assert f"{game}: its seal does not match" in listed.output and "1 damaged" in listed.output
    repaired = runner.invoke(args=["repair", "--", game])
    assert "rebuilt from its log, sealed" in repaired.output, repaired.output
    assert cash(app, game) == [1600, 1500]
    assert "0 damaged" in runner.invoke(args=["check"]).output
    assert "shown read-only" not in client.get(f"/g/{game}/").text
    assert client.post(f"/g/{game}/do", data={"kind": "pass_go", "player": "0"}).status_code == 302
    assert cash(app, game) == [1800, 1500]


def test_check_reads_one_snapshot_while_the_game_is_being_written_to(
    client, app, game, monkeypatch
):
    """The issue's case: `flask check` on PostgreSQL called a healthy game damaged because an
    action committed between its read of the game and its read of the log. Here an action is
    done at exactly that moment, every time."""
    real_intact, acted = integrity.intact, []

    def intact_then_an_action(checked):
        if not acted:
            acted.append(True)
            with app.app_context():  # another request's session, its own transaction
                bank.perform(game, "pass_go", {"player": 1})
                db.session.remove()
        return real_intact(checked)

    monkeypatch.setattr(upkeep, "intact", intact_then_an_action)
    listed = app.test_cli_runner().invoke(args=["check"])
    assert acted and "0 damaged" in listed.output, listed.output
    assert cash(app, game)[1] == 1700  # the action was done meanwhile


def hold_the_write_lock(app, game_id):
    """What a running server's action does: hold the game's write lock (SQLite: the whole
    database's). Returns a function that lets go."""
    if POSTGRES:
        with app.app_context():
            connection = db.engine.connect()
        connection.execute(text("SELECT id FROM game WHERE id = :id FOR UPDATE"), {"id": game_id})
    else:
        import sqlite3

        path = app.config["SQLALCHEMY_DATABASE_URI"].removeprefix("sqlite:///")
        connection = sqlite3.connect(path, isolation_level=None)
        connection.execute("BEGIN IMMEDIATE")

    def release():
        connection.rollback()
        connection.close()

    return release


@pytest.fixture
def impatient(app):
    """The database's own wait for a lock cut to a fifth of a second, so the test is quick."""
    setting = "SET lock_timeout = 200" if POSTGRES else "PRAGMA busy_timeout = 200"

    def short_wait(connection, _record):
        connection.execute(setting)
        connection.commit()

    with app.app_context():
        event.listen(db.engine, "connect", short_wait)
        db.engine.dispose()
    return app


def test_repair_on_a_busy_server_waits_and_then_repairs(impatient, game, monkeypatch):
    app = impatient
    edit(app, game, 1_000_000, plain_sha256)
    release = hold_the_write_lock(app, game)
    monkeypatch.setattr(upkeep.time, "sleep", lambda _s: release())  # the action ends
    repaired = app.test_cli_runner().invoke(args=["repair", "--", game])
    assert repaired.exception is None, repaired.output
    assert "busy, waiting" in repaired.output and "rebuilt from its log" in repaired.output
    assert cash(app, game) == [1600, 1500]


def test_repair_on_a_server_that_stays_busy_says_so_and_changes_nothing(
    impatient, game, monkeypatch
):
    app = impatient
    edit(app, game, 1_000_000, plain_sha256)
    release = hold_the_write_lock(app, game)
    monkeypatch.setattr(upkeep.time, "sleep", lambda _s: None)
    try:
        repaired = app.test_cli_runner().invoke(args=["repair", "--", game])
    finally:
        release()
    assert repaired.exit_code == 1
    assert "stayed busy; nothing was changed" in repaired.output
    assert "Traceback" not in repaired.output and "locked" not in repaired.output
    assert cash(app, game) == [1_000_000, 1500]


def test_a_snapshot_kept_with_number_keys_is_intact_once_sealed_and_not_once_edited(app):
    """A snapshot read from the database is checked in one pass (its keys are all text); one
    whose keys are numbers, or of both kinds, orders differently there and is checked the
    long way: still intact, and an edit in it still found."""
    state = {"deeds": {2: {"owner": 0}, 10: {"owner": 1}}, "bank": {3: 1, "pot": 0}}
    with app.app_context():
        sealed = SimpleNamespace(id="g1", version=3, state=state, state_sum="")
        integrity.seal(sealed)
        again = SimpleNamespace(id="g1", version=3, state=copy.deepcopy(state))
        again.state_sum = sealed.state_sum  # a new object: worked out afresh
        assert integrity.intact(again)
        as_read = json.loads(json.dumps(state))  # the same snapshot, as the database gives it
        assert integrity.intact(SimpleNamespace(**{**vars(again), "state": as_read}))
        edited = copy.deepcopy(state)
        edited["deeds"][10]["owner"] = 0
        assert not integrity.intact(SimpleNamespace(**{**vars(again), "state": edited}))
