"""A tap that stays on the page, as the server answers it: a form posted by the page's script
(X-Tablebank-Tap) is answered with the page its redirect leads to, in the same answer; the
same form posted by a browser without JavaScript is redirected as ever; the streams the
action woke draw once the acting request is answered."""

from __future__ import annotations

import contextlib
import json
import queue
import re
import threading

from flask import template_rendered
from sqlalchemy import event
from tablebank.live import Watcher, watcher
from tablebank.models import db
from tablebank.web import banker, shared, streams

from ..streams import Opened, templates_drawn
from ..support import READING, calls_of

TAP = {"X-Tablebank-Tap": "1"}
QUIET = ("BEGIN", "ROLLBACK")  # a transaction opened or ended reads nothing
HANG = 30  # seconds before a test waiting on another thread gives up: a hang guard


def pass_go(table, seat: int = 0, version: int | None = None, key: str = "k1") -> dict:
    """The banker's "passed GO" button for a seat, as its form posts it."""
    fields = {"kind": "pass_go", "payload": json.dumps({"player": seat}), "key": key}
    fields["version"] = str(table.game()["version"] if version is None else version)
    fields["back"] = f"/g/{table.id}/pick/pass_go"
    return fields


def test_a_tap_is_answered_with_the_page_it_leads_to_and_its_address(table):
    table.new_game()
    answer = table.client.post(f"/g/{table.id}/do", data=pass_go(table), headers=TAP)
    assert answer.status_code == 200
    assert answer.headers["X-Tablebank-Page"] == f"/g/{table.id}/"
    banner = re.search(r'<div class="flash done".*?</div>', answer.text, re.S)
    assert banner and "Ana collects $200 salary" in table.text(banner[0])  # the green banner
    assert table.button(banner[0], "Undo")  # with its Undo
    assert "$1,700" in table.text(answer.text)  # the dashboard as it is now
    assert table.cash() == [1700, 1500]


def test_the_banner_of_a_tap_is_shown_once(table):
    """The session the answer leaves (its banner taken) is the one the browser keeps."""
    table.new_game()
    answer = table.client.post(f"/g/{table.id}/do", data=pass_go(table), headers=TAP)
    assert 'class="flash done"' in answer.text
    assert 'class="flash done"' not in table.page(f"/g/{table.id}/")


def test_the_page_a_tap_leads_to_reads_nothing_the_action_wrote(table, app):
    """The dashboard a tap answers with is drawn from what its action left: the game as it
    was committed and the log's newest rows move on from the POST, with no statement after
    the action's COMMIT (each a round trip on PostgreSQL). It shows the same: the new
    figure, the banner, the undo button naming the action."""
    table.new_game()
    table.page(f"/g/{table.id}/")  # the banker's dashboard, as before a tap
    fields, run = pass_go(table), []
    with app.app_context():
        engine = db.engine

    def statement(_conn, _cursor, sql, *_args) -> None:
        run.append(sql.split()[0].upper())

    def committed(_conn) -> None:
        run.append("COMMIT")

    event.listen(engine, "before_cursor_execute", statement)
    event.listen(engine, "commit", committed)
    try:
        answer = table.client.post(f"/g/{table.id}/do", data=fields, headers=TAP)
    finally:
        event.remove(engine, "before_cursor_execute", statement)
        event.remove(engine, "commit", committed)
    assert run.count("COMMIT") == 1 and "INSERT" in run  # the action, then the page
    assert [sql for sql in run[run.index("COMMIT") + 1 :] if sql not in QUIET] == []
    text = table.text(answer.text)
    assert "$1,700" in text and "Ana collects $200 salary" in text
    assert table.button(answer.text, "Undo") and "Undo: Ana collects $200 salary" in text
    assert table.page(f"/g/{table.id}/").count("$1,700") == answer.text.count("$1,700")


def test_a_tap_reads_its_game_once_under_the_lock_its_action_takes(table, app):
    """The banker check of a request that acts reads the game under the action's lock, and
    the action takes it from there: one read of the game's row for the whole tap, the locked
    one (on SQLite, inside the write transaction; on PostgreSQL, FOR UPDATE)."""
    table.new_game()
    fields, run = pass_go(table), []
    with app.app_context():
        engine = db.engine

    def statement(_conn, _cursor, sql, *_args) -> None:
        run.append(" ".join(sql.split()))

    event.listen(engine, "before_cursor_execute", statement)
    try:
        answer = table.client.post(f"/g/{table.id}/do", data=fields, headers=TAP)
    finally:
        event.remove(engine, "before_cursor_execute", statement)
    assert answer.status_code == 200 and table.cash() == [1700, 1500]
    reads = [sql for sql in run if sql.startswith("SELECT game.id")]
    assert len(reads) == 1
    if engine.dialect.name == "sqlite":
        assert run.index("BEGIN IMMEDIATE") < run.index(reads[0])
    else:
        assert reads[0].endswith("FOR UPDATE")


