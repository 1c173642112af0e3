"""A player's own phone (/p/<token>): their page, their history, their throw and what they send
from it, for their own seat only."""

from __future__ import annotations

import hashlib
from functools import lru_cache, partial

from flask import Blueprint, abort, flash, redirect, request, url_for
from flask_babel import gettext as _
from markupsafe import Markup, escape

from .. import bank
from ..i18n import locale_name
from ..models import Game, Player
from ..rules import KINDS, RuleError, rent_due
from ..rules.actions import TURNS, sent_by_own_phone
from ..rules.auctions import lot_fields
from ..rules.debts import debtors
from ..rules.state import DEAL, GameState
from ..rules.turn import whose_turn
from ..snapshots import worked_out
from . import fills, shared, turns
from .args import arg, whole
from .filters import news, request_zone
from .pages import (
    confirming,
    expected_version,
    game_over,
    page,
    payload_from_form,
    player_by_token,
    previewed,
    stale_tap,
)
from .phone_money import done_words, take_back_offer
from .present import (
    everyone_sees,
    game_view,
    history_page,
    own_history,
    standings,
    waits_of,
)
from .words import refused, said

bp = Blueprint("phone", __name__)

OWN_HISTORY = 20  # the latest actions a player's page shows; the rest a page at a time
FILLED = ("rank_said", "worth")  # of own_context: put in at each version


def offers_to(game: Game, state, seat: int) -> list[tuple]:
    """Trades offered to this player: what accepting does, what accepting and lifting the
    mortgaged deeds received does at once (M4; None if none is mortgaged), and the way to
    say no."""
    found = []
    for pending in state.offers:
        if pending.offered_to(seat):
            who = {"player": seat, "offer": pending.id}
            mortgaged = [i for i in pending.received() if state.deeds[i].mortgaged]
            lift = {**who, "lift": mortgaged}
            lifting = mortgaged and previewed(game, "trade_accept", lift, style="secondary")
            decline = previewed(game, "trade_decline", who, style="danger")
            found.append((previewed(game, "trade_accept", who), lifting or None, decline))
    return found


def offers_from(game: Game, state, seat: int) -> list[tuple]:
    """Trades this player offered that wait for an answer: the partner, the deal as
    accepting would make it, and the way to withdraw it (X1: either side may say no)."""
    found = []
    for pending in state.offers:
        if pending.offered_by(seat):
            partner = state.players[int(pending.trade["partner"])]
            deal = previewed(game, "trade_accept", {"player": partner.seat, "offer": pending.id})
            withdraw = previewed(
                game, "trade_decline", {"player": seat, "offer": pending.id}, style="danger"
            )
            found.append((partner, deal, withdraw))
    return found


def own_field(game: Game, kind: str) -> str | None:
    """The field a phone's own seat goes in, for a kind a phone may send now: always (pay,
    bid, answer a trade, pay a debt), or while phones take their own turns (R1)."""
    declared = KINDS.get(kind)
    if declared is None or declared.phone is None:
        return None
    if declared.phone == TURNS and not bank.state_of(game).settings.phone_turns:
        return None
    return declared.own_seat


def phone_panels(game: Game, seat: int) -> list:
    """What waits for this seat, with only the answers its phone may send (a bid for
    anyone; with phone turns, its throw, its choices, its bankruptcy)."""
    found = []
    for panel in turns.panels(game, seat):
        panel.options = [o for o in panel.options if own_field(game, o.kind)]
        panel.cards = [c for c in panel.cards if own_field(game, c.option.kind)]
        panel.pad = panel.pad and own_field(game, "roll") is not None
        if panel.options or panel.cards or panel.pad or panel.what == "debt":
            found.append(panel)
    return found


@bp.get("/p/<token>")
def player_page(token: str):
    player = player_by_token(token)
    game, seat = player.game, player.seat
    bank.end_if_time_is_up(game)
    if request.args.get("fragment"):
        return shared.fetched(*live_part(game, seat, token))
    return page("phone.html", game, token=token, seat=seat, live=live_part(game, seat, token))


