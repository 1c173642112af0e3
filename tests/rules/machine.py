"""Random play of the rules core: whole games driven mostly by the dice, as a table plays.

`Play` holds one game through `tablebank.rules.apply`. Each step is a move (`MOVES`): most
often `play`, the table's next act: a throw of two dice by the player whose turn it is, or
the answer to what the game waits for, taken from the core's own answer (`moves.waits`):
buy or decline, a card of the deck, the tax's way, a fresh throw, pay the debt or go
bankrupt when all that could be raised falls short, a bid, closing the auction, the deal.
Now and then one of the other kinds, one move per kind declared in `tablebank.rules.KINDS`
(the machine refuses to run when a kind has none): building, mortgages, trades and offers,
money by hand, the banker's corrections, undo, the end.

After every accepted action (`Play.tap`): the action left its input alone; nothing acts
for a bankrupt seat or after the end; nothing moves on while something waits; every change
of cash is a movement; and who gets what (ledger.py): the money between each pair of
parties, the debts and their creditors, the pot, the deeds, the cards and the tokens are
what the rule book names, worked out from the state before the action. A refused action
changes nothing. After every step (`Play.check`): the invariants in CHECKS; and, every
`replay_every` steps (every step in the quick tests) and after every undo, the state read
back from JSON and the log replayed (`tablebank.rules.replay`, undos included).

A move draws through a `Chooser`: hypothesis's `data.draw` in test_game_machine.py (so that
a failure shrinks), a seeded `random.Random` in bench/random_play.py. Nothing here imports
pytest or hypothesis.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from typing import Any

from tablebank.rules import HOTEL, KINDS, GameState, RuleError, apply, replay
from tablebank.rules.edition import Edition
from tablebank.rules.moves import AUCTION, ROLL, Move, choice_steps, moves_for, waits
from tablebank.rules.setup import new_game
from tablebank.rules.state import BUY, CARD, DEAL, DEBT, MODES, RECEIVED, TAX, THROW
from tablebank.rules.turn import JAIL_TRIES, whose_turn

from ..support import ALL_EDITIONS
from . import ledger

NAMES = ("Ana", "Bea", "Cal", "Dan", "Eve", "Fay", "Gus", "Hal")
PALETTE = ("#e03131", "#1971c2", "#2f9e44", "#f08c00", "#7048e8", "#0c8599", "#d6336c", "#000000")
SEAT_FIELDS = ("player", "from", "to", "partner")
ENDS_AT = "2099-12-31T23:59"  # a time-limited game whose clock never runs out here (TL1)
WAITING_KINDS = ("roll", "land", "turn_to")  # refused while anything waits (R1, K1, P1, SG1)


class Violation(AssertionError):
    """A rule of the rule book broken by an action the core accepted (or by a refusal that
    changed something)."""


class Chooser:
    """What a move may ask for; subclasses draw it from hypothesis or from a seeded random."""

    def pick(self, items: Sequence) -> Any:
        raise NotImplementedError

    def number(self, low: int, high: int) -> int:
        raise NotImplementedError

    def some(self, items: Sequence, most: int) -> list:
        """Up to `most` distinct items."""
        raise NotImplementedError

    def sample(self, items: Sequence, size: int) -> list:
        """`size` distinct items (all of them when there are fewer)."""
        pool, found = list(items), []
        while pool and len(found) < size:
            found.append(pool.pop(self.number(0, len(pool) - 1)))
        return found

    def odds(self, chances: int, out_of: int) -> bool:
        """True `chances` times in `out_of`."""
        return self.number(1, out_of) <= chances

    def weighted(self, names: Sequence[str], weights: Sequence[int]) -> str:
        """A name, as often as its weight says (the first when a draw shrinks)."""
        ticket = self.number(0, sum(weights) - 1)
        for name, weight in zip(names, weights, strict=True):
            if ticket < weight:
                return name
            ticket -= weight
        raise AssertionError("unreachable")


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
    mode = c.pick(MODES)
    count = c.number(2, 8)
    setup = {
        "edition": c.pick(sorted(ALL_EDITIONS)),
        "players": [{"name": NAMES[n], "colour": PALETTE[n]} for n in range(count)],
        "starting_cash": c.pick((1500, 1500, 1000, 600, 300, 3000)),
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
        self.replay_every = 1  # replay the log every N steps, and after every undo
        self.undone = False

    # -- the tap and what every tap must respect -------------------------------------------------

    def tap(self, kind: str, payload: dict) -> bool:
        """An action through the rules core; True when it was accepted."""
        if kind == "undo":
            return self.undo()
        before = self.state
        frozen = freeze(before)
        try:
            outcome = apply(before, self.edition, kind, payload)
        except RuleError:
            if freeze(before) != frozen:
                raise Violation(f"a refused {kind} changed the state") from None
            count(self.refused, kind)
            return False
        if freeze(before) != frozen:
            raise Violation(f"{kind} changed the state it was given, not only its copy")
        check_accepted(before, outcome.state, kind, payload)
        flow = check_movements(before, outcome.state, outcome.movements, kind)
        check_who_gets_what(self.edition, before, outcome, kind, payload)
        self.state = outcome.state
        self.log.append((kind, payload))
        self.stack.append(self.state)
        self.flows.append(self.flows[-1] + flow)
        count(self.accepted, kind)
        count(self.cases, case_of(self.edition, kind, payload, before, outcome))
        return True

    def undo(self) -> bool:
        """Undo takes back the latest action in force: the state before it, exactly."""
        if len(self.stack) == 1:
            return False
        self.log.append(("undo", {}))
        self.stack.pop()
        self.flows.pop()
        self.state = self.stack[-1]
        self.undone = True
        count(self.accepted, "undo")
        return True

    def check(self, step: int = 0) -> None:
        for check in CHECKS:
            check(self)
        if self.undone or (self.replay_every and step % self.replay_every == 0):
            the_state_survives_the_database(self)
            replaying_the_log_gives_the_state(self)
        self.undone = False

    def move(self, name: str, c: Chooser) -> bool | None:
        """Draw the named move's action and make it; None when it had nothing to aim at."""
        drawn = MOVES[name](self, c)
        if drawn is None:
            return None
        return self.tap(*drawn)


