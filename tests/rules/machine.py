"""A whole game under random banker taps, for the hypothesis state machines and bench/soak.py.

`Play` holds one game through the rules core: one move per action kind (`MOVES`), each
drawing its fields from the current state so that most taps are legal and some are not, and
the invariants of the rule book (`CHECKS`), run after every step. A move draws through a
`Chooser`: hypothesis's `data.draw` in the tests (so failures shrink), a seeded
`random.Random` in the soak (so a failing seed replays with one command). Nothing here
imports pytest or hypothesis.

A violated invariant raises `Violation` with the rule id in its message.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from typing import Any

from tablebank.edition_files import load_editions
from tablebank.rules import HOTEL, KINDS, GameState, RuleError, apply, new_game, replay
from tablebank.rules.edition import Edition
from tablebank.rules.landing import calls_for
from tablebank.rules.state import MODES, TradeOffer
from tablebank.rules.turn import JAIL_TRIES, whose_turn
from tablebank.rules.wealth import raisable

ALL_EDITIONS = load_editions()
NAMES = ("Ana", "Bea", "Cal", "Dan", "Eve", "Fay", "Gus", "Hal")
PALETTE = ("#e03131", "#1971c2", "#2f9e44", "#f08c00", "#7048e8", "#0c8599", "#d6336c", "#000000")
SEAT_FIELDS = ("player", "from", "to", "partner", "creditor")
ENDS_AT = "2099-12-31T23:59"  # a time-limited game whose clock never runs out here (TL1)


class Violation(AssertionError):
    """An invariant of the rule book broken by an action the rules core accepted (or by a
    refusal that changed something)."""


class Chooser:
    """What a move may ask for; subclasses draw it from hypothesis or from a seeded random."""

    def pick(self, items: Sequence) -> Any:
        raise NotImplementedError

    def number(self, low: int, high: int) -> int:
        raise NotImplementedError

    def some(self, items: Sequence, most: int) -> list:
        raise NotImplementedError

    def odds(self, chances: int, out_of: int) -> bool:
        """True `chances` times in `out_of`."""
        return self.number(1, out_of) <= chances


class RandomChooser(Chooser):
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def pick(self, items: Sequence) -> Any:
        return items[self.rng.randrange(len(items))]

    def number(self, low: int, high: int) -> int:
        return self.rng.randint(low, high)

    def some(self, items: Sequence, most: int) -> list:
        return self.rng.sample(list(items), self.rng.randint(0, min(most, len(items))))


def random_setup(c: Chooser) -> dict:
    """A table on any edition, in any of the three modes, with any house rules."""
    edition = c.pick(sorted(ALL_EDITIONS))
    mode = c.pick(MODES)
    count = c.number(2, 8)
    setup = {
        "edition": edition,
        "players": [{"name": NAMES[n], "colour": PALETTE[n]} for n in range(count)],
        "starting_cash": c.pick((1500, 1500, 600, 300, 3000)),
        "mode": mode,
        "free_parking_jackpot": c.odds(1, 2),
        "double_go": c.odds(1, 3),
        "no_auctions": c.odds(1, 4),
        "income_tax_percent": c.odds(1, 2),
    }
    if mode == "timed":
        setup["ends_at"] = ENDS_AT
    return setup


class Play:
    """One game through the rules core, with its log and the states of the actions in force."""

    def __init__(self, setup: dict) -> None:
        self.setup = setup
        self.edition: Edition = ALL_EDITIONS[setup["edition"]]
        self.state: GameState = new_game(self.edition, setup)
        self.start_money = sum(p.cash for p in self.state.players)
        self.log: list[tuple[str, dict]] = []
        self.stack: list[GameState] = [self.state]  # the state after each action in force
        self.flows: list[int] = [0]  # the bank's net pay-out up to each of them
        self.accepted: dict[str, int] = {}
        self.refused: dict[str, int] = {}
        self.cases: dict[str, int] = {}  # the ways the game went, beyond the kinds
        self.replay_every = 1  # the soak replays less often; the tests at every step

    # -- the tap and what every tap must respect ----------------------------------------------

    def tap(self, kind: str, payload: dict) -> bool:
        """The banker's tap through the rules core; True when the action was accepted."""
        if kind == "undo":
            return self.undo()
        before = self.state
        frozen = freeze(before)
        try:
            outcome = apply(before, self.edition, kind, payload)
        except RuleError:
            if freeze(before) != frozen:
                raise Violation(f"a refused {kind} changed the state") from None
            self.refused[kind] = self.refused.get(kind, 0) + 1
            return False
        if freeze(before) != frozen:
            raise Violation(f"{kind} changed the state it was given, not only its copy")
        if before.ended:
            raise Violation(f"K4: {kind} was accepted after the game ended")
        for key in SEAT_FIELDS:
            seat = payload.get(key)
            if isinstance(seat, int) and before.players[seat].bankrupt:
                raise Violation(f"K2: {kind} accepted for bankrupt seat {seat} ({key})")
        if kind == "trade_accept":
            offered = next(o for o in before.offers if o.id == payload["offer"]).trade
            if any(before.players[offered[k]].bankrupt for k in ("player", "partner")):
                raise Violation("K2: a trade with a bankrupt player was accepted")
        flow = check_movements(before, outcome.state, outcome.movements, kind)
        self.state = outcome.state
        self.log.append((kind, payload))
        self.stack.append(self.state)
        self.flows.append(self.flows[-1] + flow)
        self.accepted[kind] = self.accepted.get(kind, 0) + 1
        case = detail(self, kind, payload, before, self.state)
        if case:
            self.cases[case] = self.cases.get(case, 0) + 1
        return True

    def undo(self) -> bool:
        """Undo takes back the latest action in force: the state before it, exactly."""
        if len(self.stack) == 1:
            return False
        self.log.append(("undo", {}))
        self.stack.pop()
        self.flows.pop()
        self.state = self.stack[-1]
        self.accepted["undo"] = self.accepted.get("undo", 0) + 1
        return True

    def check(self, step: int = 0) -> None:
        for check in CHECKS:
            check(self)
        if self.replay_every and step % self.replay_every == 0:
            the_state_survives_the_database(self)
            replaying_the_log_gives_the_state(self)

    # -- drawing a tap ----------------------------------------------------------------------

    def move(self, name: str, c: Chooser) -> bool | None:
        """Draw the named move's tap and make it; None when it had nothing to aim at."""
        drawn = MOVES[name](self, c)
        if drawn is None:
            return None
        kind, payload = drawn
        return self.tap(kind, payload)


