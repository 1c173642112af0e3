"""The pages' forms and query strings fuzzed (hypothesis): any fields, any values, nasty text
among them (lone surrogates sent as the UTF-8 bytes a broken client would send, NUL, other
controls, noncharacters, huge combining runs, very long text), on every form route and every
page that reads its query string, as the banker and from a player's phone. Never a server
error; a refused post changes nothing; whatever is taken, the game's pages still draw."""

from __future__ import annotations

import os
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tablebank.models import Game, db
from tablebank.rules import KINDS

from ..support import examples

FIELDS = sorted({name for kind in KINDS.values() for name in kind.fields})
FORM_FIELDS = [*FIELDS, "payload", "key", "version", "back", "typed", "lang", "name0", "name1"]
FORM_FIELDS += ["edition", "starting_cash", "mode", "ends_at", "time_zone", "colour1", "fragment"]
NASTY = [
    "", "0", "1", "-1", "7", "39", "99", "1e3", "12.5", "NaN", "Infinity", "²", "٣", "true",
    "9" * 5000, "[" * 2000, '{"player": 0}', "\x00", "a,b", "1,1,1", "<script>", "%s",
]  # fmt: skip
# Text no field may hold, as a client could send it (a surrogate as its three UTF-8 bytes).
BAD_TEXT = [
    "\ud800", "a\udfffb", "\x00", "B\x00b", "\x1b[31m", "\x7f", "\x85", "\uffff", "\ufffe",
    "\ufdd0", "\U0001ffff", "\U0010fffe", "e" + "\u0301" * 9, "e" + "\u0301" * 3000, "x" * 5000,
]  # fmt: skip
# One of each kind of text no field may hold, for the sweeps that put it in every field.
EACH_KIND = ["\ud800", "\x00", "\x1b[31m", "\ufffe", "e" + "\u0301" * 3000, "x" * 5000]
# Text that is fine, however unusual: taken, stored in NFC, shown.
ODD_TEXT = ["Zoë", "Zoe\u0308", "\u202eevil", "🎲", "さくら", "a\tb", "a\r\nb", "\u00a0", "ǅ"]
ANY_CODE_POINT = st.characters(exclude_categories=())  # surrogates included
VALUES = st.one_of(
    st.sampled_from(NASTY + BAD_TEXT + ODD_TEXT),
    st.text(ANY_CODE_POINT, max_size=40),
    st.integers().map(str),
    st.builds(lambda base, n: base + "\u0301" * n, st.sampled_from("ae€"), st.integers(1, 600)),
)
FORMS = st.dictionaries(
    st.one_of(st.sampled_from(FORM_FIELDS), st.text(ANY_CODE_POINT, max_size=8)),
    VALUES,
    max_size=6,
)
KIND = st.one_of(st.sampled_from(sorted(KINDS)), st.text(ANY_CODE_POINT, max_size=10))
POSTS = ["banker", "player", "pay", "quick", "new", "new_link"]
PAGES = [
    "/g/{game}/", "/g/{game}/turn", "/g/{game}/end", "/g/{game}/history", "/g/{game}/player/0",
    "/g/{game}/pick/buy", "/g/{game}/land/0", "/g/{game}/land/0/39", "/g/{game}/money",
    "/g/{game}/transfer", "/g/{game}/undo", "/g/{game}/auction", "/g/{game}/bankrupt",
    "/g/{game}/deal", "/g/{game}/results", "/g/{game}/build", "/g/{game}/mortgages",
    "/g/{game}/trade", "/g/{game}/codes", "/p/{token}", "/p/{token}/history", "/p/{token}/turn",
    "/p/{token}/preview", "/p/{token}/deeds", "/p/{token}/trade", "/t/{table}", "/new", "/",
]  # fmt: skip


def encoded(fields: dict) -> bytes:
    """A form body as a client sends it: UTF-8, percent-escaped; a lone surrogate as the
    three bytes UTF-8 would give it (what a broken client sends)."""

    def escape(text: str) -> str:
        return quote(text.encode("utf-8", "surrogatepass"), safe="")

    return "&".join(f"{escape(k)}={escape(v)}" for k, v in fields.items()).encode()


@pytest.fixture
def played(app):
    """A game three have played a little on the banker's client: the client, the game, a
    player's token and the table screen's."""
    client = app.test_client()
    form = {"edition": "us-classic", "name0": "Ana", "name1": "Bea", "name2": "Cal"}
    game_id = client.post("/new", data=form).headers["Location"].split("/")[2]
    client.post(f"/g/{game_id}/do", data={"kind": "bank_pay", "player": "0", "amount": "5"})
    with app.app_context():
        game = db.session.get(Game, game_id)
        token, table_token = game.players[1].token, game.table_token
        db.session.remove()
    return client, game_id, token, table_token


