"""Whose turn it is, and a turn by the dice (R1, R2, G1, J1, J3).

A `roll` is one action: the token moves by the dice total (GO salary on the way), then the
landing's own action (`land`, and `then` after a card that moved the player) is done in the
same action, and the turn passes on, or stays after doubles. One undo takes it all back.
"""

from __future__ import annotations

from .actions import KINDS, Turn, action, flag, send_to_jail
from .edition import BOARD_SIZE
from .errors import RuleError
from .fields import LANDING_KINDS
from .state import GameState, PlayerState
from .words import N_

JAIL_TRIES = 3  # J3: doubles within three turns, or the fine after the third roll


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


def pass_turn(state: GameState, player: PlayerState, again: bool) -> None:
    """R2: doubles roll again; otherwise the next player's turn."""
    if again:
        state.turn, state.doubles = player.seat, state.doubles + 1
    else:
        state.turn, state.doubles = next_in_play(state, player.seat), 0


@action(
    "roll",
    label=N_("Roll"),
    rules="R1, R2, G1, G2, J1, J3; land and then are the landing's own actions",
    needs=("player", "dice"),
    may=("doubles", "land", "then"),
)
def roll(turn: Turn) -> None:
    player, dice = turn_player(turn), turn.dice()
    doubles = flag(turn.payload, "doubles")
    if doubles and dice % 2:
        raise RuleError("R2", "Doubles make an even total, not {dice}", dice=dice)
    if player.in_jail:
        if not leave_jail_by_roll(turn, player, dice, doubles):
            return pass_turn(turn.state, player, again=False)
        doubles = False  # J3: out by doubles, no extra roll
    elif doubles and turn.state.doubles == 2:
        turn.say("{player} throws doubles three times in a row", player=player.name)
        send_to_jail(turn, player)  # J1
        return pass_turn(turn.state, player, again=False)
    move(turn, player, dice)
    for key in ("land", "then"):
        if key in turn.payload:
            land(turn, player, turn.payload[key])
    pass_turn(turn.state, player, again=doubles and not player.in_jail)


def turn_player(turn: Turn) -> PlayerState:
    player, current = turn.player(), whose_turn(turn.state)
    if current is not player:
        raise RuleError("R1", "It is {player}'s turn", player=current.name)
    return player


def leave_jail_by_roll(turn: Turn, player: PlayerState, dice: int, doubles: bool) -> bool:
    """J3: doubles free the player; after the third failed roll the fine is paid. True: out."""
    if doubles:
        turn.say("{player} throws doubles and leaves jail", player=player.name)
    elif player.jail_tries + 1 >= JAIL_TRIES:
        turn.pay_bank_fee(player, turn.edition.jail_fine)
        turn.say(
            "{player} pays the {fine:money} fine after a third try and leaves jail",
            player=player.name,
            fine=turn.edition.jail_fine,
        )
    else:
        player.jail_tries += 1
        turn.say(
            "{player} throws {dice}, no doubles: stays in jail (try {tries} of 3)",
            player=player.name,
            dice=dice,
            tries=player.jail_tries,
        )
        return False
    player.in_jail, player.jail_tries = False, 0
    return True


def move(turn: Turn, player: PlayerState, dice: int) -> None:
    """G1: passing or landing on GO pays the salary (H2 on landing)."""
    target = (player.position + dice) % BOARD_SIZE
    if target == 0:
        turn.salary(player, landed_on_go=True)
    elif target < player.position:
        turn.salary(player)
    player.position = target
    turn.say(
        "{player} throws {dice} and moves to {space}",
        player=player.name,
        dice=dice,
        space=turn.edition.spaces[target].name,
    )


def land(turn: Turn, player: PlayerState, step: object) -> None:
    """The landing's own action, on the space the player stands on, inside the roll."""
    if not isinstance(step, dict) or step.get("kind") not in LANDING_KINDS:
        raise RuleError("input", "The landing is one of {kinds}", kinds=", ".join(LANDING_KINDS))
    kind = step["kind"]
    fields = {k: v for k, v in step.items() if k not in ("kind", "passed_go")}
    where = fields.get("deed", fields.get("space", player.position))
    space = turn.edition.spaces[player.position]
    if where != player.position or (kind == "go_to_jail") != (space.kind == "go_to_jail"):
        raise RuleError("input", "{player} stands on {space}", player=player.name, space=space.name)
    inner = turn.part({**fields, "player": player.seat})
    inner.moved = True
    KINDS[kind].handler(inner)
    turn.next_space, turn.by_card = inner.next_space, inner.by_card


@action("turn_to", label=N_("Their turn"), rules="R1", needs=("player",))
def turn_to(turn: Turn) -> None:
    """R1: the board is the truth; the banker says whose turn it is."""
    player = turn.player()
    turn.state.turn, turn.state.doubles = player.seat, 0
    turn.say("It is {player}'s turn", player=player.name)


@action("place", label=N_("Put the token"), rules="R1", needs=("player", "space"))
def place(turn: Turn) -> None:
    """R1: a token's position corrected to where it stands on the board; no money moves."""
    player, space = turn.player(), turn.space()
    if player.in_jail:
        raise RuleError("J3", "{player} is in jail", player=player.name)
    player.position = space.index
    turn.say("{player}'s token is on {space}", player=player.name, space=space.name)


@action("phone_turns", label=N_("Phones take their own turn"), rules="R1", may=("allow",))
def phone_turns(turn: Turn) -> None:
    """R1: whether a player's own phone may roll for their turn."""
    allow = flag(turn.payload, "allow")
    turn.state.settings.phone_turns = allow
    if allow:
        turn.say("Players' phones may take their own turn")
    else:
        turn.say("Only the banker takes turns")
