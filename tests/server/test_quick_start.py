"""Starting is quick: the schema's check reads the migration files and one row, so a start at
the newest schema imports no Alembic; gunicorn's master asks `python -m tablebank.schema`
(settings and driver only) before it makes the app to upgrade. What only some requests need
(the API's schema checks, the QR codes' drawing, the rate limits' counters) is imported by
the first of them, not by the start and its home page; pytz does not open each of its zone
files, the address's QR code is drawn at the first start on that address only, and the
command's server asks no DNS for its own name."""

from __future__ import annotations

import os
import subprocess
import sys

from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import text
from tablebank import cli, create_app, schema
from tablebank.models import Game, db
from tablebank.paths import ROOT, SHIPPED

from ..servers import Server
from ..support import setup_of

DEFERRED = ("alembic", "jsonschema", "qrcode.image.svg", "limits", "pyphen")
IMPORTED = (
    "import sys; from tablebank import create_app; home = create_app().test_client().get('/');"
    f"assert home.status_code == 200; print(*(m for m in {DEFERRED} if m in sys.modules))"
)


ZONE_FILES_OPENED = (
    "import sys; opened = []\n"
    "sys.addaudithook(lambda event, args: event == 'open' and 'pytz/zoneinfo' in str(args[0])"
    " and opened.append(args[0]))\n"
    "from tablebank import create_app; assert create_app().test_client().get('/').status_code"
    " == 200\n"
    "print(len(opened))"
)

QR_PRINTED = (
    "import sys; from pathlib import Path; from tablebank import cli\n"
    "cli.print_qr(sys.argv[1], Path(sys.argv[2])); print('qrcode' in sys.modules)"
)

DNS_ASKED = (  # the `tablebank` command, saying each name it asks the system's resolver for
    "import sys\n"
    "asked = ('socket.gethostbyaddr', 'socket.getnameinfo', 'socket.gethostbyname')\n"
    "sys.addaudithook(lambda event, args: event in asked and print('asked DNS', event, args,"
    " flush=True))\n"
    "from tablebank.cli import main; main(sys.argv[1:])"
)


def alembic_heads() -> frozenset[str]:
    config = Config()
    config.set_main_option("script_location", str(SHIPPED / "migrations"))
    return frozenset(ScriptDirectory.from_config(config).get_heads())


def started(url: str, tmp_path) -> list[str]:
    """What of DEFERRED a process imported by making the app on this database and answering
    its home page."""
    env = {**os.environ, "DATABASE_URL": url, "TABLEBANK_INSTANCE": str(tmp_path)}
    made = subprocess.run(
        [sys.executable, "-c", IMPORTED], env=env, capture_output=True, text=True, check=True
    )
    return made.stdout.splitlines()[-1].split()


CHECKED_WITHOUT = (  # `python -m tablebank.schema`, saying which of these it imported
    "import runpy, sys\n"
    "try:\n    runpy.run_module('tablebank.schema', run_name='__main__')\n"
    "except SystemExit as done:\n"
    "    print(done.code, *(m for m in ('flask', 'sqlalchemy', 'werkzeug') if m in sys.modules))"
)


def checked(url: str, tmp_path) -> int:
    env = {**os.environ, "DATABASE_URL": url, "TABLEBANK_INSTANCE": str(tmp_path)}
    return subprocess.run([sys.executable, "-m", "tablebank.schema"], env=env).returncode


def test_the_newest_revision_is_read_as_alembic_reads_it():
    assert schema.newest() == alembic_heads()


def test_an_empty_database_is_upgraded_then_started_without_alembic_and_the_like(
    tmp_path, database_url
):
    url = database_url(tmp_path)
    assert checked(url, tmp_path) == 1  # no schema yet: an upgrade is due
    assert "alembic" in started(url, tmp_path)  # the first start upgrades, with Alembic
    assert checked(url, tmp_path) == 0
    assert started(url, tmp_path) == []  # the next starts need none of it


def test_gunicorns_schema_check_imports_the_driver_only_not_flask(tmp_path, database_url):
    """gunicorn's master waits for this check before it starts any worker: Flask's import
    was half of its time (0.55 s against 0.29 s for the driver alone, on this machine)."""
    url = database_url(tmp_path)
    assert started(url, tmp_path) is not None  # made, so upgraded to the newest schema
    env = {**os.environ, "DATABASE_URL": url, "TABLEBANK_INSTANCE": str(tmp_path)}
    run = subprocess.run(
        [sys.executable, "-c", CHECKED_WITHOUT], env=env, capture_output=True, text=True
    )
    assert run.stdout.split() == ["0"]  # newest, and nothing of Flask's stack imported