def test_a_post_that_does_not_claim_the_bank_takes_no_lock(table, app):
    """Another phone's POST to the banker's door (no banker key, no banker session) is
    refused without taking the write lock that every game's actions share on SQLite."""
    table.new_game()
    run = []
    with app.app_context():
        engine = db.engine

    def statement(_conn, _cursor, sql, *_args) -> None:
        run.append(" ".join(sql.split()))

    event.listen(engine, "before_cursor_execute", statement)
    try:
        answer = app.test_client().post(f"/g/{table.id}/do", data=pass_go(table), headers=TAP)
    finally:
        event.remove(engine, "before_cursor_execute", statement)
    assert answer.status_code == 403 and table.cash() == [1500, 1500]
    assert not [sql for sql in run if "IMMEDIATE" in sql or "FOR UPDATE" in sql]


def test_a_tap_s_answer_carries_the_session_as_its_page_left_it_once(table):
    """The POST hands its session to the page its answer draws, which writes the one cookie
    the answer carries: the banner taken, the banker still remembered."""
    table.new_game()
    answer = table.client.post(f"/g/{table.id}/do", data=pass_go(table), headers=TAP)
    sessions = [c for c in answer.headers.getlist("Set-Cookie") if c.startswith("session=")]
    assert len(sessions) == 1
    assert 'class="flash done"' in answer.text
    dashboard = table.page(f"/g/{table.id}/")
    assert 'class="flash done"' not in dashboard and "$1,700" in table.text(dashboard)


def test_without_javascript_the_same_form_is_redirected(table):
    table.new_game()
    answer = table.client.post(f"/g/{table.id}/do", data=pass_go(table))
    assert answer.status_code == 302
    assert answer.headers["Location"] == f"/g/{table.id}/"
    assert "X-Tablebank-Page" not in answer.headers
    assert 'class="flash done"' in table.page(f"/g/{table.id}/")


def test_a_stale_tap_says_the_game_moved_on_and_changes_nothing(table):
    table.new_game()
    drawn_at = table.game()["version"]
    table.client.post(f"/g/{table.id}/do", data=pass_go(table, key="first"), headers=TAP)
    late = pass_go(table, seat=1, version=drawn_at, key="second")
    answer = table.client.post(f"/g/{table.id}/do", data=late, headers=TAP)
    assert answer.status_code == 409
    said = table.text(answer.text)
    assert "The game has moved on" in said and "nothing was done" in said
    assert table.cash() == [1700, 1500]


def test_a_repeated_key_is_done_once(table):
    table.new_game()
    for _ in range(2):
        answer = table.client.post(f"/g/{table.id}/do", data=pass_go(table), headers=TAP)
        assert answer.status_code == 200
    assert "Already done" in table.text(answer.text)
    assert table.cash() == [1700, 1500]


def test_a_refused_tap_goes_back_to_its_page_in_red(table):
    table.new_game()
    fields = pass_go(table)
    fields["payload"] = json.dumps({"player": 0, "amount": -5})
    fields["kind"] = "bank_pay"
    answer = table.client.post(f"/g/{table.id}/do", data=fields, headers=TAP)
    assert answer.status_code == 200
    assert answer.headers["X-Tablebank-Page"] == f"/g/{table.id}/pick/pass_go"
    assert re.search(r'class="flash error"', answer.text)
    assert table.cash() == [1500, 1500]


def test_a_phone_s_tap_is_answered_with_its_own_page(table, app):
    table.new_game()
    phone = app.test_client()
    data = {"kind": "transfer", "payload": json.dumps({"to": 1, "amount": 20}), "key": "p1"}
    answer = phone.post(f"{table.phone(0)}/do", data=data, headers=TAP)
    assert answer.status_code == 200
    assert answer.headers["X-Tablebank-Page"] == table.phone(0)
    assert "Ana pays Bea $20" in table.text(answer.text)
    assert table.cash() == [1480, 1520]


