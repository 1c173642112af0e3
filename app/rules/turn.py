"""Whose turn it is, and a turn by the dice (R1, R2, G1, J1, J3).

A `roll` is one action: the token moves by the dice total (GO salary on the way), then the
landing's own action (`land`, and `then` after a card that moved the player) is done in the
same action, and the turn passes on, or stays after doubles. One undo takes it all back.
"""

from __future__ import annotations

from .actions import KINDS, Act, action, flag, send_to_jail
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
    """R2: doubles roll again; otherwise the next player's act."""
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
def roll(act: Act) -> None:
    player, dice = turn_player(act), act.dice()
    doubles = flag(act.payload, "doubles")
    if doubles and dice % 2:
        raise RuleError("R2", "Doubles make an even total, not {dice}", dice=dice)
    if player.in_jail:
        if not leave_jail_by_roll(act, player, dice, doubles):
            return pass_turn(act.state, player, again=False)
        doubles = False  # J3: out by doubles, no extra roll
    elif doubles and act.state.doubles == 2:
        act.say("{player} throws doubles three times in a row", player=player.name)
        send_to_jail(act, player)  # J1
        return pass_turn(act.state, player, again=False)
    move(act, player, dice)
    for key in ("land", "then"):
        if key in act.payload:
            land(act, player, act.payload[key])
    pass_turn(act.state, player, again=doubles and not player.in_jail)


def turn_player(act: Act) -> PlayerState:
    player, current = act.player(), whose_turn(act.state)
    if current is not player:
        raise RuleError("R1", "It is {player}'s turn", player=current.name)
    return player


def leave_jail_by_roll(act: Act, player: PlayerState, dice: int, doubles: bool) -> bool:
    """J3: doubles free the player; after the third failed roll the fine is paid. True: out."""
    if doubles:
        act.say("{player} throws doubles and leaves jail", player=player.name)
    elif player.jail_tries + 1 >= JAIL_TRIES:
        act.pay_bank_fee(player, act.edition.jail_fine)
        act.say(
            "{player} pays the {fine:money} fine after a third try and leaves jail",
            player=player.name,
            fine=act.edition.jail_fine,
        )
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


def move(act: Act, player: PlayerState, dice: int) -> None:
    """G1: passing or landing on GO pays the salary (H2 on landing)."""
    target = (player.position + dice) % BOARD_SIZE
    if target == 0:
        act.salary(player, landed_on_go=True)
    elif target < player.position:
        act.salary(player)
    player.position = target
    act.say(
        "{player} throws {dice} and moves to {space}",
        player=player.name,
        dice=dice,
        space=act.edition.spaces[target].name,
    )


def land(act: Act, player: PlayerState, step: object) -> None:
    """The landing's own action, on the space the player stands on, inside the roll."""
    if not isinstance(step, dict) or step.get("kind") not in LANDING_KINDS:
        raise RuleError("input", "The landing is one of {kinds}", kinds=", ".join(LANDING_KINDS))
    kind = step["kind"]
    fields = {k: v for k, v in step.items() if k not in ("kind", "passed_go")}
    where = fields.get("deed", fields.get("space", player.position))
    space = act.edition.spaces[player.position]
    if where != player.position or (kind == "go_to_jail") != (space.kind == "go_to_jail"):
        raise RuleError("input", "{player} stands on {space}", player=player.name, space=space.name)
    inner = act.part({**fields, "player": player.seat})
    inner.moved = True
    KINDS[kind].handler(inner)
    act.next_space, act.by_card = inner.next_space, inner.by_card


@action("turn_to", label=N_("Their turn"), rules="R1", needs=("player",))
def turn_to(act: Act) -> None:
    """R1: the board is the truth; the banker says whose turn it is."""
    player = act.player()
    act.state.turn, act.state.doubles = player.seat, 0
    act.say("It is {player}'s turn", player=player.name)


@action("place", label=N_("Put the token"), rules="R1", needs=("player", "space"))
def place(act: Act) -> None:
    """R1: a token's position corrected to where it stands on the board; no money moves."""
    player, space = act.player(), act.space()
    if player.in_jail:
        raise RuleError("J3", "{player} is in jail", player=player.name)
    player.position = space.index
    act.say("{player}'s token is on {space}", player=player.name, space=space.name)


@action("phone_turns", label=N_("Phones take their own turn"), rules="R1", may=("allow",))
def phone_turns(act: Act) -> None:
    """R1: whether a player's own phone may roll for their act."""
    allow = flag(act.payload, "allow")
    act.state.settings.phone_turns = allow
    if allow:
        act.say("Players' phones may take their own turn")
    else:
        act.say("Only the banker takes turns")