def detail(play: Play, kind: str, payload: dict, before: GameState, after: GameState) -> str:
    """Which case of its kind an accepted action was, to show the soak covered them all."""
    if kind == "card":
        return f"card {play.edition.cards[payload['card']].effect}"
    if kind == "roll":
        who = payload["player"]
        if before.players[who].in_jail:
            return "roll in jail, " + ("stays" if after.players[who].in_jail else "out")
        if payload.get("doubles") and before.doubles == 2:
            return "roll, third doubles: to jail"
        if "then" in payload:
            return f"roll, a card moves on to {payload['then']['kind']}"
        return f"roll, landing {payload['land']['kind']}" if "land" in payload else "roll alone"
    if kind == "bankrupt":
        to = "to a player" if payload.get("creditor") is not None else "to the bank"
        return f"bankrupt {to}" + (f", {after.settings.mode} game ends" if after.ended else "")
    if kind == "auction_open":
        return "auction of a building" if payload.get("building") else "auction of a deed"
    if kind == "auction_close":
        lot = before.auction
        won = "won" if lot.bidder is not None else "no bid"
        return f"auction of a {'deed' if lot.deed is not None else 'building'} closed, {won}"
    if kind in ("tax", "parking_pot", "jail_fine", "visit", "card") and after.pot != before.pot:
        return "H1 pot " + ("grows" if after.pot > before.pot else "taken")
    if kind == "build":
        return "build up" if after.houses < before.houses or after.hotels < before.hotels else None
    if kind == "trade" and payload.get("lift"):
        return "trade with a mortgage lifted at once"
    if kind == "decline":
        return "decline, no auction (H3)" if after.settings.no_auctions else "decline, auction"
    if kind == "end_game":
        return f"end_game of a {after.settings.mode} game"
    return ""


# -- the invariants ------------------------------------------------------------------------------


PLAIN = (int, str, bool, float, type(None))