def test_the_streams_an_action_woke_draw_once_its_answer_is_out(table, app, monkeypatch):
    """The acting request draws its page (here the dashboard it leads to) before any stream
    of its game draws: a phone's stream that woke at the action waits (live.settle) until
    the tap is answered, then draws."""
    monkeypatch.setattr(streams, "SETTLE", HANG)  # only the answer ends the wait here
    table.new_game()
    waiting, drawn = threading.Event(), []
    settle = Watcher.settle

    def noted(followed, most):
        waiting.set()
        settle(followed, most)

    monkeypatch.setattr(Watcher, "settle", staticmethod(noted))
    follow, following = Watcher.follow, threading.Event()

    @contextlib.contextmanager
    def noted_follow(watching, game_id):
        with follow(watching, game_id) as followed:
            following.set()
            yield followed

    monkeypatch.setattr(Watcher, "follow", noted_follow)

    def rendered(_app, template, **_extra):
        drawn.append(template.name)
        if template.name == "game.html":  # the tap's own page, while it is answered
            assert waiting.wait(HANG), "no stream waited for the answer"
            assert "player_live.html" not in drawn

    events: queue.Queue = queue.Queue()
    path = f"{table.phone(1)}/live?v={table.game()['version']}"

    def phone() -> None:
        for chunk in app.test_client().get(path, buffered=False).response:
            chunk = chunk.decode() if isinstance(chunk, bytes) else chunk
            events.put(chunk)
            if "event: live" in chunk:
                return

    reader = threading.Thread(target=phone, daemon=True)
    reader.start()
    assert "retry" in events.get(timeout=HANG)
    # The stream follows the game before the tap (its first words come before it does).
    assert following.wait(HANG), "no stream followed the game"
    template_rendered.connect(rendered, app)
    try:
        answer = table.client.post(f"/g/{table.id}/do", data=pass_go(table), headers=TAP)
        followed = watcher(app).games.get(table.id)  # None once the stream has drawn and ended
        assert followed is None or followed.answered.is_set()  # the answer is out: draw now
        reader.join(HANG)
    finally:
        template_rendered.disconnect(rendered, app)
        watcher(app).stop()
    assert answer.status_code == 200
    assert drawn.index("game.html") < drawn.index("player_live.html")


def test_the_banker_s_stream_sends_the_live_part_its_tap_s_answer_drew(table, app, monkeypatch):
    """The banker's dashboard is open with its live stream: the tap's answer draws the live
    part, and the stream that the tap woke sends that same drawing (the panels, balances and
    buttons worked out once, not twice), with the page's own CSRF token and keys of its own
    in its forms."""
    table.new_game()
    table.page(f"/g/{table.id}/")  # the banker's dashboard (its banker link shown once)
    page = Opened(table.client, f"/g/{table.id}/live", table.game()["version"])
    worked_out = calls_of(monkeypatch, banker, "dashboard_context", lambda game: game.version)
    try:
        answer = table.client.post(f"/g/{table.id}/do", data=pass_go(table), headers=TAP)
        version, live = page.next_live()
    finally:
        page.close()
        watcher(app).stop()
    assert worked_out == [version] == [table.game()["version"]]
    assert f'data-version="{version}"' in answer.text
    assert "Ana $1,700" in table.text(live) and "Ana $1,700" in table.text(answer.text)
    for html in (answer.text, live):
        assert "-" + shared.MARK not in html  # every mark put in
    assert set(csrf_in(live)) == set(csrf_in(answer.text)) != set()
    assert not set(keys_in(live)) & set(keys_in(answer.text))  # no form's key used twice


def test_a_phone_s_stream_sends_the_live_part_its_tap_s_answer_drew(table, app, monkeypatch):
    """Ana's phone is open with its live stream: her offer of a trade from it is answered
    with her page, and the stream that the offer woke sends that same drawing (her part
    drawn once, not twice), with the offer and her page's own CSRF token."""
    table.new_api_game(names=("Ana", "Bea", "Cal"), phone_turns=True)
    table.own(1, READING)
    phone = app.test_client()
    table.page(table.phone(0), phone)
    page = Opened(phone, f"{table.phone(0)}/live", table.game()["version"])
    trade = {"player": 0, "partner": 1, "give": {"cash": 20}, "take": {"deeds": [READING]}}
    data = {"kind": "trade_offer", "payload": json.dumps(trade), "key": "p1"}
    try:
        with templates_drawn(app) as drawn:
            answer = phone.post(f"{table.phone(0)}/do", data=data, headers=TAP)
            version, live = page.next_live()
    finally:
        page.close()
        watcher(app).stop()
    assert drawn.count("player_live.html") == 1 and version == table.game()["version"]
    assert f'data-version="{version}"' in answer.text
    for html in (answer.text, live):
        assert "Your offer to Bea waits for an answer" in html
        assert "-" + shared.MARK not in html  # every mark put in
    assert set(csrf_in(live)) == set(csrf_in(answer.text)) != set()


def csrf_in(html: str) -> list[str]:
    """The session's CSRF secret each form's token is signed from (then a time, a MAC)."""
    return re.findall(r'name="csrf_token" value="([^".]+)', html)


def keys_in(html: str) -> list[str]:
    return re.findall(r'name="key" value="([^"]+)"', html)


def test_k1_a_refused_quick_money_tap_stays_on_the_players_card(table):
    """Quick money on a player's card that the player cannot pay: the red message on that
    card, where the banker was, not on the dashboard; nothing paid."""
    table.new_game()
    card = f"/g/{table.id}/player/0"
    form = re.search(r'<form[^>]*class="[^"]*quick-money.*?</form>', table.page(card), re.S)[0]
    fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form))
    fields.update(to="bank", amount="typed", typed="99999")
    answer = table.client.post(f"/g/{table.id}/quick/0", data=fields, headers=TAP)
    assert answer.headers["X-Tablebank-Page"] == card
    assert "Ana cannot pay $99,999" in table.text(answer.text)
    assert table.cash() == [1500, 1500]