def count(tally: dict, key: str | None) -> None:
    if key:
        tally[key] = tally.get(key, 0) + 1


# -- what each accepted action must respect -------------------------------------------------------


def check_accepted(before: GameState, after: GameState, kind: str, payload: dict) -> None:
    """K4 nothing after the end; K2 nothing for a bankrupt seat; R1, K1, P1, SG1 nothing moves
    on while something waits, and the turn passes once nothing does."""
    if before.ended:
        raise Violation(f"K4: {kind} was accepted after the game ended")
    for key in SEAT_FIELDS:
        seat = payload.get(key)
        if isinstance(seat, int) and before.players[seat].bankrupt:
            raise Violation(f"K2: {kind} accepted for bankrupt seat {seat} ({key})")
    if kind in WAITING_KINDS and before.busy():
        raise Violation(f"R1: {kind} accepted while {pending_words(before)} waits")
    current = whose_turn(before)
    turned = whose_turn(after)
    passed = current is not None and turned is not None and turned.seat != current.seat
    if passed and after.busy() and kind != "bankrupt":
        raise Violation(f"R1: {kind} passed the turn while {pending_words(after)} waits")
    if after.moved and not after.busy() and not after.ended:
        raise Violation(f"R1: {kind} left a turn that has moved and waits for nothing")
    if kind == "roll" and not after.busy() and not after.ended:
        check_next_throw(before, after, payload)


def check_next_throw(before: GameState, after: GameState, payload: dict) -> None:
    """R1, R2, J1, J3: after a throw whose landing is done, the same player throws again
    after doubles (not the third, not out of jail by them, not sent to jail); else the next
    player to the left still in the game."""
    seat_ = payload["player"]
    doubles = payload.get("doubles") is True or payload["dice"] in (2, 12)
    again = doubles and not before.players[seat_].in_jail and not after.players[seat_].in_jail
    count_ = len(after.players)
    left = (seat_ + step for step in range(1, count_ + 1))
    wanted = (
        seat_ if again else next(s % count_ for s in left if not after.players[s % count_].bankrupt)
    )
    if after.turn != wanted:
        raise Violation(f"R1, R2: after {seat_}'s throw the turn is {after.turn}'s, not {wanted}'s")


def pending_words(state: GameState) -> str:
    items = [f"{p.what} of seat {p.seat}" for p in state.pending]
    if state.auction:
        items.append("an auction")
    return ", ".join(items) or "nothing"


