"""What one action costs its open pages, counted (queries, template drawings, state parses):
a stream reads its seat once, takes the version from the news, and what several pages of a
game show at a version is drawn once in a process; a stream opens with one pooled
connection and one or two queries. Streams are read in-process, event by event."""

from __future__ import annotations

import re
import threading

import pytest
from flask import template_rendered
from sqlalchemy import event
from tablebank import logbook, snapshots
from tablebank.live import watcher
from tablebank.models import db
from tablebank.rules import GameState
from tablebank.web import filters, present, streams

from ..conftest import close_app, start_app
from ..streams import PAGE, Opened
from ..support import POSTGRES, calls_of


class Counted:
    """The SQL statements run, the pooled connections checked out, the templates drawn."""

    def __init__(self, app) -> None:
        self.app = app
        self.statements: list[str] = []
        self.by_page: list[bool] = []  # whether each statement was a stream's
        self.checkouts = 0
        self.templates: list[str] = []
        self.begun = 0  # BEGINs sent by the streams (SQLite's are statements of their own)
        self.in_transaction: list[bool] = []  # whether each of the streams' statements ran in one

    def __enter__(self):
        with self.app.app_context():
            self.engine = db.engine
        event.listen(self.engine, "before_cursor_execute", self.statement)
        event.listen(self.engine, "after_cursor_execute", self.ran)
        event.listen(self.engine.pool, "checkout", self.checkout)
        template_rendered.connect(self.drawn, self.app)
        return self

    def __exit__(self, *_exc) -> None:
        event.remove(self.engine, "before_cursor_execute", self.statement)
        event.remove(self.engine, "after_cursor_execute", self.ran)
        event.remove(self.engine.pool, "checkout", self.checkout)
        template_rendered.disconnect(self.drawn, self.app)

    def statement(self, _conn, _cursor, statement, *_args) -> None:
        self.begun += statement.upper().startswith("BEGIN") and by_a_page()
        if statement.split()[0].upper() not in ("BEGIN", "COMMIT", "ROLLBACK"):
            self.statements.append(" ".join(statement.split()))
            self.by_page.append(by_a_page())

    def ran(self, conn, _cursor, statement, *_args) -> None:
        """After a stream's statement: whether the database holds a transaction open on its
        connection (sqlite3 and psycopg each say it their way)."""
        if by_a_page() and statement.split()[0].upper() not in ("BEGIN", "ROLLBACK"):
            dbapi = conn.connection.dbapi_connection
            if hasattr(dbapi, "in_transaction"):
                self.in_transaction.append(dbapi.in_transaction)
            else:
                self.in_transaction.append(dbapi.info.transaction_status != 0)  # 0: IDLE

    def checkout(self, *_args) -> None:
        self.checkouts += 1

    def drawn(self, _app, template, **_extra) -> None:
        self.templates.append(template.name)

    def reading(self, table: str, pages_only: bool = False) -> list[str]:
        """The statements that read `table` (only the streams' own, if `pages_only`)."""
        return [
            statement
            for statement, by_page in zip(self.statements, self.by_page, strict=True)
            if re.search(rf"\bFROM {table}\b", statement, re.I) and (by_page or not pages_only)
        ]


def by_a_page() -> bool:
    return threading.current_thread().name == PAGE


@pytest.fixture
def game(table, app):
    """A game of six players, its version, and its links; the process's watcher is stopped
    afterwards (it wakes the streams left open)."""
    table.new_api_game(names=("Ana", "Bea", "Cal", "Dan", "Eve", "Fay"))
    yield table
    watcher(app).stop()


def pay(table, seat: int = 0) -> int:
    """The bank pays a seat $10 (one action); the game's new version."""
    return table.act("bank_pay", player=seat, amount=10)["game"]["version"]


def version(table) -> int:
    return table.game()["version"]


def test_a_player_stream_reads_the_seat_behind_its_token_once(game, app):
    path, seen = game.phone(0) + "/live", version(game)
    with Counted(app) as counted:
        page = Opened(app.test_client(), path, seen)
        for _ in range(3):
            drawn = pay(game, 0)
            assert page.next_live()[0] == drawn
    page.close()
    assert len(counted.reading("player")) == 1  # as the stream opened


