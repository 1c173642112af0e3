"""What every blueprint's pages share: the game of the request (or of a player's or the table's
link), an action offered as a button (previewed by the rules core: its sentence, or why not),
the page drawn with the game's view, and the fields an action's form posts."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import wraps
from urllib.parse import parse_qsl, urlencode, urlsplit

from flask import abort, g, render_template, request, url_for
from flask_babel import gettext as _
from sqlalchemy import select
from sqlalchemy.orm import joinedload

from .. import bank, stream_homes
from ..inputs import parse_json
from ..models import Game, Player, db
from ..rules import KINDS, UNDO, RuleError
from ..rules.endgame import closed
from .args import whole
from .colours import marks
from .present import deeds_at, game_view
from .words import refused, said

FORM_META = ("csrf_token", "kind", "key", "version", "back")


@dataclass
class Option:
    """One action a page offers: what it is, and the sentence its preview gives (or why not)."""

    kind: str
    payload: dict
    text: str = ""
    error: str = ""
    style: str = "primary"
    label: str = ""
    rule: str = ""  # the rule that refused it
    figures: dict | None = None  # a refusal's figures (K1: owed, cash, raisable)
    movements: list = field(default_factory=list)  # the money the preview moved

    def net(self, seat: int) -> int:
        """What the action does to one player's cash (0 when refused)."""
        return net_of(self.movements, seat)


def net_of(movements: list, seat: int) -> int:
    """What money movements do to one player's cash."""
    gained = sum(m.amount for m in movements if m.payee == seat)
    return gained - sum(m.amount for m in movements if m.payer == seat)


def previewed(game: Game, kind: str, payload: dict, label: str = "", style: str = "primary"):
    """The action previewed by the rules core: its sentence (or `label`, a shorter name for
    it), or, when the core refuses it, the refusal in words with the button disabled."""
    payload = {k: v for k, v in payload.items() if v is not None and v is not False}
    try:
        outcome = bank.preview(game, kind, payload)
    except RuleError as refusal:
        declared = KINDS.get(kind)
        fallback = label or (_(declared.label) if declared else kind)
        return Option(
            kind, payload, fallback, refused(refusal), style, "", refusal.rule, refusal.params
        )
    text = label or said(outcome.lines, bank.edition_of(game), outcome.text, kind == UNDO)
    return Option(kind, payload, text, style=style, movements=outcome.movements)


def load(game_id: str) -> Game:
    """The request's game, as the banker check loaded it (or found now)."""
    game = g.get("game")
    if game is not None and game.id == game_id:
        return game
    try:
        return bank.find(game_id)
    except bank.NotFound:
        abort(404)


def player_by_token(token: str) -> Player:
    """The seat a player's private link opens (404: no such link, or a replaced one)."""
    query = select(Player).where(Player.token == token).options(joinedload(Player.game))
    found = db.session.scalars(query).one_or_none()
    if found is None:
        abort(404)
    stream_homes.noted(token, found.game_id)  # under gunicorn, its next requests go home
    return found


def game_by_table_token(token: str) -> Game:
    """The game a table screen's link opens (404: no such link)."""
    found = db.session.scalars(select(Game).where(Game.table_token == token)).one_or_none()
    if found is None:
        abort(404)
    return found


def game_over(game: Game) -> str | None:
    """Why nothing can be done in the game any more, in the rules core's words (K4, SG3, TL1,
    the banker's word), or None while it is played. A time-limited game whose end has come is
    ended first, by the clock, as the dashboard does (TL1)."""
    bank.end_if_time_is_up(game)
    refusal = closed(bank.state_of(game))
    return None if refusal is None else refused(refusal)


def action_page(view):
    """A banker's page for doing something (a form to fill, an action to confirm), opened on a
    finished game (a typed address, a bookmark, Back): it says once that the game has ended,
    with the way to the results, instead of its forms (`page` and base.html). Its own checks
    of the address run as before (no such seat: 404)."""

    @wraps(view)
    def drawn(game_id: str, **kwargs):
        g.game_over = game_over(load(game_id))
        return view(game_id, **kwargs)

    return drawn


def stale_tap(game_id: str, kind: str, back: str, token: str | None = None):
    """The answer to a tap drawn for an earlier moment (Back, another phone acted): nothing
    was done. A throw's says the turn was taken; anything else's, that the game moved on."""
    moved = kind != "roll"
    return page("turn_taken.html", bank.find(game_id), back=back, token=token, moved=moved), 409


def confirming(template: str, game: Game, back: str, **context):
    """A page that says what an action will do before it does it, pinned to the game's version
    (static/app.js puts it in the address as `v`): opened again at that address once the game
    has moved on (Back after its tap, then a second tap, would do it twice), it says so instead,
    with the way back and the way to open it afresh. `back`: the game as it is now."""
    pinned = whole(request.args.get("v"))
    if pinned is not None and pinned != game.version:
        query = urlencode([(k, v) for k, v in request.args.items(multi=True) if k != "v"])
        again = request.path + (f"?{query}" if query else "")
        token = context.get("token")
        return page("turn_taken.html", game, back=back, again=again, token=token), 409
    return page(template, game, pin=game.version, **context)


def page(template: str, game: Game | None = None, **context):
    if game is not None:
        view = game_view(game)
        context.update(game=game, view=view, deed_at=deeds_at(game), edition=bank.edition_of(game))
        context.setdefault("winners", view["winners"])
        context.setdefault("game_over", g.get("game_over"))  # an action page's (action_page)
        mark_players(view)
    return render_template(template, **context)


def mark_players(view: dict) -> None:
    """The players' token letters, for what is drawn next (filters.mark)."""
    g.marks = marks([p["name"] for p in view["players"]])


def payload_from_form() -> dict:
    """The action's fields: one JSON field from the pages' buttons, or plain form fields."""
    if "payload" in request.form:
        try:
            payload = parse_json(request.form["payload"])
        except RuleError:
            payload = None
        if not isinstance(payload, dict):
            raise RuleError("input", "The form was damaged: reload the page and try again")
        return payload
    return {k: v for k, v in request.form.items() if k not in FORM_META}


def expected_version() -> int | None:
    return whole(request.form.get("version"))


def back_to(game_id: str) -> str:
    """Where a refused action returns: the page its form came from (the form says, see
    _macros.html), if that is a page of this game on this site; else the dashboard. Never
    the Referer, which another site may set."""
    back = request.form.get("back", "")
    parts = urlsplit(back)
    inside = f"/g/{game_id}/"
    if (
        back.startswith(inside)
        and not (parts.scheme or parts.netloc)
        and "\\" not in back
        and len(back) < 500
    ):
        query = urlencode([(k, v) for k, v in parse_qsl(parts.query) if k != "fragment"])
        return parts.path + (f"?{query}" if query else "")  # the whole page, not its live part
    return url_for("banker.dashboard", game_id=game_id)