def check_movements(before: GameState, after: GameState, movements, kind: str) -> int:
    """S2: every change of cash is a movement the action reports, of a whole positive amount;
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
            flow, from_bank = flow + m.amount, from_bank + m.amount
        if m.payee is not None:
            change[m.payee] += m.amount
        else:
            flow, to_bank = flow - m.amount, to_bank + m.amount
    for p, q, moved in zip(before.players, after.players, change, strict=True):
        if q.cash - p.cash != moved:
            raise Violation(f"{kind}: {q.name}'s cash changed by {q.cash - p.cash}, moved {moved}")
    grown = after.pot - before.pot
    if grown > 0 and grown > to_bank:
        raise Violation(f"H1: {kind} put {grown} in the pot, the bank took in {to_bank}")
    if grown < 0 and (after.pot != 0 or from_bank < before.pot):
        raise Violation(f"H1: {kind} took {-grown} from the pot, not all of it into a hand")
    return flow


def check_who_gets_what(edition: Edition, before: GameState, outcome, kind: str, payload: dict):
    """Each movement goes to the party the rule book names (ledger.py); K1: a debtor spends
    nothing but on the debt (they raise money: a trade may cost its M4 interest out of the
    cash it brings, so the cash is read net)."""
    for p, q in zip(before.players, outcome.state.players, strict=True):
        settling = kind in ("pay_debt", "bankrupt") and payload.get("player") == p.seat
        if before.debts_of(p.seat) and q.cash < p.cash and not settling:
            raise Violation(f"K1: {kind}: {p.name} owes a debt and spent {p.cash - q.cash}")
    try:
        book = ledger.expect(before, edition, kind, payload)
    except (KeyError, StopIteration, IndexError) as lost:
        raise Violation(
            f"{kind}: the core did what the rule book has no place for ({lost!r})"
        ) from None
    wrong = ledger.differences(book, outcome.state, outcome.movements)
    if wrong:
        raise Violation(f"who gets what, {kind} {json.dumps(payload)}: " + "; ".join(wrong))


def case_of(edition: Edition, kind: str, payload: dict, before: GameState, outcome) -> str:
    """Which case of its kind an accepted action was, to show the run covered them all."""
    after = outcome.state
    if kind == "card":
        return f"card: {edition.cards[payload['card']].effect}"
    if kind == "deal":
        return "deal: " + ("debts" if after.waiting(DEBT) else "paid")
    if kind in ("roll", "land"):
        news = [p.what for p in after.pending if p not in before.pending]
        steps = " with choices" if payload.get("choices") else ""
        return f"{kind}{steps}: " + (", ".join(sorted(set(news))) or "done")
    if kind == "bankrupt":
        players = {d.creditor for d in before.debts_of(payload["player"])} - {None}
        to = "a player (K2)" if len(players) == 1 else "the bank"
        second = " (SG3)" if after.settings.mode == "short" and after.ended else ""
        asks = ", M4 choices waiting" if after.waiting(RECEIVED) else ""
        return f"bankrupt to {to}{second}{asks}"
    if kind == "auction_close":
        lot = "deed" if before.auction.deed is not None else "building"
        return f"auction of a {lot}: " + ("won" if before.auction.bidder is not None else "no bid")
    if kind == "pay_debt" and after.pot != before.pot:
        return "pay_debt into the H1 pot"
    if after.pot < before.pot:
        return f"{kind}: the H1 pot taken"
    return ""


# -- the invariants after every step --------------------------------------------------------------


PLAIN = (int, str, bool, float, type(None))


def freeze(value: object) -> object:
    """Everything a state holds, as plain nested tuples: read field by field, not through the
    state's own copy (which the check would then trust)."""
    kind = type(value)
    if kind in PLAIN:
        return value
    if kind is dict:
        return tuple(sorted((str(k), freeze(v)) for k, v in value.items()))
    if kind is list or kind is tuple:
        return tuple(map(freeze, value))
    return (kind.__name__, tuple((k, freeze(v)) for k, v in vars(value).items()))


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
    """X1, C3, K2, M5: a deed's owner is a seat still playing; a mortgaged deed has an owner;
    each deck's Get Out of Jail Free card is held by one player at most."""
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
    """R1 the turn is a seat's still playing, R2 at most two doubles in a row before the third
    sends the player to jail, J3 at most two failed tries in jail (the third pays the fine);
    C1 the cards remembered as drawn are the deck's own."""
    state = play.state
    if not 0 <= state.turn < len(state.players) or not 0 <= state.doubles <= 2:
        raise Violation(f"R1: turn {state.turn}, doubles {state.doubles}")
    if not state.ended and state.players[state.turn].bankrupt:
        raise Violation(f"R1: the turn is bankrupt seat {state.turn}'s")
    for p in state.players:
        if not 0 <= p.jail_tries < JAIL_TRIES or (p.jail_tries and not p.in_jail):
            raise Violation(f"J3: {p.name} in jail {p.in_jail} with {p.jail_tries} tries")
    for deck, ids in state.drawn.items():
        cards = play.edition.cards
        if len(ids) != len(set(ids)) or any(cards[i].deck != deck for i in ids):
            raise Violation(f"C1: drawn from {deck}: {ids}")


def k1_no_cash_below_zero_and_debts_to_someone_else(play: Play) -> None:
    """K1: no cash below zero; a debt is a positive amount a player in the game owes the
    bank or another player in the game; what waits is for players still in the game."""
    state = play.state
    for p in state.players:
        if type(p.cash) is not int or p.cash < 0:
            raise Violation(f"K1: {p.name} holds {p.cash!r}")
        if not 0 <= p.position < 40:
            raise Violation(f"{p.name} stands on space {p.position}")
    for item in state.pending:
        if item.what == DEAL:
            continue
        if state.players[item.seat].bankrupt:
            raise Violation(f"K2: {item.what} waits for bankrupt seat {item.seat}")
        if item.what != DEBT:
            continue
        creditor = item.creditor
        if item.amount <= 0 or creditor == item.seat:
            raise Violation(f"K1: seat {item.seat} owes {item.amount} to {creditor}")
        if creditor is not None and state.players[creditor].bankrupt:
            raise Violation(f"K2: seat {item.seat} owes bankrupt seat {creditor}")


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
    """K4: the last player left wins; SG3: a short game stops at the 2nd bankruptcy (a timed
    one goes on until its time, TL1).
    An ended game has no auction running and waits for no choice (an open debt stays owed,
    SG4)."""
    state = play.state
    if len(state.in_play()) < 2 and not state.ended:
        raise Violation("K4: one player is left and the game goes on")
    if state.settings.mode == "short" and state.bankruptcies >= 2 and not state.ended:
        raise Violation("SG3: a second bankruptcy and the game goes on")
    choices = [p for p in state.pending if p.what != DEBT]
    if state.ended and (state.auction or state.to_auction or choices):
        raise Violation("K4: an ended game still waits for something")


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
    k1_no_cash_below_zero_and_debts_to_someone_else,
    k2_a_bankrupt_player_holds_nothing,
    k3_deeds_waiting_for_auction_are_the_bank_s,
    k4_sg3_the_game_ends_when_the_rule_book_says,
]