def test_a_stream_takes_the_version_from_the_news_and_the_game_from_the_process(game, app):
    """No query of the game's row or version at each drawing: the news says the version,
    and the request that acted left the game at that version to this process's pages."""
    page = Opened(app.test_client(), game.phone(1) + "/live", version(game))
    with Counted(app) as counted:
        for _ in range(3):
            drawn = pay(game, 1)
            assert page.next_live()[0] == drawn
    page.close()
    assert counted.reading("game", pages_only=True) == []


def test_the_state_is_parsed_once_per_version_for_all_the_pages_of_a_game(game, app, monkeypatch):
    """Six phones and the table screen, and news from another process (nothing kept here
    yet): the state is parsed once for the seven drawings.

    The counters are in place before the action: the pages wake as soon as it is done (they
    used to be set up after it, and a page that drew first went uncounted: red once in CI)."""
    seen = version(game)
    pages = [Opened(app.test_client(), game.phone(seat) + "/live", seen) for seat in range(6)]
    pages.append(Opened(app.test_client(), game.screen() + "/live", seen))
    snapshots._kept.clear()
    # As if the action were done by another process: it hands no copy to this one's pages.
    monkeypatch.setattr(snapshots, "keep", lambda game, state=None: game)
    parsed = []
    original = GameState.from_dict.__func__

    def counting(cls, data):
        if by_a_page():  # the pages' parsing, not the acting request's
            parsed.append(1)
        return original(cls, data)

    monkeypatch.setattr(GameState, "from_dict", classmethod(counting))
    with Counted(app) as counted:
        drawn = pay(game, 2)
        for page in pages:
            assert page.next_live()[0] == drawn
    assert len(parsed) == 1
    assert len(counted.reading("game", pages_only=True)) == 1  # its row, once for the seven
    for page in pages:
        page.close()


def test_what_the_acting_request_worked_out_is_not_worked_out_again_for_its_pages(
    game, app, monkeypatch
):
    """The request that acted works out the game's view for its answer: the seven pages of
    the process draw from the same (one view per version, not two)."""
    seen = version(game)
    pages = [Opened(app.test_client(), game.phone(seat) + "/live", seen) for seat in range(6)]
    pages.append(Opened(app.test_client(), game.screen() + "/live", seen))
    viewed = calls_of(monkeypatch, present, "view_of", lambda game_row: game_row.version)
    drawn = pay(game, 4)
    assert {page.next_live()[0] for page in pages} == {drawn}
    assert viewed == [drawn]
    for page in pages:
        page.close()


def test_once_every_open_page_has_shown_an_action_the_game_s_copy_is_let_go(game, app):
    """What the pages drew from (the game's copy, its parsed state, what they worked out) is
    not kept between two actions, and the next action still reaches every page."""
    seen = version(game)
    pages = [Opened(app.test_client(), game.phone(seat) + "/live", seen) for seat in range(6)]
    pages.append(Opened(app.test_client(), game.screen() + "/live", seen))
    for seat in (2, 3):
        drawn = pay(game, seat)
        assert {page.next_live()[0] for page in pages} == {drawn}
        assert game.id not in snapshots._kept
    for page in pages:
        page.close()


def test_the_log_s_newest_rows_come_from_the_request_that_acted_else_one_read(
    game, app, monkeypatch
):
    """Six phones and the table screen: the log's newest rows (and the seats they concern)
    at each version come with the action done in this process, else from one read for the
    seven; each seat's latest action is never counted over the game's whole log once the
    process knows an earlier version's; what the phones show of it is the log's."""
    seen = version(game)
    pages = [Opened(app.test_client(), game.phone(seat) + "/live", seen) for seat in range(6)]
    pages.append(Opened(app.test_client(), game.screen() + "/live", seen))

    def paid(seat: int) -> None:
        drawn = pay(game, seat)
        shown = [page.next_live() for page in pages]
        assert {v for v, _ in shown} == {drawn}
        assert f'data-key="a{drawn}"' in shown[seat][1]  # its own latest action: this one

    paid(0)
    with Counted(app) as counted:
        for seat in (1, 2, 1):
            paid(seat)
    assert not [s for s in counted.reading("action", pages_only=True) if "party.seat FROM" in s]
    monkeypatch.setattr(logbook, "appended", lambda *_: None)  # as if done by another process
    monkeypatch.setattr(logbook, "heard", lambda *_: None)  # whose news carried no row
    with Counted(app) as counted:
        for seat in (3, 4):
            paid(seat)
    newest = [s for s in counted.reading("action", pages_only=True) if "party.seat FROM" in s]
    assert len(newest) == 2  # once a version
    assert not [s for s in counted.reading("party") if "GROUP BY" in s]
    for page in pages:
        page.close()


