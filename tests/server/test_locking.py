"""The bank's lock, in-process on the database under test: two actions on one game really
wait for each other (SQLite: BEGIN IMMEDIATE; PostgreSQL: SELECT ... FOR UPDATE), a key is
applied once even when its unique constraint is what catches the repeat, and a stale call is
refused with a message."""

from __future__ import annotations

import threading
import time

import pytest
from sqlalchemy import event
from tablebank import bank, logbook
from tablebank.models import Game, db
from tablebank.rules import RuleError

from ..servers import HANG_GUARD
from ..support import setup_of


@pytest.fixture
def game_id(app):
    with app.app_context():
        game_id = bank.create_game(setup_of()).id
        db.session.remove()
    return game_id


def in_thread(app, work) -> threading.Thread:
    """Run `work` in a thread of its own, with its own app context and database session."""
    results: list = []

    def run():
        with app.app_context():
            try:
                results.append(work())
            except Exception as error:  # noqa: BLE001  handed back to the test
                results.append(error)
            finally:
                db.session.remove()

    thread = threading.Thread(target=run)
    thread.results = results
    thread.start()
    return thread


@pytest.fixture
def slow_rules(monkeypatch):
    """The rules core made slow, noting the version each action was worked out from."""
    seen: list[int] = []
    original = bank.preview

    def slow(game, kind, payload):
        seen.append(game.version)
        time.sleep(0.3)
        return original(game, kind, payload)

    monkeypatch.setattr(bank, "preview", slow)
    return seen


def test_two_actions_at_once_run_one_after_the_other(app, game_id, slow_rules):
    def pay(seat):
        return lambda: bank.perform(game_id, "pass_go", {"player": seat}).action.seq

    threads = [in_thread(app, pay(0)), in_thread(app, pay(1))]
    for thread in threads:
        thread.join(timeout=HANG_GUARD)
    assert sorted(t.results[0] for t in threads) == [1, 2]
    # The second was worked out from what the first wrote, not from the same old snapshot.
    assert slow_rules == [0, 1]
    with app.app_context():
        game = db.session.get(Game, game_id)
        assert [p["cash"] for p in game.state["players"]] == [1700, 1700, 1500]
        assert logbook.replayed_state(game, bank.edition_of(game)).to_dict() == game.state


def test_one_key_sent_twice_at_once_is_applied_once(app, game_id, slow_rules):
    def tap():
        done = bank.perform(game_id, "pass_go", {"player": 0}, key="tap-1")
        return done.repeated, done.action.seq

    threads = [in_thread(app, tap), in_thread(app, tap)]
    for thread in threads:
        thread.join(timeout=HANG_GUARD)
    assert sorted(t.results[0] for t in threads) == [(False, 1), (True, 1)]
    with app.app_context():
        assert db.session.get(Game, game_id).state["players"][0]["cash"] == 1700


def test_the_lock_is_the_first_statement_of_the_transaction(app, game_id):
    statements: list[str] = []
    with app.app_context():

        def note(_conn, _cursor, statement, *_):
            statements.append(" ".join(statement.split()).upper())

        event.listen(db.engine, "before_cursor_execute", note)
        try:
            bank.perform(game_id, "pass_go", {"player": 0})
        finally:
            event.remove(db.engine, "before_cursor_execute", note)
        dialect = db.engine.dialect.name
    if dialect == "sqlite":
        assert statements[0] == "BEGIN IMMEDIATE"
        assert statements[1].startswith("SELECT GAME.")
    else:
        assert statements[0].startswith("SELECT GAME.")
        assert statements[0].endswith("FOR UPDATE")


def test_a_repeat_caught_by_the_unique_key_is_an_answer_not_an_error(app, game_id, monkeypatch):
    with app.app_context():
        first = bank.perform(game_id, "pass_go", {"player": 0}, key="retry-9")
        original, calls = bank._already_done, []

        def leaky(*args):  # misses once, as if a second path had raced past the check
            calls.append(args)
            return None if len(calls) == 1 else original(*args)

        monkeypatch.setattr(bank, "_already_done", leaky)
        again = bank.perform(game_id, "pass_go", {"player": 0}, key="retry-9")
        assert again.repeated and again.action.seq == first.action.seq
        game = db.session.get(Game, game_id)
        assert game.version == 1 and game.state["players"][0]["cash"] == 1700


def test_a_key_used_again_for_another_action_is_refused(app, game_id):
    with app.app_context():
        bank.perform(game_id, "pass_go", {"player": 0}, key="k-1")
        with pytest.raises(RuleError, match="already used for a different action"):
            bank.perform(game_id, "pass_go", {"player": 1}, key="k-1")
        assert db.session.get(Game, game_id).version == 1


def test_a_call_made_on_a_stale_state_is_refused_with_a_message(app, game_id):
    with app.app_context():
        bank.perform(game_id, "pass_go", {"player": 0}, expected_version=0)
        with pytest.raises(RuleError) as refusal:
            bank.perform(game_id, "pass_go", {"player": 1}, expected_version=0)
        assert refusal.value.rule == "stale"
        assert "Another device acted first" in str(refusal.value)
        assert db.session.get(Game, game_id).version == 1
