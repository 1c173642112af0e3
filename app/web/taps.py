"""A tap that stays on the page: a form that the page's own script posts (static/app.js, with
the TAP header) is answered with the page its redirect leads to, in the same answer (one
round trip fewer), and the page merges it in place; without the script the same form posts
and is redirected as ever. The page a tap's answer draws takes the game as the action left it
(just committed) from the POST, instead of reading it again (`pass_on`, `passed_on`).
Either way the streams that the action woke draw once the acting request is answered
(bank.acting), so the banker's own page comes first."""

from __future__ import annotations

from io import BytesIO
from urllib.parse import urlsplit

from flask import request
from werkzeug.datastructures import Headers
from werkzeug.test import run_wsgi_app

from ..bank import ACTING
from ..models import Game, db
from .security import SessionOverHttps

TAP = "HTTP_X_TABLEBANK_TAP"  # X-Tablebank-Tap: 1, sent by static/app.js
PAGE = "X-Tablebank-Page"  # the address of the page the answer shows (for the page's history)
REDIRECTS = ("301", "302", "303", "307", "308")
FORGOTTEN = ("CONTENT_TYPE", "CONTENT_LENGTH", "HTTP_X_TABLEBANK_TAP", ACTING)
ACTED = "tablebank.acted"  # a tap's POST: the games its action left, for the page it leads to
HANDED = "tablebank.session"  # a tap's POST: its session, for the page it leads to (a list)


class StayOnPage:
    """WSGI middleware around the app (inside any proxy fix)."""

    def __init__(self, app) -> None:
        self.app = app

    def __call__(self, environ, start_response):
        environ.setdefault(ACTING, [])  # shared with the copy a tap's POST is run on
        try:
            if environ.get("REQUEST_METHOD") == "POST" and TAP in environ:
                return self.tap(environ, start_response)
            return self.app(environ, start_response)
        finally:
            answered(environ)

    def tap(self, environ, start_response):
        environ[ACTED] = {}  # shared with the POST's copy and with the page that follows it
        environ[HANDED] = []  # the same
        body, status, headers = run_wsgi_app(self.app, environ, buffered=True)
        target = where(status, headers, environ)
        if target is None:
            start_response(status, headers.to_wsgi_list())
            return body
        cookies = headers.getlist("Set-Cookie")
        followed = followed_environ(environ, *target, cookies)

        def start(status, more, exc_info=None):
            sent = Headers([("Set-Cookie", cookie) for cookie in cookies])
            sent.extend(more)
            sent[PAGE] = target[2]
            return start_response(status, sent.to_wsgi_list(), exc_info)

        answer = self.app(followed, start)
        answered(followed)
        return answer


def pass_on(game: Game) -> None:
    """The game as a tap's action just left it (committed, every column loaded), for the page
    the tap's answer draws; outside a tap, nothing."""
    acted = request.environ.get(ACTED)
    if acted is not None:
        acted[game.id] = game


def passed_on(game_id: str) -> Game | None:
    """The game the tap's action left, if this request draws the page it leads to: put in
    this request's session as it is (no read; what it has not loaded, it loads as ever)."""
    game = (request.environ.get(ACTED) or {}).pop(game_id, None)
    if game is not None:
        db.session.add(game)
    return game


class TapSessions(SessionOverHttps):
    """The signed cookie sessions (web/security.py), but a tap's POST whose answer is the
    page it leads to hands its session to that page's request as it is, instead of writing
    it into a cookie that the page's request reads back at once (signed, then checked): the
    page's request writes the cookie the answer carries (the session as both left it)."""

    def open_session(self, app, request):
        handed = request.environ.get(HANDED) if request.method == "GET" else None
        return handed.pop() if handed else super().open_session(app, request)

    def save_session(self, app, session, response) -> None:
        handed = request.environ.get(HANDED) if request.method == "POST" else None
        if handed == [] and where(response.status, response.headers, request.environ):
            handed.append(session)  # the tap follows its redirect (StayOnPage.tap)
            return
        super().save_session(app, session, response)


def answered(environ) -> None:
    """The request is answered: the streams waiting for it may draw."""
    acting = environ.get(ACTING) or []
    while acting:
        live, followed = acting.pop()
        live.done_acting(followed)


def where(status: str, headers: Headers, environ) -> tuple[str, str, str] | None:
    """A redirect to a page of this site: its path under the app, its query, its address."""
    if status[:3] not in REDIRECTS:
        return None
    location = urlsplit(headers.get("Location", ""))
    if location.netloc and location.netloc != environ.get("HTTP_HOST"):
        return None
    prefix = environ.get("SCRIPT_NAME", "")
    if not location.path.startswith(prefix + "/"):
        return None
    address = location.path + (f"?{location.query}" if location.query else "")
    return location.path[len(prefix) :], location.query, address


def followed_environ(environ, path: str, query: str, _address: str, cookies: list[str]) -> dict:
    """The GET the browser would send next: the same client, the cookies just set."""
    followed = {
        key: value
        for key, value in environ.items()
        if key not in FORGOTTEN and not key.startswith(("werkzeug.", "flask."))
    }
    kept = cookies_after(environ.get("HTTP_COOKIE", ""), cookies)
    followed.update(
        REQUEST_METHOD="GET",
        PATH_INFO=path,
        QUERY_STRING=query,
        HTTP_COOKIE=kept,
    )
    followed["wsgi.input"] = BytesIO()
    return followed


def cookies_after(sent: str, set_now: list[str]) -> str:
    """The Cookie header a browser sends after these Set-Cookie headers (values kept as
    they were written; a cookie given max-age 0 or a past date is gone)."""
    jar = {}
    for pair in sent.split(";"):
        name, _, value = pair.strip().partition("=")
        if name:
            jar[name] = value
    for header in set_now:
        pair, _, attributes = header.partition(";")
        name, _, value = pair.strip().partition("=")
        attributes = attributes.lower().replace(" ", "")
        if "max-age=0" in attributes or "expires=thu,01jan1970" in attributes:
            jar.pop(name, None)
        elif name:
            jar[name] = value
    return "; ".join(f"{name}={value}" for name, value in jar.items())