# -- reading the table ----------------------------------------------------------------------------

Tap = tuple[str, dict] | None


def seat(play: Play, c: Chooser, among: Sequence[int] | None = None) -> int:
    """Mostly a player still in the game (from `among` when given), now and then any seat."""
    playing = [p.seat for p in play.state.in_play()]
    pool = [s for s in (among if among is not None else playing) if s in playing]
    if pool and not c.odds(1, 12):
        return c.pick(pool)
    return c.number(0, len(play.state.players) - 1)


def current(play: Play, c: Chooser) -> int:
    """Mostly the seat whose turn it is."""
    player = whose_turn(play.state)
    return player.seat if player is not None and not c.odds(1, 6) else seat(play, c)


def cash(play: Play, seat_: int) -> int:
    return play.state.players[seat_].cash


def offered(play: Play, kind: str) -> list[Move]:
    """Every move of this kind the core offers a seat still in the game now."""
    return [
        move
        for p in play.state.in_play()
        for move in moves_for(play.state, play.edition, p.seat)
        if move.kind == kind
    ]


def from_offered(play: Play, c: Chooser, kind: str, otherwise: Callable[[], dict]) -> Tap:
    """One of the core's own moves of this kind (its asks filled), or now and then (or when
    there is none) the fields `otherwise` makes up."""
    moves = offered(play, kind)
    if moves and not c.odds(1, 8):
        return fill(play, c, c.pick(moves))
    return kind, otherwise()


def a_deed(play: Play, c: Chooser, pool: Sequence[int] = ()) -> int:
    if pool and not c.odds(1, 10):
        return c.pick(list(pool))
    return c.pick([d.index for d in play.edition.deeds])


def bank_deeds(play: Play) -> list[int]:
    return [i for i, d in play.state.deeds.items() if d.owner is None]


# -- filling in what a move asks ------------------------------------------------------------------


def fill(play: Play, c: Chooser, move: Move) -> Tap:
    """A move of the core with what only the table can say: dice, an amount, levels, hands."""
    payload = dict(move.fields)
    for ask in move.asks:
        if ask == "dice":
            payload["dice"] = c.number(2, 12)
        elif ask == "doubles":
            payload.update(throw_of(c, payload["player"]))
        elif ask == "amount":
            payload["amount"] = a_bid(play, c, payload["player"])
        elif ask == "levels":
            payload["levels"] = levels_for(play, c, play.edition.groups[payload["group"]])
        elif ask == "hands":
            payload["hands"] = hands_for(play, c)
    return move.kind, payload


def throw_of(c: Chooser, seat_: int) -> dict:
    """Two dice: their total, and doubles when they match (R2: a 2 or a 12 now and then sent
    without the flag, which they carry by themselves)."""
    one, two = c.number(1, 6), c.number(1, 6)
    doubles = one == two and not (one in (1, 6) and c.odds(1, 3))
    return {"player": seat_, "dice": one + two, "doubles": doubles}


def a_bid(play: Play, c: Chooser, bidder: int) -> int:
    auction = play.state.auction
    lowest = max(auction.bid + 1, auction.minimum) if auction else 1
    if lowest <= cash(play, bidder) and not c.odds(1, 10):
        return c.number(lowest, min(cash(play, bidder), lowest + 120))
    return c.number(1, cash(play, bidder) + 50)  # now and then too low or too high: refused


def levels_for(play: Play, c: Chooser, group) -> list[int]:
    """Half the time as high as the owner's cash goes, evenly; else the group at one height,
    one street a step off; now and then anything."""
    if c.odds(1, 8):
        return [c.number(0, HOTEL) for _ in group.deeds]
    owner = play.state.deeds[group.deeds[0]].owner
    if owner is not None and c.odds(1, 2):
        for height in range(HOTEL, 0, -1):
            if build_cost(play, group, height) <= cash(play, owner):
                return [height] * len(group.deeds)
    height = c.number(0, HOTEL)
    levels = [height] * len(group.deeds)
    levels[c.number(0, len(levels) - 1)] = min(max(height + c.number(-1, 1), 0), HOTEL)
    return levels


def build_cost(play: Play, group, height: int) -> int:
    needed = play.state.settings.houses_for_hotel
    olds = [play.state.deeds[i].houses for i in group.deeds]
    return sum(ledger.street_cost(old, height, group.house_price, needed) for old in olds)


def hands_for(play: Play, c: Chooser) -> list[list[int]]:
    """SG1: two of the bank's deeds to each player, at random; when a player could not pay
    for theirs, mostly the cheapest deeds instead, dear with cheap; now and then a hand of
    three (refused)."""
    free = bank_deeds(play)
    seats = range(len(play.state.players))
    chosen = c.sample(free, 2 * len(seats))
    hands = [chosen[2 * n : 2 * n + 2] for n in seats]
    cheap = sorted(free, key=lambda i: play.edition.spaces[i].price)[: 2 * len(seats)]
    short = any(price_of(play, hands[n]) > cash(play, n) for n in seats)
    if short and len(cheap) == 2 * len(seats) and not c.odds(1, 10):
        hands = [[cheap[n], cheap[-1 - n]] for n in seats]
    if c.odds(1, 12):
        hands[0] = [*hands[0], a_deed(play, c, free)]
    return hands


