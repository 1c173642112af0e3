"""Rate limits on a real server with several worker processes: a flood of new games from one
address is turned away with a 429 in words once the limit is used up, whichever worker answers;
a flood of writes from one player's link likewise; the banker's own actions and other links
go on."""

from __future__ import annotations

import re

import pytest
import requests
from sqlalchemy import create_engine, text
from tablebank.config import database_url as normalised

from ..servers import Server
from ..support import setup_of


@pytest.fixture
def limited(tmp_path, database_url, monkeypatch):
    monkeypatch.setenv("TABLEBANK_RATE_LIMIT_CREATE", "5/minute")
    monkeypatch.setenv("TABLEBANK_RATE_LIMIT_PLAYER", "4/minute")
    server = Server(database_url(tmp_path), workers=3)
    try:
        server.start()
        yield server
    finally:
        server.close()


def test_new_games_from_one_address_are_limited_across_workers(limited):
    answers = [limited.call("POST", "/api/games", setup_of()) for _ in range(12)]
    statuses = [status for status, _ in answers]
    assert statuses.count(201) == 5, statuses
    refused = [body for status, body in answers if status == 429]
    assert len(refused) == 7
    assert all(b["rule"] == "rate_limited" and "wait a minute" in b["error"] for b in refused)
    status, page = limited.call("POST", "/new", raw=True)  # the page's form shares the count
    assert status in (400, 429)


def test_junk_too_large_is_refused_before_it_takes_a_new_game_s_place(limited):
    """A body over the cap is refused from its Content-Length (413 in words) before the
    rate limit counts it: a flood of junk neither stores anything nor locks out the table
    that then makes its games from the same address."""
    junk = {**setup_of(), "padding": "x" * 100_000}
    for _ in range(6):
        status, body = limited.call("POST", "/api/games", junk)
        assert status == 413 and body["error"], (status, body)
    statuses = [limited.call("POST", "/api/games", setup_of())[0] for _ in range(6)]
    assert statuses == [201] * 5 + [429]


def phone(server: Server, token: str):
    """A player's phone: a session with the page's CSRF token."""
    session = requests.Session()
    page = session.get(f"{server.url}/p/{token}").text
    csrf = re.search(r'name="csrf[-_]token" (?:value|content)="([^"]+)"', page).group(1)
    return session, csrf


def test_writes_from_one_player_link_are_limited_and_the_banker_goes_on(limited, database_url):
    status, created = limited.call("POST", "/api/games", setup_of(starting_cash=5000))
    assert status == 201, (status, created)
    game_id, key = created["id"], created["banker_key"]
    engine = create_engine(normalised(limited.db_url))
    with engine.connect() as connection:
        tokens = (
            connection.execute(
                text("SELECT token FROM player WHERE game_id = :g ORDER BY seat"), {"g": game_id}
            )
            .scalars()
            .all()
        )
    engine.dispose()
    bea, csrf = phone(limited, tokens[1])
    form = {"csrf_token": csrf, "kind": "transfer", "to": "0", "amount": "1"}
    statuses = [
        bea.post(f"{limited.url}/p/{tokens[1]}/do", data=form, allow_redirects=False).status_code
        for _ in range(8)
    ]
    assert statuses.count(302) == 4 and statuses.count(429) == 4, statuses
    refused = bea.post(f"{limited.url}/p/{tokens[1]}/do", data=form, allow_redirects=False)
    assert "wait a minute" in refused.text
    cal, csrf = phone(limited, tokens[2])
    form = {"csrf_token": csrf, "kind": "transfer", "to": "0", "amount": "1"}
    assert (
        cal.post(f"{limited.url}/p/{tokens[2]}/do", data=form, allow_redirects=False).status_code
        == 302
    )
    for n in range(10):  # the banker is not limited
        action = {"kind": "pass_go", "player": n % 3}
        assert limited.call("POST", f"/api/games/{game_id}/actions", action, key=key)[0] == 201
    status, view = limited.call("GET", f"/api/games/{game_id}", key=key)
    assert view["players"][1]["cash"] == 5000 - 4 + 3 * 200  # four payments went through
