"""Buildings, mortgages and trades: B1-B7, M1-M5, X1-X3, SG2."""

from __future__ import annotations

import heapq
import math

from .actions import ALWAYS, TURNS, Act, action, whole_number
from .edition import Edition, Group
from .errors import RuleError
from .state import HOTEL, RECEIVED, GameState, Pending, PlayerState, TradeOffer
from .words import N_, Phrase


def lift_cost(mortgage: int) -> int:
    """M3: the mortgage value plus 10% interest, rounded up (Park Place: 175 + 18 = 193)."""
    return mortgage + interest(mortgage)


def interest(mortgage: int) -> int:
    """M4: the 10% a new owner of a mortgaged deed pays at once, rounded up."""
    return math.ceil(mortgage / 10)


def level(houses: int, state: GameState) -> int:
    """A street's height for building evenly (B2): a hotel is one above the houses it needs."""
    return height(houses, state.settings.houses_for_hotel)


def height(houses: int, needed: int) -> int:
    return needed + 1 if houses == HOTEL else houses


def street_steps(old: int, new: int, needed: int) -> list[int]:
    """The levels one street passes through from `old` to `new`, one building at a time:
    a hotel is broken down to the houses it needs first (B6), a hotel is bought once the
    street has those houses (B3), and only those go back for it: a fourth house of the short
    game (SG2) is sold back first (B6)."""
    steps, at = [], old
    if at == HOTEL and new != HOTEL:
        at = needed
        steps.append(at)
    if new == HOTEL and at != HOTEL:
        toward = 1 if at < needed else -1
        steps.extend(range(at + toward, needed + toward, toward))
        return [*steps, HOTEL]
    step = 1 if new > at else -1
    return [*steps, *range(at + step, new + step, step)]  # none when `at` is `new` already