def freeze(value: object) -> object:
    """Everything a state holds, as plain nested tuples: read field by field, not through the
    state's own copy (which the check would then trust), and faster than to_dict."""
    kind = type(value)
    if kind in PLAIN:
        return value
    if kind is dict:
        return tuple(sorted((str(k), freeze(v)) for k, v in value.items()))
    if kind is list or kind is tuple:
        return tuple(map(freeze, value))
    return (kind.__name__, tuple((k, freeze(v)) for k, v in vars(value).items()))


def check_movements(before: GameState, after: GameState, movements, kind: str) -> int:
    """Every change of cash is a movement the action reports, of a whole positive amount;
    the pot (H1) grows only from money paid to the bank and empties only into a player's
    hands. Returns the bank's net pay-out."""
    change = [0] * len(before.players)
    flow = to_bank = from_bank = 0
    for m in movements:
        if type(m.amount) is not int or m.amount <= 0:
            raise Violation(f"{kind} moved {m.amount!r}: money is a whole positive amount")
        if m.payer is not None:
            change[m.payer] -= m.amount
        else:
            flow += m.amount
            from_bank += m.amount
        if m.payee is not None:
            change[m.payee] += m.amount
        else:
            flow -= m.amount
            to_bank += m.amount
    for p, q, moved in zip(before.players, after.players, change, strict=True):
        if q.cash - p.cash != moved:
            raise Violation(f"{kind}: {q.name}'s cash changed by {q.cash - p.cash}, moved {moved}")
    grown = after.pot - before.pot
    if grown > 0 and grown > to_bank:
        raise Violation(f"H1: {kind} put {grown} in the pot, the bank took in {to_bank}")
    if grown < 0 and (after.pot != 0 or from_bank < before.pot):
        raise Violation(f"H1: {kind} took {-grown} from the pot, not all of it into a hand")
    return flow


def s2_money_moves_only_between_players_the_bank_and_the_pot(play: Play) -> None:
    """S2, H1: the players' cash is the starting money plus what the bank paid out net; the
    pot is never negative and exists only under the Free Parking jackpot."""
    state = play.state
    if sum(p.cash for p in state.players) - play.start_money != play.flows[-1]:
        raise Violation("S2: the money in the players' hands does not add up")
    if state.pot < 0 or (state.pot and not state.settings.free_parking_jackpot):
        raise Violation(f"H1: the pot holds {state.pot}")


def s3_buildings_on_the_board_and_in_the_bank_add_up(play: Play) -> None:
    state, edition = play.state, play.edition
    built = [d.houses for d in state.deeds.values()]
    if not all(type(h) is int and 0 <= h <= HOTEL for h in built):
        raise Violation(f"S3: a street holds {built}")
    if sum(h for h in built if h < HOTEL) + state.houses != edition.houses:
        raise Violation(f"S3: {state.houses} houses in the bank with {built} on the board")
    if built.count(HOTEL) + state.hotels != edition.hotels:
        raise Violation(f"S3: {state.hotels} hotels in the bank with {built} on the board")


def b1_b4_groups_are_even_whole_and_unmortgaged_when_built(play: Play) -> None:
    """B1 whole group, B2 even, B3/SG2 a hotel on a full group, B4 and M1 none mortgaged."""
    state, edition = play.state, play.edition
    needed = state.settings.houses_for_hotel
    for group in edition.groups.values():
        deeds = [state.deeds[i] for i in group.deeds]
        if not group.house_price:
            if any(d.houses for d in deeds):
                raise Violation(f"B1: a building on the {group.id} group")
            continue
        heights = [needed + 1 if d.houses == HOTEL else d.houses for d in deeds]
        if max(heights) - min(heights) > 1:
            raise Violation(f"B2: the {group.id} group stands at {heights}")
        if HOTEL in [d.houses for d in deeds] and min(heights) < needed:
            raise Violation(f"B3: a hotel on the {group.id} group at {heights}")
        if any(heights):
            owners = {d.owner for d in deeds}
            if len(owners) != 1 or None in owners:
                raise Violation(f"B1: the {group.id} group is built but split: {owners}")
            if any(d.mortgaged for d in deeds):
                raise Violation(f"B4: the {group.id} group is built and mortgaged")


