"""Shared fixtures: the hypothesis profiles, editions straight from the product's files, an app
on an empty database of its own (`app`, `client`), fresh databases for servers.

The database is SQLite in a temporary folder, or, when TEST_DATABASE_URL (or DATABASE_URL)
names a PostgreSQL server, a database there: the in-process app's is emptied before each test,
a server's is new and dropped afterwards. Flask and SQLAlchemy are imported by the fixtures
that need them, so that the rules tests run without them installed. Each test gets the marker
of its tier from its folder (`browser`, `server`), and `slow` where it is marked so.
"""

from __future__ import annotations

import os
import uuid

import pytest
from hypothesis import HealthCheck, settings
from tablebank.rules import new_game

from .support import ALL_EDITIONS, POSTGRES, PROFILE, QUICK, SERVER, THOROUGH, US, setup_of

# No deadline in either profile: how long an example takes is bench/'s business.
SLOW_IS_FINE = [HealthCheck.too_slow]
settings.register_profile(
    QUICK, derandomize=True, deadline=None, suppress_health_check=SLOW_IS_FINE
)
settings.register_profile(THOROUGH, deadline=None, suppress_health_check=SLOW_IS_FINE)
settings.load_profile(PROFILE)

# Every app and server of the suite signs with this key (the environment passes it on to the
# servers it starts): none makes instance/secret_key in the checkout, and none races another
# process to make it there (two test processes starting at once on a fresh clone). The tests
# of the key file itself remove it (test_config.py, test_hosting.py, test_wheel.py).
os.environ.setdefault("SECRET_KEY", "the tests' key, not a secret")


class Databases:
    """Databases made for tests and dropped after them: SQLite files in a test's folder, or
    databases of their own on the PostgreSQL server under test."""

    def __init__(self) -> None:
        self.made: list[str] = []

    def admin(self):
        from sqlalchemy import create_engine
        from tablebank.config import database_url

        return create_engine(database_url(SERVER), isolation_level="AUTOCOMMIT")

    def fresh(self, folder) -> str:
        """The URL of a new, empty database (no schema: the app makes it when it starts)."""
        from sqlalchemy import make_url, text
        from tablebank.config import database_url

        if not POSTGRES:
            return f"sqlite:///{folder / f'{uuid.uuid4().hex[:8]}.sqlite'}"
        name = f"tb_{uuid.uuid4().hex[:12]}"
        admin = self.admin()
        with admin.connect() as connection:
            connection.execute(text(f'CREATE DATABASE "{name}"'))
        admin.dispose()
        self.made.append(name)
        return make_url(database_url(SERVER)).set(database=name).render_as_string(False)

    def drop(self) -> None:
        from sqlalchemy import text

        if self.made:
            admin = self.admin()
            with admin.connect() as connection:
                for name in self.made:
                    connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            admin.dispose()
        self.made.clear()


@pytest.fixture
def database_url():
    """A function giving a fresh, empty database URL in a folder (SQLite or PostgreSQL), for
    a test that starts servers or apps of its own; dropped after the test."""
    databases = Databases()
    yield databases.fresh
    databases.drop()


@pytest.fixture(scope="module")
def module_database_url(tmp_path_factory):
    """A fresh, empty database for the tests of one module (the server they share)."""
    databases = Databases()
    yield databases.fresh(tmp_path_factory.mktemp("database"))
    databases.drop()


def start_app(url: str):
    from tablebank import create_app

    return create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": url, "WTF_CSRF_ENABLED": False})


def close_app(app) -> None:
    from tablebank.models import db

    with app.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.fixture(scope="session")
def migrated(tmp_path_factory):
    """A database whose schema the app has made, once for the session, and the schema's
    version: on SQLite a file that each test copies; on PostgreSQL the database every
    in-process test uses, emptied before each (a new database there costs a second: CREATE,
    the migrations, DROP)."""
    from sqlalchemy import text
    from tablebank.models import db

    databases = Databases()
    url = databases.fresh(tmp_path_factory.mktemp("migrated"))
    app = start_app(url)
    with app.app_context():
        head = db.session.execute(text("SELECT version_num FROM alembic_version")).scalar()
    close_app(app)
    yield url, head
    databases.drop()


def emptied(migrated: tuple[str, str], folder) -> str:
    """A database with the schema and no rows, for one test: a copy of `url` (SQLite), or
    `url` itself with every other connection to it ended, every table emptied and the
    schema's version put back (a test may change it). A test that changes the schema itself
    makes a database of its own (`database_url`)."""
    import sqlite3

    from sqlalchemy import create_engine, make_url, text
    from tablebank.config import database_url

    url, head = migrated
    if not POSTGRES:
        copy = folder / f"{uuid.uuid4().hex[:8]}.sqlite"
        with sqlite3.connect(make_url(url).database) as source, sqlite3.connect(copy) as target:
            source.backup(target)
        source.close()
        target.close()
        return f"sqlite:///{copy}"
    engine = create_engine(database_url(url), isolation_level="AUTOCOMMIT")
    with engine.connect() as connection:
        connection.execute(
            text(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
        )
        tables = connection.execute(
            text(
                "SELECT quote_ident(tablename) FROM pg_tables"
                " WHERE schemaname = 'public' AND tablename <> 'alembic_version'"
            )
        ).scalars()
        connection.execute(text(f"TRUNCATE {', '.join(tables)} RESTART IDENTITY CASCADE"))
        connection.execute(text("DELETE FROM alembic_version"))
        connection.execute(
            text("INSERT INTO alembic_version (version_num) VALUES (:head)"), {"head": head}
        )
    engine.dispose()
    return url


@pytest.fixture
def editions():
    return ALL_EDITIONS


@pytest.fixture
def us():
    return US


@pytest.fixture
def fresh(us):
    """A new classic US game for Ana, Bea and Cal, 1500 each."""
    return new_game(us, setup_of(income_tax_percent=True))


@pytest.fixture
def app(tmp_path, migrated):
    """The app in-process (Flask's test client), on an empty database of its own."""
    app = start_app(emptied(migrated, tmp_path))
    yield app
    close_app(app)


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def table(app, client):
    """A game at the table through the app (tests/tables.py): `new_game`, `act`, `tokens`,
    `cash`, `text` and the rest; `client` is the banker's phone."""
    from .tables import WebTable

    return WebTable(app, client)


@pytest.fixture
def api_game(table) -> tuple[str, dict]:
    """Ana, Bea and Cal's new game, made through the API: its id and the banker's headers."""
    return table.new_api_game(), table.headers


TIERS = {"e2e": "browser", "server": "server"}  # the folder a test lives in, and its marker


def pytest_collection_modifyitems(items):
    """Each test of tests/e2e is `browser`, of tests/server `server` (pyproject.toml)."""
    for item in items:
        parts = item.path.parts
        for folder, marker in TIERS.items():
            if "tests" in parts and folder in parts[parts.index("tests") :]:
                item.add_marker(marker)