def test_a_stream_reads_a_new_version_outside_a_transaction(game, app, monkeypatch):
    """News from another process (nothing kept here): the pages' reads (the game's row, the
    newest rows, a phone's own history) each run on their own, with no BEGIN before them and
    no ROLLBACK after: they name the version they read, whose rows never change."""
    seen = version(game)
    pages = [Opened(app.test_client(), game.phone(seat) + "/live", seen) for seat in (0, 1)]
    pages.append(Opened(app.test_client(), game.screen() + "/live", seen))
    monkeypatch.setattr(logbook, "appended", lambda *_: None)  # as if done by another process
    monkeypatch.setattr(logbook, "heard", lambda *_: None)  # whose news carried no row
    drawn = pay(game, 0)
    snapshots._kept.clear()
    with Counted(app) as counted:
        assert {page.next_live()[0] for page in pages} == {drawn}
    read = [s for s, by_page in zip(counted.statements, counted.by_page, strict=True) if by_page]
    assert len(read) >= 3, read  # the game, its newest rows, the phone's own history
    assert counted.begun == 0 and not any(counted.in_transaction), counted.statements
    for page in pages:
        page.close()


def own_history_in(live_part: str) -> list[tuple[bool, str]]:
    """A phone's own history as its live part shows it: (struck through, sentence), newest
    first."""
    listed = re.search(r'<ol class="list history">(.*?)</ol>', live_part, re.S)[1]
    found = re.findall(r'<li class="(undone)?">(.*?) <span class="at">', listed)
    return [(bool(undone), text) for undone, text in found]


def test_a_phone_s_own_history_grows_from_the_newest_rows_without_a_read(game, app):
    """A phone redrawn at a new version does not ask the database for its own history
    again once its process drew it at an earlier one: the actions since come with the log's
    newest rows (other seats' actions in between, an undo too). It shows what the log says."""
    phone = Opened(app.test_client(), game.phone(0) + "/live", version(game))
    for _ in range(3):
        pay(game, 0)
        phone.next_live()  # drawn, its own history read once
    with Counted(app) as counted:
        shown = []
        for steps in ([0], [1, 2, 0], [0], ["undo"]):
            for step in steps:
                drawn = game.act("undo")["game"]["version"] if step == "undo" else pay(game, step)
            at, html = phone.next_live()
            while at < drawn:  # each version's part, drawn again or not
                at, html = phone.next_live()
            shown.append(own_history_in(html))
    assert not [s for s in counted.reading("action", pages_only=True) if "party.seat =" in s]
    phone.close()
    assert [len(history) for history in shown] == [4, 5, 6, 7]  # Ana's own actions only
    paid = "The bank pays Ana $10"
    assert shown[-1][:2] == [(False, f"Undo: {paid}"), (True, paid)]  # the undo, what it undid
    with app.app_context():
        present._own.clear()  # what a fresh read of the log shows
    assert own_history_in(game.page(game.phone(0) + "?fragment=1")) == shown[-1]


@pytest.mark.skipif(not POSTGRES, reason="only PostgreSQL's news goes from process to process")
def test_news_from_another_process_brings_the_new_row_so_its_pages_do_not_read_it(game, app):
    """Pages in a process that did not act (a second app on the same database): the notice
    of each new version carries its log row and the seats it concerns, so its pages read the
    game's row and nothing of the log; a phone's own history and news say the action."""
    other = start_app(app.config["SQLALCHEMY_DATABASE_URI"])
    other.config["LIVE_SWEEP_SECONDS"] = 3600  # the news alone wakes its pages (no sweep)
    try:
        pages = [Opened(other.test_client(), game.phone(0) + "/live", version(game))]
        pages.append(Opened(other.test_client(), game.screen() + "/live", version(game)))
        pay(game, 0)
        assert {page.next_live()[0] for page in pages} == {version(game)}  # the rows read once
        with Counted(other) as counted:
            for seat in (0, 1, 0):
                drawn = pay(game, seat)
                shown = [page.next_live() for page in pages]
                assert {at for at, _ in shown} == {drawn}
                assert f'data-key="a{drawn}"' in shown[1][1]  # the table's latest action
        assert len(counted.reading("game", pages_only=True)) == 3  # its row, once a version
        assert counted.reading("action", pages_only=True) == []
        assert counted.reading("party", pages_only=True) == []
        assert own_history_in(shown[0][1])[0] == (False, "The bank pays Ana $10")
        for page in pages:
            page.close()
    finally:
        watcher(other).stop()
        close_app(other)


