"""The turn as pages show it: what the game waits for, each answer previewed as a button.

Every choice and every figure comes from the rules core (`rules.moves`: `waits`,
`choice_steps`); this module previews them through the bank (the sentence a button shows,
or the core's refusal in words) and shapes them for the templates. No rule is written here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from flask import url_for
from flask_babel import gettext as _

from .. import bank
from ..models import Game
from ..rules import RuleError
from ..rules.moves import ROLL, Move, Wait, step_of, waits
from ..rules.state import CARD, CHOICES, DEBT, THROW, GameState, PlayerState
from .pages import Option, net_of, previewed
from .present import waits_of
from .words import refused, said

PRESETS = (10, 20, 50, 100, 150, 200, 300, 500)  # quick money, one tap each
STYLES = {
    "decline": "secondary",
    "bankrupt": "danger",
    "jail_card": "secondary",
    "keep_mortgaged": "secondary",
}


@dataclass
class CardChoice:
    """A card as a short button: its title line, what it does to the player's cash."""

    option: Option
    title: str
    net: int
    lately: bool


@dataclass
class Panel:
    """One thing the game waits for, as a page shows it: who, where, the figures, and the
    answers previewed (`options`, `cards`); `pad`: the answer needs the dice total."""

    what: str
    player: PlayerState | None
    space: object | None
    figures: dict
    options: list[Option] = field(default_factory=list)
    cards: list[CardChoice] = field(default_factory=list)
    pad: bool = False


def panels(game: Game, seat: int | None = None) -> list[Panel]:
    """What the game waits for, each as a panel; only those `seat` must act on, if given."""
    state = bank.state_of(game)
    found = waits_of(game)
    if seat is not None:
        found = [
            w
            for w in found
            if w.seat == seat or any(m.fields.get("player") == seat for m in w.moves)
        ]
    return [panel_of(game, state, w, seat) for w in found]


def panel_of(game: Game, state: GameState, wait: Wait, seat: int | None) -> Panel:
    edition = bank.edition_of(game)
    moves = [m for m in wait.moves if seat is None or m.fields.get("player") == seat]
    player = None if wait.seat is None else state.players[wait.seat]
    space = None if wait.space is None else edition.spaces[wait.space]
    panel = Panel(wait.what, player, space, wait.figures, pad=wait.what in (ROLL, THROW))
    for move in moves:
        if move.kind == "card":
            panel.cards.append(card_choice(game, move))
        elif not move.asks:
            panel.options.append(option_of(game, move, space))
    return panel


def option_of(game: Game, move: Move, space=None) -> Option:
    label = ""
    if move.kind == "tax" and move.fields.get("percent"):
        label = percent_label(space.percent)
    return previewed(game, move.kind, move.fields, label, STYLES.get(move.kind, "primary"))


def card_choice(
    game: Game, move: Move, kind: str = "card", base: dict | None = None, moved: int = 0
):
    """C1, C2: a card drawn; with a move that lands (`kind`, `base`), the move and the card
    in one tap, its amount the card's own (what the move did first, `moved`, taken out)."""
    payload = move.fields if base is None else {**base, "choices": [step_of(move)]}
    option = previewed(game, kind, payload)
    card = bank.edition_of(game).cards[move.fields["card"]]
    title = card.text.split(";")[0].split("(")[0].strip()
    own = option.net(move.fields["player"]) - moved if not option.error else 0
    return CardChoice(option, title, own, move.lately)


# -- the dice pad's answer ---------------------------------------------------------------------


def first_wait(game: Game) -> Wait | None:
    found = waits_of(game)
    return found[0] if found else None


def dice_options(game: Game, seat: int, dice: int, doubles: bool) -> dict:
    """The dice total tapped for `seat`: a throw (its move and its landing worked out, with
    each choice the landing leaves as one more tap), or a fresh throw for a utility's rent."""
    wait = first_wait(game)
    if wait is not None and wait.what == THROW:
        option = previewed(game, "throw", {"player": seat, "dice": dice})
        return {"space": None, "options": [option], "cards": []}
    return landing_options(game, "roll", {"player": seat, "dice": dice, "doubles": doubles})


