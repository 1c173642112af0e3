"""A full disk is reported as a full disk (507, in words, with a line in the log for the
host), not as a database that does not answer; nothing is half written."""

from __future__ import annotations

import psycopg
import pytest
from sqlalchemy import event, exc
from tablebank import create_app
from tablebank.db_setup import disk_full
from tablebank.models import db

from ..support import setup_of


@pytest.fixture
def full(tmp_path):
    """An app on SQLite whose database cannot grow past its size once the game is made."""
    app = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'full.sqlite'}",
            "WTF_CSRF_ENABLED": False,
        }
    )
    client = app.test_client()
    made = client.post("/api/games", json=setup_of(starting_cash=1000)).get_json()
    with app.app_context():
        engine = db.engine

        @event.listens_for(engine, "connect")
        def no_more_pages(dbapi_connection, _record):
            pages = dbapi_connection.execute("PRAGMA page_count").fetchone()[0]
            dbapi_connection.execute(f"PRAGMA max_page_count = {pages}")

        engine.dispose()
    yield app, client, made
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def test_a_full_disk_is_called_a_full_disk_and_nothing_is_written(full):
    app, client, made = full
    headers = {"X-Banker-Key": made["banker_key"]}
    actions = f"/api/games/{made['id']}/actions"
    note = "x" * 60  # each action needs new pages soon
    answers = [
        client.post(actions, json={"kind": "bank_pay", "player": 0, "amount": 1, "note": note},
                    headers=headers)
        for _ in range(80)
    ]  # fmt: skip
    refused = [a for a in answers if a.status_code != 201]
    assert refused, "the database never filled up"
    assert {a.status_code for a in refused} == {507}
    body = refused[0].get_json()
    assert body["rule"] == "disk_full" and "disk is full" in body["error"]
    done = len(answers) - len(refused)
    game = client.get(f"/api/games/{made['id']}", headers=headers).get_json()
    assert game["version"] == done  # the refused ones left nothing behind
    assert game["players"][0]["cash"] == 1000 + done
    client.get(f"/g/{made['id']}/?key={made['banker_key']}")  # the banker's phone
    page = client.post(f"/g/{made['id']}/do", data={"kind": "pass_go", "player": "1"})
    assert page.status_code == 507 and "disk is full" in page.text


def test_postgresql_s_disk_full_is_recognised():
    error = exc.OperationalError("INSERT", {}, psycopg.errors.DiskFull("could not extend file"))
    assert disk_full(error)
    assert not disk_full(exc.OperationalError("SELECT 1", {}, psycopg.OperationalError("gone")))
