"""What a gunicorn worker that has just committed an action tells the game's home worker,
whose live pages show the game (app/stream_homes.py): the game's row as committed, the
action's log row and every seat's cash. The home keeps the game for its pages, as a request
of its own would have (app/snapshots.py, app/logbook.py), and wakes them: they need not read
the row from the database again. Whichever comes first, this or the database's news (a
PostgreSQL notice, a look at SQLite), wakes the pages; the other finds them up to date."""

from __future__ import annotations

import json
from datetime import datetime

from flask import Flask, has_request_context, request

from . import logbook, snapshots
from .live import watcher
from .models import Action, Game
from .stream_homes import HOMES, tell

WHEN = "created_at"  # the game's one column that JSON does not carry as it is


def tell_home(game: Game, row: Action, seats: set[int], cash: list[str]) -> None:
    """After the COMMIT of an action done in this worker, for a game whose pages are not
    here: its home told (nothing if there is no home, as in the `tablebank` command)."""
    homes = request.environ.get(HOMES) if has_request_context() else None
    door = None if homes is None else homes.door(game.id)
    if door is not None:
        tell(door, news_of(game, row, seats, cash))


def news_of(game: Game, row: Action, seats: set[int], cash: list[str]) -> bytes:
    columns = {name: getattr(game, name) for name in snapshots.COLUMNS}
    columns[WHEN] = columns[WHEN].isoformat()
    news = {"game": columns, "row": logbook.news_of(row, seats), "cash": cash}
    return json.dumps(news, ensure_ascii=False).encode()


def heard(app: Flask, text: bytes) -> None:
    """In the home: the game kept as the news says it was committed, its newest rows moved
    on, and its pages woken, if a page here follows it and has not heard of it yet."""
    news = read(text)
    if news is None:
        return  # its pages hear of the version from the database instead
    game, row, cash = news
    with app.app_context():
        live = watcher(app)
        if not live.awaits(game.id, game.version):  # no page here, or the notice came first
            return
        snapshots.keep(game)
        logbook.heard(game.id, game.version, row)
        live.bump(game.id, game.version, cash)


def read(text: bytes) -> tuple[Game, str, list[str]] | None:
    """The game, the log row and the cash a worker's news carries; None if it is not news."""
    try:
        news = json.loads(text)
        columns, row, cash = news["game"], news["row"], news["cash"]
        columns[WHEN] = datetime.fromisoformat(columns[WHEN])
        game = Game(**columns)
    except (ValueError, KeyError, TypeError, AttributeError):
        return None
    if not isinstance(row, str) or not (
        isinstance(cash, list) and all(isinstance(amount, str) for amount in cash)
    ):
        return None
    return game, row, cash
