"""The application factory: configuration, extensions, blueprints, the schema upgrade."""

from __future__ import annotations

import threading
from pathlib import Path

from flask import Flask, jsonify, request
from flask_compress import Compress
from flask_wtf.csrf import CSRFProtect
from jinja2 import FileSystemBytecodeCache
from werkzeug.exceptions import HTTPException
from werkzeug.routing import Rule

from . import (
    archive,
    db_setup,
    hosting,
    i18n,
    integrity,
    logbook,
    logs,
    schema,
    serving,
    upkeep,
    writers,
)
from .config import configure
from .edition_files import load_editions
from .models import db
from .paths import EDITIONS, SHIPPED, instance_folder
from .serving import is_api
from .web.templating import Templates

csrf = CSRFProtect()
compress = Compress()


def create_app(overrides: dict | None = None) -> Flask:
    app = Flask(
        __package__,  # `tablebank`, or `app` from the repository's top: translations/ in it
        instance_path=str(instance_folder()),
        template_folder=str(SHIPPED / "templates"),
        static_folder=str(SHIPPED / "static"),
    )
    app.url_rule_class = BuiltWhenFirstUsed
    app.jinja_environment = Templates  # before anything asks for app.jinja_env
    configure(app, overrides)  # defaults < instance/config.py < environment < overrides
    logs.register(app)  # no token or key in a log line
    hosting.owner_only(app)  # the instance folder and the database hold every key: 0700, 0600
    app.extensions["tablebank.editions"] = load_editions(EDITIONS)
    compiled_templates_kept(app)

    db.init_app(app)
    i18n.register(app)
    csrf.init_app(app)
    compress.init_app(app)  # a player's first visit in under 12 kB
    register_web(app)
    integrity.register(app)  # a page's warning of a broken seal
    upkeep.register(app)  # flask --app tablebank check / repair
    archive.register(app)  # flask --app tablebank prune / export / import
    hosting.register(app)  # flask --app tablebank backup / restore

    app.extensions["migrate"] = Migrations(app)  # `flask db ...`, the upgrade
    if app.config["UPGRADE_ON_START"]:
        upgrade(app)
    return app


def upgrade(app: Flask) -> None:
    """The schema brought to the newest migration, every game in progress kept; then the
    games logged before their rows kept what pages read are indexed, once (logbook). A
    database already there (app/schema.py) is left as it is, without Alembic."""
    if schema_current(app):
        return
    editions = app.extensions["tablebank.editions"]
    db_setup.upgrade_schema(app, then=lambda: logbook.reindex_old_games(editions))


def schema_current(app: Flask) -> bool:
    with app.app_context():
        try:
            with db.engine.connect() as connection:
                return schema.current(connection.connection.cursor())
        except Exception:  # noqa: BLE001  the upgrade that follows says what is wrong
            return False
        finally:
            db.engine.dispose()  # no connection crosses a fork (gunicorn)


class Migrations:
    """What Flask-Migrate's commands (`flask db ...`) and its `upgrade` read in
    app.extensions["migrate"], made on first use: Flask-Migrate and Alembic cost a quarter
    of a second to import, which a start at the newest schema does without."""

    def __init__(self, app: Flask) -> None:
        self.app = app

    def __getattr__(self, name: str):
        from flask_migrate import Migrate

        migrations = str(SHIPPED / "migrations")
        Migrate(self.app, db, directory=migrations, render_as_batch=True)  # replaces this one
        return getattr(self.app.extensions["migrate"], name)


BUILDING = threading.Lock()


class BuiltWhenFirstUsed(Rule):
    """A route whose URL builders (url_for) are made at their first use: werkzeug writes and
    compiles two Python functions per route as it is added, 25 ms of a start before its first
    answer for the app's 60 routes, most of which a first page never links to. Should
    werkzeug stop making them through _compile_builder, they are made as it adds the route.

    They are made one at a time (BUILDING): werkzeug makes them with ast.parse, and CPython
    3.11 counts the depth of every thread's ast.parse in one shared counter, so two pages
    drawn at once in two threads could each fail with "AST constructor recursion depth
    mismatch" (python/cpython#106905; it failed a live part in CI)."""

    def _compile_builder(self, append_unknown: bool = True):
        made = None

        def build(*args, **kwargs):
            nonlocal made
            if made is None:
                with BUILDING:
                    if made is None:
                        made = super(BuiltWhenFirstUsed, self)._compile_builder(append_unknown)
            return made(*args, **kwargs)

        return build


def compiled_templates_kept(app: Flask) -> None:
    """The templates compiled once and kept in instance/templates-compiled, so that a start
    does not compile them again for its first pages (Jinja checks each one's source)."""
    folder = Path(app.instance_path) / "templates-compiled"
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError:  # a read-only instance folder: compiled at each start, as before
        return
    app.jinja_env.bytecode_cache = FileSystemBytecodeCache(str(folder))


def register_web(app: Flask) -> None:
    """The pages, the API and what guards them, in the order the guards must run."""
    from .web import (
        api,
        auth,
        banker,
        codes,
        endgame,
        faults,
        filters,
        health,
        limits,
        links,
        phone,
        phone_deeds,
        phone_money,
        property,
        pwa,
        security,
        static_files,
        streams,
        table,
        taps,
        theme,
    )

    static_files.register(app)  # after Compress: its hooks run before Compress's
    app.wsgi_app = taps.StayOnPage(app.wsgi_app)  # inside the proxy fix (security)
    filters.register(app)
    links.register(app)  # the templates' url_for, each address built once
    theme.register(app)  # light or dark pages (the system's, or the reader's switch)
    security.register(app)
    app.session_interface = taps.TapSessions()  # security's, a tap's handed to its page
    faults.register(app)  # 503 in words when the database does not answer
    if db_setup.gevent_patched():  # a body read whole, in time, before the deadline starts
        serving.bodies_in_time(app, security.body_limit)
    limits.register(app)  # before the banker check: a flood is turned away first
    writers.register(app)  # a crowd on one game waits its turn before reading the game
    app.before_request(streams.note_keys_mark)  # before a stream reads what opened it
    app.before_request(auth.require_banker)  # every route with a game id is the banker's
    pages = (banker, property, endgame, phone, table, codes, streams, phone_deeds, phone_money)
    pages = (*pages, pwa, api, auth)
    for blueprint in (*pages, health):
        app.register_blueprint(blueprint.bp)
    csrf.exempt(api.bp)
    app.register_error_handler(HTTPException, api_errors_as_json)
    limits.apply(app)


def api_errors_as_json(error: HTTPException):
    """Under /api even a URL or method no route knows is answered in JSON, with words;
    elsewhere a page in the reader's language says what to do (web/errors.py)."""
    if not is_api(request.path):
        from .web.errors import error_page

        return error_page(error)
    answer = jsonify({"error": error.description, "rule": "http"})
    answer.status_code = error.code or 500
    for name, value in error.get_response().headers.items():
        if name.lower() not in ("content-type", "content-length"):
            answer.headers[name] = value  # Allow on a 405
    return answer