def price_of(play: Play, deeds: list[int]) -> int:
    return sum(play.edition.spaces[i].price for i in deeds)


# -- play: the table's next act -------------------------------------------------------------------


def next_act(play: Play, c: Chooser) -> Tap:
    """The next throw, or the answer to what the game waits for, from the core's own moves."""
    found = waits(play.state, play.edition)
    if not found:
        return None
    wait = found[0] if len(found) == 1 or c.odds(5, 6) else c.pick(found)
    return ANSWERS[wait.what](play, c, wait)


def a_throw(play: Play, c: Chooser, wait) -> Tap:
    """R1, R2, J3: the dice of the player whose turn it is (in jail, now and then the fine or
    the card first); a quarter of the throws carry the choices their landing leaves."""
    others = [m for m in wait.moves if m.kind != "roll"]
    if others and c.odds(1, 3):
        return fill(play, c, c.pick(others))
    payload = throw_of(c, wait.seat)
    if c.odds(1, 4):
        with_choices(play, c, "roll", payload)
    return "roll", payload


def with_choices(play: Play, c: Chooser, kind: str, payload: dict) -> None:
    """The choices a phone adds to a throw in one tap: tried on the core, answering what
    each step leaves (a card's move may leave another), up to three steps."""
    for _ in range(3):
        try:
            trial = apply(play.state, play.edition, kind, payload)
        except RuleError:
            return
        steps = choice_steps(trial.state, play.edition, payload["player"])
        if not steps:
            return
        step = dict(c.pick(steps))
        if step["kind"] == "buy" and not affords(play, trial.state, payload["player"]):
            step = {"kind": "decline"} if not c.odds(1, 10) else step
        if step["kind"] == "throw":
            step["dice"] = c.number(2, 12)
        payload["choices"] = [*payload.get("choices", []), step]


def affords(play: Play, state: GameState, buyer: int) -> bool:
    """The buyer's cash covers the deed that waits for their buy or decline (P1)."""
    item = next(p for p in state.pending if p.seat == buyer and p.what == BUY)
    return state.players[buyer].cash >= play.edition.spaces[item.space].price


def a_choice(play: Play, c: Chooser, wait) -> Tap:
    """P1 buy (mostly, when the cash covers it) or decline; C1 a card, mostly not one drawn
    lately; T1 either way; P6 a fresh throw."""
    moves = list(wait.moves)
    if wait.what == BUY:
        covered = cash(play, wait.seat) >= wait.figures["price"]
        buying = c.odds(3, 4) if covered else c.odds(1, 10)
        moves = [m for m in moves if (m.kind == "buy") == buying]
    elif wait.what == CARD:
        fresh = [m for m in moves if not m.lately]
        moves = fresh if fresh and not c.odds(1, 10) else moves
    return fill(play, c, c.pick(moves))


def a_settlement(play: Play, c: Chooser, wait) -> Tap:
    """K1: pay when the cash covers the debt; raise money (mortgage, sell, trade a deed for
    cash) while it could; bankruptcy when all it could raise falls short; now and then the
    wrong one, which is refused."""
    seat_, figures = wait.seat, wait.figures
    who = {"player": seat_}
    if c.odds(1, 20):
        return c.pick((("pay_debt", who), ("bankrupt", who)))
    if figures["cash"] >= figures["owed"]:
        return "pay_debt", who
    if figures["raisable"] < figures["owed"]:
        return "bankrupt", {**who, **lifts(play, c, seat_, figures["creditor"])}
    raising = [m for m in moves_for(play.state, play.edition, seat_) if m.kind == "mortgage"]
    selling = sell_moves(play, seat_)
    if selling and (not raising or c.odds(1, 3)):
        return c.pick(selling)
    if raising and not c.odds(1, 8):
        return fill(play, c, c.pick(raising))
    return a_sale(play, c, seat_) or ("pay_debt", who)


def sell_moves(play: Play, seat_: int) -> list[tuple[str, dict]]:
    """B6: a built group of the seat's, a street a step down or the whole group sold."""
    found = []
    for group in play.edition.groups.values():
        levels = [play.state.deeds[i].houses for i in group.deeds]
        if any(levels) and play.state.deeds[group.deeds[0]].owner == seat_:
            found.append(
                ("build", {"player": seat_, "group": group.id, "levels": [0] * len(levels)})
            )
            top = levels.index(max(levels))
            needed = play.state.settings.houses_for_hotel
            levels[top] = needed if levels[top] == HOTEL else levels[top] - 1
            found.append(("build", {"player": seat_, "group": group.id, "levels": levels}))
    return found


