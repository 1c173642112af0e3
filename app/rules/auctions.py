"""Auctions: a declined deed (P1, H3), a bankrupt's deeds (K3), a building in short supply (B5)."""

from __future__ import annotations

from .actions import ALWAYS, TURNS, Act, action
from .edition import Edition, Group
from .errors import RuleError
from .landing import landed_deed
from .property import colour_group, level, set_levels, whole_groups
from .state import HOTEL, Auction, GameState, PlayerState
from .turn import whose_turn
from .words import N_, Phrase

BUILDINGS = ("house", "hotel")


def lot_fields(auction: Auction | None) -> dict:
    """The fields a bid names the auction's lot with (none: no auction is open)."""
    if auction is None:
        return {}
    return {"deed": auction.deed} if auction.deed is not None else {"building": auction.building}


def for_this_lot(act: Act, auction: Auction) -> bool:
    deed, building = act.payload.get("deed"), act.payload.get("building")
    if deed is not None:
        return str(deed) == str(auction.deed)
    return building == auction.building


def lot_named(act: Act) -> str:
    """The lot a bid names, in words (as `lot_name` says an auction's)."""
    deed = act.payload.get("deed")
    known = str(deed).isdigit() and int(deed) < len(act.edition.spaces)
    named = Auction(act.payload.get("building"), int(deed) if known else None, minimum=0)
    return lot_name(act, named)


def lot_name(act: Act, auction: Auction) -> str:
    if auction.deed is not None:
        return act.edition.spaces[auction.deed].name
    return Phrase("a hotel") if auction.building == "hotel" else Phrase("a house")


def lowest_house_price(act: Act, building: str) -> int:
    """B5: building auctions start at the lowest house price on the deeds involved: the
    streets where a player in the game could put the building now."""
    state, edition = act.state, act.edition
    prices = [
        edition.group_of(index).house_price
        for player in state.in_play()
        for index in placeable(state, edition, player, building)
    ]
    return min(prices, default=1)


@action("decline", label=N_("Decline"), rules="P1, H3", needs=("player", "deed"), phone=TURNS)
def decline(act: Act) -> None:
    """P1: a declined deed goes to auction at once; H3: it simply stays with the bank."""
    player, deed = landed_deed(act)
    if act.state.settings.no_auctions:
        act.say(
            "{player} declines {deed}; it stays with the bank (H3)",
            player=player.name,
            deed=deed.name,
        )
        return
    act.say("{player} declines {deed}", player=player.name, deed=deed.name)
    open_auction(act, Auction(building=None, deed=deed.index, minimum=1))


def open_auction(act: Act, lot: Auction) -> None:
    act.state.auction = lot
    act.say("the bank auctions {lot}", lot=lot_name(act, lot))


def next_deed_lot(act: Act) -> Auction:
    """K3: the next deed a bankruptcy left to the bank, auctioned from any bid."""
    return Auction(building=None, deed=act.state.to_auction.pop(0), minimum=1)


@action("auction_open", label=N_("Auction"), rules="B5, K3", may=("building",))
def auction_open(act: Act) -> None:
    """B5: a building the bank is short of; K3: the next deed a bankruptcy left to the bank
    (a declined deed goes to auction by itself, P1)."""
    if act.state.auction:
        raise RuleError(
            "P1", "The auction of {lot} is still open", lot=lot_name(act, act.state.auction)
        )
    building = act.payload.get("building")
    if building is not None:
        open_auction(act, building_lot(act, building))
    elif act.state.to_auction:
        open_auction(act, next_deed_lot(act))
    else:
        raise RuleError("P1", "A deed goes to auction when the player who landed on it declines")