def state_of(app, game_id):
    with app.app_context():
        game = db.session.get(Game, game_id)
        found = (game.version, game.state, [p.token for p in game.players])
        db.session.remove()
    return found


def said_why(response) -> bool:
    """A refusal is a page with words: the error page's title, or the form's red message."""
    return 'id="problem"' in response.text or 'class="flash error"' in response.text


def pages_still_draw(app, client, game_id) -> None:
    token = state_of(app, game_id)[2][1]  # a post may have renewed the player's link
    for url in (f"/g/{game_id}/", f"/g/{game_id}/history", f"/p/{token}"):
        assert client.get(url).status_code == 200, url


SETTINGS = settings(
    max_examples=int(os.environ.get("FUZZ_EXAMPLES") or examples(25, 2000)),
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


# What each form route takes when nothing is wrong: a sweep puts a nasty text in one field.
BASES = {
    "banker": {"kind": "bank_pay", "player": "0", "amount": "5"},
    "player": {"kind": "transfer", "from": "1", "to": "0", "amount": "1"},
    "pay": {"to": "0", "amount": "1"},
    "quick": {"to": "1", "amount": "5"},
    "new": {"edition": "us-classic", "name0": "Ana", "name1": "Bea"},
    "new_link": {},
}


def a_post_is_no_server_error(app, played, route, fields, seat=0) -> None:
    client, game_id, token, _ = played
    before = state_of(app, game_id)
    url = {
        "banker": f"/g/{game_id}/do",
        "player": f"/p/{token}/do",
        "pay": f"/p/{token}/pay",
        "quick": f"/g/{game_id}/quick/{max(seat, 0)}",
        "new": "/new",
        "new_link": f"/g/{game_id}/codes/{max(seat, 0)}/new",
    }[route]
    said = (url, {k: ascii(v)[:40] for k, v in fields.items()})
    body = encoded(fields)
    response = client.post(url, data=body, content_type="application/x-www-form-urlencoded")
    assert response.status_code < 500, said
    if response.status_code >= 400:
        assert state_of(app, game_id) == before, said
        assert said_why(response), said
    if response.status_code == 302:  # the page it lands on is no error either
        landed = client.get(response.headers["Location"])
        assert landed.status_code < 500, said


def test_every_field_of_a_form_gets_every_nasty_text(app, played):
    """Each field, with each kind of text no field may hold (a lone surrogate, NUL, a
    control, a noncharacter, a huge combining run, a long text), in a form otherwise as a
    route takes it (the routes in turn): never a server error, a refusal in words changes
    nothing, the pages still draw."""
    client, game_id, _, _ = played
    for n, field in enumerate(FORM_FIELDS):
        for m, value in enumerate(EACH_KIND):
            route = POSTS[(n + m) % len(POSTS)]
            a_post_is_no_server_error(app, played, route, {**BASES[route], field: value})
        pages_still_draw(app, client, game_id)


@given(route=st.sampled_from(POSTS), kind=KIND, fields=FORMS, seat=st.integers(-2, 9))
@SETTINGS
def test_no_form_post_is_a_server_error(app, played, route, kind, fields, seat):
    a_post_is_no_server_error(app, played, route, {**fields, "kind": kind}, seat)
    pages_still_draw(app, played[0], played[1])


def a_page_is_no_server_error(app, played, page, fields) -> None:
    client, game_id, token, table_token = played
    url = page.format(game=game_id, token=token, table=table_token)
    said = (url, {k: ascii(v)[:40] for k, v in fields.items()})
    before = state_of(app, game_id)
    response = client.get(f"{url}?{encoded(fields).decode()}")
    assert response.status_code < 500, said
    if response.status_code >= 400:
        assert said_why(response), said
    assert state_of(app, game_id) == before, said  # a page only reads


def test_every_page_reads_every_nasty_text_in_every_field(app, played):
    """Every field of a query string holds one kind of nasty text at once (a combining run
    of 300 marks: forty fields of 3,000 would be a 700 kB address, which no server reads)."""
    for page in PAGES:
        for value in [*EACH_KIND[:4], "e" + "\u0301" * 300, "x" * 5000]:
            a_page_is_no_server_error(app, played, page, dict.fromkeys(FORM_FIELDS, value))


@given(page=st.sampled_from(PAGES), fields=FORMS)
@SETTINGS
def test_no_query_string_is_a_server_error(app, played, page, fields):
    a_page_is_no_server_error(app, played, page, fields)