def x1_each_deed_and_card_has_one_holder_who_is_in_the_game(play: Play) -> None:
    """X1, C3, K2: a deed's owner is a seat still playing; each deck's Get Out of Jail Free
    card is held by one player at most; a mortgaged deed has an owner."""
    state = play.state
    for index, deed in state.deeds.items():
        if deed.owner is None:
            if deed.mortgaged:
                raise Violation(f"M5: the bank holds {index} mortgaged")
            continue
        if not 0 <= deed.owner < len(state.players) or state.players[deed.owner].bankrupt:
            raise Violation(f"K2: deed {index} is owned by seat {deed.owner}")
    held = [deck for p in state.players for deck in p.jail_free]
    if len(held) != len(set(held)) or not set(held) <= {"chance", "chest"}:
        raise Violation(f"C3: Get Out of Jail Free cards held: {held}")


def r1_r2_j3_whose_turn_doubles_and_jail_tries(play: Play) -> None:
    """R1 the turn is a seat's, R2 at most two doubles in a row before the third sends the
    player to jail, J3 at most two failed tries in jail (the third pays the fine); C1 the
    cards remembered as drawn are the deck's own."""
    state = play.state
    if not 0 <= state.turn < len(state.players) or not 0 <= state.doubles <= 2:
        raise Violation(f"R1: turn {state.turn}, doubles {state.doubles}")
    for p in state.players:
        if not 0 <= p.jail_tries < JAIL_TRIES or (p.jail_tries and not p.in_jail):
            raise Violation(f"J3: {p.name} in jail {p.in_jail} with {p.jail_tries} tries")
    for deck, ids in state.drawn.items():
        cards = play.edition.cards
        if len(ids) != len(set(ids)) or any(cards[i].deck != deck for i in ids):
            raise Violation(f"C1: drawn from {deck}: {ids}")


def k1_no_cash_below_zero(play: Play) -> None:
    for p in play.state.players:
        if type(p.cash) is not int or p.cash < 0:
            raise Violation(f"K1: {p.name} holds {p.cash!r}")
        if not 0 <= p.position < 40:
            raise Violation(f"{p.name} stands on space {p.position}")


def k2_a_bankrupt_player_holds_nothing(play: Play) -> None:
    """K2, K3, SG3: a bankrupt player holds no cash, no deed, no card, is not in jail, does
    not hold the top bid; the count of bankruptcies is the count of bankrupt players."""
    state = play.state
    for p in state.players:
        if p.bankrupt and (p.cash or p.jail_free or p.in_jail or state.held_by(p.seat)):
            raise Violation(f"K2: bankrupt {p.name} still holds something")
    if state.bankruptcies != sum(p.bankrupt for p in state.players):
        raise Violation("K2: the count of bankruptcies is not the bankrupt players")
    auction = state.auction
    if auction and auction.bidder is not None and state.players[auction.bidder].bankrupt:
        raise Violation(f"K2: bankrupt seat {auction.bidder} holds the top bid")


def k3_deeds_waiting_for_auction_are_the_bank_s(play: Play) -> None:
    """K3, P1: a lot on sale or waiting for its auction belongs to the bank."""
    state = play.state
    waiting = list(state.to_auction)
    if state.auction and state.auction.deed is not None:
        waiting.append(state.auction.deed)
    if len(waiting) != len(set(waiting)):
        raise Violation(f"K3: a deed waits twice for its auction: {waiting}")
    if any(state.deeds[i].owner is not None for i in waiting):
        raise Violation(f"K3: an owned deed waits for an auction: {waiting}")
    if state.to_auction and not state.auction:
        raise Violation("K3: deeds wait for an auction and none is open")


def k4_sg3_the_game_ends_when_the_rule_book_says(play: Play) -> None:
    """K4: the last player left wins; SG3: a short or timed game stops at the 2nd bankruptcy.
    An ended game has no auction running."""
    state = play.state
    if len(state.in_play()) < 2 and not state.ended:
        raise Violation("K4: one player is left and the game goes on")
    if state.settings.mode != "classic" and state.bankruptcies >= 2 and not state.ended:
        raise Violation("SG3: a second bankruptcy and the game goes on")
    if state.ended and (state.auction or state.to_auction):
        raise Violation("K4: an auction is still open in an ended game")


def the_state_survives_the_database(play: Play) -> None:
    """The snapshot is stored as JSON: it reads back as the same state."""
    stored = json.loads(json.dumps(play.state.to_dict()))
    if GameState.from_dict(stored) != play.state:
        raise Violation("the state does not read back from its JSON")


