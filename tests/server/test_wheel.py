"""The package as a user installs it (`pip install .`, pipx): the wheel built from this
repository, in a fresh venv of its own, its `tablebank` command started from a folder that is
not the repository. Every page renders with its CSS and JS, the schema is migrated in the
user's data folder (not in site-packages, not in the current folder), in the user's language,
and a game made there is still there when the command starts again from elsewhere."""

from __future__ import annotations

import os
import re
import shutil
import sqlite3
import subprocess
import sys
import urllib.request
import venv
import zipfile
from pathlib import Path

import pytest
from alembic.script import ScriptDirectory
from tablebank.paths import ROOT
from tablebank.web.static_files import minified

from ..servers import HANG_GUARD, Server
from ..support import POSTGRES, setup_of

pytestmark = pytest.mark.slow  # a wheel built and installed in a venv of its own

HEAD = ScriptDirectory(str(ROOT / "migrations")).get_current_head()
NOT_SOURCES = (".git", ".venv*", "build", "dist", "instance", "*.egg-info", "__pycache__")
NOT_SOURCES += (".pytest_cache", ".hypothesis", ".ruff_cache")


def run(command: list, **options) -> subprocess.CompletedProcess:
    done = subprocess.run(command, capture_output=True, text=True, **options)
    assert done.returncode == 0, f"{command} failed:\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"
    return done


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """A venv holding the wheel of this repository and its dependencies, nothing else. The
    wheel is built from a copy of the sources: no build/ left by an earlier build sneaks in."""
    where = tmp_path_factory.mktemp("wheel")
    sources = where / "sources"
    shutil.copytree(ROOT, sources, ignore=shutil.ignore_patterns(*NOT_SOURCES))
    run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", where, sources])
    (wheel,) = where.glob("tablebank-*.whl")
    tops = {name.split("/")[0] for name in zipfile.ZipFile(wheel).namelist()}
    assert tops == {"tablebank", wheel.name.split("-py3")[0] + ".dist-info"}  # no `app`
    # This pip installs into the new venv (no pip of its own to set up there), and nothing
    # is compiled ahead: the server compiles what it imports.
    venv.create(where / "venv", with_pip=False)
    target = where / "venv" / "bin" / "python"
    run([sys.executable, "-m", "pip", "--python", target, "install", "-q", "--no-compile", wheel])
    return where / "venv"


def start(venv_dir: Path, cwd: Path, env: dict, server: Server) -> None:
    """`tablebank --host 127.0.0.1 --port P` in cwd, answering once /api/editions does."""
    cwd.mkdir(exist_ok=True)
    program = str(venv_dir / "bin" / "tablebank")
    server.run(lambda: [program, "--host", "127.0.0.1", "--port", str(server.port)], cwd, env)


def page(server: Server, path: str, key: str = "", lang: str = "en") -> str:
    request = urllib.request.Request(server.url + path, headers={"Accept-Language": lang})
    if key:
        request.add_header("X-Banker-Key", key)
    with urllib.request.urlopen(request, timeout=HANG_GUARD) as answer:
        assert answer.status == 200
        assert answer.headers["Content-Type"].startswith("text/html")
        return answer.read().decode()


def static_files(html: str) -> set[str]:
    return set(re.findall(r'(?:href|src|data-morph)="(/static/[^"?]+)', html))


def migrated_to(url: str | None, sqlite_file: Path) -> str:
    """The schema's version in the database the server used."""
    if url is None:
        with sqlite3.connect(sqlite_file) as connection:
            return connection.execute("SELECT version_num FROM alembic_version").fetchone()[0]
    from sqlalchemy import create_engine, text
    from tablebank.config import database_url

    engine = create_engine(database_url(url))
    with engine.connect() as connection:
        version = connection.execute(text("SELECT version_num FROM alembic_version")).scalar()
    engine.dispose()
    return version


def test_the_installed_wheel_serves_every_page_from_any_folder(installed, tmp_path, database_url):
    # On PostgreSQL the suite's fresh database; on SQLite the home default: no URL at all.
    url = database_url(tmp_path) if POSTGRES else None
    data = tmp_path / "data"
    env = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(("TABLEBANK_", "PYTHON"))
        and "DATABASE_URL" not in name
        and name != "SECRET_KEY"
    }
    env.update({"XDG_DATA_HOME": str(data), "TABLEBANK_LIVE_SWEEP_SECONDS": "3600"})
    if url:
        env["DATABASE_URL"] = url
    server = Server(url or "")
    try:
        start(installed, tmp_path / "somewhere", env, server)
        home = page(server, "/")
        assert "New game" in home
        assert "Partida nueva" in page(server, "/", lang="es")  # the translations came along
        status, editions = server.call("GET", "/api/editions")
        assert status == 200 and {"us-classic", "us-2008", "uk", "es"} <= {
            e["id"] for e in editions
        }
        game_id, key = new_game_of(server)
        codes = page(server, f"/g/{game_id}/codes", key)
        players = re.findall(r'href="(?:http://[^/"]+)?(/p/[\w-]+)"', codes)
        table = re.findall(r'href="(?:http://[^/"]+)?(/t/[\w-]+)"', codes)
        assert len(set(players)) == 3 and table
        pages = {
            "dashboard": page(server, f"/g/{game_id}/", key),
            "player's card": page(server, f"/g/{game_id}/player/0", key),
            "player's phone": page(server, players[0]),
            "table": page(server, table[0]),
        }
        assert "Ana" in pages["dashboard"] and "Ana" in pages["player's card"]
        shipped = {"/static/app.css", "/static/app.js", "/static/table.css"}
        shipped |= {"/static/idiomorph.min.js"}  # fetched by app.js when a page first merges
        for name, html in pages.items():
            assert "/static/app.css" in static_files(html) or name == "table", name
        used = set().union(static_files(home), *map(static_files, pages.values()))
        assert shipped <= used
        for path in used:
            with urllib.request.urlopen(server.url + path, timeout=HANG_GUARD) as answer:
                source = (ROOT / path.removeprefix("/")).read_bytes()
                assert answer.read() == minified(path, source), path
        server.stop()

        # The database and the secret key are in the user's data folder, nowhere else.
        instance = data / "tablebank"
        assert (instance / "secret_key").is_file()
        assert migrated_to(url, instance / "tablebank.sqlite") == HEAD
        assert list((tmp_path / "somewhere").iterdir()) == []
        assert not [p for p in installed.rglob("*") if p.name in ("secret_key", "tablebank.sqlite")]

        # Started again from another folder: the same games.
        start(installed, tmp_path / "elsewhere", env, server)
        assert "Ana" in page(server, f"/g/{game_id}/", key)
        status, game = server.call("GET", f"/api/games/{game_id}", key=key)
        assert status == 200 and [p["name"] for p in game["players"]] == ["Ana", "Bea", "Cal"]
    finally:
        server.close()


def new_game_of(server: Server) -> tuple[str, str]:
    status, body = server.call("POST", "/api/games", setup_of())
    assert status == 201, body
    return body["id"], body["banker_key"]