def step_cost(before: int, after: int, price: int) -> int:
    """One building bought (+ the house price) or sold back (- half of it) (B1, B3, B6)."""
    if after == HOTEL or (before != HOTEL and after > before):
        return price
    return -(price // 2)  # a house sold, or a hotel broken down to houses


def street_change(old: int, new: int, price: int, needed: int) -> int:
    """What changing one street from `old` to `new` costs (+) or refunds (-)."""
    levels = [old, *street_steps(old, new, needed)]
    return sum(step_cost(a, b, price) for a, b in zip(levels, levels[1:], strict=False))


def on_board(levels) -> tuple[int, int]:
    """The houses and the hotels standing on streets at these levels."""
    return sum(n for n in levels if n != HOTEL), sum(n == HOTEL for n in levels)


def whole_groups(state: GameState, edition: Edition, seat: int) -> list[Group]:
    """B1: the colour groups `seat` holds whole, the ones a building may go on."""
    return [
        group
        for group in edition.groups.values()
        if group.house_price and all(state.deeds[i].owner == seat for i in group.deeds)
    ]


def colour_group(act: Act, player: PlayerState) -> Group:
    group = act.edition.groups.get(act.text("group"))
    if group is None or group.house_price is None:
        raise RuleError("input", "Choose a colour group")
    strangers = [i for i in group.deeds if act.state.deeds[i].owner != player.seat]
    if strangers:
        names = ", ".join(act.edition.spaces[i].name for i in strangers)
        raise RuleError(
            "B1",
            "{player} does not hold the whole {group} group: {missing}",
            player=player,
            group=Phrase(group.name),
            missing=names,
        )
    return group


def wanted_levels(act: Act, group: Group) -> list[int]:
    raw = act.payload.get("levels")
    if isinstance(raw, str):
        raw = [part.strip() for part in raw.split(",")]
    if not isinstance(raw, list) or len(raw) != len(group.deeds):
        raise RuleError(
            "input", "Give a building level for each of the {count} streets", count=len(group.deeds)
        )
    return [whole_number(x, "A building level", 0, HOTEL) for x in raw]


def say_level(act: Act, houses: int, street: str) -> None:
    if houses == HOTEL:
        act.say("a hotel on {street}", street=street)
    elif houses == 0:
        act.say("no buildings on {street}", street=street)
    elif houses == 1:
        act.say("1 house on {street}", street=street)
    else:
        act.say("{count} houses on {street}", count=houses, street=street)


@action(
    "build",
    label=N_("Build"),
    rules="B1-B7: every street's level, 0-4 houses or 5 for a hotel",
    needs=("player", "group", "levels"),
    phone=TURNS,
)
def build(act: Act) -> None:
    """Set every street of a colour group to new building levels at once (B1-B6, SG2).

    `levels` lists the new level of each street in board order: 0-4 houses, 5 a hotel.
    Building up pays the house price; selling down refunds half (B6).
    """
    player = act.player()
    group = colour_group(act, player)
    new = wanted_levels(act, group)
    deeds = [act.state.deeds[i] for i in group.deeds]
    old = [d.houses for d in deeds]
    if new == old:
        raise RuleError("input", "That is what is built already")
    if any(n > o for n, o in zip(new, old, strict=True)):
        act.clear_of_debt(player)  # K1: a debtor sells buildings, builds none
        if any(d.mortgaged for d in deeds):
            raise RuleError(
                "B4",
                "No building on the {group} group while a street is mortgaged",
                group=Phrase(group.name),
            )
    heights = [level(n, act.state) for n in new]
    if max(heights) - min(heights) > 1:
        raise RuleError("B2", "Build evenly: no street may be more than one house above another")
    needed = act.state.settings.houses_for_hotel
    if HOTEL in new and min(heights) < needed:
        raise RuleError(
            "B3", "A hotel needs {count} houses on every street of the group", count=needed
        )
    cost = set_levels(act, player, group, new)
    if cost >= 0:
        act.say("{player} pays the bank {amount:money} to build", player=player.name, amount=cost)
    else:
        act.say("{player} sells to the bank for {amount:money}", player=player.name, amount=-cost)
    for index, houses in zip(group.deeds, new, strict=True):
        say_level(act, houses, act.edition.spaces[index].name)
    act.say(
        "the bank has {houses:houses} and {hotels:hotels} left",
        houses=act.state.houses,
        hotels=act.state.hotels,
    )


def set_levels(
    act: Act, player: PlayerState, group: Group, new: list[int], pay: bool = True
) -> int:
    """Move the group's buildings to `new`, with the bank's supply and (unless `pay` is off:
    a building won at auction) the money; returns the cost, negative for a refund."""
    deeds = [act.state.deeds[i] for i in group.deeds]
    old = [d.houses for d in deeds]
    needed = act.state.settings.houses_for_hotel
    check_supply(act, old, new)
    cost = sum(
        street_change(o, n, group.house_price, needed) for o, n in zip(old, new, strict=True)
    )
    if pay and cost > 0:
        act.pay(player, None, cost)
    elif pay:
        act.pay(None, player, -cost)
    (houses_then, hotels_then), (houses_now, hotels_now) = on_board(old), on_board(new)
    act.state.houses -= houses_now - houses_then
    act.state.hotels -= hotels_now - hotels_then
    for deed, houses in zip(deeds, new, strict=True):
        deed.houses = houses
    return cost


def check_supply(act: Act, old: list[int], new: list[int]) -> None:
    """S3, B5, B6: the bank's houses and hotels are finite, at every step on the way to the
    target, not only at the end: a hotel broken down takes its houses from the bank first."""
    state = act.state
    if not any(new):
        return  # the whole group sold at once, hotels as one (B6): buildings only go back
    needed = state.settings.houses_for_hotel
    hotels = least_needed(old, new, needed, HOTELS)
    if hotels == math.inf:
        raise RuleError("B2", "Build evenly: no street may be more than one house above another")
    if hotels > state.hotels:
        raise RuleError(
            "B5",
            "The bank has {hotels:hotels}; this needs {needed}",
            hotels=state.hotels,
            needed=hotels,
        )
    houses = least_needed(old, new, needed, HOUSES, most_hotels=state.hotels)
    if houses <= state.houses:
        return
    if any(o == HOTEL and n != HOTEL for o, n in zip(old, new, strict=True)):
        raise RuleError(
            "B6",
            "Breaking the hotels down needs {needed:houses} and the bank has {houses}: "
            "sell the hotels as one (to no buildings) instead",
            needed=houses,
            houses=state.houses,
        )
    raise RuleError(
        "B5",
        "The bank has {houses:houses}; building this evenly needs {needed} of them",
        houses=state.houses,
        needed=houses,
    )


HOUSES, HOTELS = 0, 1


def even(levels: list[int], needed: int) -> bool:
    """B2 and B3 at one moment: heights within one of each other, hotels only on a full group."""
    heights = [height(n, needed) for n in levels]
    low = min(heights)
    return max(heights) - low <= 1 and (HOTEL not in levels or low >= needed)


def least_needed(
    old: list[int], new: list[int], needed: int, measure: int, most_hotels: float = math.inf
) -> float:
    """The fewest houses (or hotels, by `measure`) the bank must hold for the group to go from
    `old` to `new` one building at a time, even at every step (B2, B3, B6), never handing out
    more than `most_hotels` hotels at once; infinity when there is no such way.

    Each street walks its own steps (street_steps); the search tries every order of them and
    keeps the one whose largest hand-out is smallest (a Dijkstra over at most 6^3 states)."""
    paths = [[o, *street_steps(o, n, needed)] for o, n in zip(old, new, strict=True)]
    start = on_board(old)
    goal = tuple(len(p) - 1 for p in paths)
    best = {(0,) * len(paths): 0}
    queue: list[tuple[int, tuple[int, ...]]] = [(0, (0,) * len(paths))]
    while queue:
        peak, at = heapq.heappop(queue)
        if at == goal:
            return peak
        if peak > best[at]:
            continue
        for k in (k for k in range(len(paths)) if at[k] < goal[k]):
            step = (*at[:k], at[k] + 1, *at[k + 1 :])
            levels = [path[i] for path, i in zip(paths, step, strict=True)]
            out = [now - then for now, then in zip(on_board(levels), start, strict=True)]
            if out[HOTELS] > most_hotels or not even(levels, needed):
                continue
            worst = max(peak, out[measure])
            if worst < best.get(step, math.inf):
                best[step] = worst
                heapq.heappush(queue, (worst, step))
    return math.inf


# -- mortgages ---------------------------------------------------------------------------------


def own_deed(act: Act, player: PlayerState):
    deed = act.deed()
    if act.state.deeds[deed.index].owner != player.seat:
        raise RuleError("M5", "{deed} is not {player}'s deed", deed=deed.name, player=player)
    return deed


def sell_group_buildings(act: Act, player: PlayerState, index: int) -> tuple[int, int]:
    """M1: every building of the group goes back to the bank at half price; returns the
    houses and hotels that went back."""
    group = act.edition.group_of(index)
    if group.house_price is None or not any(act.state.deeds[i].houses for i in group.deeds):
        return 0, 0
    standing = on_board([act.state.deeds[i].houses for i in group.deeds])
    refund = -set_levels(act, player, group, [0] * len(group.deeds))
    act.say(
        "{player} sells the {group} buildings for {amount:money}",
        player=player.name,
        group=Phrase(group.name),
        amount=refund,
    )
    return standing


def say_back_to_bank(act: Act, houses: int, hotels: int) -> None:
    """Which buildings the banker takes off the board, and what the bank then holds."""
    if houses and hotels:
        act.say(
            "{houses:houses} and {hotels:hotels} go back to the bank", houses=houses, hotels=hotels
        )
    elif houses == 1:
        act.say("a house goes back to the bank")
    elif hotels == 1:
        act.say("a hotel goes back to the bank")
    elif houses:
        act.say("{houses:houses} go back to the bank", houses=houses)
    elif hotels:
        act.say("{hotels:hotels} go back to the bank", hotels=hotels)
    else:
        return
    act.say(
        "the bank has {houses:houses} and {hotels:hotels} left",
        houses=act.state.houses,
        hotels=act.state.hotels,
    )


@action("mortgage", label=N_("Mortgage"), rules="M1", needs=("player", "deed"), phone=TURNS)
def mortgage(act: Act) -> None:
    """M1: the bank pays the mortgage value, after the group's buildings are sold back."""
    player = act.player()
    deed = own_deed(act, player)
    if act.state.deeds[deed.index].mortgaged:
        raise RuleError("M1", "{deed} is already mortgaged", deed=deed.name)
    sold = sell_group_buildings(act, player, deed.index)
    act.state.deeds[deed.index].mortgaged = True
    act.pay(None, player, deed.mortgage)
    act.say(
        "{player} mortgages {deed} for {amount:money}",
        player=player.name,
        deed=deed.name,
        amount=deed.mortgage,
    )
    say_back_to_bank(act, *sold)


def pay_lift(act: Act, owner: PlayerState, deed, sentence: str) -> None:
    """M3, M4: the owner pays the value plus 10% and the deed is free of its mortgage;
    `sentence` says so with {player}, {deed} and {amount}."""
    cost = lift_cost(deed.mortgage)
    act.pay(owner, None, cost)
    act.state.deeds[deed.index].mortgaged = False
    act.say(sentence, player=owner.name, deed=deed.name, amount=cost)


@action(
    "lift",
    label=N_("Lift the mortgage"),
    rules="M3; M4: a mortgaged deed just received, lifted at once for the same sum",
    needs=("player", "deed"),
    phone=TURNS,
)
def lift(act: Act) -> None:
    """M3, M5: only the owner lifts, paying the value plus 10%. M4: a deed received whose
    choice waits is lifted at once for that sum too (the 10% due on receiving it, and the
    value), and the choice is made."""
    player = act.player()
    deed = own_deed(act, player)
    if not act.state.deeds[deed.index].mortgaged:
        raise RuleError("M3", "{deed} is not mortgaged", deed=deed.name)
    act.clear_of_debt(player)
    choice = choice_waiting(act.state, player.seat, deed.index)
    if choice is None:
        said = N_("{player} lifts the mortgage on {deed} for {amount:money}")
    else:
        act.state.pending.remove(choice)
        said = N_("{player} lifts {deed} now for {amount:money}")
    pay_lift(act, player, deed, said)


# -- M4: a mortgaged deed received -------------------------------------------------------------


def choice_waiting(state: GameState, seat: int, index: int) -> Pending | None:
    """M4: the lift-now-or-keep choice that waits for `seat` on the deed it received."""
    return next((p for p in state.waiting(RECEIVED, seat) if p.space == index), None)


def may_lift_now(state: GameState, edition: Edition, seat: int, index: int) -> bool:
    """M4: the new owner's cash (beside what a standing bid keeps, P1) covers lifting the deed
    now, and they owe no debt (K1: a debtor lifts nothing)."""
    player, auction = state.players[seat], state.auction
    kept = auction.bid if auction and auction.bidder == seat else 0
    cost = lift_cost(edition.spaces[index].mortgage)
    return player.cash - kept >= cost and not state.debts_of(seat)


def await_choices(act: Act, taker: PlayerState, received: list) -> None:
    """M4: the new owner was not asked with the action: each mortgaged deed received waits
    for their choice, lift it now or keep it mortgaged (nothing is paid until then)."""
    for space in received:
        act.state.pending.append(Pending(RECEIVED, taker.seat, space.index))
        act.say(
            "{player} chooses whether to lift {deed} now or keep it mortgaged",
            player=taker.name,
            deed=space.name,
        )


@action(
    "keep_mortgaged",
    label=N_("Keep it mortgaged"),
    rules="M4: the new owner of a mortgaged deed keeps it mortgaged, paying the 10% now",
    needs=("player", "deed"),
    phone=TURNS,
)
def keep_mortgaged(act: Act) -> None:
    """M4: the new owner keeps the deed mortgaged and pays the bank 10% now (owed as a debt
    when the cash does not cover it, K1); lifting it later costs the value plus 10% (M3)."""
    player = act.player()
    deed = act.deed()
    choice = choice_waiting(act.state, player.seat, deed.index)
    if choice is None:
        raise RuleError(
            "M4", "No choice waits for {player} on {deed}", player=player, deed=deed.name
        )
    act.state.pending.remove(choice)
    settle_mortgaged(act, player, [deed], set(), owe=True)


def keep_what_waits(act: Act) -> None:
    """M4 at the game's end: every new owner still to choose keeps the deed mortgaged and pays
    the bank the 10% now, or owes it (K1), as `keep_mortgaged` does. Lifting is the new
    owner's option; the 10% is what M4 asks of them all, and SG4 scores both alike (Park Place
    lifted: 175 + 18 paid, 350 counted; kept: 18 paid, 175 counted)."""
    for choice in act.state.waiting(RECEIVED):
        act.state.pending.remove(choice)
        owner, deed = act.state.players[choice.seat], act.edition.spaces[choice.space]
        settle_mortgaged(act, owner, [deed], set(), owe=True)


# -- trades ------------------------------------------------------------------------------------


def trade_side(act: Act, key: str, player: PlayerState) -> dict:
    raw = act.payload.get(key) or {}
    if not isinstance(raw, dict):
        raise RuleError("input", "{side} must list cash, deeds and jail_free cards", side=key)
    cash = raw.get("cash") or 0
    cash = 0 if cash in (0, "0", "") else whole_number(cash, "The cash in a trade")
    deeds = raw.get("deeds") or []
    if not isinstance(deeds, list):
        raise RuleError("input", "deeds must be a list of spaces")
    spaces = []
    for value in deeds:
        index = whole_number(value, "A deed", 0, len(act.edition.spaces) - 1)
        space = act.edition.spaces[index]
        if not space.is_deed or act.state.deeds[index].owner != player.seat:
            raise RuleError("X1", "{deed} is not {player}'s deed", deed=space.name, player=player)
        spaces.append(space)
    if len({s.index for s in spaces}) < len(spaces):
        raise RuleError("input", "A deed is listed twice")
    cards = whole_number(raw.get("jail_free") or 0, "Jail free cards", 0, 2)
    if cards > len(player.jail_free):
        raise RuleError(
            "C3",
            "{player} holds {count:cards}",
            player=player,
            count=len(player.jail_free),
        )
    return {"cash": cash, "deeds": spaces, "jail_free": cards}


def check_unbuilt(act: Act, spaces: list) -> None:
    """X1: no deed of a group with buildings changes hands; M4: nor a deed whose new owner
    has still to choose to lift it now or keep it mortgaged."""
    for space in spaces:
        owner = act.state.deeds[space.index].owner
        if owner is not None and choice_waiting(act.state, owner, space.index):
            raise RuleError(
                "M4",
                "{player} first chooses whether to lift {deed} now or keep it mortgaged",
                player=act.state.players[owner],
                deed=space.name,
            )
        group = act.edition.group_of(space.index)
        if any(act.state.deeds[i].houses for i in group.deeds):
            raise RuleError(
                "X1",
                "The {group} group has buildings: sell them to the bank first",
                group=Phrase(group.name),
            )


def give_side(act: Act, giver: PlayerState, taker: PlayerState, side: dict) -> list:
    for space in side["deeds"]:
        act.state.deeds[space.index].owner = taker.seat
    for _ in range(side["jail_free"]):
        taker.jail_free.append(giver.jail_free.pop(0))
    act.pay(giver, taker, side["cash"])
    return [s for s in side["deeds"] if act.state.deeds[s.index].mortgaged]


def m4_charge(act: Act, received: list, lift_now: set[int]) -> int:
    """M4: what the new owner of these deeds pays the bank at once: 10% of each mortgaged
    one kept mortgaged, or its value plus 10% to lift it now."""
    total = 0
    for space in received:
        if act.state.deeds[space.index].mortgaged:
            lifted = space.index in lift_now
            total += lift_cost(space.mortgage) if lifted else interest(space.mortgage)
    return total


def settle_mortgaged(
    act: Act, taker: PlayerState, received: list, lift_now: set[int], owe: bool = False
) -> None:
    """M4: 10% at once for each mortgaged deed received, or the value as well to lift it now.
    `owe`: a creditor who cannot pay the 10% owes it (K2), instead of the whole being refused."""
    for space in received:
        if space.index in lift_now:
            pay_lift(act, taker, space, N_("{player} lifts {deed} now for {amount:money}"))
            continue
        fee = interest(space.mortgage)
        words = (
            N_("{player} pays {amount:money} interest and keeps {deed} mortgaged"),
            N_("{player} owes {amount:money} interest and keeps {deed} mortgaged"),
        )
        if owe:
            act.owe(taker, None, fee, words, player=taker.name, deed=space.name)
        else:
            act.pay(taker, None, fee)
            act.say(words[0], player=taker.name, amount=fee, deed=space.name)


def say_side(act: Act, giver: PlayerState, taker: PlayerState, side: dict) -> None:
    names = {"giver": giver.name, "taker": taker.name}
    for space in side["deeds"]:
        act.say("{deed} from {giver} to {taker}", deed=space.name, **names)
    if side["cash"]:
        act.say("{amount:money} from {giver} to {taker}", amount=side["cash"], **names)
    if side["jail_free"]:
        act.say("{count:cards} from {giver} to {taker}", count=side["jail_free"], **names)


def trade_parties(act: Act) -> tuple[PlayerState, PlayerState]:
    """X1, K2, K3: who a trade is between (its `player` and `partner`): two players at the
    table, both still in the game (a bankrupt player holds nothing and trades nothing)."""
    player, partner = act.player(), act.player("partner")
    if player is partner:
        raise RuleError("input", "A trade needs two different players")
    return player, partner


def check_trade_parties(state: GameState, edition: Edition, trade: dict) -> None:
    """A trade's players checked before its sides are chosen (a page drawing a trade):
    refused as the trade itself would be (`trade_parties`)."""
    trade_parties(Act(state, edition, trade))


@action(
    "trade",
    label=N_("Trade"),
    rules="X1-X3, M4, C3; lift: the new owners' lift-now choice (the others kept); left out, "
    "each mortgaged deed received waits for its new owner's choice",
    needs=("player", "partner"),
    may=("give", "take", "lift"),
)
def trade(act: Act) -> None:
    """X1-X3, M4, C3: cash, deeds and jail free cards both ways between two players."""
    player, partner = trade_parties(act)
    give, take = trade_side(act, "give", player), trade_side(act, "take", partner)
    if not (give["deeds"] or give["cash"] or give["jail_free"]) or not (
        take["deeds"] or take["cash"] or take["jail_free"]
    ):
        raise RuleError("X1", "Each side of a trade gives something")
    if give["cash"] and take["cash"]:
        raise RuleError("input", "Cash goes one way in a trade: give the difference")
    check_unbuilt(act, give["deeds"] + take["deeds"])
    lift_now = deed_ids(act.payload.get("lift"))
    asked = choices_carried(act, give["deeds"] + take["deeds"])
    for payer, gives, gets in ((player, give, take), (partner, take, give)):
        chosen = [space for space in gets["deeds"] if space.index in asked]
        due = gives["cash"] + m4_charge(act, chosen, lift_now) - gets["cash"]
        if due > 0:
            act.clear_of_debt(payer)  # K1: a debtor raises money in a trade, spends none
        if due > payer.cash:
            raise act.shortfall(payer, due)  # X2: no loans, not even from the partner
    act.say("{player} trades with {partner}", player=player.name, partner=partner.name)
    say_side(act, player, partner, give)
    say_side(act, partner, player, take)
    to_partner = give_side(act, player, partner, give)
    to_player = give_side(act, partner, player, take)
    for taker, received in ((partner, to_partner), (player, to_player)):
        settle_mortgaged(act, taker, [s for s in received if s.index in asked], lift_now)
        await_choices(act, taker, [s for s in received if s.index not in asked])


def deed_ids(listed: object) -> set[int]:
    """The deeds a `lift` or `keep` list names (numbers, or form text)."""
    return {int(x) for x in (listed or []) if str(x).isdigit()}


def choices_carried(act: Act, spaces: list) -> set[int]:
    """M4: the deeds of a trade whose new owner's lift-now choice the trade carries: those it
    lifts (`lift`) or keeps (`keep`: an offer's answers). A trade with `lift` and no `keep`
    (the banker's page: the others are kept) carries them all, as every trade did under rules
    2 and 3. Each other mortgaged deed waits for its new owner's choice."""
    payload = act.payload
    banker_s = "lift" in payload and "keep" not in payload
    if banker_s or not act.state.settings.trade_receiver_chooses:
        return {space.index for space in spaces}
    return deed_ids(payload.get("lift")) | deed_ids(payload.get("keep"))


# -- trades offered to a player's own phone ------------------------------------------------------


def lift_list(act: Act) -> list:
    chosen = act.payload.get("lift") or []
    if not isinstance(chosen, list):
        raise RuleError("input", "lift must be a list of deeds")
    return chosen


def deeds_named(side: object) -> set[str]:
    """The deeds one side of a trade lists, as text (a side is checked by `trade_side`)."""
    deeds = side.get("deeds") if isinstance(side, dict) else None
    return {str(index) for index in deeds} if isinstance(deeds, list) else set()


def own_lifts(act: Act, received: set[str]) -> list:
    """M4: the lift-now choices a party makes for the mortgaged deeds it receives only."""
    return [index for index in lift_list(act) if str(index) in received]


def kept_mortgaged(state: GameState, taken: set[str], lifts: list) -> list[int]:
    """M4: the proposer's answer for each deed it would receive that is mortgaged now and not
    lifted: kept mortgaged. A deed mortgaged after the offer is not answered: it waits."""
    lifted = {str(index) for index in lifts}
    named = [int(i) for i in taken if i.isdigit() and i not in lifted]
    return sorted(i for i in named if i in state.deeds and state.deeds[i].mortgaged)


@action(
    "trade_offer",
    label=N_("Offer the trade"),
    rules="X1-X3, M4: put to the partner's own phone; lift: the proposer's lift-now choice",
    needs=("player", "partner"),
    may=("give", "take", "lift"),
    phone=TURNS,
)
def trade_offer(act: Act) -> None:
    """A trade put to the partner, who accepts or declines it on their own phone. The
    proposer chooses lift-now (M4) for the mortgaged deeds they would receive, the partner
    for theirs when accepting."""
    trade_payload = {k: v for k, v in act.payload.items() if k != "lift"}
    taken = deeds_named(act.payload.get("take"))
    lifts = own_lifts(act, taken)
    if lifts:
        trade_payload["lift"] = lifts
    kept = kept_mortgaged(act.state, taken, lifts)
    if kept and act.state.settings.trade_receiver_chooses:
        trade_payload["keep"] = kept
    trade(Act(act.state, act.edition, trade_payload))  # on a copy: refused now, not offered
    player, partner = act.player(), act.player("partner")
    act.state.offers_made += 1
    act.state.offers.append(TradeOffer(act.state.offers_made, trade_payload))
    act.say("{player} offers {partner} a trade", player=player.name, partner=partner.name)


def find_offer(act: Act) -> TradeOffer:
    wanted = whole_number(act.payload.get("offer"), "The offer", 1, 10**9)
    offer = next((o for o in act.state.offers if o.id == wanted), None)
    if offer is None:
        raise RuleError("X1", "That trade offer is no longer open")
    return offer


def answered_offer(act: Act, accepting: bool) -> tuple[TradeOffer, PlayerState]:
    """The offer answered and who answers it, taken off the open offers (X1): only the
    partner accepts; either side declines (the proposer withdraws it). The answer concerns
    both sides, whoever gives it."""
    offer, player = find_offer(act), act.player()
    if accepting and not offer.offered_to(player.seat):
        partner = act.state.players[int(offer.trade["partner"])]
        raise RuleError("X1", "Only {player} can accept this trade", player=partner)
    if not offer.concerns(player.seat):
        raise RuleError("X1", "{player} is not part of this trade", player=player)
    act.state.offers.remove(offer)
    act.concern(int(offer.trade["player"]), int(offer.trade["partner"]))
    return offer, player


@action(
    "trade_accept",
    label=N_("Accept the trade"),
    rules="X1-X3, M4; lift: the partner's lift-now choice (the others kept); left out, each "
    "mortgaged deed the partner receives waits for their choice",
    needs=("player", "offer"),
    may=("lift",),
    phone=ALWAYS,
)
def trade_accept(act: Act) -> None:
    """X1-X3, M4: the partner says yes, choosing lift-now for the mortgaged deeds they receive
    (only those: the proposer chose for theirs in the offer). An acceptance without `lift`
    (a phone's "Accept") leaves each of theirs waiting for their choice, and so does a deed
    of the proposer's mortgaged after the offer was made."""
    offer, _ = answered_offer(act, accepting=True)
    received = {str(index) for index in offer.received()}
    lift_now = [*(offer.trade.get("lift") or []), *own_lifts(act, received)]
    terms = {**offer.trade, "lift": lift_now}
    if act.state.settings.trade_receiver_chooses:
        answered = offer.received() if "lift" in act.payload else []
        terms["keep"] = [*(offer.trade.get("keep") or []), *answered]
    trade(act.part(terms))


@action(
    "trade_decline",
    label=N_("Decline the trade"),
    rules="X1",
    needs=("player", "offer"),
    phone=ALWAYS,
)
def trade_decline(act: Act) -> None:
    """The partner says no, or the proposer withdraws: nothing changes hands."""
    offer, player = answered_offer(act, accepting=False)
    if offer.offered_to(player.seat):
        act.say("{player} declines the trade", player=player.name)
        return
    partner = act.state.players[int(offer.trade["partner"])]
    act.say(
        "{player} withdraws the trade offered to {partner}",
        player=player.name,
        partner=partner.name,
    )