def replaying_the_log_gives_the_state(play: Play) -> None:
    """The log (undos included) folded from the setup is the state: undo restores exactly."""
    if replay(play.edition, play.setup, play.log) != play.state:
        raise Violation("replaying the log does not give the state")


CHECKS: list[Callable[[Play], None]] = [
    s2_money_moves_only_between_players_the_bank_and_the_pot,
    s3_buildings_on_the_board_and_in_the_bank_add_up,
    b1_b4_groups_are_even_whole_and_unmortgaged_when_built,
    x1_each_deed_and_card_has_one_holder_who_is_in_the_game,
    r1_r2_j3_whose_turn_doubles_and_jail_tries,
    k1_no_cash_below_zero,
    k2_a_bankrupt_player_holds_nothing,
    k3_deeds_waiting_for_auction_are_the_bank_s,
    k4_sg3_the_game_ends_when_the_rule_book_says,
]


# -- the moves: one per action kind ------------------------------------------------------------

Tap = tuple[str, dict] | None


def seat(play: Play, c: Chooser, among: Sequence[int] | None = None) -> int:
    """Mostly a player still in the game (from `among` when given), now and then any seat."""
    playing = [p.seat for p in play.state.in_play()]
    pool = [s for s in (among if among is not None else playing) if s in playing]
    if pool and not c.odds(1, 12):
        return c.pick(pool)
    return c.number(0, len(play.state.players) - 1)


def deeds_of(play: Play, owner) -> list[int]:
    return [i for i, d in play.state.deeds.items() if d.owner == owner]


def a_deed(play: Play, c: Chooser, pool: list[int]) -> int:
    if pool and not c.odds(1, 10):
        return c.pick(pool)
    return c.pick([d.index for d in play.edition.deeds])


def spaces_of(play: Play, *kinds: str) -> list[int]:
    return [s.index for s in play.edition.spaces if s.kind in kinds]


def landing(play: Play, c: Chooser, payload: dict) -> dict:
    if c.odds(1, 4):
        payload["passed_go"] = True
    return payload


def buy(play: Play, c: Chooser) -> Tap:
    """Half the time a deed that completes (or adds to) a group its buyer has started."""
    started = [
        (i, owner)
        for group in play.edition.groups.values()
        for owner in {play.state.deeds[j].owner for j in group.deeds} - {None}
        for i in group.deeds
        if play.state.deeds[i].owner is None
    ]
    if started and c.odds(1, 2):
        deed, buyer = c.pick(started)
        return "buy", landing(play, c, {"player": buyer, "deed": deed})
    deed = a_deed(play, c, deeds_of(play, None))
    return "buy", landing(play, c, {"player": seat(play, c), "deed": deed})


def decline(play: Play, c: Chooser) -> Tap:
    deed = a_deed(play, c, deeds_of(play, None))
    return "decline", landing(play, c, {"player": seat(play, c), "deed": deed})


def rent(play: Play, c: Chooser) -> Tap:
    owned = [i for i, d in play.state.deeds.items() if d.owner is not None]
    deed = a_deed(play, c, owned)
    owner = play.state.deeds[deed].owner
    others = [p.seat for p in play.state.in_play() if p.seat != owner]
    payload = {"player": seat(play, c, others), "deed": deed, "dice": c.number(2, 12)}
    if c.odds(1, 4):
        payload["by_card"] = True
    return "rent", landing(play, c, payload)


def tax(play: Play, c: Chooser) -> Tap:
    space = c.pick(spaces_of(play, "tax")) if not c.odds(1, 10) else c.number(0, 39)
    payload = {"player": seat(play, c), "space": space}
    if c.odds(1, 2):
        payload["percent"] = True
    return "tax", landing(play, c, payload)


def go_to_jail(play: Play, c: Chooser) -> Tap:
    holders = [p.seat for p in play.state.players if p.jail_free and not p.in_jail]
    among = holders if holders and c.odds(1, 2) else None
    return "go_to_jail", {"player": seat(play, c, among)}


def visit(play: Play, c: Chooser) -> Tap:
    quiet = spaces_of(play, "go", "jail", "parking", "chance", "chest")
    space = c.pick(quiet) if c.odds(2, 3) else c.number(0, 39)
    return "visit", landing(play, c, {"player": seat(play, c), "space": space})


