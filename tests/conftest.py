"""Shared fixtures: editions straight from the product's files, an app on a fresh database.

The database is SQLite in a temporary folder, or, when TEST_DATABASE_URL (or DATABASE_URL)
names a PostgreSQL server, a new database on it for each test, dropped afterwards. Flask and
SQLAlchemy are imported by the fixtures that need them, so that the rules tests run without
them installed.
"""

from __future__ import annotations

import os
import uuid

import pytest
from tablebank.rules import new_game

from .support import ALL_EDITIONS, setup_of

SERVER = os.environ.get("TEST_DATABASE_URL") or os.environ.get("DATABASE_URL") or ""
POSTGRES = SERVER.startswith(("postgres://", "postgresql"))


def postgres_admin():
    from sqlalchemy import create_engine
    from tablebank.config import database_url

    return create_engine(database_url(SERVER), isolation_level="AUTOCOMMIT")


@pytest.fixture
def database_url(request):
    """A function giving a fresh, empty database URL for a test (SQLite or PostgreSQL)."""
    from sqlalchemy import make_url, text
    from tablebank.config import database_url

    made: list[str] = []

    def make(tmp_path) -> str:
        if not POSTGRES:
            return f"sqlite:///{tmp_path / f'{uuid.uuid4().hex[:8]}.sqlite'}"
        name = f"tb_{uuid.uuid4().hex[:12]}"
        admin = postgres_admin()
        with admin.connect() as connection:
            connection.execute(text(f'CREATE DATABASE "{name}"'))
        admin.dispose()
        made.append(name)
        return make_url(database_url(SERVER)).set(database=name).render_as_string(False)

    yield make
    if made:
        admin = postgres_admin()
        with admin.connect() as connection:
            for name in made:
                connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture
def editions():
    return ALL_EDITIONS


@pytest.fixture
def us():
    return ALL_EDITIONS["us-classic"]


@pytest.fixture
def fresh(us):
    """A new classic US game for Ana, Bea and Cal, 1500 each."""
    return new_game(us, setup_of(income_tax_percent=True))


@pytest.fixture
def app(tmp_path, database_url):
    from tablebank import create_app
    from tablebank.models import db

    app = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": database_url(tmp_path),
            "WTF_CSRF_ENABLED": False,
        }
    )
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def client(app):
    return app.test_client()


TIERS = {"e2e": "browser", "server": "server"}  # the folder a test lives in, and its marker


def pytest_collection_modifyitems(items):
    """Each test of tests/e2e is `browser`, of tests/server `server` (pyproject.toml)."""
    for item in items:
        parts = item.path.parts
        for folder, marker in TIERS.items():
            if "tests" in parts and folder in parts[parts.index("tests") :]:
                item.add_marker(marker)