def landing_options(game: Game, kind: str, base: dict) -> dict:
    """A move that lands (a throw, or a landing the banker records), previewed: one button,
    or one per answer to the choice its landing leaves (buy or decline, the card drawn, the
    tax's way), each the move and the answer in one tap."""
    seat = base["player"]
    try:
        outcome = bank.preview(game, kind, base)
    except RuleError:
        return {"space": None, "options": [previewed(game, kind, base)], "cards": []}
    edition = bank.edition_of(game)
    space = edition.spaces[outcome.state.players[seat].position]
    choice = next(
        (w for w in waits(outcome.state, edition) if w.seat == seat and w.what in CHOICES), None
    )
    if choice is None or choice.what == THROW:
        return {"space": space, "options": [previewed(game, kind, base)], "cards": []}
    if choice.what == CARD:
        # Each card shows what it does itself; what the move did first (the salary for
        # passing GO) is said once, in the core's words, above them.
        moved = net_of(outcome.movements, seat)
        cards = [card_choice(game, move, kind, base, moved) for move in choice.moves]
        said_first = said(outcome.lines, edition, outcome.text) if moved else ""
        return {"space": space, "options": [], "cards": cards, "move_said": said_first}
    options = [answer_option(game, kind, base, move, space) for move in choice.moves]
    return {"space": space, "options": options, "cards": []}


def answer_option(game: Game, kind: str, base: dict, move: Move, space) -> Option:
    """The move and one answer to its landing's choice, in one tap."""
    label = ""
    if move.kind == "tax" and move.fields.get("percent"):
        label = percent_label(space.percent)
    payload = {**base, "choices": [step_of(move)]}
    return previewed(game, kind, payload, label, STYLES.get(move.kind, "primary"))


def percent_label(percent: int) -> str:
    """T1: the player chooses before the total worth is worked out, so no figure here."""
    return _("Pay %(percent)s%% of total worth (worked out after choosing)", percent=percent)


def turn_taken(game: Game, seat: int | None, version: int | None) -> bool:
    """A page drawn for another moment: the game moved on, or this is not what waits for
    the seat any more (the phone's Back button, a second banker phone)."""
    if version != game.version:
        return True
    wait = first_wait(game)
    return wait is None or wait.what not in (ROLL, THROW) or wait.seat != seat


def no_throw_now(game: Game, seat: int, version: int | None, dice: int, doubles: bool):
    """Why a pad page that was not drawn for an earlier moment takes no throw from `seat`:
    the rules core's refusal of that throw now, in words (whose turn it is, what waits
    first, the game over). None for a page drawn for an earlier moment (the Back button, a
    second tap): that turn was taken."""
    if version is not None and version != game.version:
        return None
    try:
        bank.preview(game, "roll", {"player": seat, "dice": dice, "doubles": doubles})
    except RuleError as refusal:
        return refused(refusal)
    return None


def money_move(seat: int, to: str, amount: object) -> tuple[str, dict]:
    """Quick money: the action for a payer, a payee ("bank", "from_bank" or a seat)."""
    if to == "bank":
        return "bank_collect", {"player": seat, "amount": amount}
    if to == "from_bank":
        return "bank_pay", {"player": seat, "amount": amount}
    return "transfer", {"from": seat, "to": to, "amount": amount}


def ways_out(game: Game, seat: int, creditor: int | None) -> list[tuple[str, str]]:
    """K1: where the debtor raises the money: mortgage, sell buildings, trade."""
    trade = {"player": seat} if creditor is None else {"player": seat, "partner": creditor}
    return [
        (_("Mortgage"), url_for("property.mortgages", game_id=game.id, player=seat)),
        (_("Sell buildings"), url_for("property.build", game_id=game.id, player=seat)),
        (_("Trade"), url_for("property.trade", game_id=game.id, **trade)),
    ]


def debt_panels(game: Game) -> list[Panel]:
    """Every open debt, on every banker page (the state holds them, not a cookie)."""
    return [p for p in panels(game) if p.what == DEBT]