def pass_go(play: Play, c: Chooser) -> Tap:
    return "pass_go", {"player": seat(play, c)}


def card(play: Play, c: Chooser) -> Tap:
    drawn = c.pick(sorted(play.edition.cards))
    payload = {"player": seat(play, c), "card": drawn}
    if c.odds(3, 4):
        deck = play.edition.cards[drawn].deck
        payload["space"] = c.pick(spaces_of(play, deck)) if c.odds(9, 10) else c.number(0, 39)
        landing(play, c, payload)
    return "card", payload


def jailed(play: Play, c: Chooser) -> int:
    return seat(play, c, [p.seat for p in play.state.players if p.in_jail])


def jail_fine(play: Play, c: Chooser) -> Tap:
    return "jail_fine", {"player": jailed(play, c)}


def jail_card(play: Play, c: Chooser) -> Tap:
    holders = [p.seat for p in play.state.players if p.in_jail and p.jail_free]
    return "jail_card", {"player": seat(play, c, holders) if holders else jailed(play, c)}


def jail_doubles(play: Play, c: Chooser) -> Tap:
    return "jail_doubles", {"player": jailed(play, c)}


def bank_pay(play: Play, c: Chooser) -> Tap:
    payload = {"player": seat(play, c), "amount": c.number(1, 500)}
    if c.odds(1, 4):
        payload["note"] = "prize"
    return "bank_pay", payload


def bank_collect(play: Play, c: Chooser) -> Tap:
    player = seat(play, c)
    return "bank_collect", {"player": player, "amount": c.number(1, play_cash(play, player) + 100)}


def play_cash(play: Play, player: int) -> int:
    return play.state.players[player].cash


def transfer(play: Play, c: Chooser) -> Tap:
    payer = seat(play, c)
    payee = seat(play, c, [s for s in range(len(play.state.players)) if s != payer])
    amount = c.number(1, play_cash(play, payer) + 100)
    return "transfer", {"from": payer, "to": payee, "amount": amount}


def whole_groups(play: Play) -> list[tuple[Any, int]]:
    found = []
    for group in play.edition.groups.values():
        owners = {play.state.deeds[i].owner for i in group.deeds}
        if group.house_price and len(owners) == 1 and None not in owners:
            found.append((group, owners.pop()))
    return found


def build(play: Play, c: Chooser) -> Tap:
    """Mostly a whole group set to one height, one street a step off; now and then anything."""
    whole = whole_groups(play)
    colour = [g for g in play.edition.groups.values() if g.house_price]
    if whole and not c.odds(1, 8):
        group, owner = c.pick(whole)
        height = c.number(0, HOTEL)
        levels = [height] * len(group.deeds)
        levels[c.number(0, len(levels) - 1)] = min(max(height + c.number(-1, 1), 0), HOTEL)
        return "build", {"player": owner, "group": group.id, "levels": levels}
    group = c.pick(colour)
    levels = [c.number(0, HOTEL) for _ in group.deeds]
    return "build", {"player": seat(play, c), "group": group.id, "levels": levels}


def mortgage(play: Play, c: Chooser) -> Tap:
    held = [i for i, d in play.state.deeds.items() if d.owner is not None and not d.mortgaged]
    deed = a_deed(play, c, held)
    owner = play.state.deeds[deed].owner
    return "mortgage", {"player": owner if owner is not None else seat(play, c), "deed": deed}


def lift(play: Play, c: Chooser) -> Tap:
    held = [i for i, d in play.state.deeds.items() if d.mortgaged]
    deed = a_deed(play, c, held)
    owner = play.state.deeds[deed].owner
    return "lift", {"player": owner if owner is not None else seat(play, c), "deed": deed}


def trade_sides(play: Play, c: Chooser) -> dict:
    player = seat(play, c)
    partner = seat(play, c, [s for s in range(len(play.state.players)) if s != player])
    sides = {}
    for key, who in (("give", player), ("take", partner)):
        held = deeds_of(play, who)
        side: dict = {"deeds": c.some(held, 3) if held else []}
        cards = len(play.state.players[who].jail_free)
        if cards and c.odds(1, 3):
            side["jail_free"] = c.number(1, cards)
        sides[key] = side
    if c.odds(2, 3):
        key = c.pick(("give", "take"))
        who = player if key == "give" else partner
        sides[key]["cash"] = c.number(1, max(1, play_cash(play, who)))
    return {"player": player, "partner": partner, **sides}