def a_sale(play: Play, c: Chooser, seller: int) -> Tap:
    """X1: a deed without buildings sold to another player for cash (a debtor may)."""
    deeds = [i for i in play.state.held_by(seller) if unbuilt_group(play, i)]
    buyers = [p.seat for p in play.state.in_play() if p.seat != seller and p.cash > 1]
    if not deeds or not buyers:
        return None
    buyer = c.pick(buyers)
    price = c.number(1, cash(play, buyer))
    give = {"deeds": [c.pick(deeds)]}
    return "trade", {"player": seller, "partner": buyer, "give": give, "take": {"cash": price}}


def unbuilt_group(play: Play, index: int) -> bool:
    group = play.edition.group_of(index)
    return not any(play.state.deeds[i].houses for i in group.deeds)


def lifts(play: Play, c: Chooser, debtor: int, creditor: int | None) -> dict:
    """M4: the creditor of a bankrupt, asked at the table, may lift the mortgaged deeds at once
    (or keep them all: an empty list); not asked (no `lift`), each waits for their choice."""
    mortgaged = [i for i in play.state.held_by(debtor) if play.state.deeds[i].mortgaged]
    if creditor is None or not mortgaged or c.odds(2, 3):  # mostly not asked: K2s are rare
        return {}
    return {"lift": c.some(mortgaged, len(mortgaged))}


def a_reception(play: Play, c: Chooser, wait) -> Tap:
    """M4: the new owner of a mortgaged deed keeps it mortgaged (mostly: lifting is played
    often elsewhere) or lifts it now when the core offers it."""
    moves = list(wait.moves)
    keeping = [m for m in moves if m.kind == "keep_mortgaged"]
    return fill(play, c, keeping[0] if c.odds(2, 3) else c.pick(moves))


def an_auction_step(play: Play, c: Chooser, wait) -> Tap:
    """P1, B5, K3: bids from those the core lets bid and who can, then the auction closed."""
    bids = [m for m in wait.moves if m.kind == "bid"]
    able = [m for m in bids if cash(play, m.fields["player"]) >= wait.figures["lowest"]]
    if able and c.odds(2, 3):
        return fill(play, c, c.pick(able))
    return "auction_close", closing(play, c)


def closing(play: Play, c: Chooser) -> dict:
    """B5: a building won goes on the street named (mostly one where it may stand), or, not
    named, on the first where it may."""
    auction = play.state.auction
    if auction is None or auction.deed is not None or auction.bidder is None or c.odds(1, 3):
        return {}
    return {"deed": a_deed(play, c, spots(play, auction.bidder, auction.building))}


def spots(play: Play, seat_: int, building: str) -> list[int]:
    book = ledger.Book.of(play.state, play.edition)
    return ledger.streets_taking(book, seat_, building)


def a_deal(play: Play, c: Chooser, wait) -> Tap:
    return fill(play, c, c.pick(wait.moves))


ANSWERS = {
    ROLL: a_throw,
    BUY: a_choice,
    CARD: a_choice,
    TAX: a_choice,
    THROW: a_choice,
    DEBT: a_settlement,
    AUCTION: an_auction_step,
    DEAL: a_deal,
    RECEIVED: a_reception,
}


# -- the other kinds, now and then: one move per kind ---------------------------------------------


def whole_groups(play: Play, owner: int | None = None) -> list:
    found = []
    for group in play.edition.groups.values():
        owners = {play.state.deeds[i].owner for i in group.deeds}
        whole = group.house_price and len(owners) == 1 and None not in owners
        if whole and (owner is None or owners == {owner}):
            found.append(group)
    return found


def roll(play: Play, c: Chooser) -> Tap:
    """A throw whatever waits: mostly refused (R1, K1, P1, SG1) unless nothing does."""
    return "roll", throw_of(c, current(play, c))


def land(play: Play, c: Chooser) -> Tap:
    """R1: the banker records a landing the pad did not see, now and then past GO."""
    payload = {"player": current(play, c), "space": c.number(0, 39)}
    if c.odds(1, 4):
        payload["passed_go"] = True
    if c.odds(1, 3):
        with_choices(play, c, "land", payload)
    return "land", payload


def buy(play: Play, c: Chooser) -> Tap:
    return from_offered(play, c, "buy", lambda: {"player": seat(play, c), "deed": a_deed(play, c)})


def decline(play: Play, c: Chooser) -> Tap:
    return from_offered(
        play, c, "decline", lambda: {"player": seat(play, c), "deed": a_deed(play, c)}
    )


def card(play: Play, c: Chooser) -> Tap:
    return from_offered(
        play,
        c,
        "card",
        lambda: {"player": seat(play, c), "card": c.pick(sorted(play.edition.cards))},
    )


def tax(play: Play, c: Chooser) -> Tap:
    return from_offered(play, c, "tax", lambda: {"player": seat(play, c), "percent": c.odds(1, 2)})


def throw(play: Play, c: Chooser) -> Tap:
    return from_offered(
        play, c, "throw", lambda: {"player": seat(play, c), "dice": c.number(2, 12)}
    )


def pay_debt(play: Play, c: Chooser) -> Tap:
    return from_offered(play, c, "pay_debt", lambda: {"player": seat(play, c)})


def bankrupt(play: Play, c: Chooser) -> Tap:
    return from_offered(play, c, "bankrupt", lambda: {"player": seat(play, c)})


