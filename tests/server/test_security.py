"""Security: the banker's secret, CSRF on every form, escaped names, headers with a CSP that
allows no inline script."""

from __future__ import annotations

import re

import pytest
from tablebank import create_app
from tablebank.models import Game, db
from tablebank.paths import ROOT

SCRIPT_NAME = "<script>x()</script>"
QUOTE_NAME = "'\"><svg onload=x()>"  # breaks out of an attribute if not escaped


def make_game(client, names=("Ana", "Bea")) -> str:
    form = {"edition": "us-classic", "name0": names[0], "name1": names[1]}
    return client.post("/new", data=form).headers["Location"].split("/")[2]


def test_every_page_carries_the_security_headers(client, app):
    game_id = make_game(client)
    with app.app_context():
        token = db.session.get(Game, game_id).players[0].token
    stranger = app.test_client()
    answers = [
        client.get("/"),
        client.get("/new"),
        client.get(f"/g/{game_id}/"),
        client.get(f"/p/{token}"),
        client.get("/api/openapi.json"),
        client.get(f"/p/{token}/live", buffered=False),  # a live stream
        stranger.get("/no-such-page"),  # 404
        stranger.get(f"/g/{game_id}/"),  # 403
        stranger.get(f"/api/games/{game_id}"),  # 403, JSON
    ]
    for response in answers:
        headers = response.headers
        response.close()
        policy = dict(
            part.strip().split(" ", 1) for part in headers["Content-Security-Policy"].split(";")
        )
        assert policy["script-src"] == "'self'"  # no inline script, no other origin
        assert policy["object-src"] == "'none'"
        assert policy["frame-ancestors"] == "'none'"
        assert headers["X-Content-Type-Options"] == "nosniff"
        assert headers["X-Frame-Options"] == "DENY"
        assert headers["Referrer-Policy"] == "same-origin"


def test_a_file_that_is_never_a_document_carries_nosniff_alone(client):
    """Files that are never documents carry only nosniff: the policies for documents would
    only add to a phone's first visit."""
    for name in ("app.css", "app.js", "icon-192.png"):
        headers = client.get(f"/static/{name}").headers
        assert headers["X-Content-Type-Options"] == "nosniff", name
        assert "Content-Security-Policy" not in headers, name


def test_no_template_has_inline_script_or_event_handlers():
    for template in (ROOT / "templates").glob("*.html"):
        text = template.read_text()
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", text), template.name
        assert not re.search(r"\son[a-z]+\s*=", text), template.name


def test_a_script_tag_as_a_player_name_is_shown_as_text_everywhere(client, app):
    game_id = make_game(client, (SCRIPT_NAME, QUOTE_NAME))
    client.post(f"/g/{game_id}/do", data={"kind": "pass_go", "player": "0"})
    client.post(
        f"/g/{game_id}/do", data={"kind": "transfer", "from": "1", "to": "0", "amount": "5"}
    )
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
        f"/p/{player}?fragment=1",
        f"/t/{table}",
        f"/t/{table}?fragment=1",
        "/",
    ]
    for url in pages:
        page = client.get(url).text
        assert SCRIPT_NAME not in page and "<svg onload" not in page, url
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


def test_every_post_form_in_the_templates_carries_a_csrf_token():
    # The forms that do an action take their hidden fields from one macro: the token is there.
    macros = (ROOT / "templates" / "_macros.html").read_text()
    fields = re.search(r"macro action_fields\(.*?endmacro", macros, flags=re.S).group(0)
    assert 'name="csrf_token"' in fields
    for template in (ROOT / "templates").glob("*.html"):
        source = template.read_text()
        for form in re.findall(r"<form\b[^>]*>.*?</form>", source, flags=re.S | re.I):
            if re.search(r'method="post"', form, flags=re.I):
                assert 'name="csrf_token"' in form or "action_fields(" in form, template.name


def test_every_form_route_refuses_a_post_without_its_csrf_token(guarded):
    """The banker's own phone (session and all): only the missing token stands in the way."""
    client = guarded.test_client()
    token = re.search(r'name="csrf_token" value="([^"]+)"', client.get("/new").text).group(1)
    form = {"edition": "us-classic", "name0": "Ana", "name1": "Bea", "csrf_token": token}
    game_id = client.post("/new", data=form).headers["Location"].split("/")[2]
    with guarded.app_context():
        game = db.session.get(Game, game_id)
        tokens = [p.token for p in game.players]
        db.session.remove()
    values = {"game_id": game_id, "token": tokens[0], "seat": 0}
    forged = {"kind": "bank_pay", "player": "0", "amount": "9", "from": "0", "to": "1"}
    posts = [
        rule
        for rule in guarded.url_map.iter_rules()
        if "POST" in rule.methods and not rule.rule.startswith("/api/")
    ]
    assert len(posts) >= 4
    for rule in posts:
        url = rule.build({name: values.get(name, "x") for name in rule.arguments})[1]
        assert client.post(url, data=forged).status_code == 400, rule.rule
    with guarded.app_context():
        game = db.session.get(Game, game_id)
        assert game.version == 0
        assert [p.token for p in game.players] == tokens
        assert db.session.query(Game).count() == 1
        db.session.remove()
    # The same form with its token goes through: it was the token that was missing.
    done = client.post(f"/g/{game_id}/do", data={**forged, "csrf_token": token})
    assert done.status_code == 302


def test_the_api_cannot_be_driven_by_a_cross_site_form(client, app):
    """The API skips CSRF tokens: it answers only JSON, which a form on another site cannot
    send (and fetch from another origin would need CORS, which is not granted)."""
    game_id = make_game(client)  # this client is the banker by its session cookie
    url = f"/api/games/{game_id}/actions"
    for body, kind in (
        ("kind=pass_go&player=0", "application/x-www-form-urlencoded"),
        ('{"kind": "pass_go", "player": 0}', "text/plain"),
    ):
        refused = client.post(url, data=body, content_type=kind)
        assert refused.status_code == 400
        assert "Access-Control-Allow-Origin" not in refused.headers
    with app.app_context():
        assert db.session.get(Game, game_id).version == 0


def test_a_player_s_link_shows_no_one_else_s_secret(client, app):
    game_id = make_game(client, ("Ana", "Bea"))
    other_id = make_game(client, ("Cy", "Di"))
    with app.app_context():
        game, other = db.session.get(Game, game_id), db.session.get(Game, other_id)
        ana, bea = (p.token for p in game.players)
        table, banker = game.table_token, game.banker_key
        other_banker = other.banker_key
    phone = app.test_client()  # Ana's own phone: her link and nothing else
    for url in (f"/p/{ana}", f"/p/{ana}?fragment=1", f"/t/{table}", f"/t/{table}?fragment=1"):
        page = phone.get(url).text
        for secret in (bea, banker, other_banker) + ((table,) if "/p/" in url else (ana,)):
            assert secret not in page, url
    assert phone.get(f"/g/{game_id}/").status_code == 403
    assert phone.get(f"/g/{other_id}/").status_code == 403
    assert phone.get(f"/api/games/{game_id}", headers={"X-Banker-Key": ana}).status_code == 403
    wrong_game = phone.get(f"/api/games/{game_id}", headers={"X-Banker-Key": other_banker})
    assert wrong_game.status_code == 403
    right = phone.get(f"/api/games/{game_id}", headers={"X-Banker-Key": banker})
    assert right.status_code == 200


def test_the_session_cookie_is_http_only_and_same_site(client):
    make_game(client)
    cookie = client.get_cookie("session")
    assert cookie.http_only and cookie.same_site == "Lax"
