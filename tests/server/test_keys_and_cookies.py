"""The banker's key and cookie on a public server: the key only in a header on the API, a new
key ends the old link and every other banker device, the cookie Secure over https (also behind
a proxy the host trusts), no redirect taken from the Referer, a home page of one's own games."""

from __future__ import annotations

import re

import pytest
from tablebank import create_app
from tablebank.models import Game, db


def make_game(client, names=("Ana", "Bea")) -> str:
    form = {"edition": "us-classic", "name0": names[0], "name1": names[1]}
    return client.post("/new", data=form).headers["Location"].split("/")[2]


def key_of(app, game_id) -> str:
    with app.app_context():
        key = db.session.get(Game, game_id).banker_key
        db.session.remove()
    return key


def test_the_api_takes_the_key_only_in_its_header(client, app):
    game_id = make_game(client)
    key = key_of(app, game_id)
    stranger = app.test_client()
    in_url = stranger.get(f"/api/games/{game_id}?key={key}")
    assert in_url.status_code == 403 and in_url.get_json()["error"]
    action = {"kind": "pass_go", "player": 0}
    posted = stranger.post(f"/api/games/{game_id}/actions?key={key}", json=action)
    assert posted.status_code == 403
    assert stranger.get(f"/api/games/{game_id}", headers={"X-Banker-Key": key}).status_code == 200


def test_a_new_banker_key_ends_the_old_link_and_other_banker_phones(client, app):
    game_id = make_game(client)
    old = key_of(app, game_id)
    second = app.test_client()  # a second banker phone, through the banker link
    assert second.get(f"/g/{game_id}/?key={old}").status_code == 302
    assert second.get(f"/g/{game_id}/").status_code == 200
    codes = client.get(f"/g/{game_id}/codes").text
    assert f"/g/{game_id}/codes/banker-key" in codes  # the button
    rotated = client.post(f"/g/{game_id}/codes/banker-key", follow_redirects=True)
    assert rotated.status_code == 200 and "no longer work" in rotated.text
    new = key_of(app, game_id)
    assert new != old
    assert client.get(f"/g/{game_id}/").status_code == 200  # this phone stays the banker
    assert second.get(f"/g/{game_id}/").status_code == 403
    assert app.test_client().get(f"/g/{game_id}/?key={old}").status_code == 403
    headers = {"X-Banker-Key": old}
    assert app.test_client().get(f"/api/games/{game_id}", headers=headers).status_code == 403
    third = app.test_client()
    assert third.get(f"/g/{game_id}/?key={new}").status_code == 302
    assert third.get(f"/g/{game_id}/").status_code == 200


def test_a_stranger_cannot_make_a_new_banker_key(client, app):
    game_id = make_game(client)
    old = key_of(app, game_id)
    assert app.test_client().post(f"/g/{game_id}/codes/banker-key").status_code == 403
    assert key_of(app, game_id) == old


def test_a_refused_action_returns_to_its_own_page_never_to_the_referer(client, app):
    game_id = make_game(client)
    form = {"kind": "bank_collect", "player": "0", "amount": "99999"}
    evil = {"Referer": "https://evil.example/phish"}
    own = f"/g/{game_id}/money?kind=bank_collect&player=0"
    back = client.post(f"/g/{game_id}/do", data={**form, "back": own}, headers=evil)
    assert back.status_code == 302 and back.headers["Location"] == own
    for foreign in ("https://evil.example/", "//evil.example/g/", f"/g/{game_id}x/", "/\\evil"):
        answer = client.post(f"/g/{game_id}/do", data={**form, "back": foreign}, headers=evil)
        assert answer.headers["Location"] == f"/g/{game_id}/", foreign
    live_part = client.post(f"/g/{game_id}/do", data={**form, "back": own + "&fragment=1"})
    assert live_part.headers["Location"] == own  # the whole page, not the live fragment
    page = client.get(f"/g/{game_id}/land/0/1").text
    assert re.search(rf'name="back" value="/g/{game_id}/land/0/1"', page)


def session_cookie(response) -> str:
    found = [h for h in response.headers.getlist("Set-Cookie") if h.startswith("session=")]
    assert found
    return found[0].lower()


def test_the_session_cookie_is_secure_over_https_only(client):
    form = {"edition": "us-classic", "name0": "Ana", "name1": "Bea"}
    plain = client.post("/new", data=form)
    assert "; secure" not in session_cookie(plain)
    assert "samesite=lax" in session_cookie(plain) and "httponly" in session_cookie(plain)
    over_https = client.post("/new", data=form, base_url="https://bank.example")
    assert "; secure" in session_cookie(over_https)
    assert over_https.headers["Strict-Transport-Security"]
    # Without a proxy configured, X-Forwarded-Proto is anyone's to send: not believed.
    forged = client.post("/new", data=form, headers={"X-Forwarded-Proto": "https"})
    assert "; secure" not in session_cookie(forged)


@pytest.fixture
def behind_proxy(tmp_path, database_url):
    app = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": database_url(tmp_path),
            "WTF_CSRF_ENABLED": False,
            "PROXY_FIX": 1,
        }
    )
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def test_behind_a_proxy_the_forwarded_scheme_makes_the_cookie_secure(behind_proxy):
    client = behind_proxy.test_client()
    form = {"edition": "us-classic", "name0": "Ana", "name1": "Bea"}
    headers = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "bank.example"}
    created = client.post("/new", data=form, headers=headers)
    assert "; secure" in session_cookie(created)
    game_id = created.headers["Location"].split("/")[2]
    codes = client.get(f"/g/{game_id}/codes", headers=headers).text
    assert "https://bank.example/p/" in codes  # players' links name the public address


def test_the_home_page_lists_only_this_browser_s_games(client, app):
    mine = make_game(client, ("Ana", "Bea"))
    other = app.test_client()
    theirs = make_game(other, ("Zed", "Yul"))
    home = client.get("/").text
    assert f"/g/{mine}/" in home and f"/g/{theirs}/" not in home and "Zed" not in home
    stranger = app.test_client().get("/").text
    assert f"/g/{mine}/" not in stranger and f"/g/{theirs}/" not in stranger


def test_a_form_refused_for_its_referrer_says_why_in_the_log(tmp_path, database_url, caplog):
    """Behind a proxy that drops the port from the host (nginx's `$host` on port 8443), the
    CSRF check refuses every form for its Referer: the reader gets the 400 page, and the host
    reads why, with both addresses, in the log."""
    settings = {"TESTING": True, "SQLALCHEMY_DATABASE_URI": database_url(tmp_path)}
    app = create_app({**settings, "PROXY_FIX": 1})
    app.logger.addHandler(caplog.handler)  # the migrations' logging setup took it off the root
    client = app.test_client()
    headers = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "bank.example"}
    page = client.get("/new", headers=headers).text
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    form = {"csrf_token": token, "edition": "us-classic", "name0": "Ana", "name1": "Bea"}
    headers["Referer"] = "https://bank.example:8443/new"
    refused = client.post("/new", data=form, headers=headers)
    assert refused.status_code == 400 and "cannot read" in refused.text
    assert "The referrer does not match the host." in caplog.text
    assert "https://bank.example:8443/" in caplog.text and "https://bank.example/" in caplog.text
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(Game.id))) == 0
        db.session.remove()
        db.engine.dispose()
