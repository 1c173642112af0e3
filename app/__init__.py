"""tablebank: the bank of a board game on the banker's phone."""

from __future__ import annotations

from pathlib import Path

from flask import Flask
from flask_compress import Compress
from flask_migrate import Migrate, upgrade
from flask_wtf.csrf import CSRFProtect

from . import (
    db_setup,  # noqa: F401  (SQLite connection settings)
    i18n,
)
from .config import defaults
from .models import db
from .rules import load_editions

ROOT = Path(__file__).resolve().parent.parent
EDITIONS = Path(__file__).resolve().parent / "editions"
csrf = CSRFProtect()
compress = Compress()
migrate = Migrate()


def create_app(overrides: dict | None = None) -> Flask:
    app = Flask(
        __name__,
        instance_path=str(ROOT / "instance"),
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "static"),
    )
    app.config.from_mapping(defaults(Path(app.instance_path)))
    app.config.from_pyfile("config.py", silent=True)
    app.config.from_mapping(overrides or {})
    app.extensions["tablebank.editions"] = load_editions(EDITIONS)

    db.init_app(app)
    i18n.register(app)
    csrf.init_app(app)
    compress.init_app(app)  # a player's page in under 20 kB

    from .web import api, auth, banker, endgame, filters, players, property, pwa, security

    filters.register(app)
    security.register(app)
    app.before_request(auth.require_banker)  # every route with a game id is the banker's
    app.register_blueprint(banker.bp)
    app.register_blueprint(property.bp)
    app.register_blueprint(endgame.bp)
    app.register_blueprint(players.bp)
    app.register_blueprint(pwa.bp)
    app.register_blueprint(api.bp)
    csrf.exempt(api.bp)

    migrate.init_app(app, db, directory=str(ROOT / "migrations"), render_as_batch=True)
    with app.app_context():
        upgrade()  # every game in progress is kept across versions of the app
        db.engine.dispose()  # no connection crosses a fork into a worker process
    return app
