"""Pages for auctions, bankruptcy, dealt deeds and the results of a game."""

from __future__ import annotations

import csv
import io

from flask import Blueprint, Response, request
from flask_babel import gettext as _

from .. import bank, logbook
from ..rules import score_breakdown
from ..rules.auctions import lot_fields, lowest_bid, may_bid
from ..rules.property import lift_cost
from ..rules.state import DEAL
from . import shared, turns
from .args import seat_of
from .filters import as_utc
from .pages import Option, action_page, load, page, previewed
from .present import row_said

bp = Blueprint("endgame", __name__, url_prefix="/g/<game_id>")

CHART_WIDTH, CHART_HEIGHT, PAD = 360, 200, 28
DASHES = ("", "7 3", "2 3", "9 3 2 3", "4 4", "1 3", "12 3 3 3", "5 2 1 2")
MARK_SPACE = 17  # an end letter's circle (radius 8) and a pixel between two side by side
CHART_POINTS = 120  # a point every 3 units of the chart's width, whatever the game's length


@bp.get("/auction")
@action_page
def auction(game_id: str):
    """The live auction: the highest bid and bidder, a bid for any player, the close."""
    game = load(game_id)
    state = bank.state_of(game)
    fields = {k: request.args.get(k) for k in ("player", "amount")}
    lot = lot_fields(state.auction)  # the bid is for the lot on sale as it is previewed
    bid = previewed(game, "bid", {**fields, **lot}) if fields["amount"] else None
    if request.args.get("fragment"):
        return shared.fetched(game.version, auction_fragment(game))
    context = dict(auction=state.auction, fields=fields, bid=bid, closes=closes(game, state))
    return page("auction.html", game, chips=bid_chips(state, bank.edition_of(game)), **context)


def auction_fragment(game) -> str:
    """The auction's live part: the highest bid, the bid chips, the close."""
    state = bank.state_of(game)
    return page(
        "_auction_live.html",
        game,
        auction=state.auction,
        chips=bid_chips(state, bank.edition_of(game)),
        closes=closes(game, state),
    )


def closes(game, state) -> list[Option]:
    """The ways to close the auction, each previewed: for a building (B5) won by a bid, one
    button per street of the winner's where the core lets the building go, and none where
    it would not; otherwise the one close."""
    auction = state.auction
    if not auction:
        return []
    if auction.building is None or auction.bidder is None:
        return [previewed(game, "auction_close", {}, style="danger")]
    edition = bank.edition_of(game)
    streets = [
        i
        for i in state.held_by(auction.bidder)
        if edition.spaces[i].group in edition.groups
        and edition.groups[edition.spaces[i].group].house_price
    ]
    found = []
    for i in streets:
        option = previewed(game, "auction_close", {"deed": i}, style="danger")
        if not option.error:  # the core lets the building go there (B1, B5)
            option.text = _(
                "%(what)s, on %(street)s", what=option.text, street=edition.spaces[i].name
            )
            found.append(option)
    return found or [previewed(game, "auction_close", {}, style="danger")]  # nowhere: unsold


STEPS = (10, 50, 100)


def bid_chips(state, edition) -> list[tuple]:
    """P1: quick raises of the highest bid (+10, +50, +100), one tap each, for each player
    the core lets bid; a raise below the lowest bid it takes or above the cash is left out."""
    auction = state.auction
    if not auction:
        return []
    base = auction.bid if auction.bidder is not None else max(auction.minimum - STEPS[0], 0)
    rows = []
    for player in state.in_play():
        chips = []
        for step in STEPS if may_bid(state, edition, player) else ():
            amount = base + step
            if lowest_bid(auction) <= amount <= player.cash:
                payload = {"player": player.seat, "amount": amount, **lot_fields(auction)}
                chips.append((amount, Option("bid", payload, f"+{step}", style="mini")))
        rows.append((player, chips))
    return rows


@bp.get("/bankrupt")
@action_page
def bankrupt(game_id: str):
    """K1-K3: a debtor's debt, what they could raise, and the bankruptcy (refused in words
    while they could pay); the creditor chooses to lift received mortgages now or later (M4)."""
    game = load(game_id)
    state = bank.state_of(game)
    seat = seat_of(request.args.get("player"), state)
    debt = next((p for p in turns.debt_panels(game) if p.player.seat == seat), None)
    lift = request.args.getlist("lift")
    option = (
        previewed(game, "bankrupt", {"player": seat, "lift": lift}, style="danger")
        if debt
        else None
    )
    mortgaged = mortgaged_of(game, seat) if debt and debt.figures["creditor"] is not None else []
    return page("bankrupt.html", game, debt=debt, option=option, mortgaged=mortgaged, lift=lift)


def mortgaged_of(game, seat: int) -> list:
    """K2, M4: the debtor's mortgaged deeds, for the creditor to lift now or keep mortgaged."""
    state, edition = bank.state_of(game), bank.edition_of(game)
    held = state.held_by(seat)
    return [
        (edition.spaces[i], lift_cost(edition.spaces[i].mortgage))
        for i in held
        if state.deeds[i].mortgaged
    ]