def test_a_time_live_pages_show_again_is_worked_out_once(game, app, monkeypatch):
    """A phone's own history and the table screen's last actions show each action's time,
    drawn again at every action: each time is worked out once in the process, so a new
    action costs the pages one, its own, whatever they show."""
    seen = version(game)
    pages = [Opened(app.test_client(), game.phone(0) + "/live", seen)]
    pages.append(Opened(app.test_client(), game.screen() + "/live", seen))
    for _ in range(2):
        drawn = pay(game, 0)
        assert {page.next_live()[0] for page in pages} == {drawn}
    worked = []
    original = filters.clock_in

    def counting(*args):
        worked.append(args[0])
        return original(*args)

    monkeypatch.setattr(filters, "clock_in", counting)
    drawn = pay(game, 0)
    shown = [page.next_live() for page in pages]
    assert {at for at, _ in shown} == {drawn}
    assert [html.count("<time ") for _, html in shown] == [3, 3]  # three actions each
    assert len(worked) == 1  # the new action's time
    for page in pages:
        page.close()


def sent_until_live(page: Opened) -> list[str]:
    """The events a page is sent up to its next live part: their types."""
    kinds = []
    while not kinds or kinds[-1] != "live":
        kinds += re.findall(r"^event: (\w+)", page.next(), re.M)
    return kinds


def test_a_phone_is_sent_the_cash_ahead_only_when_its_own_figure_moved(game, app):
    """The cash the news carries goes ahead of the live part to a page that shows a figure
    it changed: the table screen (every seat's), the phone of a seat paid; another phone's
    figure did not move, and its live part alone follows (one write less per phone)."""
    seen = version(game)
    phones = [Opened(app.test_client(), game.phone(seat) + "/live", seen) for seat in (0, 1)]
    screen = Opened(app.test_client(), game.screen() + "/live", seen)
    pay(game, 1)  # each page now shows the figures of a version its stream knows
    assert [sent_until_live(page) for page in (*phones, screen)] == [["cash", "live"]] * 3
    for paid in (0, 0, 1):
        pay(game, paid)
        assert sent_until_live(screen) == ["cash", "live"]
        for seat, phone in enumerate(phones):
            assert sent_until_live(phone) == (["cash", "live"] if seat == paid else ["live"])
    for page in (*phones, screen):
        page.close()


def test_the_cash_of_a_version_the_sweep_saw_first_still_goes_ahead(game, app):
    """On SQLite the watcher's sweep may see a commit before the acting request bumps the
    game with its cash: the cash then joins the version the sweep announced, instead of
    being dropped (a phone's figure would wait for its live part)."""
    live = watcher(app)
    with live.follow(game.id) as followed:
        seen = followed.version
        live.bump(game.id, seen + 1)  # the sweep: the version alone
        live.bump(game.id, seen + 1, ["$1,500", "$1,490"])  # the request: with its cash
        assert live.now(followed)[:2] == (seen + 1, ["$1,500", "$1,490"])


def test_a_sweep_leaves_a_commit_to_the_request_of_this_process_that_made_it(game, app):
    """On SQLite the watcher's sweep may read a request's commit before that request has
    announced it with every seat's cash. Announced by the sweep, the streams would wake
    without the cash, and a phone's figure would wait for its live part. The sweep leaves the
    game to the request while it is being answered, then announces what it reads again."""
    live = watcher(app)
    with live.follow(game.id) as followed:
        seen = followed.version
        read = [(game.id, seen + 1, followed.fingerprint or "")]
        request = live.acting(game.id)
        assert live._sweep(lambda ids: read) is True  # left: sweep again at the next look
        assert live.now(followed)[0] == seen  # no stream woken yet
        live.bump(game.id, seen + 1, ["$1,500", "$1,490"])  # the request's own news
        assert live.now(followed)[:2] == (seen + 1, ["$1,500", "$1,490"])
        live.done_acting(request)
        read = [(game.id, seen + 2, followed.fingerprint or "")]  # another process acted
        assert live._sweep(lambda ids: read) is False
        assert live.now(followed)[0] == seen + 2