def shortage(state: GameState, edition: Edition, building: str) -> bool:
    """B5: the bank is short of `building`: two or more players hold a whole group they
    could build on, and the bank has some of it left but fewer than their streets could
    still take (up to 4 houses a street, B2, in the short game too; a hotel each)."""
    groups = [owned for p in state.in_play() if (owned := whole_groups(state, edition, p.seat))]
    if len(groups) < 2:
        return False
    streets = [state.deeds[i] for owned in groups for group in owned for i in group.deeds]
    if building == "house":
        room = sum(HOTEL - 1 - d.houses for d in streets if d.houses < HOTEL)
        return 0 < state.houses < room
    return 0 < state.hotels < sum(1 for d in streets if d.houses < HOTEL)


def building_lot(act: Act, building: object) -> Auction:
    """B5: a house or a hotel the bank still has, from the lowest house price."""
    if building not in BUILDINGS:
        raise RuleError("input", "The building is a house or a hotel")
    if building == "hotel" and act.state.hotels < 1:
        raise RuleError("B5", "The bank has no hotel left")
    if building == "house" and act.state.houses < 1:
        raise RuleError("B5", "The bank has no house left")
    return Auction(building=building, deed=None, minimum=lowest_house_price(act, building))


def running(act: Act) -> Auction:
    if not act.state.auction:
        raise RuleError("P1", "No auction is open")
    return act.state.auction


def lowest_bid(auction: Auction) -> int:
    """P1: a bid beats the highest so far; the first may start anywhere from the minimum."""
    return max(auction.bid + 1, auction.minimum)


def may_bid(state: GameState, edition: Edition, player: PlayerState) -> bool:
    """P1: every player still in the game bids, the decliner too, but not against their own
    highest bid, and not while they owe a debt (K1); B5: for a building, only a player with
    a street to put it on."""
    auction = state.auction
    return bool(
        auction
        and not player.bankrupt
        and auction.bidder != player.seat
        and not state.debts_of(player.seat)
        and (auction.building is None or placeable(state, edition, player, auction.building))
    )


def names_its_lot(payload: dict) -> bool:
    """A bid that says which lot it is for: it means the same whatever was bid meanwhile."""
    return payload.get("deed") is not None or payload.get("building") is not None


@action(
    "bid",
    label=N_("Bid"),
    rules="P1; deed or building: the lot it is for (then a bid drawn before another still counts)",
    needs=("player", "amount"),
    may=("deed", "building"),
    phone=ALWAYS,
    still_current=names_its_lot,
)
def bid(act: Act) -> None:
    """P1: each bid beats the last and is no more than the bidder's cash, for the lot on sale."""
    auction, player = running(act), act.player()
    if names_its_lot(act.payload) and not for_this_lot(act, auction):
        raise RuleError("P1", "The auction of {lot} is over", lot=lot_named(act))
    amount = act.amount()
    act.clear_of_debt(player)
    if auction.bidder == player.seat:
        raise RuleError("P1", "{player} already has the highest bid", player=player)
    if auction.building and not placeable(act.state, act.edition, player, auction.building):
        raise RuleError(
            "B5",
            "{player} has no street to put {lot} on",
            player=player,
            lot=lot_name(act, auction),
        )
    if amount < lowest_bid(auction):
        raise RuleError("P1", "A bid must be at least {minimum:money}", minimum=lowest_bid(auction))
    if amount > player.cash:
        raise RuleError(
            "P1", "{player} has only {cash:money} in cash", player=player, cash=player.cash
        )
    auction.bid, auction.bidder = amount, player.seat
    act.say(
        "{player} bids {amount:money} for {lot}",
        player=player.name,
        amount=amount,
        lot=lot_name(act, auction),
    )


