"""Shared fixtures: editions straight from the product's files, an app on a fresh database."""

from __future__ import annotations

import pytest

from app import EDITIONS, create_app
from app.models import db
from app.rules import load_editions, new_game

ALL_EDITIONS = load_editions(EDITIONS)


@pytest.fixture
def editions():
    return ALL_EDITIONS


@pytest.fixture
def us():
    return ALL_EDITIONS["us-classic"]


def setup_of(names=("Ana", "Bea", "Cal"), **settings) -> dict:
    palette = ["#e03131", "#1971c2", "#2f9e44", "#f08c00", "#7048e8", "#0c8599", "#d6336c"]
    players = [{"name": n, "colour": c} for n, c in zip(names, palette, strict=False)]
    return {"edition": "us-classic", "players": players, **settings}


@pytest.fixture
def fresh(us):
    """A new classic US game for Ana, Bea and Cal, 1500 each."""
    return new_game(us, setup_of(income_tax_percent=True))


@pytest.fixture
def app(tmp_path):
    app = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'test.sqlite'}",
            "WTF_CSRF_ENABLED": False,
        }
    )
    yield app
    with app.app_context():
        db.engine.dispose()


@pytest.fixture
def client(app):
    return app.test_client()