def test_what_several_pages_of_a_game_show_is_drawn_once_per_version(game, app):
    """Two table screens and two banker phones: the table's and the dashboard's live parts
    are drawn once each, and each banker phone still gets its own CSRF token and keys."""
    second_banker = app.test_client()
    second_banker.get(f"/g/{game.id}/?key={game.headers['X-Banker-Key']}")
    bankers = [game.client, second_banker]
    seen = version(game)
    tokens = [csrf_of(game.page(f"/g/{game.id}/", client)) for client in bankers]
    assert tokens[0] != tokens[1]
    screens = [Opened(app.test_client(), game.screen() + "/live", seen) for _ in range(2)]
    dashboards = [Opened(client, f"/g/{game.id}/live", seen) for client in bankers]
    with Counted(app) as counted:
        drawn = pay(game, 3)
        shown = [page.next_live() for page in screens + dashboards]
    assert {v for v, _ in shown} == {drawn}
    assert counted.templates.count("table_live.html") == 1
    assert counted.templates.count("_dashboard_live.html") == 1
    assert shown[0][1] == shown[1][1]  # the same table screen for both
    first, second = shown[2][1], shown[3][1]
    assert set(csrf_in(first)) == {tokens[0]} and set(csrf_in(second)) == {tokens[1]}
    keys = keys_in(first) + keys_in(second)
    assert keys and len(set(keys)) == len(keys)  # no two forms, on any phone, share a key
    for page in screens + dashboards:
        page.close()


def test_sg4_a_rank_moved_by_another_s_payment_is_sent_without_drawing_the_phone_again(game, app):
    """SG4: the bank has paid Fay; it pays Ana, then Cal. Bea's phone shows her rank go from
    2 to 3, then 4 of 6, and Ana's first, though no phone is drawn again: the rank (and the
    paid player's figures) are put in as each version is sent. The page Bea opens afresh
    says the same."""
    seen = version(game)
    ana, bea = (Opened(app.test_client(), game.phone(seat) + "/live", seen) for seat in (0, 1))
    pay(game, 5)
    assert [rank_in(page.next_live()[1]) for page in (ana, bea)] == ["rank 2 of 6"] * 2
    ranks = []
    with Counted(app) as counted:
        for paid in (0, 2):
            pay(game, paid)
            ranks.append([rank_in(page.next_live()[1]) for page in (ana, bea)])
    assert ranks == [["rank 1 of 6", "rank 3 of 6"], ["rank 1 of 6", "rank 4 of 6"]]
    assert counted.templates.count("player_live.html") == 0
    assert rank_in(game.page(game.phone(1), app.test_client())) == "rank 4 of 6"
    for page in (ana, bea):
        page.close()


def rank_in(html: str) -> str:
    assert "fill-" not in html
    return re.search(r"rank \d of \d", html)[0]


def test_opening_a_phone_or_table_stream_takes_one_connection_and_one_query(game, app, monkeypatch):
    monkeypatch.setattr(streams, "KEEPALIVE", 0.01)  # the first wait ends at once
    for path in (game.phone(4) + "/live", game.screen() + "/live"):
        seen = version(game)
        with Counted(app) as counted:
            page = Opened(app.test_client(), path, seen)
            assert "still here" in page.next()
        page.close()
        assert counted.checkouts == 1, path
        assert len(counted.statements) == 1, counted.statements


def test_opening_the_banker_s_stream_takes_one_connection_and_two_queries(game, app, monkeypatch):
    monkeypatch.setattr(streams, "KEEPALIVE", 0.01)
    seen = version(game)
    with Counted(app) as counted:
        page = Opened(game.client, f"/g/{game.id}/live", seen)
        assert "still here" in page.next()
    page.close()
    assert counted.checkouts == 1
    assert len(counted.statements) == 2, counted.statements  # the banker check, the keys


def test_a_form_drawn_by_a_stream_goes_back_to_its_page_not_to_the_stream(game, app):
    page = Opened(game.client, f"/g/{game.id}/live", version(game))
    pay(game, 5)
    _, html = page.next_live()
    page.close()
    backs = set(re.findall(r'name="back" value="([^"]*)"', html))
    assert backs == {f"/g/{game.id}/"}


def csrf_of(page: str) -> str:
    """The session's CSRF secret a page's token is signed from (a token names it, then the
    time it was signed and the signature)."""
    return re.search(r'<meta name="csrf-token" content="([^".]+)', page)[1]


def csrf_in(html: str) -> list[str]:
    return re.findall(r'name="csrf_token" value="([^".]+)', html)


def keys_in(html: str) -> list[str]:
    return re.findall(r'name="key" value="([^"]+)"', html)