def bid(play: Play, c: Chooser) -> Tap:
    bidder = seat(play, c)
    return from_offered(
        play, c, "bid", lambda: {"player": bidder, "amount": a_bid(play, c, bidder)}
    )


def auction_close(play: Play, c: Chooser) -> Tap:
    return "auction_close", closing(play, c)


def auction_open(play: Play, c: Chooser) -> Tap:
    """B5: a house or a hotel auctioned when the bank is short; K3: the next deed (refused
    unless one waits)."""
    if whole_groups(play) and not c.odds(1, 4):
        return "auction_open", {"building": c.pick(("house", "hotel"))}
    return "auction_open", {}


def deal(play: Play, c: Chooser) -> Tap:
    """SG1: the deal when it waits; else a second deal, or one in a classic game (refused)."""
    return "deal", {"hands": hands_for(play, c)}


def build(play: Play, c: Chooser) -> Tap:
    colour = [g for g in play.edition.groups.values() if g.house_price]
    group = c.pick(colour)
    return from_offered(
        play,
        c,
        "build",
        lambda: {"player": seat(play, c), "group": group.id, "levels": levels_for(play, c, group)},
    )


def mortgage(play: Play, c: Chooser) -> Tap:
    return from_offered(
        play, c, "mortgage", lambda: {"player": seat(play, c), "deed": a_deed(play, c)}
    )


def lift(play: Play, c: Chooser) -> Tap:
    return from_offered(play, c, "lift", lambda: {"player": seat(play, c), "deed": a_deed(play, c)})


def keep_mortgaged(play: Play, c: Chooser) -> Tap:
    return from_offered(
        play, c, "keep_mortgaged", lambda: {"player": seat(play, c), "deed": a_deed(play, c)}
    )


def trade_sides(play: Play, c: Chooser) -> dict:
    """X1-X3, C3: deeds, cash one way and Get Out of Jail Free cards between two players."""
    player = seat(play, c)
    partner = seat(play, c, [s for s in range(len(play.state.players)) if s != player])
    sides: dict = {"player": player, "partner": partner}
    for key, who in (("give", player), ("take", partner)):
        held = play.state.held_by(who)
        side: dict = {"deeds": c.some(held, 2) if held else []}
        cards = len(play.state.players[who].jail_free)
        if cards and c.odds(1, 3):
            side["jail_free"] = c.number(1, cards)
        sides[key] = side
    if c.odds(2, 3):
        key = c.pick(("give", "take"))
        who = player if key == "give" else partner
        sides[key]["cash"] = c.number(1, max(1, cash(play, who)))
    return sides


def trade(play: Play, c: Chooser) -> Tap:
    """Half the time a deed bought to complete a group, now and then the deed a choice waits
    on; else anything both ways."""
    payload = (
        (c.odds(1, 4) and waited_on(play, c))
        or (c.odds(1, 2) and completing(play, c))
        or trade_sides(play, c)
    )
    mortgaged = [
        i
        for side in (payload["give"], payload["take"])
        for i in side.get("deeds", [])
        if play.state.deeds[i].mortgaged
    ]
    if mortgaged and c.odds(2, 3):  # the banker's choice; else each waits for its new owner
        payload["lift"] = c.some(mortgaged, len(mortgaged))
    return "trade", payload


def waited_on(play: Play, c: Chooser) -> dict | None:
    """The deed a throw for the rent waits on, sold by its owner (to the thrower, mostly)."""
    owned = [
        (p.space, play.state.deeds[p.space].owner)
        for p in play.state.pending
        if p.what == THROW and play.state.deeds[p.space].owner is not None
    ]
    if not owned:
        return None
    deed, owner = c.pick(owned)
    buyer = seat(play, c, [p.seat for p in play.state.pending if p.what == THROW])
    give = {"deeds": [deed]}
    return {"player": owner, "partner": buyer, "give": give, "take": {"cash": 1}}


def completing(play: Play, c: Chooser) -> dict | None:
    """X1: the player holding most of a group buys another player's deeds of it for cash."""
    split = []
    for group in play.edition.groups.values():
        owners = [play.state.deeds[i].owner for i in group.deeds]
        if None not in owners and len(set(owners)) > 1:
            split.append((group, owners))
    if not split:
        return None
    group, owners = c.pick(split)
    buyer = max(set(owners), key=owners.count)
    seller = c.pick([s for s in owners if s != buyer])
    deeds = [i for i, owner in zip(group.deeds, owners, strict=True) if owner == seller]
    price = c.number(1, max(1, cash(play, buyer)))
    return {"player": buyer, "partner": seller, "give": {"cash": price}, "take": {"deeds": deeds}}


def trade_offer(play: Play, c: Chooser) -> Tap:
    """M4: the proposer may choose lift-now for mortgaged deeds it would receive."""
    payload = trade_sides(play, c)
    mortgaged = [i for i in payload["take"].get("deeds", []) if play.state.deeds[i].mortgaged]
    if mortgaged:
        payload["lift"] = c.some(mortgaged, len(mortgaged))
    return "trade_offer", payload


