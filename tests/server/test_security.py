"""Security: the banker's secret, CSRF on every form, escaped names, headers with a CSP that
allows no inline script."""

from __future__ import annotations

import re

import pytest

from app import ROOT, create_app
from app.models import Game, db

SCRIPT_NAME = "<script>x()</script>"


def make_game(client, names=("Ana", "Bea")) -> str:
    form = {"edition": "us-classic", "name0": names[0], "name1": names[1]}
    return client.post("/new", data=form).headers["Location"].split("/")[2]


def test_every_page_carries_the_security_headers(client):
    game_id = make_game(client)
    for url in ("/", "/new", f"/g/{game_id}/", "/api/openapi.json", "/static/app.css"):
        with client.get(url) as response:
            headers = response.headers
        policy = dict(
            part.strip().split(" ", 1) for part in headers["Content-Security-Policy"].split(";")
        )
        assert policy["script-src"] == "'self'"  # no inline script, no other origin
        assert policy["frame-ancestors"] == "'none'"
        assert headers["X-Content-Type-Options"] == "nosniff"
        assert headers["Referrer-Policy"] == "same-origin"


def test_no_template_has_inline_script_or_event_handlers():
    for template in (ROOT / "templates").glob("*.html"):
        text = template.read_text()
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", text), template.name
        assert not re.search(r"\son[a-z]+\s*=", text), template.name


def test_a_script_tag_as_a_player_name_is_shown_as_text_everywhere(client, app):
    game_id = make_game(client, (SCRIPT_NAME, "Bea"))
    client.post(f"/g/{game_id}/do", data={"kind": "pass_go", "player": "0"})
    with app.app_context():
        game = db.session.get(Game, game_id)
        player, table = game.players[0].token, game.table_token
    pages = [
        f"/g/{game_id}/",
        f"/g/{game_id}/history",
        f"/g/{game_id}/player/0",
        f"/g/{game_id}/codes",
        f"/g/{game_id}/results",
        f"/g/{game_id}/land",
        f"/p/{player}",
        f"/t/{table}",
        "/",
    ]
    for url in pages:
        page = client.get(url).text
        assert SCRIPT_NAME not in page, url
        assert "&lt;script&gt;x()&lt;/script&gt;" in page, url


@pytest.fixture
def guarded(tmp_path, database_url):
    """An app with CSRF protection on, as it runs for real."""
    app = create_app({"SQLALCHEMY_DATABASE_URI": database_url(tmp_path)})
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def test_a_form_without_its_csrf_token_is_refused_and_changes_nothing(guarded):
    client = guarded.test_client()
    page = client.get("/new").text
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    form = {"edition": "us-classic", "name0": "Ana", "name1": "Bea"}
    assert client.post("/new", data=form).status_code == 400
    created = client.post("/new", data={**form, "csrf_token": token})
    game_id = created.headers["Location"].split("/")[2]
    forged = client.post(
        f"/g/{game_id}/do", data={"kind": "bank_pay", "player": "0", "amount": "9"}
    )
    assert forged.status_code == 400
    with guarded.app_context():
        assert db.session.get(Game, game_id).version == 0


def test_banker_pages_need_the_banker_s_secret(client, app):
    game_id = make_game(client)
    stranger = app.test_client()
    for url in (f"/g/{game_id}/", f"/g/{game_id}/history", f"/g/{game_id}/codes"):
        assert stranger.get(url).status_code == 403
    with app.app_context():
        key = db.session.get(Game, game_id).banker_key
    assert stranger.get(f"/g/{game_id}/?key=wrong").status_code == 403
    link = stranger.get(f"/g/{game_id}/?key={key}")
    assert link.status_code == 302 and "key=" not in link.headers["Location"]
    assert stranger.get(f"/g/{game_id}/").status_code == 200  # this phone is now the banker's


def test_secrets_are_compared_in_constant_time():
    source = (ROOT / "app" / "web" / "auth.py").read_text()
    assert "hmac.compare_digest" in source
    assert "banker_key ==" not in source and "== game.banker_key" not in source
