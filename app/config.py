"""Configuration: safe defaults for a laptop at home, instance/config.py and the environment
for a server.

Each layer overrides the one before: the defaults below; `instance/config.py` (upper-case
names, for example `DATABASE_URL = "postgresql://..."` and `SECRET_KEY = "..."`); the
environment (`DATABASE_URL`, `SECRET_KEY`, and any other setting as `TABLEBANK_<NAME>`, read
as JSON when it parses, for example `TABLEBANK_MAX_CONTENT_LENGTH=131072`); last, what the
caller passes to `create_app` (the tests). `DATABASE_URL` and `SQLALCHEMY_DATABASE_URI` name
the same setting; `postgres://` and `postgresql://` URLs go through psycopg 3.
"""

from __future__ import annotations

import json
import os
import secrets
import types
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from flask import Flask

EMBEDDED_DATABASE = "sqlite:///tablebank.sqlite"  # Flask-SQLAlchemy puts it in instance/
ENVIRONMENT = ("DATABASE_URL", "SECRET_KEY")
DATABASE_NAMES = ("SQLALCHEMY_DATABASE_URI", "DATABASE_URL")  # one setting, two names
PREFIX = "TABLEBANK"

DEFAULTS = {
    "SQLALCHEMY_DATABASE_URI": EMBEDDED_DATABASE,
    "UPGRADE_ON_START": True,  # bring the schema to the newest migration when the app starts
    "WTF_CSRF_TIME_LIMIT": None,  # a banker's phone stays open all evening
    "SESSION_COOKIE_SAMESITE": "Lax",  # the banker's session never rides a cross-site POST
    "SESSION_COOKIE_SECURE": False,  # Secure anyway whenever a request comes over https
    "PROXY_FIX": 0,  # proxies in front whose X-Forwarded-* headers are believed (docs/SECURITY.md)
    "MAX_CONTENT_LENGTH": 64 * 1024,
    # PostgreSQL: seconds to connect, to run one statement, to wait for a lock; and the most a
    # request waits on a database that does not answer at all (frozen) before a 503.
    "DB_CONNECT_TIMEOUT": 3,
    "DB_STATEMENT_TIMEOUT": 4,
    "DB_LOCK_TIMEOUT": 3,
    "REQUEST_DEADLINE": 4.5,
    # The most a request waits for the answer to its action's COMMIT once sent: the deadline
    # does not cut that wait short (the action may be done by then), this does (a frozen
    # database). PostgreSQL's statement timeout does not bound a COMMIT.
    "DB_COMMIT_TIMEOUT": 10,
    # Writers on one game wait their turn in each process (app/writers.py), off the deadline
    # and without a database connection, as long as the queue moves: a 503 "busy" only when
    # no turn ended for this long (a turn takes at most the deadline plus DB_COMMIT_TIMEOUT).
    "TURN_WAIT_SECONDS": 20,
    # Live streams drawing at once, per process: under gevent a query yields, so without a
    # bound the pages of busy tables would hold every pooled connection and leave the banker
    # waiting (seen on PostgreSQL: pool exhausted, 503s). The other draws wait their turn.
    "LIVE_DRAWS": 3,
    # Live streams reading what opened them at once, per process (one query each): the rest
    # wait their turn holding no connection, so a burst of reconnects queues, never fails.
    "LIVE_OPENINGS": 3,
    # gunicorn with several workers: a game's live streams carried by one of them, its home
    # (app/stream_homes.py), so a version is read and drawn once, not once per worker; the
    # requests that name the game are served there too, so its actions are done there.
    "LIVE_HOMES": True,
    # Connections (app/serving.py, docs/SECURITY.md): the `tablebank` command waits this long
    # for a connection's next request to start (gunicorn: its `keepalive`), then for its
    # head; a body gets BODY_SECONDS plus a second per BODY_RATE bytes, on both servers; a
    # client (an IPv4 address, an IPv6 /64) holds at most CONNECTIONS_PER_CLIENT connections
    # per process (none behind a proxy: PROXY_FIX); a process holds at most
    # CONNECTIONS_PER_PROCESS, open live pages included (a 503 in words beyond).
    "KEEPALIVE_SECONDS": 5,
    "HEADER_SECONDS": 10,
    "BODY_SECONDS": 10,
    "BODY_RATE": 64 * 1024,
    "CONNECTIONS_PER_CLIENT": 256,
    "CONNECTIONS_PER_PROCESS": 10_000,
    "ACCESS_LOG": True,  # one line per request, tokens and keys masked (app/logs.py)
    # Rate limits (app/web/limits.py): new games per client (an IPv4 address, an IPv6 /64) and
    # for everyone together; every write of a player's link, per link.
    "RATE_LIMIT_CREATE": "10/minute;60/hour",
    "RATE_LIMIT_CREATE_ALL": "120/minute",
    "RATE_LIMIT_PLAYER": "60/minute",
    # Retention (`flask --app tablebank prune`): finished games and idle games are deleted
    # after these many days.
    "KEEP_FINISHED_DAYS": 30,
    "KEEP_IDLE_DAYS": 90,  # the largest action or form is well under 4 kB
    "JSON_SORT_KEYS": False,
    "COMPRESS_STREAMS": False,  # live streams must flush each event as it comes
    "COMPRESS_MIMETYPES": [
        "text/html",
        "text/css",
        "text/javascript",
        "application/javascript",
        "application/json",
        "application/manifest+json",
        "image/svg+xml",
    ],
}


