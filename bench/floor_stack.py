"""The stack's floor: the least this product's own stack can do for tap.py's tap, to tell what
the stack costs from what the product's own work costs.

bench/floor.py answers the tap with nothing behind it (a balance in memory, aiohttp). This
floor serves the same pages, the same static files and the same player's stream, but through
what tablebank is built on, as the one-process `tablebank` command runs it: Flask under
gevent's WSGI server, a signed session cookie naming the banker, Flask-WTF's CSRF check, and
Flask-SQLAlchemy on the run's database (SQLite in WAL at synchronous=NORMAL with BEGIN
IMMEDIATE, as tablebank's; or PostgreSQL through Psycopg 3). The tap's POST does the least a
durable, authorised action needs: the banker's session and the CSRF token checked, the
balance's row read under a write lock (`FOR UPDATE` on PostgreSQL), the balance and the
version moved on, one log row added, the COMMIT; then the player's stream is woken (it sends
the cash, then the live part, from what the process holds) and the dashboard is answered.
No rules, no templates, no seal, no snapshot, no redraw of anything but the small page.

It always runs as one process, beside either of the product's setups: under gunicorn the
product adds its workers and their hand-overs, which this floor leaves out.

    python -m bench.floor_stack --port 8124 --database sqlite:////tmp/floor.sqlite
    # then open /g/floor/?key=floor (the banker), /g/floor/money and /p/floor
"""

from gevent import monkey

monkey.patch_all()  # before Flask, SQLAlchemy and the drivers are imported

import argparse  # noqa: E402
import secrets  # noqa: E402

import gevent.event  # noqa: E402
from flask import Flask, Response, abort, redirect, request, session  # noqa: E402
from flask_sqlalchemy import SQLAlchemy  # noqa: E402
from flask_wtf.csrf import CSRFProtect, generate_csrf  # noqa: E402
from gevent.pywsgi import WSGIServer  # noqa: E402
from sqlalchemy import ForeignKey, String, event  # noqa: E402
from sqlalchemy.engine import Engine  # noqa: E402
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column  # noqa: E402

from .floor import (  # noqa: E402
    FILES,
    GAME,
    TYPES,
    dashboard_html,
    events,
    live_div,
    money_form,
    page_html,
)

START = 1500


class Base(DeclarativeBase):
    pass


db = SQLAlchemy(model_class=Base)


class Ledger(db.Model):
    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    balance: Mapped[int]
    version: Mapped[int]


class Entry(db.Model):
    id: Mapped[int] = mapped_column(primary_key=True)
    ledger_id: Mapped[str] = mapped_column(ForeignKey("ledger.id"))
    seq: Mapped[int]
    amount: Mapped[int]


class Held:
    """The balance as last committed, and the event its streams wait on (a new one each time)."""

    def __init__(self, version: int, balance: int) -> None:
        self.version, self.balance = version, balance
        self.news = gevent.event.Event()

    def committed(self, version: int, balance: int) -> None:
        self.version, self.balance = version, balance
        news, self.news = self.news, gevent.event.Event()
        news.set()


def sqlite_connect(dbapi_connection, _record) -> None:
    if type(dbapi_connection).__module__.startswith("sqlite3"):
        dbapi_connection.isolation_level = None  # BEGIN below, as tablebank's
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA busy_timeout=10000")
        cursor.close()


def sqlite_begin(connection) -> None:
    # In process beside tablebank (bench/pause.py), tablebank's own listener may have begun.
    if connection.dialect.name == "sqlite" and not connection.connection.in_transaction:
        connection.exec_driver_sql("BEGIN IMMEDIATE")


def on_engine(engine: Engine) -> None:
    """This floor's SQLite settings, on its own engine only."""
    event.listen(engine, "connect", sqlite_connect)
    event.listen(engine, "begin", sqlite_begin)


def head() -> str:
    return (
        f'<meta name="csrf-token" content="{generate_csrf()}">'
        '<link rel="stylesheet" href="/static/app.css">'
        '<script src="/static/app.js" data-morph="/static/idiomorph.min.js" defer></script>'
    )


def html(body: str, headers: dict | None = None) -> Response:
    return Response(page_html(body, head()), content_type="text/html", headers=headers)


def make_app(database: str) -> Flask:
    app = Flask(__name__, static_folder=None)
    app.config.update(
        SECRET_KEY=secrets.token_hex(32),
        SQLALCHEMY_DATABASE_URI=database.replace("postgresql://", "postgresql+psycopg://", 1),
        WTF_CSRF_TIME_LIMIT=None,
    )
    db.init_app(app)
    CSRFProtect(app)
    with app.app_context():
        on_engine(db.engine)
        db.create_all()
        db.session.add(Ledger(id=GAME, balance=START, version=1))
        db.session.commit()
    held = Held(1, START)

    @app.get(f"/g/{GAME}/")
    def dashboard():
        if request.args.get("key"):
            session["banker"] = GAME  # the banker link: this device is the banker's
            return redirect(f"/g/{GAME}/")
        return html(dashboard_html(held.balance))

    @app.get(f"/g/{GAME}/money")
    def money():
        return html(money_form(request.args.get("amount", 1, type=int), generate_csrf()))

    @app.post(f"/g/{GAME}/act")
    def act():
        if session.get("banker") != GAME:
            abort(403)
        amount = request.form.get("amount", 1, type=int)
        ledger = db.session.get(Ledger, GAME, with_for_update=True)
        ledger.balance += amount
        ledger.version += 1
        version, balance = ledger.version, ledger.balance
        db.session.add(Entry(ledger_id=GAME, seq=version, amount=amount))
        db.session.commit()
        held.committed(version, balance)
        gevent.sleep(0)  # the streams it woke send their cash first, as tablebank's do
        if request.headers.get("X-Tablebank-Tap"):
            return html(dashboard_html(held.balance), {"X-Tablebank-Page": f"/g/{GAME}/"})
        return redirect(f"/g/{GAME}/", 303)

    @app.get(f"/p/{GAME}")
    def player():
        return html(live_div(held.version, held.balance))

    @app.get(f"/p/{GAME}/live")
    def stream():
        seen = request.args.get("v", -1, type=int)

        def sent():
            nonlocal seen
            while True:
                if held.version > seen:
                    seen = held.version
                    yield from events(seen, held.balance)
                news = held.news
                if not news.wait(15):
                    yield b": still here\n\n"

        return Response(sent(), content_type="text/event-stream")

    @app.get(f"/g/{GAME}/live")
    def silent():
        def sent():
            while True:
                gevent.sleep(15)
                yield b": still here\n\n"

        return Response(sent(), content_type="text/event-stream")

    @app.get("/api/editions")
    def ready():
        return {"ready": True}

    @app.get("/static/<name>")
    def static_file(name: str):
        if name not in FILES:
            abort(404)
        kind = TYPES[name.rsplit(".", 1)[1]]
        return Response(
            FILES[name], content_type=kind, headers={"Cache-Control": "max-age=31536000"}
        )

    return app


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8124)
    parser.add_argument("--database", required=True, help="a SQLAlchemy URL of an empty database")
    args = parser.parse_args()
    WSGIServer((args.host, args.port), make_app(args.database), log=None).serve_forever()


if __name__ == "__main__":
    main()