@bp.get("/deal")
@action_page
def deal(game_id: str):
    """SG1: record the deeds dealt by hand from the real cards, or deal them at random."""
    game = load(game_id)
    state = bank.state_of(game)
    if not state.waiting(DEAL):
        return page("deal.html", game, dealt=True)  # SG1: once, before the first roll
    fields = [f"hand{p.seat}" for p in state.players]
    hands = [[deed for deed in request.args.getlist(field) if deed] for field in fields]  # "—"
    sent = any(field in request.args for field in fields)
    option = previewed(game, "deal", {"hands": hands}) if sent else None
    dealt = previewed(game, "deal", {"hands": bank.random_hands(game)}, label=_("Deal at random"))
    return page("deal.html", game, hands=hands, option=option, random_deal=dealt, dealt=False)


@bp.get("/end")
@action_page
def end(game_id: str):
    game = load(game_id)
    return page("confirm.html", game, option=previewed(game, "end_game", {}, style="danger"))


@bp.get("/results")
def results(game_id: str):
    """SG4 for every player, ranked, with the net worth of each over the game."""
    game = load(game_id)
    state, edition = bank.state_of(game), bank.edition_of(game)
    ranking = sorted(
        ((p, score_breakdown(state, edition, p.seat)) for p in state.players),
        key=lambda pair: (not pair[0].bankrupt, pair[1]["total"]),
        reverse=True,
    )
    return page("results.html", game, ranking=ranking, chart=worth_chart(game))


def worth_over_time(game, most: int | None = None) -> list[tuple[int, list[int]]]:
    """Each player's SG4 worth after the setup and after every action in force, as recorded
    when each action was done (no replay): (position, worths) pairs, at most `most`."""
    return logbook.worths_in_force(game, bank.edition_of(game), most)


def worth_chart(game) -> dict:
    """Polylines for an SVG drawn on the server: one line a player, x = action, y = worth.
    The chart is a few hundred pixels wide: a long game shows that many points of it."""
    shown = worth_over_time(game, most=CHART_POINTS)
    top = max(max(row) for _, row in shown) or 1
    steps = max(shown[-1][0], 1)
    state = bank.state_of(game)
    lines = []
    for p in state.players:
        xy = [
            (
                PAD + (CHART_WIDTH - 2 * PAD) * n / steps,
                CHART_HEIGHT - PAD - (CHART_HEIGHT - 2 * PAD) * max(row[p.seat], 0) / top,
            )
            for n, row in shown
        ]
        line = {"seat": p.seat, "name": p.name, "colour": p.colour, "end": xy[-1]}
        line["points"] = " ".join(f"{x:.1f},{y:.1f}" for x, y in xy)
        line["dash"] = DASHES[p.seat % len(DASHES)]  # told apart without colour too
        lines.append(line)
    side_by_side(lines)
    return {"width": CHART_WIDTH, "height": CHART_HEIGHT, "pad": PAD, "top": top, "lines": lines}


def side_by_side(lines: list[dict]) -> None:
    """Players who end at (nearly) the same worth have their letters side by side, leftwards
    from the end, not one on top of the other: every bankrupt player ends at nothing. A
    line's `end` is where its letter is drawn."""
    placed: list[tuple[float, float]] = []
    for line in lines:
        x, y = line["end"]
        while any(abs(x - px) < MARK_SPACE and abs(y - py) < MARK_SPACE for px, py in placed):
            x -= MARK_SPACE
        placed.append((x, y))
        line["end"] = (x, y)


CSV_PAGE = 500  # log rows read at a time for the download


@bp.get("/history.csv")
def history_csv(game_id: str):
    """The whole history as a spreadsheet, oldest first, in the reader's language: a download
    reads every row of the log (a page at a time), which no page does."""
    game = load(game_id)
    edition = bank.edition_of(game)
    rows, before = [], None
    while True:
        found = logbook.page_of(game, before, CSV_PAGE)
        rows.extend(found)
        if len(found) < CSV_PAGE:
            break
        before = found[-1].seq
    undone = logbook.undone_in(game, rows, newest=True)  # the whole log
    names = [p.name for p in bank.state_of(game).players]
    out = io.StringIO()
    sheet = csv.writer(out)
    sheet.writerow(
        [_("Number"), _("Time (UTC)"), _("By"), _("Action"), _("What happened"), _("Undone")]
    )
    for row in reversed(rows):
        when = as_utc(row.created_at).isoformat(timespec="seconds")
        words = row_said(row, edition)
        sheet.writerow(
            [
                row.seq,
                when,
                cell(actor_name(row.actor, names)),
                row.kind,
                cell(words),
                _("yes") if row.seq in undone else "",
            ]
        )
    name = f"tablebank-{game.id}.csv"
    headers = {"Content-Disposition": f'attachment; filename="{name}"'}
    return Response(out.getvalue(), mimetype="text/csv", headers=headers)


def actor_name(actor: str | None, names: list[str]) -> str:
    """Who acted, in words: a player's phone by the player's name, else the banker."""
    seat = (actor or "").removeprefix("player:")
    if actor and actor != seat and seat.isdigit() and int(seat) < len(names):
        return names[int(seat)]
    return _("the banker") if actor in (None, "", "banker") else actor


def cell(text: str) -> str:
    """A spreadsheet cell that a spreadsheet reads as text, never as a formula: a player's
    name starting with = + - @ gets a leading apostrophe (CSV injection)."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text