def trade_accept(play: Play, c: Chooser) -> Tap:
    moves = offered(play, "trade_accept")
    if not moves or c.odds(1, 10):
        return "trade_accept", {"player": seat(play, c), "offer": c.number(1, 3)}
    kind, payload = fill(play, c, c.pick(moves))
    offer = next(o for o in play.state.offers if o.id == payload["offer"]).trade
    received = [*offer.get("give", {}).get("deeds", []), *offer.get("take", {}).get("deeds", [])]
    mortgaged = [i for i in received if play.state.deeds[i].mortgaged]
    if mortgaged and c.odds(1, 2):  # else a plain "Accept": each waits for its new owner (M4)
        payload["lift"] = c.some(mortgaged, len(mortgaged))
    return kind, payload


def trade_decline(play: Play, c: Chooser) -> Tap:
    return from_offered(
        play, c, "trade_decline", lambda: {"player": seat(play, c), "offer": c.number(1, 3)}
    )


def bank_pay(play: Play, c: Chooser) -> Tap:
    payload = {"player": seat(play, c), "amount": c.number(1, 500)}
    if c.odds(1, 4):
        payload["note"] = "prize"
    return "bank_pay", payload


def bank_collect(play: Play, c: Chooser) -> Tap:
    payer = seat(play, c)
    return "bank_collect", {"player": payer, "amount": c.number(1, cash(play, payer) + 100)}


def transfer(play: Play, c: Chooser) -> Tap:
    payer = seat(play, c)
    payee = seat(play, c, [s for s in range(len(play.state.players)) if s != payer])
    return "transfer", {"from": payer, "to": payee, "amount": c.number(1, cash(play, payer) + 100)}


def turn_to(play: Play, c: Chooser) -> Tap:
    return "turn_to", {"player": seat(play, c)}


def place(play: Play, c: Chooser) -> Tap:
    return "place", {"player": seat(play, c), "space": c.number(0, 39)}


def go_to_jail(play: Play, c: Chooser) -> Tap:
    return "go_to_jail", {"player": current(play, c)}


def jailed(play: Play, c: Chooser) -> int:
    return seat(play, c, [p.seat for p in play.state.players if p.in_jail])


def jail_fine(play: Play, c: Chooser) -> Tap:
    return "jail_fine", {"player": jailed(play, c)}


def jail_card(play: Play, c: Chooser) -> Tap:
    holders = [p.seat for p in play.state.players if p.in_jail and p.jail_free]
    return "jail_card", {"player": seat(play, c, holders) if holders else jailed(play, c)}


def pass_go(play: Play, c: Chooser) -> Tap:
    return "pass_go", {"player": seat(play, c)}


def parking_pot(play: Play, c: Chooser) -> Tap:
    return "parking_pot", {"player": seat(play, c)}


def phone_turns(play: Play, c: Chooser) -> Tap:
    return "phone_turns", {"allow": c.odds(1, 2)}


def end_game(play: Play, c: Chooser) -> Tap:
    return ("end_game", {}) if c.odds(1, 4) else None  # rarely: it ends the game


def undo(play: Play, c: Chooser) -> Tap:
    return "undo", {}


MOVES: dict[str, Callable[[Play, Chooser], Tap]] = {
    "play": next_act,
    **{
        f.__name__: f
        for f in (
            roll,
            land,
            buy,
            decline,
            card,
            tax,
            throw,
            pay_debt,
            bankrupt,
            bid,
            auction_close,
            auction_open,
            deal,
            build,
            mortgage,
            lift,
            keep_mortgaged,
            trade,
            trade_offer,
            trade_accept,
            trade_decline,
            bank_pay,
            bank_collect,
            transfer,
            turn_to,
            place,
            go_to_jail,
            jail_fine,
            jail_card,
            pass_go,
            parking_pot,
            phone_turns,
            end_game,
            undo,
        )
    },
}
_missing = set(KINDS) - set(MOVES)
if _missing:
    raise RuntimeError(f"the machine has no move for the action kinds {sorted(_missing)}")
_unread = set(KINDS) - set(ledger.KINDS) - {"undo"}
if _unread:
    raise RuntimeError(f"the ledger cannot say who gets what in {sorted(_unread)}")

# How often each move is drawn: mostly the table's next act; the others now and then, the
# game-changing ones least.
WEIGHTS = {name: 1 for name in MOVES} | {
    "play": 150,
    "undo": 4,
    "build": 6,
    "mortgage": 3,
    "lift": 3,
    "trade": 3,
    "trade_offer": 2,
    "trade_accept": 2,
    "land": 2,
    "auction_open": 2,
}
NAMES_BY_WEIGHT = list(MOVES)  # "play" first: a shrinking draw goes to it
WEIGHT_LIST = [WEIGHTS[name] for name in NAMES_BY_WEIGHT]


def a_move(c: Chooser) -> str:
    return c.weighted(NAMES_BY_WEIGHT, WEIGHT_LIST)


def refuses_everything_once_ended(play: Play, c: Chooser, tries: int = 3) -> None:
    """K4: an ended game refuses every action kind (undo aside, the bank's own)."""
    names = [n for n in MOVES if n not in ("undo", "end_game", "play")]
    for _ in range(tries):
        drawn = MOVES[c.pick(names)](play, c)
        if drawn is not None and play.tap(*drawn):
            raise Violation(f"K4: {drawn[0]} accepted after the end")