def live_part(game: Game, seat: int, token: str) -> tuple[int, Markup]:
    """The player's live part and the version it shows, drawn once per version and reader
    in this process for their page (a tap's answer from their phone, a fetch) and its live
    stream alike."""
    key = (game.id, live_name(token), *shared.reader())
    return shared.for_page(
        key,
        game.version,
        lambda: player_part(game, seat, token),
        url_for("phone.player_page", token=token),
        signature=lambda: player_signature(game, seat),
        fills=lambda: player_fills(game, seat),
    )


def live_name(token: str) -> str:
    """The name of a player's live part, for their pages and their streams (shared.py)."""
    return f"player {token}"


def player_part(game: Game, seat: int, token: str) -> str:
    """The player's live part: what their page's stream sends."""
    context = {**own_context(game, seat), "mine": own_history(game, seat, OWN_HISTORY)}
    pad_to = url_for("phone.player_turn", token=token)
    pay_someone = partial(pay_form, game, seat, token)  # drawn where the part shows it
    return page(
        "player_live.html",
        game,
        token=token,
        pad_to=pad_to,
        pay_someone=pay_someone,
        fills=player_fills(game, seat),
        **context,
    )


def pay_form(game: Game, seat: int, token: str) -> Markup:
    """The form that pays someone from the player's phone, a third of drawing their part: drawn
    once per what it shows (shared.piece), which a payment leaves as it was: the payer, the
    other players still in (their names and colours), the edition's money, the amounts."""
    view = game_view(game)
    players = tuple((p["seat"], p["name"], p["colour"], p["bankrupt"]) for p in view["players"])
    presets = turns.PRESETS[:4]
    version = shared.version_drawn(game)
    shows = ("pay someone", token, seat, game.edition, players, presets, version)
    to = url_for("phone.player_preview", token=token)

    def drawn() -> str:
        payer = view["players"][seat]
        return page(
            "_quick_money.html",
            game,
            payer=payer,
            legend=_("To"),
            from_bank=False,
            confirm=True,
            to=to,
            presets=presets,
        )

    return shared.piece(shows, drawn)


def own_context(game: Game, seat: int) -> dict:
    """What the player's live part shows but their history, worked out once per version and
    language (the buttons' sentences are in the reader's)."""
    return worked_out(game, ("seat", seat, locale_name()), lambda: seat_context(game, seat))


def rank_of(worths: dict[int, int], seat: int) -> int | None:
    """SG4: one more than the players richer than `seat` (equal worths share a rank); None
    for a player out of the game."""
    if seat not in worths:
        return None
    return 1 + sum(worth > worths[seat] for worth in worths.values())


def tied(worths: dict[int, int], seat: int) -> bool:
    """SG4: another player in the game is worth exactly what `seat` is (they share a rank)."""
    return sum(worth == worths[seat] for worth in worths.values()) > 1


def rank_said(state: GameState, worths: dict[int, int], seat: int) -> str:
    """SG4: " · rank 2 of 6" after the player's net worth while the game goes on (", tied"
    when it is shared); nothing for a player out of it, or once it has ended (the standings
    say it then)."""
    rank = rank_of(worths, seat)
    if rank is None or state.ended:
        return ""
    return rank_words(locale_name(), rank, len(worths), tied(worths, seat))


@lru_cache(maxsize=256)
def rank_words(_language: str, rank: int, count: int, is_tied: bool) -> str:
    """SG4's words in the reader's language (which `_language` names for the cache): each
    phone says them at every version, and the catalogue's answer does not change."""
    if is_tied:
        return " · " + _("rank %(rank)s of %(count)s, tied", rank=rank, count=count)
    return " · " + _("rank %(rank)s of %(count)s", rank=rank, count=count)


