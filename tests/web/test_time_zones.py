"""TL1 with real clocks: the end is stored in UTC from the banker's own time zone, and the
pages give every time in UTC for each reader's browser to show in its own zone."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from sqlalchemy import func, select
from tablebank.models import Game, db

from ..support import setup_of
from ..tables import clock_at

NEW_YORK = ZoneInfo("America/New_York")


def local_in(zone: ZoneInfo, offset: timedelta) -> str:
    """A wall-clock time in `zone`, as a datetime-local input sends it."""
    return (datetime.now(UTC) + offset).astimezone(zone).strftime("%Y-%m-%dT%H:%M")


def new_timed_game(client, ends_at: str, time_zone: str | None) -> str:
    form = {"edition": "us-classic", "mode": "timed", "ends_at": ends_at}
    form.update(name0="Ana", name1="Bea")
    if time_zone:
        form["time_zone"] = time_zone
    response = client.post("/new", data=form)
    assert response.status_code == 302, response.text
    return response.headers["Location"].split("/")[2]


def test_tl1_the_end_is_stored_in_utc_from_the_bankers_time_zone(client):
    created = client.post(
        "/api/games",
        json={
            "edition": "us-classic",
            "mode": "timed",
            "ends_at": "2099-11-23T12:00",
            "time_zone": "America/New_York",
            "players": [{"name": "Ana", "colour": "#e03131"}, {"name": "Bea", "colour": "#1971c2"}],
        },
    )
    assert created.status_code == 201, created.text
    body = created.get_json()
    state = client.get(f"/api/games/{body['id']}", headers={"X-Banker-Key": body["banker_key"]})
    assert state.get_json()["settings"]["ends_at"] == "2099-11-23T17:00:00+00:00"


def test_tl1_a_game_ending_in_two_hours_in_new_york_is_not_over(client, table):
    game_id = new_timed_game(client, local_in(NEW_YORK, timedelta(hours=2)), "America/New_York")
    client.get(f"/g/{game_id}/deal")
    page = client.get(f"/g/{game_id}/").text
    assert "The game has ended" not in table.text(page)
    ends = re.search(r'class="countdown" data-ends="([^"]+)"', page).group(1)
    left = datetime.fromisoformat(ends) - datetime.now(UTC)
    assert timedelta(hours=1, minutes=55) < left <= timedelta(hours=2)


def test_tl1_a_game_whose_new_york_end_has_passed_is_ended_by_the_clock(client, table):
    ends = local_in(NEW_YORK, timedelta(hours=2))
    game_id = new_timed_game(client, ends, "America/New_York")
    end = datetime.fromisoformat(ends).replace(tzinfo=NEW_YORK).astimezone(UTC)
    with clock_at((end - timedelta(minutes=1)).strftime("%Y-%m-%dT%H:%M")):
        assert "The game has ended" not in table.read(f"/g/{game_id}/")
    with clock_at(end.strftime("%Y-%m-%dT%H:%M")):
        assert "The game has ended: results" in table.read(f"/g/{game_id}/")


def games_made(app) -> int:
    with app.app_context():
        found = db.session.scalar(select(func.count()).select_from(Game))
        db.session.remove()
    return found


def test_tl1_an_end_time_already_passed_is_refused_on_the_new_game_page(app, client, table):
    """TL1: an end time is agreed before play. A banker in New York types the time of a
    minute ago there: refused in words, the form kept, nothing made. (Read as UTC, the time
    typed would be hours ahead: the banker's zone decides.)"""
    ends = local_in(NEW_YORK, -timedelta(minutes=1))
    form = {"edition": "us-classic", "mode": "timed", "ends_at": ends}
    form.update(name0="Ana", name1="Bea", time_zone="America/New_York")
    response = client.post("/new", data=form)
    assert response.status_code == 400
    page = table.text(response.text)
    assert "The end time has already passed: choose a time still to come" in page
    assert f'value="{ends}"' in response.text
    assert games_made(app) == 0


def test_tl1_the_api_refuses_an_end_time_already_passed(app, client):
    ends = (datetime.now(UTC) - timedelta(minutes=5)).isoformat()
    made = client.post("/api/games", json=setup_of(mode="timed", ends_at=ends))
    assert made.status_code == 422
    assert made.get_json() == {
        "error": "The end time has already passed: choose a time still to come",
        "rule": "TL1",
    }
    assert games_made(app) == 0


def test_tl1_an_action_after_the_time_is_up_is_refused_under_tl1_every_time(client, table):
    """TL1: the time runs out: the first action after it is refused (the clock ends the game)
    and so is every one after it, each naming TL1 and saying the time-limited game ended,
    never K4 (the last player left: Ana and Bea are both still in)."""
    table.new_api_game(("Ana", "Bea"), mode="timed", ends_at="2099-01-01T20:00")
    with clock_at("2099-01-01T20:01"):
        first = table.act("pass_go", 422, player=0)
        again = table.act("pass_go", 422, player=0)
    assert first == {"error": "Time is up: the game has ended. See the results.", "rule": "TL1"}
    assert again == {"error": "This time-limited game has ended. See the results.", "rule": "TL1"}
    assert table.cash() == [1500, 1500] and table.state().ended


def test_tl1_the_end_time_is_written_in_the_bankers_zone_before_the_browser_localises_it(
    client,
):
    game_id = new_timed_game(client, "2099-01-01T20:00", "Asia/Tokyo")
    page = client.get(f"/g/{game_id}/").text
    shown = '<time datetime="2099-01-01T11:00:00+00:00" data-local="date">2099-01-01 20:00</time>'
    assert shown in page
    assert 'data-left="%(time)s left"' in page


def test_tl1_an_unknown_time_zone_is_refused(client, table):
    form = {"edition": "us-classic", "mode": "timed", "ends_at": "2099-01-01T20:00"}
    form.update(name0="Ana", name1="Bea", time_zone="Mars/Olympus")
    response = client.post("/new", data=form)
    assert response.status_code == 400
    assert "Unknown time zone Mars/Olympus" in table.text(response.text)


def test_history_lines_carry_their_time_in_utc(client, table):
    game_id = table.new_game()
    client.post(f"/g/{game_id}/do", data={"kind": "bank_pay", "player": "0", "amount": "10"})
    page = client.get(f"/g/{game_id}/history").text
    stamp = re.search(r'<time datetime="([^"]+)" data-local="time">(\d\d:\d\d) UTC</time>', page)
    assert stamp is not None
    assert abs(datetime.fromisoformat(stamp.group(1)) - datetime.now(UTC)) < timedelta(hours=1)


def test_history_is_written_in_the_readers_zone_once_their_browser_said_it(client, table):
    game_id = table.new_game()
    client.post(f"/g/{game_id}/do", data={"kind": "bank_pay", "player": "0", "amount": "10"})
    client.set_cookie("tzo", "-540")  # a browser in Tokyo: 9 hours east of UTC
    page = client.get(f"/g/{game_id}/history").text
    stamp = re.search(r'<time datetime="([^"]+)" data-local="time">([^<]+)</time>', page)
    tokyo = datetime.fromisoformat(stamp.group(1)).astimezone(ZoneInfo("Asia/Tokyo"))
    assert stamp.group(2) == tokyo.strftime("%H:%M")
    client.set_cookie("tzo", "nonsense")
    assert " UTC</time>" in client.get(f"/g/{game_id}/history").text


def test_tl1_the_table_screen_opened_after_the_end_time_ends_the_game_and_names_the_winner(
    app, table
):
    """TL1: the time runs out with only the TV open (its countdown reloads it then): the
    screen ends the game and shows the standings, as the banker's dashboard would."""
    table.new_game(mode="timed", ends_at="2099-01-01T20:00")
    screen = table.screen()
    with clock_at("2099-01-01T20:01"):
        tv = table.read(screen, client=app.test_client())
    assert "The game has ended" in tv and "Final standings" in tv
    assert table.state().ended


def test_tl1_a_phone_opened_after_the_end_time_ends_the_game(app, table):
    """TL1: a player's phone, the only page open when the time runs out, shows the end."""
    table.new_game(mode="timed", ends_at="2099-01-01T20:00")
    link = table.phone(0)
    with clock_at("2099-01-01T20:01"):
        phone = table.read(link, client=app.test_client())
    assert "The game has ended" in phone and "Final standings" in phone
    assert table.state().ended


def offset_in(zone: ZoneInfo) -> str:
    """The zone's UTC offset now, as an ISO time ends with it (-05:00)."""
    minutes = int(datetime.now(zone).utcoffset().total_seconds()) // 60
    return f"{'-' if minutes < 0 else '+'}{abs(minutes) // 60:02}:{abs(minutes) % 60:02}"


def test_tl1_a_banker_without_javascript_picks_their_clock_and_the_end_is_their_own(client):
    """TL1 without JavaScript (no time zone sent): the new-game page lists the time now at
    each UTC offset, for the banker to pick the one their clock shows. A banker in New York
    types an end two hours ahead on their clock: the game ends in two hours, and their pages
    say the end as they typed it. (Read as UTC, that time had passed: refused.)"""
    new_game = client.get("/new").text
    offset = offset_in(NEW_YORK)
    listed = re.search(rf'<option value="{re.escape(offset)}"[^>]*>([^<]+)</option>', new_game)
    assert listed[1].endswith(f", UTC{offset})")  # e.g. 16:42 (2026-11-27, UTC-05:00)
    shown = datetime.strptime(listed[1][:17], "%H:%M (%Y-%m-%d").replace(tzinfo=NEW_YORK)
    assert abs(shown - datetime.now(NEW_YORK)) < timedelta(minutes=2)
    noscript = re.search(r"<noscript>(.*?)</noscript>", new_game, re.S).group(1)
    assert "The time on your clock now (for the end time)" in noscript
    assert 'name="clock"' in noscript  # with JavaScript the form is as it was

    ends = local_in(NEW_YORK, timedelta(hours=2))
    form = {"edition": "us-classic", "mode": "timed", "ends_at": ends, "clock": offset}
    response = client.post("/new", data=form | {"name0": "Ana", "name1": "Bea"})
    assert response.status_code == 302, response.text
    game_id = response.headers["Location"].split("/")[2]
    client.get(f"/g/{game_id}/deal")
    page = client.get(f"/g/{game_id}/").text
    end = datetime.fromisoformat(re.search(r'class="countdown" data-ends="([^"]+)"', page)[1])
    assert end == datetime.fromisoformat(ends).replace(tzinfo=NEW_YORK)
    assert timedelta(hours=1, minutes=55) < end - datetime.now(UTC) <= timedelta(hours=2)
    assert re.search(rf"Ends at <time[^>]*>{ends.replace('T', ' ')}<", page)


def test_tl1_without_javascript_an_end_time_already_passed_on_the_bankers_clock_is_refused(
    app, client, table
):
    """TL1: a banker in Tokyo without JavaScript types the time of a minute ago on their
    clock: refused, nothing made (read as UTC, it was 9 hours ahead)."""
    tokyo = ZoneInfo("Asia/Tokyo")
    ends = local_in(tokyo, -timedelta(minutes=1))
    form = {"edition": "us-classic", "mode": "timed", "ends_at": ends}
    form.update(name0="Ana", name1="Bea", clock=offset_in(tokyo))
    response = client.post("/new", data=form)
    assert response.status_code == 400
    assert "The end time has already passed" in table.text(response.text)
    assert games_made(app) == 0


def test_tl1_an_end_time_sent_with_no_time_zone_and_no_clock_is_refused_and_the_clock_shown(
    app, client, table
):
    """TL1: a form sent without the browser's time zone (no JavaScript, or app.js did not
    run) and without the banker's clock: the end time cannot be read in their zone. Refused
    in words, the form kept, nothing made; the page back lists the clocks outside <noscript>
    (a browser whose JavaScript is on but did not run shows them too)."""
    form = {"edition": "us-classic", "mode": "timed", "ends_at": "2099-01-01T20:00"}
    response = client.post("/new", data=form | {"name0": "Ana", "name1": "Bea"})
    assert response.status_code == 400
    said = "Choose the time on your clock now: the end time is read in your time zone"
    assert said in table.text(response.text)
    assert 'value="2099-01-01T20:00"' in response.text and 'value="Ana"' in response.text
    assert 'name="clock"' in response.text and "<noscript>" not in response.text
    assert games_made(app) == 0
