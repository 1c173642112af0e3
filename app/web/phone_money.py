"""A player taking back their own last payment from their phone, for a minute (issue 22).

No new rule: it is the log's own `undo`, allowed from a phone only while the action it would
take back is that phone's own payment (a transfer or a payment to the bank), is still the
latest action in force, and is less than a minute old. The clock is the web's business (the
rules core has none); the version the button was drawn for makes sure that nothing happened
in between, so it never takes back anyone else's action.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from flask import Blueprint, flash, redirect, request, url_for
from flask_babel import gettext as _

from .. import bank
from ..models import Game
from ..rules import UNDO, RuleError
from .filters import as_utc
from .pages import Option, expected_version, player_by_token
from .present import row_said, undo_target
from .words import refused, said

bp = Blueprint("phone_money", __name__, url_prefix="/p/<token>")

TAKE_BACK = timedelta(minutes=1)
PAYMENTS = ("transfer", "bank_collect")


def own_last_payment(game: Game, seat: int, now: datetime | None = None):
    """The seat's own payment that it may still take back, or None."""
    target = undo_target(game)
    if target is None or target.kind not in PAYMENTS or target.actor != f"player:{seat}":
        return None
    now = now or datetime.now(UTC)
    return target if now - as_utc(target.created_at) <= TAKE_BACK else None


def take_back_offer(game: Game, seat: int) -> Option | None:
    """The button on the player's page: "Take back: Ana pays Bea $50", for a minute."""
    target = own_last_payment(game, seat)
    if target is None:
        return None
    text = _("Take back: %(what)s", what=row_said(target, bank.edition_of(game)))
    return Option(UNDO, {}, text, style="secondary")


@bp.post("/take-back")
def take_back(token: str):
    player = player_by_token(token)
    game = player.game
    try:
        # A form drawn before the game moved on goes to the bank, which knows its key (a
        # take-back sent twice: "Already done") or refuses it as drawn for an earlier moment.
        if own_last_payment(game, player.seat) is None and expected_version() in (
            None,
            game.version,
        ):
            raise RuleError(
                "input",
                "Only your own last payment can be taken back, within a minute, before anything"
                " else happens",
            )
        done = bank.perform(
            game.id,
            UNDO,
            {},
            actor=f"player:{player.seat}",
            key=request.form.get("key") or None,
            expected_version=expected_version(),
        )
        flash(done_words(done, undo=True), "done")
    except RuleError as refusal:
        flash(refused(refusal), "error")
    return redirect(url_for("phone.player_page", token=token))


def done_words(done, undo: bool = False) -> str:
    """The green message of a phone's action: what was done, or that it was already done (a
    form sent again with its key: a double tap, Back to the page and tap)."""
    text = said(done.action.lines, bank.edition_of(done.game), done.action.text, undo)
    return _("Already done: %(what)s", what=text) if done.repeated else text


@bp.app_template_global()
def take_back_of(game: Game, seat: int) -> Option | None:
    return take_back_offer(game, seat)