def trade(play: Play, c: Chooser) -> Tap:
    payload = trade_sides(play, c)
    mortgaged = [
        i
        for side in (payload["give"], payload["take"])
        for i in side["deeds"]
        if play.state.deeds[i].mortgaged
    ]
    if mortgaged:
        payload["lift"] = c.some(mortgaged, len(mortgaged))
    return "trade", payload


def trade_offer(play: Play, c: Chooser) -> Tap:
    return "trade_offer", trade_sides(play, c)


def an_offer(play: Play, c: Chooser) -> TradeOffer | None:
    if play.state.offers and not c.odds(1, 12):
        return c.pick(play.state.offers)
    return None


def trade_accept(play: Play, c: Chooser) -> Tap:
    offer = an_offer(play, c)
    if offer is None:
        return "trade_accept", {"player": seat(play, c), "offer": c.number(1, 3)}
    deal_of = offer.trade
    partner = deal_of["partner"] if not c.odds(1, 8) else seat(play, c)
    payload = {"player": partner, "offer": offer.id}
    given = [*deal_of.get("give", {}).get("deeds", []), *deal_of.get("take", {}).get("deeds", [])]
    mortgaged = [i for i in given if play.state.deeds[i].mortgaged]
    if mortgaged:
        payload["lift"] = c.some(mortgaged, len(mortgaged))
    return "trade_accept", payload


def trade_decline(play: Play, c: Chooser) -> Tap:
    offer = an_offer(play, c)
    if offer is None:
        return "trade_decline", {"player": seat(play, c), "offer": c.number(1, 3)}
    sides = [offer.trade["player"], offer.trade["partner"]]
    return "trade_decline", {"player": seat(play, c, sides), "offer": offer.id}


def auction_open(play: Play, c: Chooser) -> Tap:
    if c.odds(1, 4):
        return "auction_open", {"building": c.pick(("house", "hotel"))}
    if play.state.to_auction and c.odds(1, 2):
        return "auction_open", {}
    return "auction_open", {"deed": a_deed(play, c, deeds_of(play, None))}


def bid(play: Play, c: Chooser) -> Tap:
    auction = play.state.auction
    builders = [owner for _, owner in whole_groups(play)]
    building = auction is not None and auction.deed is None
    player = seat(play, c, builders if building and builders else None)
    cash = play_cash(play, player)
    if auction is None:
        return "bid", {"player": player, "amount": c.number(1, 300)}
    floor = max(auction.bid + 1, auction.minimum)
    if floor <= cash and not c.odds(1, 6):
        return "bid", {"player": player, "amount": c.number(floor, min(cash, floor + 200))}
    return "bid", {"player": player, "amount": c.number(1, cash + 50)}


def auction_close(play: Play, c: Chooser) -> Tap:
    auction = play.state.auction
    if auction is None or auction.deed is not None:
        return "auction_close", {}
    winner = auction.bidder
    streets = [i for g, owner in whole_groups(play) if owner == winner for i in g.deeds]
    return "auction_close", {"deed": a_deed(play, c, streets)}


def bankrupt(play: Play, c: Chooser) -> Tap:
    """Mostly a debt just beyond what the player could raise (K1), to another player or the
    bank; now and then one they could still pay, which is refused."""
    debtor = seat(play, c)
    could = raisable(play.state, play.edition, debtor)
    owed = could + c.number(1, 300) if not c.odds(1, 6) else c.number(1, could + 1)
    payload: dict = {"player": debtor, "owed": min(owed, 1_000_000)}
    if c.odds(1, 2):
        others = [s for s in range(len(play.state.players)) if s != debtor]
        payload["creditor"] = seat(play, c, others)
        mortgaged = [i for i in deeds_of(play, debtor) if play.state.deeds[i].mortgaged]
        if mortgaged:
            payload["lift"] = c.some(mortgaged, len(mortgaged))
    return "bankrupt", payload


def end_game(play: Play, c: Chooser) -> Tap:
    return ("end_game", {}) if c.odds(1, 6) else None  # rarely: it ends the game


