"""Auctions, bankruptcy, dealt deeds and the end of the game: P1, B5, K1-K4, SG1-SG4, TL1, H1."""

from __future__ import annotations

from .actions import Turn, action, take_pot, whole_number
from .edition import Space
from .errors import RuleError
from .property import colour_group, level, set_levels, settle_mortgaged
from .state import HOTEL, Auction, PlayerState
from .wealth import raisable
from .words import N_, Phrase

BUILDINGS = ("house", "hotel")


# -- auctions ----------------------------------------------------------------------------------


def lot_name(turn: Turn, auction: Auction) -> str:
    if auction.deed is not None:
        return turn.edition.spaces[auction.deed].name
    return Phrase("a hotel") if auction.building == "hotel" else Phrase("a house")


def unowned_deed(turn: Turn) -> Space:
    deed = turn.deed()
    owner = turn.owner(deed)
    if owner is not None:
        raise RuleError("P1", "{deed} belongs to {owner}", deed=deed.name, owner=owner.name)
    return deed


def lowest_house_price(turn: Turn) -> int:
    """B5: building auctions start at the lowest house price of the groups someone could build."""
    prices = []
    for group in turn.edition.groups.values():
        owners = {turn.state.deeds[i].owner for i in group.deeds}
        if group.house_price and len(owners) == 1 and None not in owners:
            prices.append(group.house_price)
    return min(prices, default=1)


@action(
    "decline", label=N_("Decline"), rules="P1, H3", needs=("player", "deed"), may=("passed_go",)
)
def decline(turn: Turn) -> None:
    """P1: a declined deed goes to auction at once; H3: it simply stays with the bank."""
    player, deed = turn.player(), unowned_deed(turn)
    if turn.state.auction:
        raise RuleError(
            "P1", "Close the auction of {lot} first", lot=lot_name(turn, turn.state.auction)
        )
    turn.arrive(player, deed)
    if turn.state.settings.no_auctions:
        turn.say(
            "{player} declines {deed}; it stays with the bank (H3)",
            player=player.name,
            deed=deed.name,
        )
        return
    turn.say("{player} declines {deed}", player=player.name, deed=deed.name)
    auction_open(turn)


@action("auction_open", label=N_("Auction"), rules="P1, B5", may=("deed", "building"))
def auction_open(turn: Turn) -> None:
    """P1: a declined deed goes to auction at once; B5: a building the bank is short of."""
    if turn.state.auction:
        raise RuleError(
            "P1", "The auction of {lot} is still open", lot=lot_name(turn, turn.state.auction)
        )
    building = turn.payload.get("building")
    lot = deed_lot(turn) if building is None else building_lot(turn, building)
    turn.state.auction = lot
    turn.say("the bank auctions {lot}", lot=lot_name(turn, lot))


def building_lot(turn: Turn, building: object) -> Auction:
    """B5: a house or a hotel the bank still has, from the lowest house price."""
    if building not in BUILDINGS:
        raise RuleError("input", "The building is a house or a hotel")
    if building == "hotel" and turn.state.hotels < 1:
        raise RuleError("B5", "The bank has no hotel left")
    if building == "house" and turn.state.houses < 1:
        raise RuleError("B5", "The bank has no house left")
    return Auction(building=building, deed=None, minimum=lowest_house_price(turn))


def deed_lot(turn: Turn) -> Auction:
    """P1: the deed named, or K3: the next deed a bankruptcy left to the bank."""
    if turn.state.settings.no_auctions and not turn.state.to_auction:
        raise RuleError("H3", "No auctions in this game: a declined deed stays with the bank")
    if "deed" in turn.payload or not turn.state.to_auction:
        deed = unowned_deed(turn)
    else:
        deed = unowned_deed(turn.part({"deed": turn.state.to_auction[0]}))
    if deed.index in turn.state.to_auction:
        turn.state.to_auction.remove(deed.index)
    return Auction(building=None, deed=deed.index, minimum=1)


def running(turn: Turn) -> Auction:
    if not turn.state.auction:
        raise RuleError("P1", "No auction is open")
    return turn.state.auction


@action("bid", label=N_("Bid"), rules="P1", needs=("player", "amount"), own_seat="player")
def bid(turn: Turn) -> None:
    """P1: each bid beats the last and is no more than the bidder's cash."""
    auction, player = running(turn), turn.player()
    amount = turn.amount()
    floor = max(auction.bid + 1, auction.minimum)
    if amount < floor:
        raise RuleError("P1", "A bid must be at least {minimum:money}", minimum=floor)
    if amount > player.cash:
        raise RuleError(
            "P1", "{player} has only {cash:money} in cash", player=player.name, cash=player.cash
        )
    auction.bid, auction.bidder = amount, player.seat
    turn.say(
        "{player} bids {amount:money} for {lot}",
        player=player.name,
        amount=amount,
        lot=lot_name(turn, auction),
    )