def seat_context(game: Game, seat: int) -> dict:
    state, edition = bank.state_of(game), bank.edition_of(game)
    worths = dict(standings(game))
    groups = {}
    for index in state.held_by(seat):
        space = edition.spaces[index]
        rent = rent_due(state, edition, index, dice=7)
        groups.setdefault(space.group, []).append((space, state.deeds[index], rent))
    return dict(
        seat=seat,
        groups=groups,
        rank_said=rank_said(state, worths, seat),
        worth=game_view(game)["players"][seat]["score"],
        own_history=OWN_HISTORY,
        auction=state.auction,
        offers=offers_to(game, state, seat),
        offers_made=offers_from(game, state, seat),
        panels=phone_panels(game, seat),
        take_back=take_back_offer(game, seat),
        turn=turn_shown(game, state),
        owed_to_me=owed_to(state, seat),
    )


def turn_shown(game: Game, state: GameState) -> int | None:
    """R1: the seat whose turn it is (the rules core's answer), as every phone says it; None
    while the deeds wait to be dealt (SG1) and once the game has ended."""
    if state.ended or any(wait.what == DEAL for wait in waits_of(game)):
        return None
    player = whose_turn(state)
    return None if player is None else player.seat


def owed_to(state: GameState, seat: int) -> list[tuple[int, int]]:
    """K1: the debts owed to this player, as (the debtor's seat, the amount), in the order
    they arose: the creditor's phone says so while the debtor raises the money."""
    found = []
    for debtor in debtors(state):
        amount = sum(debt.amount for debt in state.debts_of(debtor) if debt.creditor == seat)
        if amount:
            found.append((debtor, amount))
    return found


def player_fills(game: Game, seat: int) -> dict[str, Markup]:
    """What the player's live part puts in at each version (shared.fill), all a payment to or
    from them changes: their cash and net worth, their rank (which moves whenever another
    player's worth passes theirs), the news said aloud and their own history's lines. Worked
    out once per version, language and reader's zone (its times)."""
    key = ("player fills", seat, locale_name(), request_zone())
    return worked_out(game, key, lambda: seat_fills(game, seat))


def seat_fills(game: Game, seat: int) -> dict[str, Markup]:
    view, context = game_view(game), own_context(game, seat)
    mine = own_history(game, seat, OWN_HISTORY)
    first = view["pending"][:1]
    yours = bool(first) and first[0]["what"] == "roll" and first[0]["seat"] == seat
    edition = bank.edition_of(game)
    return {
        "cash": fills.money(edition, view["players"][seat]["cash"]),
        "worth": fills.money(edition, context["worth"]),
        "rank": escape(context["rank_said"]),
        "news": news(mine[0] if mine else None, context["auction"], edition, yours=yours),
        "history": fills.history_lines(mine, view["settings"]["time_zone"], own=True),
    }


def player_signature(game: Game, seat: int) -> bytes:
    """Everything the player's live part shows but its fills, as plain values, digested: the
    same signature at two versions, the same page (its forms' version and its fills apart),
    so it is not drawn again. Of their own history, only whether it is long enough for the
    link to all of it."""
    view = game_view(game)
    me = {k: v for k, v in view["players"][seat].items() if k not in fills.MONEY}
    shown = (
        everyone_sees(game),
        me,
        [w["what"] == "roll" and w["seat"] == seat for w in view["pending"][:1]],  # "Your turn"
        len(own_history(game, seat, OWN_HISTORY)) == OWN_HISTORY,
    )
    # Plain values, dataclasses and containers all write out what they hold in their repr.
    drawn = {k: v for k, v in own_context(game, seat).items() if k not in FILLED}
    values = repr((shown, drawn)).encode()
    return hashlib.blake2b(values, digest_size=16).digest()  # kept per page: 16 bytes


@bp.get("/p/<token>/history")
def player_history(token: str):
    """Everything that concerned the player, a page at a time, newest first."""
    player = player_by_token(token)
    entries, older = history_page(player.game, arg("before"), seat=player.seat)
    return page(
        "phone_history.html",
        player.game,
        seat=player.seat,
        token=token,
        entries=entries,
        older=older,
    )


