"""Auctions, bankruptcy, dealt deeds and the end of the game: P1, B5, K1-K4, SG1-SG4, TL1, H1."""

from __future__ import annotations

from .actions import Act, action, take_pot, whole_number
from .edition import Space
from .errors import RuleError
from .property import colour_group, level, set_levels, settle_mortgaged
from .state import HOTEL, Auction, PlayerState
from .wealth import raisable
from .words import N_, Phrase

BUILDINGS = ("house", "hotel")


# -- auctions ----------------------------------------------------------------------------------


def lot_name(act: Act, auction: Auction) -> str:
    if auction.deed is not None:
        return act.edition.spaces[auction.deed].name
    return Phrase("a hotel") if auction.building == "hotel" else Phrase("a house")


def unowned_deed(act: Act) -> Space:
    deed = act.deed()
    owner = act.owner(deed)
    if owner is not None:
        raise RuleError("P1", "{deed} belongs to {owner}", deed=deed.name, owner=owner.name)
    return deed


def lowest_house_price(act: Act) -> int:
    """B5: building auctions start at the lowest house price of the groups someone could build."""
    prices = []
    for group in act.edition.groups.values():
        owners = {act.state.deeds[i].owner for i in group.deeds}
        if group.house_price and len(owners) == 1 and None not in owners:
            prices.append(group.house_price)
    return min(prices, default=1)


@action(
    "decline", label=N_("Decline"), rules="P1, H3", needs=("player", "deed"), may=("passed_go",)
)
def decline(act: Act) -> None:
    """P1: a declined deed goes to auction at once; H3: it simply stays with the bank."""
    player, deed = act.player(), unowned_deed(act)
    if act.state.auction:
        raise RuleError(
            "P1", "Close the auction of {lot} first", lot=lot_name(act, act.state.auction)
        )
    act.arrive(player, deed)
    if act.state.settings.no_auctions:
        act.say(
            "{player} declines {deed}; it stays with the bank (H3)",
            player=player.name,
            deed=deed.name,
        )
        return
    act.say("{player} declines {deed}", player=player.name, deed=deed.name)
    auction_open(act)


@action("auction_open", label=N_("Auction"), rules="P1, B5", may=("deed", "building"))
def auction_open(act: Act) -> None:
    """P1: a declined deed goes to auction at once; B5: a building the bank is short of."""
    if act.state.auction:
        raise RuleError(
            "P1", "The auction of {lot} is still open", lot=lot_name(act, act.state.auction)
        )
    building = act.payload.get("building")
    lot = deed_lot(act) if building is None else building_lot(act, building)
    act.state.auction = lot
    act.say("the bank auctions {lot}", lot=lot_name(act, lot))


def building_lot(act: Act, building: object) -> Auction:
    """B5: a house or a hotel the bank still has, from the lowest house price."""
    if building not in BUILDINGS:
        raise RuleError("input", "The building is a house or a hotel")
    if building == "hotel" and act.state.hotels < 1:
        raise RuleError("B5", "The bank has no hotel left")
    if building == "house" and act.state.houses < 1:
        raise RuleError("B5", "The bank has no house left")
    return Auction(building=building, deed=None, minimum=lowest_house_price(act))


def deed_lot(act: Act) -> Auction:
    """P1: the deed named, or K3: the next deed a bankruptcy left to the bank."""
    if act.state.settings.no_auctions and not act.state.to_auction:
        raise RuleError("H3", "No auctions in this game: a declined deed stays with the bank")
    if "deed" in act.payload or not act.state.to_auction:
        deed = unowned_deed(act)
    else:
        deed = unowned_deed(act.part({"deed": act.state.to_auction[0]}))
    if deed.index in act.state.to_auction:
        act.state.to_auction.remove(deed.index)
    return Auction(building=None, deed=deed.index, minimum=1)


def running(act: Act) -> Auction:
    if not act.state.auction:
        raise RuleError("P1", "No auction is open")
    return act.state.auction