def deal(play: Play, c: Chooser) -> Tap:
    """SG1, TL1: two deeds to each player from the bank's, now and then a clash."""
    free = deeds_of(play, None)
    chosen = c.some(free, 2 * len(play.state.players))
    hands = [chosen[n :: len(play.state.players)] for n in range(len(play.state.players))]
    if c.odds(1, 8):
        hands[0] = [*hands[0], a_deed(play, c, [])]
    return "deal", {"hands": hands}


def parking_pot(play: Play, c: Chooser) -> Tap:
    return "parking_pot", {"player": seat(play, c)}


def a_call(play: Play, c: Chooser, state: GameState, seat_: int, dice: int) -> dict:
    """The landing's own action where the player now stands, as a page would offer it."""
    space = play.edition.spaces[state.players[seat_].position]
    calls = calls_for(state, play.edition, seat_, space, dice)
    call = c.pick(calls)
    return {"kind": call.kind, **call.fields}


def roll(play: Play, c: Chooser) -> Tap:
    """R1, R2, J3: the seat whose turn it is rolls (now and then another); the landing's own
    action is the one the space calls for, worked out on a trial of the roll, and `then` the
    one a card that moved the player calls for."""
    current = whose_turn(play.state)
    player = current.seat if current and not c.odds(1, 10) else seat(play, c)
    doubles = c.odds(1, 5)
    dice = 2 * c.number(1, 6) if doubles else c.number(2, 12)
    if doubles and c.odds(1, 20):
        dice = c.pick((3, 5, 7, 9, 11))  # odd doubles: refused (R2)
    payload: dict = {"player": player, "dice": dice}
    if doubles:
        payload["doubles"] = True
    if c.odds(1, 10):
        return "roll", payload
    try:
        moved = apply(play.state, play.edition, "roll", payload)
        payload["land"] = a_call(play, c, moved.state, player, dice)
        landed = apply(play.state, play.edition, "roll", payload)
        if landed.next_space is not None and not c.odds(1, 10):
            payload["then"] = a_call(play, c, landed.state, player, dice)
    except (RuleError, IndexError):
        pass  # the roll is refused, or its landing is: the tap itself says so
    return "roll", payload


def turn_to(play: Play, c: Chooser) -> Tap:
    return "turn_to", {"player": seat(play, c)}


def place(play: Play, c: Chooser) -> Tap:
    return "place", {"player": seat(play, c), "space": c.number(0, 39)}


def phone_turns(play: Play, c: Chooser) -> Tap:
    return "phone_turns", {"allow": c.odds(1, 2)}


def undo(play: Play, c: Chooser) -> Tap:
    return "undo", {}


MOVES: dict[str, Callable[[Play, Chooser], Tap]] = {
    f.__name__: f
    for f in (
        buy,
        rent,
        tax,
        go_to_jail,
        visit,
        pass_go,
        card,
        jail_fine,
        jail_card,
        jail_doubles,
        bank_pay,
        bank_collect,
        transfer,
        build,
        mortgage,
        lift,
        trade,
        trade_offer,
        trade_accept,
        trade_decline,
        decline,
        auction_open,
        bid,
        auction_close,
        bankrupt,
        end_game,
        deal,
        parking_pot,
        roll,
        turn_to,
        place,
        phone_turns,
        undo,
    )
}
missing = set(KINDS) - set(MOVES)
assert not missing, f"no move for the action kinds {sorted(missing)}"

# How often the soak picks each move: the game-changing ones less often, so games run long
# enough to build, trade and auction before they end.
WEIGHTS = {name: 4 for name in MOVES} | {
    "bankrupt": 1,
    "end_game": 1,
    "deal": 1,
    "undo": 3,
    "build": 8,
    "buy": 8,
    "bid": 6,
    "roll": 16,
    "phone_turns": 1,
}


def refuses_everything_once_ended(play: Play, c: Chooser, tries: int = 3) -> None:
    """K4: an ended game refuses every action kind (undo aside, the bank's own)."""
    names = [n for n in MOVES if n not in ("undo", "end_game")]
    for _ in range(tries):
        drawn = MOVES[c.pick(names)](play, c)
        if drawn is not None and play.tap(*drawn):
            raise Violation(f"K4: {drawn[0]} accepted after the end")
