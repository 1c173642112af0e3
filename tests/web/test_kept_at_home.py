"""Under gunicorn a game's live streams are all carried by one worker, its home
(app/stream_homes.py). A page of the game loaded in another worker keeps nothing of what it
drew there (its live part, the part's pieces, the player's own history), since no stream of
the game draws from it in that worker: a phone's page loads once and its stream goes home.
A tap's answer keeps its part wherever it is drawn: the page's next tap, on the same
connection, is answered from it."""

from __future__ import annotations

from tablebank.stream_homes import HOMES, Homes
from tablebank.web import present, shared

from .test_taps import TAP, pass_go

WORKERS = 4


def worker(game_id: str, home: bool) -> dict:
    """The environ a gunicorn worker gives a request: the game's home, or another worker."""
    homes = Homes("", WORKERS)
    homes.slot = (homes.home_of(game_id) + (0 if home else 1)) % WORKERS
    return {HOMES: homes}


def parts_kept(game_id: str) -> set[str]:
    """The names of the game's live parts this process keeps."""
    return {key[1] for key in list(shared._drawn._items) if key[0] == game_id}


def histories_kept(game_id: str) -> set[int]:
    """The seats whose own history this process keeps for the game."""
    return {key[1] for key in list(present._own._items) if key[0] == game_id}


def test_a_phone_s_page_loaded_away_from_its_game_s_home_shows_all_and_keeps_nothing(table):
    table.new_game()
    pieces = len(shared._pieces)
    page = table.client.get(table.phone(1), environ_base=worker(table.id, home=False))
    assert page.status_code == 200
    assert "$1,500" in table.text(page.text) and "Bea" in table.text(page.text)
    assert parts_kept(table.id) == set()
    assert histories_kept(table.id) == set()
    assert len(shared._pieces) == pieces  # the form that pays someone: drawn, not kept


def test_a_phone_s_page_loaded_in_its_game_s_home_keeps_what_its_stream_draws_from(table):
    table.new_game()
    page = table.client.get(table.phone(1), environ_base=worker(table.id, home=True))
    assert page.status_code == 200 and "$1,500" in table.text(page.text)
    assert parts_kept(table.id) == {f"player {table.tokens()[1]}"}
    assert histories_kept(table.id) == {1}


def test_the_table_screen_loaded_away_from_its_game_s_home_keeps_nothing(table):
    table.new_game()
    pieces = len(shared._pieces)
    screen = table.client.get(table.screen(), environ_base=worker(table.id, home=False))
    assert screen.status_code == 200 and "$1,500" in table.text(screen.text)
    assert len(shared._pieces) == pieces  # the board's squares: drawn, not kept


def test_a_tap_s_answer_away_from_its_game_s_home_keeps_the_dashboard_for_the_next_tap(table):
    table.new_game()
    away = worker(table.id, home=False)
    table.client.get(f"/g/{table.id}/", environ_base=away)  # once with its banker link
    dashboard = table.client.get(f"/g/{table.id}/", environ_base=away)
    assert "$1,500" in table.text(dashboard.text)
    assert parts_kept(table.id) == set()  # the dashboard loaded: its stream goes home
    answer = table.client.post(
        f"/g/{table.id}/do", data=pass_go(table), headers=TAP, environ_base=away
    )
    assert answer.status_code == 200 and "$1,700" in table.text(answer.text)
    assert len(parts_kept(table.id)) == 1  # the dashboard's, for the page that acted