def test_a_start_opens_the_local_time_zone_only_not_each_zone_file(tmp_path, database_url):
    """Babel finds the local time zone as it is imported; pytz would open its ~600 zone
    files first to list those there, unless told that they all are (tablebank.create_app)."""
    url = database_url(tmp_path)
    started(url, tmp_path)  # the first start upgrades the empty database
    env = {**os.environ, "DATABASE_URL": url, "TABLEBANK_INSTANCE": str(tmp_path)}
    env.pop("PYTZ_SKIPEXISTSCHECK", None)  # as a shell starts it (this process made apps)
    made = subprocess.run(
        [sys.executable, "-c", ZONE_FILES_OPENED], env=env, capture_output=True, text=True
    )
    assert made.returncode == 0, made.stderr
    assert int(made.stdout.split()[-1]) <= 1


def test_a_game_logged_before_its_rows_kept_what_pages_read_calls_for_the_upgrade(
    tmp_path, database_url
):
    url = database_url(tmp_path)
    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "TESTING": True})
    made = app.test_client().post("/api/games", json=setup_of(("Ana", "Bea")))
    assert made.status_code == 201
    with app.app_context():
        db.session.execute(text("UPDATE game SET log_format = 0"))
        db.session.commit()
    assert checked(url, tmp_path) == 1
    create_app({"SQLALCHEMY_DATABASE_URI": url, "TESTING": True})  # the start indexes it
    with app.app_context():
        assert db.session.get(Game, made.get_json()["id"]).log_format == schema.LOG_FORMAT
        db.session.remove()
        db.engine.dispose()
    assert checked(url, tmp_path) == 0


def test_a_start_does_not_compile_the_templates_again(tmp_path, database_url, monkeypatch):
    monkeypatch.setenv("TABLEBANK_INSTANCE", str(tmp_path / "instance"))
    settings = {"SQLALCHEMY_DATABASE_URI": database_url(tmp_path), "TESTING": True}
    first = create_app(settings)
    assert first.test_client().get("/").status_code == 200
    again = create_app(settings)
    compiled = []
    compile_ = again.jinja_env.compile
    monkeypatch.setattr(
        again.jinja_env, "compile", lambda *a, **k: compiled.append(a[1]) or compile_(*a, **k)
    )
    assert again.test_client().get("/").status_code == 200
    assert compiled == []
    for app in (first, again):
        with app.app_context():
            db.engine.dispose()


def test_the_address_qr_code_is_drawn_once_per_address_then_printed_as_kept(tmp_path):
    def printed(url: str) -> tuple[str, str]:
        command = [sys.executable, "-c", QR_PRINTED, url, str(tmp_path)]
        output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
        drawing, imported = output.rsplit("\n", 2)[:2]
        return drawing + "\n", imported

    home, other = "http://192.168.1.20:8000/", "http://192.168.1.21:8000/"
    assert printed(home) == (cli.drawn_qr(home), "True")
    assert printed(home) == (cli.drawn_qr(home), "False")  # no qrcode imported
    assert printed(other) == (cli.drawn_qr(other), "True")  # another address: drawn again
    assert cli.drawn_qr(home) != cli.drawn_qr(other)


def test_the_command_asks_no_dns_for_its_own_name_before_it_answers(tmp_path):
    """gevent's server would look its listening address's name up as it starts (its resolver's
    threads loaded for it, and a home router's slow resolver holding the first answer); the
    command gives it the address it prints instead."""
    command = Server("", env={"TABLEBANK_INSTANCE": str(tmp_path)})

    def heard() -> list[str]:
        return [sys.executable, "-c", DNS_ASKED, "--host", "127.0.0.1", "--port", str(command.port)]

    try:
        command.run(heard, ROOT, command.environment())
        assert command.call("GET", "/", raw=True)[0] == 200
        command.stop()
        output = command.output()
    finally:
        command.close()
    assert "tablebank is open at http://127.0.0.1:" in output
    assert "asked DNS" not in output
