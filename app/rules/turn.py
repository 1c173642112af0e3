"""Whose turn it is, a turn by the dice, and the banker's corrections (R1, R2, G1, J1-J3).

A `roll` carries what happened at the table: the dice total, whether they were doubles, and
the choices its landing leaves (buy or decline, the card drawn, the income tax's way, a fresh
throw). The core does the rest: the move, the salary, the landing (landing.py). What is left
to choose waits in `state.pending`; the turn passes on once nothing waits (`settle_turn`,
after every action), or stays with the player after doubles. One undo takes a roll back whole.
"""

from __future__ import annotations

from .actions import KINDS, TURNS, Act, action, flag
from .edition import BOARD_SIZE
from .errors import RuleError
from .landing import arrive, move_forward, send_to_jail
from .state import BUY, CARD, CHOICES, DEAL, DEBT, RECEIVED, TAX, THROW, GameState, PlayerState
from .words import N_

JAIL_TRIES = 3  # J3: doubles within three turns, or the fine after the third roll
DOUBLES_TO_JAIL = 3  # J1: the third doubles in a row goes to jail
ANSWERS = {BUY: ("buy", "decline"), CARD: ("card",), TAX: ("tax",), THROW: ("throw",)}


def whose_turn(state: GameState) -> PlayerState | None:
    """R1: the seat whose turn it is, or the next one still in play."""
    count = len(state.players)
    for step in range(count):
        player = state.players[(state.turn + step) % count]
        if not player.bankrupt:
            return player
    return None


def next_in_play(state: GameState, seat: int) -> int:
    """R1: the turn passes to the left, bankrupt players skipped."""
    count = len(state.players)
    for step in range(1, count + 1):
        candidate = (seat + step) % count
        if not state.players[candidate].bankrupt:
            return candidate
    return seat


def begin_turn(state: GameState, seat: int) -> None:
    state.turn, state.doubles, state.moved, state.again = seat, 0, False, False


def settle_turn(state: GameState) -> None:
    """R1, R2: once the player whose turn it is has moved and nothing waits any more, the
    turn passes to the left, or the same player throws again after doubles. A player who
    left the game hands the turn on at once."""
    if state.ended:
        return
    current = state.players[state.turn]
    if current.bankrupt:
        begin_turn(state, next_in_play(state, state.turn))
    elif state.moved and not state.busy():
        if state.again and not current.in_jail:
            state.moved = state.again = False
        else:
            begin_turn(state, next_in_play(state, current.seat))


def refuse_while_busy(act: Act) -> None:
    """Nothing moves on while a choice, a debt, the deal or an auction waits (R1, K1, P1), nor
    while the new owner of a mortgaged deed has still to choose to lift it now (M4)."""
    state = act.state
    if state.auction or state.to_auction:
        raise RuleError("P1", "Close the auction first")
    if not state.pending:
        return
    item = state.pending[0]
    if item.what == DEAL:
        raise RuleError("SG1", "Deal the deeds first")
    who = state.players[item.seat]
    if item.what == DEBT:
        owed = state.owed_by(item.seat)
        raise RuleError(
            "K1", "{player} owes {amount:money}: pay or raise it first", player=who, amount=owed
        )
    if item.what == RECEIVED:
        raise RuleError(
            "M4",
            "{player} first chooses whether to lift {deed} now or keep it mortgaged",
            player=who,
            deed=act.edition.spaces[item.space].name,
        )
    raise RuleError("R1", "{player} has a choice to make first", player=who)


def turn_player(act: Act) -> PlayerState:
    player, current = act.player(), whose_turn(act.state)
    if current is not player:
        raise RuleError("R1", "It is {player}'s turn", player=current)
    return player


@action(
    "roll",
    label=N_("Roll"),
    rules="R1, R2, G1, G2, J1, J3; choices answer what the landing leaves to choose",
    needs=("player", "dice"),
    may=("doubles", "choices"),
    phone=TURNS,
)
def roll(act: Act) -> None:
    refuse_while_busy(act)
    player = turn_player(act)
    dice = act.dice()
    doubles = flag(act.payload, "doubles") or dice in (2, 12)  # only doubles make 2 or 12
    if doubles and dice % 2:
        raise RuleError("R2", "Doubles make an even total, not {dice}", dice=dice)
    act.state.moved, act.state.again = True, False
    if player.in_jail:
        if not leave_jail_by_roll(act, player, dice, doubles):
            return
        doubles = False  # J3: out by doubles, no extra roll
    elif doubles and act.state.doubles + 1 == DOUBLES_TO_JAIL:
        act.say("{player} throws doubles three times in a row", player=player.name)
        return send_to_jail(act, player)  # J1
    if doubles:
        act.state.doubles, act.state.again = act.state.doubles + 1, True
    target = (player.position + dice) % BOARD_SIZE
    act.say(
        "{player} throws {dice} and moves to {space}",
        player=player.name,
        dice=dice,
        space=act.edition.spaces[target].name,
    )
    move_forward(act, player, target)
    arrive(act, player, target, dice)
    take_choices(act, player)


def leave_jail_by_roll(act: Act, player: PlayerState, dice: int, doubles: bool) -> bool:
    """J3: doubles free the player; after the third failed roll the fine is due. True: out."""
    if doubles:
        act.say("{player} throws doubles and leaves jail", player=player.name)
    elif player.jail_tries + 1 >= JAIL_TRIES:
        words = (
            N_("{player} pays the {amount:money} fine after a third try and leaves jail"),
            N_("{player} owes the {amount:money} fine after a third try and leaves jail"),
        )
        act.owe(player, None, act.edition.jail_fine, words, fee=True, player=player.name)
    else:
        player.jail_tries += 1
        act.say(
            "{player} throws {dice}, no doubles: stays in jail (try {tries} of 3)",
            player=player.name,
            dice=dice,
            tries=player.jail_tries,
        )
        return False
    player.in_jail, player.jail_tries = False, 0
    return True