@action("bid", label=N_("Bid"), rules="P1", needs=("player", "amount"), own_seat="player")
def bid(act: Act) -> None:
    """P1: each bid beats the last and is no more than the bidder's cash."""
    auction, player = running(act), act.player()
    amount = act.amount()
    floor = max(auction.bid + 1, auction.minimum)
    if amount < floor:
        raise RuleError("P1", "A bid must be at least {minimum:money}", minimum=floor)
    if amount > player.cash:
        raise RuleError(
            "P1", "{player} has only {cash:money} in cash", player=player.name, cash=player.cash
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
    rules="P1, B5; deed places a building won",
    may=("deed",),
)
def auction_close(act: Act) -> None:
    """P1: the highest bidder pays the bank; no bid, the deed stays with the bank."""
    auction = running(act)
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
        auction_open(act.part({"deed": act.state.to_auction[0]}))


def place_building(act: Act, winner: PlayerState, auction: Auction) -> None:
    """B5: the building won goes on one of the winner's streets, evenly, for the bid."""
    street = act.deed()
    group = colour_group(act.part({"group": street.group}), winner)
    deeds = [act.state.deeds[i] for i in group.deeds]
    if any(d.mortgaged for d in deeds):
        raise RuleError(
            "B4", "No building on the {group} group while a street is mortgaged", group=group.name
        )
    new = [d.houses for d in deeds]
    at = group.deeds.index(street.index)
    needed = act.state.settings.houses_for_hotel
    if auction.building == "hotel" and not needed <= new[at] < HOTEL:
        raise RuleError(
            "B3", "A hotel needs {count} houses on every street of the group", count=needed
        )
    new[at] = HOTEL if auction.building == "hotel" else new[at] + 1
    heights = [level(n, act.state) for n in new]
    if max(heights) - min(heights) > 1 or (auction.building == "house" and new[at] > 4):
        raise RuleError("B2", "A building on {street} breaks evenness", street=street.name)
    act.pay(winner, None, auction.bid)  # the bid replaces the printed price
    set_levels(act, winner, group, new, pay=False)


# -- bankruptcy --------------------------------------------------------------------------------


@action(
    "bankrupt",
    label=N_("Declare bankruptcy"),
    rules="K1-K3, SG3; no creditor: the bank",
    needs=("player", "owed"),
    may=("creditor", "lift"),
)
def bankrupt(act: Act) -> None:
    """K1-K3, SG3: a player who cannot pay what they owe leaves the game."""
    debtor = act.player()
    owed = act.amount("owed")
    creditor = act.player("creditor") if act.payload.get("creditor") is not None else None
    if creditor is debtor:
        raise RuleError("input", "A player cannot owe themselves")
    could = raisable(act.state, act.edition, debtor.seat)
    if could >= owed:
        raise RuleError(
            "K1",
            "{player} could still raise {raisable:money} by selling and mortgaging: "
            "enough for the {owed:money} owed",
            player=debtor.name,
            owed=owed,
            raisable=could,
        )
    second_short = act.state.settings.mode != "classic" and act.state.bankruptcies >= 1
    to = creditor.name if creditor else Phrase("the bank")
    act.say(
        "{player} is bankrupt, owing {amount:money} to {creditor}",
        player=debtor.name,
        amount=owed,
        creditor=to,
    )
    if second_short:
        hand_everything(act, debtor, creditor)
    elif creditor is not None:
        to_player(act, debtor, creditor)
    else:
        to_bank(act, debtor)
    debtor.bankrupt, debtor.cash, debtor.jail_free = True, 0, []
    debtor.in_jail, debtor.jail_tries = False, 0  # out of the game, out of jail (J3)
    withdraw_bid(act, debtor)
    act.state.bankruptcies += 1
    left = act.state.in_play()
    if second_short or len(left) == 1:
        end(act)


def withdraw_bid(act: Act, debtor: PlayerState) -> None:
    """K2, K3: a player who leaves the game leaves its auction too: their bid is withdrawn
    and the bidding on the lot starts again."""
    auction = act.state.auction
    if auction and auction.bidder == debtor.seat:
        auction.bid, auction.bidder = 0, None
        act.say("{player}'s bid is withdrawn: the bidding starts again", player=debtor.name)


def sell_all_buildings(act: Act, debtor: PlayerState) -> None:
    """Buildings stand only on whole groups (B1), so a built street of the debtor's means a
    whole group of theirs."""
    for group in act.edition.groups.values():
        deeds = [act.state.deeds[i] for i in group.deeds]
        if any(d.houses and d.owner == debtor.seat for d in deeds):
            set_levels(act, debtor, group, [0] * len(deeds))