@action(
    "auction_close",
    label=N_("Close the auction"),
    rules="P1, B5; deed places a building won",
    may=("deed",),
)
def auction_close(turn: Turn) -> None:
    """P1: the highest bidder pays the bank; no bid, the deed stays with the bank."""
    auction = running(turn)
    turn.state.auction = None
    name = lot_name(turn, auction)
    if auction.bidder is None:
        turn.say("No bid: {lot} stays with the bank", lot=name)
    else:
        winner = turn.state.players[auction.bidder]
        if auction.deed is not None:
            turn.pay(winner, None, auction.bid)
            turn.state.deeds[auction.deed].owner = winner.seat
        else:
            place_building(turn, winner, auction)
        turn.say(
            "{player} wins {lot} for {amount:money}",
            player=winner.name,
            lot=name,
            amount=auction.bid,
        )
    if turn.state.to_auction:
        auction_open(turn.part({"deed": turn.state.to_auction[0]}))


def place_building(turn: Turn, winner: PlayerState, auction: Auction) -> None:
    """B5: the building won goes on one of the winner's streets, evenly, for the bid."""
    street = turn.deed()
    group = colour_group(turn.part({"group": street.group}), winner)
    deeds = [turn.state.deeds[i] for i in group.deeds]
    if any(d.mortgaged for d in deeds):
        raise RuleError(
            "B4", "No building on the {group} group while a street is mortgaged", group=group.name
        )
    new = [d.houses for d in deeds]
    at = group.deeds.index(street.index)
    needed = turn.state.settings.houses_for_hotel
    if auction.building == "hotel" and not needed <= new[at] < HOTEL:
        raise RuleError(
            "B3", "A hotel needs {count} houses on every street of the group", count=needed
        )
    new[at] = HOTEL if auction.building == "hotel" else new[at] + 1
    heights = [level(n, turn.state) for n in new]
    if max(heights) - min(heights) > 1 or (auction.building == "house" and new[at] > 4):
        raise RuleError("B2", "A building on {street} breaks evenness", street=street.name)
    turn.pay(winner, None, auction.bid)  # the bid replaces the printed price
    set_levels(turn, winner, group, new, pay=False)


# -- bankruptcy --------------------------------------------------------------------------------


@action(
    "bankrupt",
    label=N_("Declare bankruptcy"),
    rules="K1-K3, SG3; no creditor: the bank",
    needs=("player", "owed"),
    may=("creditor", "lift"),
)
def bankrupt(turn: Turn) -> None:
    """K1-K3, SG3: a player who cannot pay what they owe leaves the game."""
    debtor = turn.player()
    owed = turn.amount("owed")
    creditor = turn.player("creditor") if turn.payload.get("creditor") is not None else None
    if creditor is debtor:
        raise RuleError("input", "A player cannot owe themselves")
    could = raisable(turn.state, turn.edition, debtor.seat)
    if could >= owed:
        raise RuleError(
            "K1",
            "{player} could still raise {raisable:money} by selling and mortgaging: "
            "enough for the {owed:money} owed",
            player=debtor.name,
            owed=owed,
            raisable=could,
        )
    second_short = turn.state.settings.mode != "classic" and turn.state.bankruptcies >= 1
    to = creditor.name if creditor else Phrase("the bank")
    turn.say(
        "{player} is bankrupt, owing {amount:money} to {creditor}",
        player=debtor.name,
        amount=owed,
        creditor=to,
    )
    if second_short:
        hand_everything(turn, debtor, creditor)
    elif creditor is not None:
        to_player(turn, debtor, creditor)
    else:
        to_bank(turn, debtor)
    debtor.bankrupt, debtor.cash, debtor.jail_free = True, 0, []
    debtor.in_jail, debtor.jail_tries = False, 0  # out of the game, out of jail (J3)
    withdraw_bid(turn, debtor)
    turn.state.bankruptcies += 1
    left = turn.state.in_play()
    if second_short or len(left) == 1:
        end(turn)


def withdraw_bid(turn: Turn, debtor: PlayerState) -> None:
    """K2, K3: a player who leaves the game leaves its auction too: their bid is withdrawn
    and the bidding on the lot starts again."""
    auction = turn.state.auction
    if auction and auction.bidder == debtor.seat:
        auction.bid, auction.bidder = 0, None
        turn.say("{player}'s bid is withdrawn: the bidding starts again", player=debtor.name)


