"""Pages for auctions, bankruptcy, dealt deeds and the results of a game."""

from __future__ import annotations

from flask import Blueprint, request
from flask_babel import gettext as _

from .. import bank, logbook
from ..rules import score_breakdown
from ..rules.auctions import lowest_bid, may_bid
from ..rules.property import lift_cost
from ..rules.state import DEAL
from . import turns
from .args import seat_of
from .pages import Option, load, offer, page
from .players import stream

bp = Blueprint("endgame", __name__, url_prefix="/g/<game_id>")

CHART_WIDTH, CHART_HEIGHT, PAD = 360, 200, 28
CHART_POINTS = 120  # a point every 3 units of the chart's width, whatever the game's length


@bp.get("/auction")
def auction(game_id: str):
    """The live auction: the highest bid and bidder, a bid for any player, the close."""
    game = load(game_id)
    state = bank.state_of(game)
    fields = {k: request.args.get(k) for k in ("player", "amount", "deed")}
    bid = offer(game, "bid", fields) if fields["amount"] else None
    close = offer(game, "auction_close", {"deed": fields["deed"]}, style="danger")
    if request.args.get("fragment"):
        return auction_fragment(game)
    context = dict(auction=state.auction, fields=fields, bid=bid, close=close)
    return page("auction.html", game, chips=bid_chips(state), **context)


def auction_fragment(game) -> str:
    """The auction's live part: the highest bid, the bid chips, the close."""
    state = bank.state_of(game)
    close = offer(game, "auction_close", {"deed": request.args.get("deed")}, style="danger")
    return page(
        "_auction_live.html", game, auction=state.auction, chips=bid_chips(state), close=close
    )


@bp.get("/auction/live")
def auction_live(game_id: str):
    """Bids from the phones on the banker's auction page at once (pushed like the others)."""
    return stream(load(game_id), lambda: auction_fragment(bank.find(game_id)))


STEPS = (10, 50, 100)


def bid_chips(state) -> list[tuple]:
    """P1: quick raises of the highest bid (+10, +50, +100), one tap each, for each player
    the core lets bid; a raise below the lowest bid it takes or above the cash is left out."""
    auction = state.auction
    if not auction:
        return []
    base = auction.bid if auction.bidder is not None else max(auction.minimum - STEPS[0], 0)
    rows = []
    for player in state.in_play():
        chips = []
        for step in STEPS if may_bid(state, player) else ():
            amount = base + step
            if lowest_bid(auction) <= amount <= player.cash:
                payload = {"player": player.seat, "amount": amount}
                chips.append((amount, Option("bid", payload, f"+{step}", style="mini")))
        rows.append((player, chips))
    return rows


@bp.get("/bankrupt")
def bankrupt(game_id: str):
    """K1-K3: a debtor's debt, what they could raise, and the bankruptcy (refused in words
    while they could pay); the creditor chooses to lift received mortgages now or later (M4)."""
    game = load(game_id)
    state = bank.state_of(game)
    seat = seat_of(request.args.get("player"), state)
    debt = next((p for p in turns.debt_panels(game) if p.player.seat == seat), None)
    lift = request.args.getlist("lift")
    option = (
        offer(game, "bankrupt", {"player": seat, "lift": lift}, style="danger") if debt else None
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
def deal(game_id: str):
    """SG1: record the deeds dealt by hand from the real cards, or deal them at random."""
    game = load(game_id)
    state = bank.state_of(game)
    if not state.waiting(DEAL):
        return page("deal.html", game, dealt=True)  # SG1: once, before the first roll
    hands = [request.args.getlist(f"hand{p.seat}") for p in state.players]
    option = offer(game, "deal", {"hands": hands}) if any(hands) else None
    dealt = offer(game, "deal", {"hands": bank.random_hands(game)}, label=_("Deal at random"))
    return page("deal.html", game, hands=hands, option=option, random_deal=dealt, dealt=False)


@bp.get("/end")
def end(game_id: str):
    game = load(game_id)
    return page("confirm.html", game, option=offer(game, "end_game", {}, style="danger"))


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
        points = " ".join(
            f"{PAD + (CHART_WIDTH - 2 * PAD) * n / steps:.1f},"
            f"{CHART_HEIGHT - PAD - (CHART_HEIGHT - 2 * PAD) * row[p.seat] / top:.1f}"
            for n, row in shown
        )
        lines.append({"name": p.name, "colour": p.colour, "points": points})
    return {"width": CHART_WIDTH, "height": CHART_HEIGHT, "pad": PAD, "top": top, "lines": lines}