@bp.post("/p/<token>/do")
def player_do(token: str):
    """A player's phone acts for their own seat only, and only in the kinds a phone may send
    (own_field); a form drawn for an earlier moment says the turn was taken."""
    player = player_by_token(token)
    kind = request.form.get("kind", "")
    own = own_field(player.game, kind)
    if own is None:
        abort(403)
    back = url_for("phone.player_page", token=token)
    try:
        payload = sent_by_own_phone(KINDS[kind], payload_from_form())
        payload[own] = player.seat
        done = phone_perform(player, kind, payload)
        flash(done_words(done), "done")
    except RuleError as refusal:
        if refusal.rule == "stale":
            return stale_tap(player.game_id, kind, back, token)
        flash(refused(refusal), "error")
    return redirect(back)


@bp.post("/p/<token>/pay")
def player_pay(token: str):
    """Pay someone: the payee, then one tap on the amount (the bank or another player)."""
    player = player_by_token(token)
    form = request.form
    amount = form.get("typed") if form.get("amount") == "typed" else form.get("amount")
    to = form.get("to", "bank")
    kind, payload = turns.money_move(player.seat, "bank" if to == "from_bank" else to, amount)
    try:
        done = phone_perform(player, kind, payload)
        flash(said(done.action.lines, bank.edition_of(done.game), done.action.text), "done")
    except RuleError as refusal:
        flash(refused(refusal), "error")
    return redirect(url_for("phone.player_page", token=token))


@bp.get("/p/<token>/turn")
def player_turn(token: str):
    """The player's own throw, with phone turns on: the same pad, the same rules; a page
    drawn for an earlier moment says the turn was taken, any other the core's refusal (a
    crafted link: it is another player's turn; the game over)."""
    player = player_by_token(token)
    game = player.game
    dice = whole(request.args.get("dice"))
    if dice is None or not 2 <= dice <= 12 or own_field(game, "roll") is None:
        return redirect(url_for("phone.player_page", token=token))
    back = url_for("phone.player_page", token=token)
    doubles, version = request.args.get("doubles") == "1", whole(request.args.get("v"))
    over = game_over(game)  # K4, SG3, TL1 (a timed game's end comes first): no throw
    if over is not None or turns.turn_taken(game, player.seat, version):
        why = over or turns.no_throw_now(game, player.seat, version, dice, doubles)
        return page("turn_taken.html", game, back=back, token=token, why=why), 409
    me = bank.state_of(game).players[player.seat]
    landing = turns.dice_options(game, player.seat, dice, doubles)
    return page("phone_turn.html", game, token=token, who=me, dice=dice, doubles=doubles, **landing)


def phone_perform(player: Player, kind: str, payload: dict):
    return bank.perform(
        player.game_id,
        kind,
        payload,
        actor=f"player:{player.seat}",
        key=request.form.get("key") or None,
        expected_version=expected_version(),
    )


@bp.get("/p/<token>/preview")
def player_preview(token: str):
    player = player_by_token(token)
    to = request.args.get("to")
    kind = request.args.get("kind") or ("bank_collect" if to == "bank" else "transfer")
    own = own_field(player.game, kind)
    if own is None:
        abort(403)
    fields = {k: v for k, v in request.args.items() if k not in ("kind", "typed") and v != "bank"}
    if fields.get("amount") == "typed":  # "Pay someone": the amount typed, not a preset
        fields["amount"] = request.args.get("typed", "")
    fields[own] = player.seat
    if kind == "bid":  # for the lot on sale as the bid is previewed
        fields.update(lot_fields(bank.state_of(player.game).auction))
    option = previewed(player.game, kind, fields)
    back = url_for("phone.player_page", token=token)
    return confirming(
        "phone_confirm.html", player.game, back, option=option, token=token, seat=player.seat
    )
