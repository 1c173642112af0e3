"""A player's own deeds from their phone, while phones take their own turns (R1): mortgage and
lift each deed, build on a whole group, put a trade to another player. Every button is the
rules core's preview, posted through the phone's own door (phone.player_do)."""

from __future__ import annotations

from flask import Blueprint, abort, request

from .. import bank
from ..rules.property import lift_cost, whole_groups
from .pages import game_over, page, player_by_token, previewed
from .phone import own_field
from .property import group_options, parties_checked, trade_payload

bp = Blueprint("phone_deeds", __name__, url_prefix="/p/<token>")


def own_player(token: str):
    """The phone's player, when their phone may manage their deeds (phone turns on)."""
    player = player_by_token(token)
    if own_field(player.game, "mortgage") is None:
        abort(403)
    return player


@bp.get("/deeds")
def deeds(token: str):
    """M1, M3: each deed's mortgage or lift; B1: presets for each group held whole."""
    player = own_player(token)
    game, seat = player.game, player.seat
    over = game_over(game)  # said once, not under every deed (a timed game's end comes first)
    state, edition = bank.state_of(game), bank.edition_of(game)
    rows = []
    for index in state.held_by(seat):
        kind = "lift" if state.deeds[index].mortgaged else "mortgage"
        rows.append((edition.spaces[index], previewed(game, kind, {"player": seat, "deed": index})))
    groups = [
        (group, group_options(game, state, seat, group))
        for group in whole_groups(state, edition, seat)
    ]
    context = dict(token=token, seat=seat, rows=rows, groups=groups, over=over)
    return page("phone_deeds.html", game, **context)


@bp.get("/trade")
def trade(token: str):
    """X1-X3: a trade put to another player's phone: their answer decides (trade_offer)."""
    player = own_player(token)
    game, seat = player.game, player.seat
    over = game_over(game)  # K4, SG3, TL1 (its time come first): said once, no form to fill
    state = bank.state_of(game)
    args = request.args.to_dict(flat=False)
    args["player"] = [str(seat)]
    payload, refusal = parties_checked(game, trade_payload(state, args))
    if over:
        payload, refusal = None, over
    option = None
    if payload:
        asked = payload["give"]["deeds"] or payload["take"]["deeds"] or "cash" in request.args
        if asked:
            option = previewed(game, "trade_offer", payload)
    return page(
        "phone_trade.html",
        game,
        token=token,
        seat=seat,
        args=request.args,
        payload=payload,
        refusal=refusal,
        over=over is not None,
        option=option,
        lift_cost=lift_cost,
    )