def take_choices(act: Act, player: PlayerState) -> None:
    """The choices a roll carries, each answering the next one its landing left the player
    (a card's move may leave another); one the board did not call for is refused."""
    steps = act.payload.get("choices") or []
    if not isinstance(steps, list):
        raise RuleError("input", "The choices are a list")
    for step in steps:
        kind = step.get("kind") if isinstance(step, dict) else None
        waiting = [p for p in act.state.pending if p.seat == player.seat and p.what in CHOICES]
        if not waiting or kind not in ANSWERS[waiting[0].what]:
            raise RuleError("R1", "The landing does not call for {step}", step=str(kind)[:20])
        fields = {k: v for k, v in step.items() if k != "kind"}
        if waiting[0].what == BUY:
            fields.setdefault("deed", waiting[0].space)
        KINDS[kind].handler(act.part({**fields, "player": player.seat}))


@action(
    "land",
    label=N_("Landed on"),
    rules="R1, G1: the banker records a move the dice pad did not; the landing is worked out",
    needs=("player", "space"),
    may=("passed_go", "choices"),
)
def land(act: Act) -> None:
    """R1: the board is the truth: a token that moved without the pad (a throw not tapped, a
    miscount put right) lands where it stands, its salary if it passed GO, and the landing
    is worked out as after a roll. It counts as the move of the player whose turn it is."""
    player, space = act.player(), act.space()
    if player.in_jail:
        raise RuleError("J3", "{player} is in jail: record how they get out first", player=player)
    refuse_while_busy(act)
    act.say("{player} lands on {space}", player=player.name, space=space.name)
    if space.index == 0:
        act.salary(player, landed_on_go=True)
    elif flag(act.payload, "passed_go"):
        act.salary(player)
    if act.state.turn == player.seat:
        act.state.moved, act.state.again = True, False
    arrive(act, player, space.index, None)
    take_choices(act, player)


@action("turn_to", label=N_("Their turn"), rules="R1", needs=("player",))
def turn_to(act: Act) -> None:
    """R1: the board is the truth; the banker says whose turn it is (once nothing waits)."""
    player = act.player()
    refuse_while_busy(act)
    begin_turn(act.state, player.seat)
    act.say("It is {player}'s turn", player=player.name)


@action("place", label=N_("Put the token"), rules="R1", needs=("player", "space"))
def place(act: Act) -> None:
    """R1: a token's position corrected to where it stands on the board; no money moves."""
    player, space = act.player(), act.space()
    if player.in_jail:
        raise RuleError("J3", "{player} is in jail", player=player)
    player.position = space.index
    act.say("{player}'s token is on {space}", player=player.name, space=space.name)


@action("phone_turns", label=N_("Phones take their own turn"), rules="R1", may=("allow",))
def phone_turns(act: Act) -> None:
    """R1: whether a player's own phone may take their own seat's turn."""
    allow = flag(act.payload, "allow")
    act.state.settings.phone_turns = allow
    if allow:
        act.say("Players' phones may take their own turn")
    else:
        act.say("Only the banker takes turns")


@action("pass_go", label=N_("Collect salary"), rules="G1", needs=("player",))
def pass_go(act: Act) -> None:
    """G1: the salary for a pass the pad did not see."""
    act.salary(act.player())


@action("go_to_jail", label=N_("Go to jail"), rules="J1, G2", needs=("player",))
def go_to_jail(act: Act) -> None:
    """J1, G2: straight to jail, no salary; a player already there stays."""
    player = act.player()
    if player.in_jail:
        raise RuleError("J1", "{player} is already in jail", player=player)
    refuse_while_busy(act)  # a card or a deed still waiting would act on the jailed token
    send_to_jail(act, player)


# -- out of jail before the throw (J3) --------------------------------------------------------


def _jailed(act: Act) -> PlayerState:
    player = act.player()
    if not player.in_jail:
        raise RuleError("J3", "{player} is not in jail", player=player)
    if act.state.turn == player.seat and act.state.moved:
        raise RuleError(
            "J3",
            "{player} has thrown this turn: the fine comes after the third try",
            player=player,
        )
    act.clear_of_debt(player)
    player.in_jail, player.jail_tries = False, 0
    return player


@action("jail_fine", label=N_("Pay the fine"), rules="J3", needs=("player",), phone=TURNS)
def jail_fine(act: Act) -> None:
    """J3: pay the fine before throwing, on the first or second turn in jail, and leave."""
    if act.player().jail_tries + 1 >= JAIL_TRIES:
        raise RuleError(
            "J3",
            "{player} is on a third turn in jail: throw first; the fine comes after a throw "
            "without doubles",
            player=act.player(),
        )
    player = _jailed(act)
    act.pay_bank_fee(player, act.edition.jail_fine)
    act.say(
        "{player} pays the {fine:money} fine and leaves jail",
        player=player.name,
        fine=act.edition.jail_fine,
    )


@action(
    "jail_card",
    label=N_("Use Get Out of Jail Free"),
    rules="J3, C3",
    needs=("player",),
    phone=TURNS,
)
def jail_card(act: Act) -> None:
    """J3, C3: a Get Out of Jail Free card, back to its deck once used."""
    player = _jailed(act)
    if not player.jail_free:
        raise RuleError("C3", "{player} holds no Get Out of Jail Free card", player=player)
    player.jail_free.pop(0)
    act.say("{player} uses a Get Out of Jail Free card and leaves jail", player=player.name)
