"""The host's kit: health and readiness for monitoring, the version, owner-only instance files,
and a backup and restore of every game (SQLite online; PostgreSQL's own tools)."""

from __future__ import annotations

import os
import re
import shutil
import sqlite3
import stat
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest
from sqlalchemy import make_url, text
from tablebank import create_app
from tablebank.models import db

from ..streams import Opened
from ..support import POSTGRES, setup_of


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_healthz_answers_and_readyz_checks_the_database_and_its_schema(app, client):
    assert client.get("/healthz").get_json() == {"alive": True}
    assert client.get("/readyz").get_json() == {"ready": True}
    with app.app_context():
        db.session.execute(text("UPDATE alembic_version SET version_num = 'older'"))
        db.session.commit()
        db.session.remove()
    answer = client.get("/readyz")
    assert answer.status_code == 503
    assert "schema is not the newest" in answer.get_json()["error"]
    assert "Set-Cookie" not in answer.headers  # a probe makes no session


def test_healthz_needs_no_database_and_readyz_says_it_does_not_answer(tmp_path):
    nowhere = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": "postgresql://nobody@127.0.0.1:9/none",
            "UPGRADE_ON_START": False,
            "DB_CONNECT_TIMEOUT": 1,
        }
    )
    client = nowhere.test_client()
    assert client.get("/healthz").status_code == 200
    answer = client.get("/readyz")
    assert answer.status_code == 503
    assert answer.get_json() == {"ready": False, "error": "the database is not answering"}


def test_the_command_says_its_version():
    command = Path(sys.executable).with_name("tablebank")
    shown = subprocess.run([command, "--version"], capture_output=True, text=True, check=True)
    assert shown.stdout.strip() == f"tablebank {metadata.version('tablebank')}"


def test_instance_files_and_folder_are_the_owner_s_only(tmp_path, monkeypatch):
    instance = tmp_path / "instance"
    monkeypatch.setenv("TABLEBANK_INSTANCE", str(instance))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.delenv("SECRET_KEY", raising=False)
    create_app({"TESTING": True})
    assert mode(instance) == 0o700
    assert mode(instance / "secret_key") == 0o600
    assert mode(instance / "tablebank.sqlite") == 0o600
    assert all(mode(side) == 0o600 for side in instance.glob("tablebank.sqlite*"))
    # Files an older version left readable by anyone are made the owner's at the next start.
    (instance / "tablebank.sqlite").chmod(0o644)
    instance.chmod(0o755)
    create_app({"TESTING": True})
    assert mode(instance) == 0o700
    assert mode(instance / "tablebank.sqlite") == 0o600


def cash_of(client, game_id: str, key: str) -> list[int]:
    game = client.get(f"/api/games/{game_id}", headers={"X-Banker-Key": key}).get_json()
    return [p["cash"] for p in game["players"]]


@pytest.mark.skipif(POSTGRES, reason="SQLite's backup: the PostgreSQL case is the next test")
def test_backup_is_consistent_while_a_write_is_under_way_and_restore_brings_it_back(
    app, client, tmp_path
):
    made = client.post("/api/games", json=setup_of(starting_cash=1000)).get_json()
    game_id, key = made["id"], made["banker_key"]
    pay = {"kind": "bank_pay", "player": 0, "amount": 10}
    headers = {"X-Banker-Key": key}
    assert (
        client.post(f"/api/games/{game_id}/actions", json=pay, headers=headers).status_code == 201
    )
    live = app.config["SQLALCHEMY_DATABASE_URI"].removeprefix("sqlite:///")
    writer = sqlite3.connect(live, isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")  # another process in the middle of a write
    writer.execute("UPDATE game SET edition = 'uk' WHERE id = ?", (game_id,))
    copy = tmp_path / "games.backup"
    runner = app.test_cli_runner()
    done = runner.invoke(args=["backup", str(copy)])
    writer.execute("ROLLBACK")
    writer.close()
    assert done.exit_code == 0, done.output
    assert mode(copy) == 0o600
    with sqlite3.connect(copy) as kept:
        assert kept.execute("SELECT edition FROM game").fetchall() == [("us-classic",)]
    assert (
        client.post(f"/api/games/{game_id}/actions", json=pay, headers=headers).status_code == 201
    )
    assert cash_of(client, game_id, key) == [1020, 1000, 1000]
    assert runner.invoke(args=["backup", str(copy)]).exit_code != 0  # never over a file
    restored = runner.invoke(args=["restore", str(copy), "--yes"])
    assert restored.exit_code == 0, restored.output
    assert cash_of(client, game_id, key) == [1010, 1000, 1000]  # as it was at the backup
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"not a database" * 100)
    refused = runner.invoke(args=["restore", str(junk), "--yes"])
    assert refused.exit_code != 0 and "not a tablebank database" in refused.output
    assert cash_of(client, game_id, key) == [1010, 1000, 1000]