def to_player(act: Act, debtor: PlayerState, creditor: PlayerState) -> None:
    """K2: buildings sold at half, then cash, deeds and cards to the creditor; M4 on mortgages."""
    sell_all_buildings(act, debtor)
    act.pay(debtor, creditor, debtor.cash)
    held = [act.edition.spaces[i] for i in act.state.held_by(debtor.seat)]
    for space in held:
        act.state.deeds[space.index].owner = creditor.seat
    creditor.jail_free.extend(debtor.jail_free)
    mortgaged = [s for s in held if act.state.deeds[s.index].mortgaged]
    lift_now = {int(x) for x in (act.payload.get("lift") or []) if str(x).isdigit()}
    settle_mortgaged(act, creditor, mortgaged, lift_now)
    act.say(
        "{player} takes the cash and the deeds ({count})", player=creditor.name, count=len(held)
    )


def to_bank(act: Act, debtor: PlayerState) -> None:
    """K3: everything to the bank; every deed unmortgaged and auctioned; cards to their decks."""
    sell_all_buildings(act, debtor)
    act.pay(debtor, None, debtor.cash)
    held = act.state.held_by(debtor.seat)
    for index in held:
        act.state.deeds[index].owner, act.state.deeds[index].mortgaged = None, False
    if not act.state.settings.no_auctions:
        act.state.to_auction.extend(held)
    act.say("the bank takes everything, {count:deeds} included", count=len(held))
    if act.state.to_auction and not act.state.auction:
        auction_open(act.part({"deed": act.state.to_auction[0]}))


def hand_everything(act: Act, debtor: PlayerState, creditor: PlayerState | None) -> None:
    """SG3: the second bankruptcy of a short game: everything, buildings included, as it is."""
    if creditor is None:
        to_bank(act, debtor)
        return
    act.pay(debtor, creditor, debtor.cash)
    for index in act.state.held_by(debtor.seat):
        act.state.deeds[index].owner = creditor.seat
    creditor.jail_free.extend(debtor.jail_free)


def end(act: Act) -> None:
    act.state.ended, act.state.auction, act.state.to_auction = True, None, []
    act.say("the game ends")


@action("end_game", label=N_("End the game"), rules="TL1, SG4")
def end_game(act: Act) -> None:
    """TL1: the end time has come, or the banker ends the game early; scored by SG4."""
    end(act)


# -- dealt deeds and the Free Parking pot ------------------------------------------------------


@action("deal", label=N_("Deal"), rules="SG1, TL1", needs=("hands",))
def deal(act: Act) -> None:
    """SG1, TL1: deeds dealt to each player, who pays the printed price for each at once."""
    hands = act.payload.get("hands")
    if not isinstance(hands, list) or len(hands) != len(act.state.players):
        raise RuleError("input", "Give the deeds dealt to each player, in seat order")
    seen: set[int] = set()
    for player, hand in zip(act.state.players, hands, strict=True):
        if not isinstance(hand, list):
            raise RuleError(
                "input", "The deeds dealt to {player} must be a list", player=player.name
            )
        names = []
        for value in hand:
            index = whole_number(value, "A deed", 0, len(act.edition.spaces) - 1)
            space = act.edition.spaces[index]
            waiting = index in act.state.to_auction or act.state.auctioning(index)  # P1, K3
            if (
                not space.is_deed
                or index in seen
                or act.state.deeds[index].owner is not None
                or waiting
            ):
                raise RuleError("SG1", "{deed} cannot be dealt", deed=space.name)
            seen.add(index)
            act.pay(player, None, space.price)
            act.state.deeds[index].owner = player.seat
            names.append(space.name)
        act.say("{player} is dealt {deeds}", player=player.name, deeds=", ".join(names) or "—")


@action("parking_pot", label=N_("Take the pot"), rules="H1", needs=("player",))
def parking_pot(act: Act) -> None:
    """H1: the player on Free Parking takes the pot."""
    player = act.player()
    if not act.state.settings.free_parking_jackpot:
        raise RuleError("H1", "This game has no Free Parking jackpot")
    if not act.state.pot:
        raise RuleError("H1", "The Free Parking pot is empty")
    jackpot = take_pot(act, player)
    act.say(
        "{player} takes the Free Parking pot of {amount:money}", player=player.name, amount=jackpot
    )
