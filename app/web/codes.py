"""The banker's links and QR codes: each player's private link, the table screen's, the banker's
own way back in, and a new link for a lost phone."""

from __future__ import annotations

from functools import lru_cache

from flask import Blueprint, abort, current_app, flash, redirect, request, url_for
from flask_babel import gettext as _
from markupsafe import Markup

from .. import bank
from ..live import announce_keys, watcher
from ..models import Game, Player, db, new_token
from .pages import game_over, load, page, previewed

bp = Blueprint("codes", __name__)
QR_KEPT = 1024  # codes kept per process (10 a game), about 5 kB each


@lru_cache(maxsize=QR_KEPT)
def qr_svg(url: str) -> Markup:
    """The link's QR code as inline SVG, drawn once per link and process: a new link (a lost
    phone, a new banker key) is a new address, drawn anew; the old one ages out."""
    import qrcode.image.svg  # here: a start (and its first answer) does without it, 13 ms

    image = qrcode.make(url, image_factory=qrcode.image.svg.SvgPathImage, border=2)
    return Markup(image.to_string(encoding="unicode"))


def links(game: Game) -> list[dict]:
    state = bank.state_of(game)
    rows = []
    for player in game.players:
        url = url_for("phone.player_page", token=player.token, _external=True)
        rows.append({"player": state.players[player.seat], "url": url, "qr": qr_svg(url)})
    return rows


def banker_link(game: Game) -> str:
    """The banker's way back in: opening it on any phone makes that phone the banker's."""
    return url_for("banker.dashboard", game_id=game.id, key=game.banker_key, _external=True)


@bp.get("/g/<game_id>/codes")
def codes(game_id: str):
    game = load(game_id)
    table_url = url_for("table.screen", token=game.table_token, _external=True)
    printable = request.args.get("print") == "1"
    return page(
        "codes.html",
        game,
        rows=links(game),
        table_url=table_url,
        table_qr=qr_svg(table_url),
        banker_url=banker_link(game),
        banker_qr=qr_svg(banker_link(game)),
        printable=printable,
        ended=game_over(game),  # the links stay (the phones show the results); no switch
        **phone_turns_switch(game),
    )


def phone_turns_switch(game: Game) -> dict:
    """R1: who takes the turns now, and the button that changes it, saying what it will do
    (the core's sentence for it, "Only the banker takes turns", reads like the state)."""
    if state_turns(game):
        now = _("Players take their own turns on their phones")
        label = _("Let only the banker take turns")
    else:
        now = _("Only the banker takes turns")
        label = _("Let players take their own turns on their phones")
    switch = previewed(game, "phone_turns", {"allow": not state_turns(game)}, label, "secondary")
    return {"phone_turns_now": now, "phone_turns": switch}


@bp.app_template_global()
def banker_recovery(game: Game) -> dict:
    """The banker link and its QR, shown once when a game starts (to print or screenshot)."""
    link = banker_link(game)
    return {"url": link, "qr": qr_svg(link)}


def seat_player(game: Game, seat: int) -> Player:
    player = next((p for p in game.players if p.seat == seat), None)
    if player is None:
        abort(404)
    return player


@bp.get("/g/<game_id>/codes/<int:seat>/new")
def new_link_confirm(game_id: str, seat: int):
    """A lost phone, asked first: one mis-tap must not cut a player off."""
    game = load(game_id)
    seat_player(game, seat)
    return page("new_link.html", game, who=bank.state_of(game).players[seat])


def state_turns(game: Game) -> bool:
    return bank.state_of(game).settings.phone_turns


@bp.post("/g/<game_id>/codes/<int:seat>/new")
def new_link(game_id: str, seat: int):
    """A lost phone: a new token for the player; the old link stops working at once."""
    game = load(game_id)
    player = seat_player(game, seat)
    player.token = new_token()
    announce_keys(db.session, game_id)  # the old link's open pages, in every process
    db.session.commit()
    watcher(current_app._get_current_object()).revoke(game_id)
    name = bank.state_of(game).players[seat].name
    flash(_("New link for %(player)s: the old one no longer works", player=name))
    return redirect(url_for("codes.codes", game_id=game_id) + f"#seat{seat}")