@pytest.mark.skipif(POSTGRES, reason="SQLite's backup and restore")
def test_a_page_that_saw_actions_a_restore_took_back_reloads_instead_of_waiting(
    app, table, tmp_path
):
    """A restore of an older backup takes the game back, and the actions that follow are
    numbered from there again. Ana's phone, left open at version 3, reconnects with v=3: its
    stream sent only versions after 3 and the phone showed what the restore took back until
    then. It is told to reload (`gone`, as app.js reloads for it); the page then shows the
    game as restored and played on."""
    table.new_api_game(("Ana", "Bea"))
    phone = table.phone(0)
    table.act("bank_pay", player=0, amount=10)
    runner = app.test_cli_runner()
    copy = tmp_path / "games.backup"
    assert runner.invoke(args=["backup", str(copy)]).exit_code == 0
    table.act("bank_pay", player=0, amount=100)
    table.act("bank_pay", player=0, amount=100)
    seen = int(re.search(r'id="live"[^>]* data-version="(\d+)"', table.page(phone))[1])
    assert seen == 3 and "$1,710" in table.read(phone)
    restored = runner.invoke(args=["restore", str(copy), "--yes"])
    assert restored.exit_code == 0, restored.output
    table.act("bank_pay", player=0, amount=1)  # version 2, a second time

    stream = Opened(app.test_client(), phone + "/live", seen)
    assert stream.next().startswith("event: gone\n")
    page = table.page(phone)
    assert 'data-version="2"' in page and "$1,511" in table.text(page)


@pytest.mark.skipif(not POSTGRES, reason="the advice is for PostgreSQL")
def test_backup_on_postgresql_gives_pg_dump_advice(app, tmp_path):
    done = app.test_cli_runner().invoke(args=["backup", str(tmp_path / "x")])
    assert done.exit_code != 0 and "pg_dump" in done.output and "pg_restore" in done.output
    assert not (tmp_path / "x").exists()


@pytest.mark.skipif(not POSTGRES or not shutil.which("pg_dump"), reason="PostgreSQL's pg_dump")
def test_the_advised_pg_dump_makes_an_owner_only_file_as_the_sqlite_backup_does(app, tmp_path):
    """The dump holds every game's keys and tokens; a shell's usual umask (022) would have
    made it readable by every user of the server."""
    advice = app.test_cli_runner().invoke(args=["backup", str(tmp_path / "x")]).output
    command = next(line.strip() for line in advice.splitlines() if "pg_dump" in line)
    url = make_url(app.config["SQLALCHEMY_DATABASE_URI"]).set(drivername="postgresql")
    env = {**os.environ, "DATABASE_URL": url.render_as_string(hide_password=False)}
    subprocess.run(["sh", "-c", f"umask 022; {command}"], cwd=tmp_path, env=env, check=True)
    assert mode(tmp_path / "tablebank.dump") == 0o600
