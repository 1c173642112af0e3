"""Buildings, mortgages and trades: B1-B7, M1-M5, X1-X3, SG2."""

from __future__ import annotations

import math

from .actions import Turn, action, whole_number
from .edition import Group
from .errors import RuleError
from .state import HOTEL, GameState, PlayerState


def lift_cost(mortgage: int) -> int:
    """M3: the mortgage value plus 10% interest, rounded up (Park Place: 175 + 18 = 193)."""
    return mortgage + interest(mortgage)


def interest(mortgage: int) -> int:
    """M4: the 10% a new owner of a mortgaged deed pays at once, rounded up."""
    return math.ceil(mortgage / 10)


def level(houses: int, state: GameState) -> int:
    """A street's height for building evenly (B2): a hotel is one above the houses it needs."""
    return state.settings.houses_for_hotel + 1 if houses == HOTEL else houses


def street_change(old: int, new: int, price: int, needed: int) -> tuple[int, int]:
    """What changing one street from `old` to `new` costs (+) or refunds (-), and the houses
    it takes from the bank, going one building at a time (B3, B6)."""
    money = houses = 0
    if old == HOTEL and new != HOTEL:
        money -= price // 2  # the hotel is broken down to `needed` houses (B6)
        houses += needed
        old = needed
    if new == HOTEL and old != HOTEL:
        money += price * max(0, needed - old) + price  # up to the houses needed, then the hotel
        houses -= max(old, needed)  # the houses go back to the bank (B3)
        houses += max(0, needed - old)
        return money, houses
    if new > old:
        money += (new - old) * price
    elif new < old:
        money -= (old - new) * (price // 2)
    houses += new - old if new != HOTEL else 0
    return money, houses


def colour_group(turn: Turn, player: PlayerState) -> Group:
    group = turn.edition.groups.get(turn.payload.get("group"))
    if group is None or group.house_price is None:
        raise RuleError("input", "Choose a colour group")
    strangers = [i for i in group.deeds if turn.state.deeds[i].owner != player.seat]
    if strangers:
        names = ", ".join(turn.edition.spaces[i].name for i in strangers)
        raise RuleError("B1", f"{player.name} does not hold the whole {group.name} group: {names}")
    return group


def wanted_levels(turn: Turn, group: Group) -> list[int]:
    raw = turn.payload.get("levels")
    if isinstance(raw, str):
        raw = [part.strip() for part in raw.split(",")]
    if not isinstance(raw, list) or len(raw) != len(group.deeds):
        raise RuleError(
            "input", f"Give a building level for each of the {len(group.deeds)} streets"
        )
    return [whole_number(x, "A building level", 0, HOTEL) for x in raw]


def describe_level(houses: int) -> str:
    if houses == HOTEL:
        return "a hotel"
    return "no buildings" if houses == 0 else f"{houses} house{'s' if houses > 1 else ''}"


@action("build")
def build(turn: Turn) -> None:
    """Set every street of a colour group to new building levels at once (B1-B6, SG2).

    `levels` lists the new level of each street in board order: 0-4 houses, 5 a hotel.
    Building up pays the house price; selling down refunds half (B6).
    """
    player = turn.player()
    group = colour_group(turn, player)
    new = wanted_levels(turn, group)
    deeds = [turn.state.deeds[i] for i in group.deeds]
    old = [d.houses for d in deeds]
    if new == old:
        raise RuleError("input", "That is what is built already")
    if any(n > o for n, o in zip(new, old, strict=True)) and any(d.mortgaged for d in deeds):
        raise RuleError("B4", f"No building on the {group.name} group while a street is mortgaged")
    heights = [level(n, turn.state) for n in new]
    if max(heights) - min(heights) > 1:
        raise RuleError("B2", "Build evenly: no street may be more than one house above another")
    needed = turn.state.settings.houses_for_hotel
    if HOTEL in new and min(heights) < needed:
        raise RuleError("B3", f"A hotel needs {needed} houses on every street of the group")
    cost = set_levels(turn, player, group, new)
    names = [turn.edition.spaces[i].name for i in group.deeds]
    plan = ", ".join(f"{describe_level(n)} on {name}" for n, name in zip(new, names, strict=True))
    verb = f"pays {turn.money(cost)}" if cost >= 0 else f"gets {turn.money(-cost)} back"
    turn.say(f"{player.name} {verb} for {plan}")
    turn.say(f"the bank has {turn.state.houses} houses and {turn.state.hotels} hotels left")


def set_levels(turn: Turn, player: PlayerState, group: Group, new: list[int]) -> int:
    """Move the group's buildings to `new`, with the bank's supply and money; returns the cost
    (negative: a refund)."""
    deeds = [turn.state.deeds[i] for i in group.deeds]
    old = [d.houses for d in deeds]
    needed = turn.state.settings.houses_for_hotel
    changes = [
        street_change(o, n, group.house_price, needed) for o, n in zip(old, new, strict=True)
    ]
    houses = sum(h for _, h in changes)
    hotels = new.count(HOTEL) - old.count(HOTEL)
    check_supply(turn, old, new, houses, hotels)
    cost = sum(m for m, _ in changes)
    if cost > 0:
        turn.pay(player, None, cost)
    else:
        turn.pay(None, player, -cost)
    turn.state.houses -= houses
    turn.state.hotels -= hotels
    for deed, houses_now in zip(deeds, new, strict=True):
        deed.houses = houses_now
    return cost


def check_supply(turn: Turn, old: list[int], new: list[int], houses: int, hotels: int) -> None:
    """S3, B5, B6: the bank's houses and hotels are finite."""
    state = turn.state
    breaking = any(o == HOTEL and n != HOTEL for o, n in zip(old, new, strict=True))
    if houses > state.houses:
        if breaking:
            raise RuleError(
                "B6",
                f"Breaking the hotels down needs {houses} houses and the bank has "
                f"{state.houses}: sell the hotels as one (to no buildings) instead",
                bank_houses=state.houses,
            )
        raise RuleError(
            "B5",
            f"The bank has {state.houses} houses; this needs {houses}",
            bank_houses=state.houses,
        )
    if hotels > state.hotels:
        raise RuleError(
            "B5",
            f"The bank has {state.hotels} hotels; this needs {hotels}",
            bank_hotels=state.hotels,
        )


# -- mortgages ---------------------------------------------------------------------------------


def own_deed(turn: Turn, player: PlayerState):
    deed = turn.deed()
    if turn.state.deeds[deed.index].owner != player.seat:
        raise RuleError("M5", f"{deed.name} is not {player.name}'s deed")
    return deed


def sell_group_buildings(turn: Turn, player: PlayerState, index: int) -> None:
    """M1: every building of the group goes back to the bank at half price."""
    group = turn.edition.group_of(index)
    if group.house_price is None or not any(turn.state.deeds[i].houses for i in group.deeds):
        return
    refund = -set_levels(turn, player, group, [0] * len(group.deeds))
    turn.say(f"{player.name} sells the {group.name} buildings for {turn.money(refund)}")


@action("mortgage")
def mortgage(turn: Turn) -> None:
    """M1: the bank pays the mortgage value, after the group's buildings are sold back."""
    player = turn.player()
    deed = own_deed(turn, player)
    if turn.state.deeds[deed.index].mortgaged:
        raise RuleError("M1", f"{deed.name} is already mortgaged")
    sell_group_buildings(turn, player, deed.index)
    turn.state.deeds[deed.index].mortgaged = True
    turn.pay(None, player, deed.mortgage)
    turn.say(f"{player.name} mortgages {deed.name} for {turn.money(deed.mortgage)}")


@action("lift")
def lift(turn: Turn) -> None:
    """M3, M5: only the owner lifts, paying the value plus 10%."""
    player = turn.player()
    deed = own_deed(turn, player)
    if not turn.state.deeds[deed.index].mortgaged:
        raise RuleError("M3", f"{deed.name} is not mortgaged")
    cost = lift_cost(deed.mortgage)
    turn.pay(player, None, cost)
    turn.state.deeds[deed.index].mortgaged = False
    turn.say(f"{player.name} lifts the mortgage on {deed.name} for {turn.money(cost)}")


# -- trades ------------------------------------------------------------------------------------


def trade_side(turn: Turn, key: str, player: PlayerState) -> dict:
    raw = turn.payload.get(key) or {}
    if not isinstance(raw, dict):
        raise RuleError("input", f"{key} must list cash, deeds and jail_free cards")
    cash = raw.get("cash") or 0
    cash = 0 if cash in (0, "0", "") else whole_number(cash, "The cash in a trade")
    deeds = raw.get("deeds") or []
    if not isinstance(deeds, list):
        raise RuleError("input", "deeds must be a list of spaces")
    spaces = []
    for value in deeds:
        index = whole_number(value, "A deed", 0, len(turn.edition.spaces) - 1)
        space = turn.edition.spaces[index]
        if not space.is_deed or turn.state.deeds[index].owner != player.seat:
            raise RuleError("X1", f"{space.name} is not {player.name}'s deed")
        spaces.append(space)
    if len({s.index for s in spaces}) < len(spaces):
        raise RuleError("input", "A deed is listed twice")
    cards = whole_number(raw.get("jail_free") or 0, "Jail free cards", 0, 2)
    if cards > len(player.jail_free):
        raise RuleError("C3", f"{player.name} holds {len(player.jail_free)} jail free cards")
    return {"cash": cash, "deeds": spaces, "jail_free": cards}


def check_unbuilt(turn: Turn, spaces: list) -> None:
    """X1: no deed of a group with buildings changes hands."""
    for space in spaces:
        group = turn.edition.group_of(space.index)
        if any(turn.state.deeds[i].houses for i in group.deeds):
            raise RuleError(
                "X1", f"The {group.name} group has buildings: sell them to the bank first"
            )


def hand_over(turn: Turn, giver: PlayerState, taker: PlayerState, side: dict) -> list:
    for space in side["deeds"]:
        turn.state.deeds[space.index].owner = taker.seat
    for _ in range(side["jail_free"]):
        taker.jail_free.append(giver.jail_free.pop(0))
    giver.cash -= side["cash"]
    taker.cash += side["cash"]
    return [s for s in side["deeds"] if turn.state.deeds[s.index].mortgaged]


def settle_mortgaged(turn: Turn, taker: PlayerState, received: list, lift_now: set[int]) -> None:
    """M4: 10% at once for each mortgaged deed received, or the value as well to lift it now."""
    for space in received:
        if space.index in lift_now:
            cost = lift_cost(space.mortgage)
            turn.pay(taker, None, cost)
            turn.state.deeds[space.index].mortgaged = False
            turn.say(f"{taker.name} lifts {space.name} now for {turn.money(cost)}")
        else:
            fee = interest(space.mortgage)
            turn.pay(taker, None, fee)
            turn.say(
                f"{taker.name} pays {turn.money(fee)} interest and keeps {space.name} mortgaged"
            )


def describe_side(turn: Turn, side: dict) -> str:
    parts = [s.name for s in side["deeds"]]
    if side["cash"]:
        parts.append(turn.money(side["cash"]))
    if side["jail_free"]:
        parts.append(f"{side['jail_free']} Get Out of Jail Free")
    return ", ".join(parts) or "nothing"


@action("trade")
def trade(turn: Turn) -> None:
    """X1-X3, M4, C3: cash, deeds and jail free cards both ways between two players."""
    player, partner = turn.player(), turn.player("partner")
    if player is partner:
        raise RuleError("input", "A trade needs two different players")
    give, take = trade_side(turn, "give", player), trade_side(turn, "take", partner)
    if not (give["deeds"] or give["cash"] or give["jail_free"]) or not (
        take["deeds"] or take["cash"] or take["jail_free"]
    ):
        raise RuleError("X1", "Each side of a trade gives something")
    if give["cash"] and take["cash"]:
        raise RuleError("input", "Cash goes one way in a trade: give the difference")
    check_unbuilt(turn, give["deeds"] + take["deeds"])
    for payer, side in ((player, give), (partner, take)):
        if payer.cash < side["cash"]:
            raise turn.shortfall(payer, side["cash"])
    lift_now = {int(x) for x in (turn.payload.get("lift") or []) if str(x).isdigit()}
    turn.say(
        f"{player.name} trades {describe_side(turn, give)} to {partner.name} "
        f"for {describe_side(turn, take)}"
    )
    to_partner = hand_over(turn, player, partner, give)
    to_player = hand_over(turn, partner, player, take)
    settle_mortgaged(turn, partner, to_partner, lift_now)
    settle_mortgaged(turn, player, to_player, lift_now)
