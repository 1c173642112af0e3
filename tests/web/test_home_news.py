"""Under gunicorn, the worker that did an action tells the game's home worker (the one that
carries its live pages, app/stream_homes.py) what it has just committed (app/home_news.py):
the home's pages show the action, its cash first, without reading the game again.

Two apps on one database stand for two workers: "acting" has no page open and is handed
the homes, "home" has the pages and hears only what the acting app's door says (its
watcher's own look at the database is switched off, as if the notice had not come yet)."""

from __future__ import annotations

import os

import pytest
from tablebank import create_app, logbook
from tablebank.home_news import heard
from tablebank.live import watcher
from tablebank.stream_homes import HOMES, Homes, received, server_name

from ..conftest import close_app, emptied
from ..servers import HANG_GUARD
from ..streams import Opened
from ..tables import WebTable
from .test_stream_cost import Counted, sent_until_live


@pytest.fixture
def workers(tmp_path, migrated, monkeypatch):
    """The home app with its watcher deaf to the database, the acting app's banker table
    handed the homes of a server of one slot, and that slot's listening door."""
    url = emptied(migrated, tmp_path)
    apps = [
        create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": url, "WTF_CSRF_ENABLED": False})
        for _ in range(2)
    ]
    home, acting = apps
    deaf = watcher(home)
    deaf._watch_sqlite = deaf._listen_postgresql = deaf.stopped.wait
    server = server_name(os.getpid(), [], url)
    listener = Homes(server, 1).claim()
    listener.settimeout(HANG_GUARD)
    table = WebTable(acting, acting.test_client())
    table.client.environ_base[HOMES] = Homes(server, 1)  # this worker holds no slot
    # The acting app is another process: the log's newest rows it moves on are its own.
    monkeypatch.setattr(logbook, "appended", lambda *_args: None)
    yield home, table, listener
    listener.close()
    for app in apps:
        watcher(app).stop()
        close_app(app)


def news_at_the_door(listener) -> bytes:
    """What the acting worker told the home, as the home's door reads it."""
    door, _ = listener.accept()
    told: list[bytes] = []
    received(door, lambda *_handed: pytest.fail("a connection was handed"), told.append)
    (news,) = told
    return news


def test_the_home_s_pages_show_an_action_done_in_another_worker_without_reading_the_game(
    workers,
):
    """The bank pays Bea $10 twice in the acting worker: each time, Bea's phone and the table
    screen in the home are sent her new cash, then their live part at the new version; the
    second time (the pages have drawn the first) none of them reads the game or its log."""
    home, table, listener = workers
    table.new_api_game(names=("Ana", "Bea", "Cal"))
    seen = table.game()["version"]
    bea = Opened(home.test_client(), table.phone(1) + "/live", seen)
    screen = Opened(home.test_client(), table.screen() + "/live", seen)
    for _ in range(2):
        table.act("bank_pay", player=1, amount=10)
        with Counted(home) as counted:
            heard(home, news_at_the_door(listener))
            assert sent_until_live(bea) == ["cash", "live"]
            assert sent_until_live(screen) == ["cash", "live"]
    assert counted.reading("game", pages_only=True) == []
    assert counted.reading("action", pages_only=True) == []
    for page in (bea, screen):
        page.close()
    assert table.game()["version"] == seen + 2
    assert "$1,520" in table.text(home.test_client().get(table.phone(1)).text)


def test_news_of_a_game_with_no_page_in_the_home_changes_nothing_there(workers):
    """The home's pages of the game were closed meanwhile: the news is passed over."""
    home, table, listener = workers
    table.new_api_game(names=("Ana", "Bea"))
    table.act("bank_pay", player=0, amount=10)
    heard(home, news_at_the_door(listener))
    assert not watcher(home).follows(table.id)
