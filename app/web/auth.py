"""Who may act on a game: its banker (a secret made with the game), or a player's own token.

The banker's secret reaches a device in one of two ways: the device that created the game
keeps it in its signed session cookie; another device opens the banker link once
(`/g/<id>/?key=...`) or sends the `X-Banker-Key` header (API). Secrets are compared in
constant time.
"""

from __future__ import annotations

import hmac
from urllib.parse import urlencode

from flask import abort, g, redirect, request, session
from flask_babel import gettext

from ..models import Game, db

SESSION_KEY = "banker_of"
HEADER = "X-Banker-Key"


def remember_banker(game: Game) -> None:
    games = [g for g in session.get(SESSION_KEY, []) if g != game.id][-49:]
    session[SESSION_KEY] = [*games, game.id]
    session.permanent = True


def offered_key() -> str:
    return request.headers.get(HEADER) or request.args.get("key") or ""


def is_banker(game: Game) -> bool:
    if game.id in session.get(SESSION_KEY, []):
        return True
    key = offered_key()
    return bool(key) and hmac.compare_digest(key.encode(), game.banker_key.encode())


def require_banker():
    """before_request for the banker's blueprints: a 403 unless this device holds the secret."""
    game_id = (request.view_args or {}).get("game_id")
    if game_id is None:
        return None
    game = db.session.get(Game, game_id)
    if game is None:
        abort(404)
    g.game = game  # loaded once: the view takes it from here (banker.load)
    if not is_banker(game):
        abort(403, gettext("This page is the banker's: open the banker link on this phone."))
    if request.args.get("key") and request.method == "GET":
        remember_banker(game)  # the banker link: remember this device, drop the key from the URL
        args = urlencode([(k, v) for k, v in request.args.items(multi=True) if k != "key"])
        return redirect(request.base_url + (f"?{args}" if args else ""))
    return None