def sell_all_buildings(turn: Turn, debtor: PlayerState) -> None:
    """Buildings stand only on whole groups (B1), so a built street of the debtor's means a
    whole group of theirs."""
    for group in turn.edition.groups.values():
        deeds = [turn.state.deeds[i] for i in group.deeds]
        if any(d.houses and d.owner == debtor.seat for d in deeds):
            set_levels(turn, debtor, group, [0] * len(deeds))


def to_player(turn: Turn, debtor: PlayerState, creditor: PlayerState) -> None:
    """K2: buildings sold at half, then cash, deeds and cards to the creditor; M4 on mortgages."""
    sell_all_buildings(turn, debtor)
    turn.pay(debtor, creditor, debtor.cash)
    held = [turn.edition.spaces[i] for i in turn.state.held_by(debtor.seat)]
    for space in held:
        turn.state.deeds[space.index].owner = creditor.seat
    creditor.jail_free.extend(debtor.jail_free)
    mortgaged = [s for s in held if turn.state.deeds[s.index].mortgaged]
    lift_now = {int(x) for x in (turn.payload.get("lift") or []) if str(x).isdigit()}
    settle_mortgaged(turn, creditor, mortgaged, lift_now)
    turn.say(
        "{player} takes the cash and the deeds ({count})", player=creditor.name, count=len(held)
    )


def to_bank(turn: Turn, debtor: PlayerState) -> None:
    """K3: everything to the bank; every deed unmortgaged and auctioned; cards to their decks."""
    sell_all_buildings(turn, debtor)
    turn.pay(debtor, None, debtor.cash)
    held = turn.state.held_by(debtor.seat)
    for index in held:
        turn.state.deeds[index].owner, turn.state.deeds[index].mortgaged = None, False
    if not turn.state.settings.no_auctions:
        turn.state.to_auction.extend(held)
    turn.say("the bank takes everything, {count:deeds} included", count=len(held))
    if turn.state.to_auction and not turn.state.auction:
        auction_open(turn.part({"deed": turn.state.to_auction[0]}))


def hand_everything(turn: Turn, debtor: PlayerState, creditor: PlayerState | None) -> None:
    """SG3: the second bankruptcy of a short game: everything, buildings included, as it is."""
    if creditor is None:
        to_bank(turn, debtor)
        return
    turn.pay(debtor, creditor, debtor.cash)
    for index in turn.state.held_by(debtor.seat):
        turn.state.deeds[index].owner = creditor.seat
    creditor.jail_free.extend(debtor.jail_free)


def end(turn: Turn) -> None:
    turn.state.ended, turn.state.auction, turn.state.to_auction = True, None, []
    turn.say("the game ends")


@action("end_game", label=N_("End the game"), rules="TL1, SG4")
def end_game(turn: Turn) -> None:
    """TL1: the end time has come, or the banker ends the game early; scored by SG4."""
    end(turn)


# -- dealt deeds and the Free Parking pot ------------------------------------------------------


@action("deal", label=N_("Deal"), rules="SG1, TL1", needs=("hands",))
def deal(turn: Turn) -> None:
    """SG1, TL1: deeds dealt to each player, who pays the printed price for each at once."""
    hands = turn.payload.get("hands")
    if not isinstance(hands, list) or len(hands) != len(turn.state.players):
        raise RuleError("input", "Give the deeds dealt to each player, in seat order")
    seen: set[int] = set()
    for player, hand in zip(turn.state.players, hands, strict=True):
        if not isinstance(hand, list):
            raise RuleError(
                "input", "The deeds dealt to {player} must be a list", player=player.name
            )
        names = []
        for value in hand:
            index = whole_number(value, "A deed", 0, len(turn.edition.spaces) - 1)
            space = turn.edition.spaces[index]
            waiting = index in turn.state.to_auction or turn.state.auctioning(index)  # P1, K3
            if (
                not space.is_deed
                or index in seen
                or turn.state.deeds[index].owner is not None
                or waiting
            ):
                raise RuleError("SG1", "{deed} cannot be dealt", deed=space.name)
            seen.add(index)
            turn.pay(player, None, space.price)
            turn.state.deeds[index].owner = player.seat
            names.append(space.name)
        turn.say("{player} is dealt {deeds}", player=player.name, deeds=", ".join(names) or "—")


@action("parking_pot", label=N_("Take the pot"), rules="H1", needs=("player",))
def parking_pot(turn: Turn) -> None:
    """H1: the player on Free Parking takes the pot."""
    player = turn.player()
    if not turn.state.settings.free_parking_jackpot:
        raise RuleError("H1", "This game has no Free Parking jackpot")
    if not turn.state.pot:
        raise RuleError("H1", "The Free Parking pot is empty")
    jackpot = take_pot(turn, player)
    turn.say(
        "{player} takes the Free Parking pot of {amount:money}", player=player.name, amount=jackpot
    )