@action(
    "auction_close",
    label=N_("Close the auction"),
    rules="P1, B5; deed places a building won; player: the phone of the turn's player closes",
    may=("deed", "player"),
    phone=TURNS,
)
def auction_close(act: Act) -> None:
    """P1: the highest bidder pays the bank; no bid, the deed stays with the bank. With no
    banker at the table, the player whose turn it is closes it from their phone (R1)."""
    auction = running(act)
    if "player" in act.payload:
        closer, current = act.player(), whose_turn(act.state)
        if closer is not current:
            raise RuleError("R1", "{player}, whose turn it is, closes the auction", player=current)
    act.state.auction = None
    name = lot_name(act, auction)
    if auction.bidder is None:
        act.say("No bid: {lot} stays with the bank", lot=name)
    else:
        winner = act.state.players[auction.bidder]
        if auction.deed is not None:
            act.pay(winner, None, auction.bid)
            act.state.deeds[auction.deed].owner = winner.seat
        else:
            place_building(act, winner, auction)
        act.say(
            "{player} wins {lot} for {amount:money}",
            player=winner.name,
            lot=name,
            amount=auction.bid,
        )
    if act.state.to_auction:
        open_auction(act, next_deed_lot(act))


def withdraw_bid(act: Act, bidder: PlayerState) -> None:
    """K2, K3: a player who leaves the game leaves its auction too: their bid is withdrawn
    and the bidding on the lot starts again."""
    auction = act.state.auction
    if auction and auction.bidder == bidder.seat:
        auction.bid, auction.bidder = 0, None
        act.say("{player}'s bid is withdrawn: the bidding starts again", player=bidder.name)


def place_building(act: Act, winner: PlayerState, auction: Auction) -> None:
    """B5: the building won goes on one of the winner's streets, evenly, for the bid: the
    street named, or else the first where it may stand; nowhere, and the lot stays unsold."""
    if "deed" not in act.payload:
        streets = placeable(act.state, act.edition, winner, auction.building)
        if not streets:
            act.say("{player} has no street to put it on", player=winner.name)
            return
        act = act.part({**act.payload, "deed": streets[0]})
    group, new = raised_levels(act, winner, auction.building)
    act.pay(winner, None, auction.bid)  # the bid replaces the printed price
    if auction.building == "hotel":
        sell_fourth_houses(act, winner, group, new)
    set_levels(act, winner, group, new, pay=False)


def sell_fourth_houses(act: Act, winner: PlayerState, group: Group, new: list[int]) -> None:
    """SG2, B6: a hotel takes the houses it needs; a short game's fourth house on its street
    is sold back at half its price first."""
    needed = act.state.settings.houses_for_hotel
    levels = [act.state.deeds[i].houses for i in group.deeds]
    kept = [
        needed if n == HOTEL and needed < o < HOTEL else o for o, n in zip(levels, new, strict=True)
    ]
    if kept != levels:
        refund = -set_levels(act, winner, group, kept)
        act.say("{player} sells to the bank for {amount:money}", player=winner.name, amount=refund)


def raised_levels(act: Act, winner: PlayerState, building: str) -> tuple[Group, list[int]]:
    """B1-B4: the winner's group and its levels with the building on the street named."""
    street = act.deed()
    group = colour_group(act.part({"group": street.group}), winner)
    deeds = [act.state.deeds[i] for i in group.deeds]
    if any(d.mortgaged for d in deeds):
        raise RuleError(
            "B4",
            "No building on the {group} group while a street is mortgaged",
            group=Phrase(group.name),
        )
    new = [d.houses for d in deeds]
    at = group.deeds.index(street.index)
    needed = act.state.settings.houses_for_hotel
    if building == "hotel" and not needed <= new[at] < HOTEL:
        raise RuleError(
            "B3", "A hotel needs {count} houses on every street of the group", count=needed
        )
    new[at] = HOTEL if building == "hotel" else new[at] + 1
    heights = [level(n, act.state) for n in new]
    if max(heights) - min(heights) > 1 or (building == "house" and new[at] > 4):
        raise RuleError("B2", "A building on {street} breaks evenness", street=street.name)
    return group, new


def placeable(state: GameState, edition: Edition, player: PlayerState, building: str) -> list[int]:
    """B5: the streets where `player` could put the building now (the close's own checks,
    tried on each street of theirs)."""
    found = []
    for index in state.held_by(player.seat):
        if edition.spaces[index].kind != "street":
            continue
        try:
            raised_levels(Act(state, edition, {"deed": index}), player, building)
        except RuleError:
            continue
        found.append(index)
    return found
