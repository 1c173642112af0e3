"""Pages for buildings, mortgages and trades: each choice shown with its cost before the tap."""

from __future__ import annotations

from flask import Blueprint, request
from flask_babel import gettext as _

from .. import bank
from ..models import Game
from ..rules import HOTEL, GameState, RuleError
from ..rules.auctions import shortage
from ..rules.edition import Edition, Group
from ..rules.property import check_trade_parties, lift_cost, whole_groups
from .args import seat_of, wholes
from .pages import Option, action_page, load, page, previewed
from .words import N_, refused

bp = Blueprint("property", __name__, url_prefix="/g/<game_id>")

PRESETS = [
    (0, N_("No buildings")),
    (1, N_("1 house on each")),
    (2, N_("2 houses on each")),
    (3, N_("3 houses on each")),
    (4, N_("4 houses on each")),
    (HOTEL, N_("Hotels")),
]


def for_player(game_id: str) -> tuple[Game, GameState, Edition, int | None]:
    """The game, its state and edition, and the seat chosen with ?player= (None: not yet)."""
    game = load(game_id)
    state = bank.state_of(game)
    return game, state, bank.edition_of(game), seat_of(request.args.get("player"), state)


def group_options(game, state: GameState, seat: int, group: Group) -> list[Option]:
    """Presets for the whole group ("3 houses on each", "hotels"), then one street at a time."""
    old = [state.deeds[i].houses for i in group.deeds]
    options = []
    for target, label in PRESETS:
        levels = [target] * len(old)
        if levels != old:
            payload = {"player": seat, "group": group.id, "levels": ",".join(map(str, levels))}
            option = previewed(game, "build", payload)
            option.label = label
            options.append(option)
    return options


def street_options(game, state: GameState, seat: int, group: Group) -> list[tuple[int, list]]:
    old = [state.deeds[i].houses for i in group.deeds]
    rows = []
    for at, index in enumerate(group.deeds):
        pair = []
        for step, label in ((1, "+"), (-1, "−")):
            levels = list(old)
            levels[at] += step
            if 0 <= levels[at] <= HOTEL:
                payload = {"player": seat, "group": group.id, "levels": ",".join(map(str, levels))}
                option = previewed(game, "build", payload)
                option.label = label
                pair.append(option)
        rows.append((index, pair))
    return rows


def breaking_down(game, state: GameState, seat: int, group: Group) -> str | None:
    """B6: why no hotel of the group can be broken down to houses now, or None when one can
    (or the group has no hotel). Each hotel is tried on its own, one step down."""
    old = [state.deeds[i].houses for i in group.deeds]
    reasons = []
    for at, houses in enumerate(old):
        if houses == HOTEL:
            levels = [*old[:at], state.settings.houses_for_hotel, *old[at + 1 :]]
            payload = {"player": seat, "group": group.id, "levels": levels}
            try:
                bank.preview(game, "build", payload)
                return None
            except RuleError as refusal:
                reasons.append(refusal)
    b6 = [r for r in reasons if r.rule == "B6"]
    return refused(b6[0]) if b6 else None


def sell_as_one(game, seat: int, group: Group) -> Option:
    """B6: what can be done when no hotel can be broken down: sell the group's hotels (and
    any houses) to the bank at once, which needs no house from the bank."""
    levels = ",".join("0" * len(group.deeds))
    return previewed(game, "build", {"player": seat, "group": group.id, "levels": levels})


def group_choices(game, state: GameState, seat: int, group: Group) -> dict:
    """What the build page offers for one whole group of the player's."""
    stuck = breaking_down(game, state, seat, group)
    return {
        "group": group,
        "presets": group_options(game, state, seat, group),
        "streets": street_options(game, state, seat, group),
        "stuck": stuck,
        "sell_as_one": sell_as_one(game, seat, group) if stuck else None,
    }


@bp.get("/build")
@action_page
def build(game_id: str):
    game, state, edition, seat = for_player(game_id)
    owned = [] if seat is None else whole_groups(state, edition, seat)
    groups = [group_choices(game, state, seat, group) for group in owned]
    auctions = [
        previewed(game, "auction_open", {"building": building}, style="secondary")
        for building in ("house", "hotel")
        if shortage(state, edition, building)
    ]
    needed = state.settings.houses_for_hotel
    return page("build.html", game, seat=seat, groups=groups, shortage=auctions, needed=needed)


@bp.get("/mortgages")
@action_page
def mortgages(game_id: str):
    game, state, edition, seat = for_player(game_id)
    held = [] if seat is None else state.held_by(seat)
    rows = []
    for index in held:
        kind = "lift" if state.deeds[index].mortgaged else "mortgage"
        rows.append((edition.spaces[index], previewed(game, kind, {"player": seat, "deed": index})))
    return page("mortgages.html", game, seat=seat, rows=rows, lift_cost=lift_cost)


def trade_payload(state: GameState, args: dict | None = None) -> dict | None:
    """The trade a form asks for (the query string, or `args` as lists of values)."""
    if args is None:
        args = request.args.to_dict(flat=False)
    first = lambda key, default="": (args.get(key) or [default])[0]  # noqa: E731
    seats = [first("player"), first("partner")]
    if any(seat_of(s, state) is None for s in seats):
        return None
    cash_from = first("cash_from", "player")
    cash = first("cash").strip() or "0"
    side = lambda key, gives_cash: {  # noqa: E731
        "deeds": args.get(f"{key}_deeds", []),
        "cash": cash if gives_cash else "0",
        "jail_free": first(f"{key}_jail_free", "0") or "0",
    }
    return {
        "player": seats[0],
        "partner": seats[1],
        "give": side("give", cash_from == "player"),
        "take": side("take", cash_from == "partner"),
        "lift": args.get("lift", []),
    }


@bp.get("/trade")
@action_page
def trade(game_id: str):
    """Build a trade, see each side's cash before and after, and choose M4 deed by deed."""
    game = load(game_id)
    state = bank.state_of(game)
    payload, refusal = parties_checked(game, trade_payload(state))
    option = after = offer_option = None
    if payload and (payload["give"]["deeds"] or payload["take"]["deeds"] or "cash" in request.args):
        option = previewed(game, "trade", payload)
        if not option.error:
            after = bank.preview(game, "trade", payload).state
            partner = state.players[int(payload["partner"])].name
            label = _("Or offer it on %(player)s's phone", player=partner)
            offer_option = previewed(game, "trade_offer", payload, label, "secondary")
    return page(
        "trade.html",
        game,
        state=state,
        args=request.args,
        payload=payload,
        refusal=refusal,
        option=option,
        after=after,
        received_mortgaged=received_mortgaged(state, payload),
        lift_cost=lift_cost,
        offer_option=offer_option,
    )


def parties_checked(game: Game, payload: dict | None) -> tuple[dict | None, str | None]:
    """The trade asked for, if the rules core lets its two players trade (X1, K2: not a
    bankrupt player, not oneself); else no trade to draw, and the core's refusal in words."""
    if payload is None:
        return None, None
    try:
        check_trade_parties(bank.state_of(game), bank.edition_of(game), payload)
    except RuleError as refusal:
        return None, refused(refusal)
    return payload, None


def received_mortgaged(state: GameState, payload: dict | None) -> list[int]:
    """The mortgaged deeds changing hands: for each, the receiver chooses lift now or later."""
    if not payload:
        return []
    listed = payload["give"]["deeds"] + payload["take"]["deeds"]
    indexes = wholes(listed)
    return [i for i in indexes if i in state.deeds and state.deeds[i].mortgaged]