def with_driver(url: str) -> str:
    """PostgreSQL URLs as a hosting service gives them, through the psycopg 3 driver."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url.removeprefix(prefix)
    return url


def database_url(url: str | None = None) -> str:
    """The given URL, else DATABASE_URL, else SQLite in instance/; with the driver named."""
    return with_driver(url or os.environ.get("DATABASE_URL") or EMBEDDED_DATABASE)


def kept_secret(instance: Path) -> str:
    """A secret key made once on this machine and kept in instance/ (owner-only)."""
    path = instance / "secret_key"
    if not path.exists():
        instance.mkdir(mode=0o700, parents=True, exist_ok=True)  # it holds every key
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w") as handle:
            handle.write(secrets.token_hex(32))
    return path.read_text().strip()


def from_file(app: Flask) -> dict:
    return file_settings(Path(app.instance_path))


def file_settings(instance: Path) -> dict:
    """The upper-case names of instance/config.py, run as Flask's `from_pyfile` runs it."""
    path = instance / "config.py"
    try:
        source = path.read_bytes()
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        return {}
    module = types.ModuleType("config")
    module.__file__ = str(path)
    exec(compile(source, str(path), "exec"), module.__dict__)  # noqa: S102  the host's own file
    return {name: value for name, value in vars(module).items() if name.isupper()}


def database_setting(instance: Path) -> str:
    """The database `configure` names for an app of this instance folder, found without
    importing Flask: gunicorn's master asks it of app/schema.py before any worker starts,
    with nothing but the driver imported. tests/server/test_config.py holds the two equal."""
    url = EMBEDDED_DATABASE
    for layer in (file_settings(instance), prefixed(DATABASE_NAMES), plain_environment()):
        url = layer.get("SQLALCHEMY_DATABASE_URI", layer.get("DATABASE_URL", url))
    return with_driver(url)


def plain_environment() -> dict:
    """`DATABASE_URL` and `SECRET_KEY`, as hosting services name them (no prefix)."""
    return {name: os.environ[name] for name in ENVIRONMENT if os.environ.get(name)}


def prefixed(names) -> dict:
    """These settings from TABLEBANK_<NAME>, read as JSON when it parses (as `from_environment`)."""
    found = {}
    for name in names:
        value = os.environ.get(f"{PREFIX}_{name}")
        if value is None:
            continue
        try:
            found[name] = json.loads(value)
        except ValueError:
            found[name] = value
    return found


def from_environment() -> dict:
    from flask import Config

    found = Config("")
    found.from_prefixed_env(PREFIX)
    found.update(plain_environment())
    return dict(found)


def configure(app: Flask, overrides: dict | None = None) -> None:
    for layer in (DEFAULTS, from_file(app), from_environment(), overrides or {}):
        layer = dict(layer)
        if "DATABASE_URL" in layer:
            layer.setdefault("SQLALCHEMY_DATABASE_URI", layer.pop("DATABASE_URL"))
        app.config.update(layer)
    config = app.config
    config["SQLALCHEMY_DATABASE_URI"] = with_driver(config["SQLALCHEMY_DATABASE_URI"])
    # Tests make many games from one address: limits only where a test turns them on.
    config.setdefault("RATELIMIT_ENABLED", not config.get("TESTING"))
    if not config.get("SECRET_KEY"):
        config["SECRET_KEY"] = kept_secret(Path(app.instance_path))
    options = dict(config.get("SQLALCHEMY_ENGINE_OPTIONS") or {})
    options.setdefault("hide_parameters", True)  # an error's SQL would print tokens and keys
    config["SQLALCHEMY_ENGINE_OPTIONS"] = options
    if config["SQLALCHEMY_DATABASE_URI"].startswith("postgresql"):
        # A pooled connection idle for a while is tested before use (db_setup.py). A database
        # that does not answer costs a request seconds, never minutes (docs/SECURITY.md).
        options = dict(config.get("SQLALCHEMY_ENGINE_OPTIONS") or {})
        options.setdefault("pool_use_lifo", True)  # the one used last: not idle, not tested
        options.setdefault("pool_timeout", config["DB_CONNECT_TIMEOUT"])
        connect_args = dict(options.get("connect_args") or {})
        connect_args.setdefault("connect_timeout", config["DB_CONNECT_TIMEOUT"])
        connect_args.setdefault(
            "options",
            f"-c statement_timeout={int(config['DB_STATEMENT_TIMEOUT'] * 1000)}"
            f" -c lock_timeout={int(config['DB_LOCK_TIMEOUT'] * 1000)}"
            " -c idle_in_transaction_session_timeout=60000",
        )
        options["connect_args"] = connect_args
        config["SQLALCHEMY_ENGINE_OPTIONS"] = options
