"""Who may act on a game: its banker (a secret made with the game), or a player's own token.

The banker's secret reaches a device in one of two ways: the device that created the game
keeps it in its signed session cookie; another device opens the banker link once
(`/g/<id>/?key=...`, pages only: the link drops the key from the address at once). The API
takes it only in the `X-Banker-Key` header, never in the URL, where it would end up in access
logs. Secrets are compared in constant time.

The session remembers, per game, a short fingerprint of the key it was given: when the banker
makes a new key (the codes page), every other device and the old banker link stop working.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from urllib.parse import urlencode

from flask import Blueprint, abort, current_app, flash, g, redirect, request, session, url_for
from flask_babel import gettext

from .. import bank
from ..live import announce_keys, watcher
from ..models import Game, db
from ..serving import is_api
from .taps import passed_on

SESSION_KEY = "bankers"  # {game id: fingerprint of the banker key this device was given}
OLD_SESSION_KEY = "banker_of"  # before fingerprints: a list of game ids
ORIGINAL_KEY_LENGTH = 22  # models.new_token(); a rotated key is longer (new_banker_key)
HEADER = "X-Banker-Key"
ACTING = ("banker.do", "banker.quick", "api.act")  # the requests that go through bank.perform
REMEMBERED = 40  # games a browser remembers being the banker of (the cookie stays small)

bp = Blueprint("keys", __name__)


def fingerprint(game: Game) -> str:
    return hashlib.blake2b(game.banker_key.encode(), digest_size=6).hexdigest()


def remember_banker(game: Game) -> None:
    held = {k: v for k, v in session.get(SESSION_KEY, {}).items() if k != game.id}
    held = dict(list(held.items())[-(REMEMBERED - 1) :])
    held[game.id] = fingerprint(game)
    session[SESSION_KEY] = held
    session.permanent = True


def banker_games() -> list[str]:
    """The games this browser is the banker of, as far as its cookie says (newest last)."""
    held = session.get(SESSION_KEY, {})
    old = session.get(OLD_SESSION_KEY, [])
    return [*[g for g in old if g not in held], *held]


def key_changed(game: Game) -> bool:
    """This browser was the game's banker, with a key that has been replaced since."""
    held = session.get(SESSION_KEY, {})
    return isinstance(held, dict) and held.get(game.id, fingerprint(game)) != fingerprint(game)


def offered_key() -> str:
    header = request.headers.get(HEADER)
    if header or is_api(request.path):
        return header or ""
    return request.args.get("key") or ""


def is_banker(game: Game) -> bool:
    held = session.get(SESSION_KEY, {})
    if isinstance(held, dict) and hmac.compare_digest(held.get(game.id, ""), fingerprint(game)):
        return True
    if game.id in session.get(OLD_SESSION_KEY, []) and len(game.banker_key) == ORIGINAL_KEY_LENGTH:
        return True  # a device remembered before fingerprints, and the key was never changed
    key = offered_key()
    return bool(key) and hmac.compare_digest(key.encode(), game.banker_key.encode())


def require_banker():
    """before_request for the banker's blueprints: a 403 unless this device holds the secret."""
    game_id = (request.view_args or {}).get("game_id")
    if game_id is None:
        return None
    game = passed_on(game_id) or read_for(game_id)
    if game is None:
        abort(404, gettext("There is no such game here"))
    g.game = game  # loaded once: the view takes it from here (banker.load)
    if not is_banker(game):
        bank.unlock()  # a lock read_for took goes at once, not after the error page
        if key_changed(game) and not is_api(request.path):
            from .errors import error_page_for

            changed = gettext(
                "This phone was the banker's, but the banker key was changed on another "
                "phone: ask the banker for the new banker link."
            )
            return error_page_for(403, changed)
        if is_api(request.path):
            abort(403, gettext("This game needs its banker key, in the X-Banker-Key header"))
        abort(403, gettext("This page is the banker's: open the banker link on this phone."))
    if request.args.get("key") and request.method == "GET" and not is_api(request.path):
        remember_banker(game)  # the banker link: remember this device, drop the key from the URL
        args = urlencode([(k, v) for k, v in request.args.items(multi=True) if k != "key"])
        return redirect(request.base_url + (f"?{args}" if args else ""))
    return None


def read_for(game_id: str) -> Game | None:
    """The game, for the banker check. A request that acts on it (it holds the game's writer
    turn: app/writers.py) and says it is the banker's reads it under the lock its action
    takes, once for both; a request that says nothing of the kind takes no lock."""
    if request.endpoint in ACTING and g.get("turn_of") == game_id and claims_banker(game_id):
        return bank.locked(game_id)
    return db.session.get(Game, game_id)


def claims_banker(game_id: str) -> bool:
    """This request says it is the game's banker (its session names the game, or it offers a
    key), whether or not that holds (is_banker)."""
    held = session.get(SESSION_KEY, {})
    named = isinstance(held, dict) and game_id in held
    return named or game_id in session.get(OLD_SESSION_KEY, []) or bool(offered_key())


def new_banker_key() -> str:
    return secrets.token_urlsafe(18)  # 144 random bits; longer than an original key


@bp.get("/g/<game_id>/codes/banker-key")
def rotate_confirm(game_id: str):
    """Asked first, as a lost player's phone is: a new key locks every other banker out."""
    from .pages import page

    return page("new_key.html", g.game)


@bp.post("/g/<game_id>/codes/banker-key")
def rotate(game_id: str):
    """A new banker key: the old banker link and every other banker device stop working;
    this device stays the banker."""
    game = g.game
    game.banker_key = new_banker_key()
    announce_keys(db.session, game.id)  # the old key's open pages, in every process
    db.session.commit()
    watcher(current_app._get_current_object()).revoke(game.id)
    session.pop(OLD_SESSION_KEY, None)
    remember_banker(game)
    flash(gettext("New banker key: the old banker link and other banker phones no longer work"))
    return redirect(url_for("codes.codes", game_id=game_id))
