"""A new game: its setup checked and turned into the first state (S1-S4, SG1, TL1, H1-H3).

`SETUP` is the setup's JSON Schema, which the API publishes and the input check applies;
`new_game` reads a setup the schema let through and refuses what a rule forbids.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from .actions import Act, action, flag, whole_number
from .edition import Edition
from .errors import RuleError
from .fields import AMOUNT, FLAG
from .state import (
    DEAL,
    MAX_PLAYERS,
    MIN_PLAYERS,
    MODES,
    DeedState,
    GameState,
    Pending,
    PlayerState,
    Settings,
)
from .words import N_

# The rules a game's log is written under, kept in its setup: a log of RULES 1 (before the game
# owned the turn, 2026-11-25: the client sent the landing's kinds) does not replay under these.
# RULES 3 (2026-11-28): a bankruptcy that does not carry the creditor's lift-now choice leaves it
# waiting (M4); a log of RULES 2 replays with that off (Settings.receiver_chooses).
# RULES 4 (2026-11-28): so does a trade that does not carry the new owner's choice for a mortgaged
# deed (M4); a log of RULES 2 or 3 replays with that off (Settings.trade_receiver_chooses).
# RULES 5 (2026-11-28): a choice of M4 still waiting when the game ends is settled as kept, its
# 10% paid or owed; a log of RULES 2 to 4 replays with it dropped (Settings.received_kept_at_end).
RULES = 5
REPLAYABLE = (2, 3, 4, 5)
MAX_NAME = 24
COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")

SETUP_PLAYER = {
    "type": "object",
    "required": ["name", "colour"],
    "properties": {
        "name": {"type": "string", "minLength": 1, "maxLength": MAX_NAME},
        "colour": {"type": "string", "pattern": COLOUR.pattern},
    },
}
SETUP = {
    "type": "object",
    "required": ["edition", "players"],
    "properties": {
        "edition": {
            "type": "string",
            "maxLength": 32,
            "description": "us-classic, us-2008, uk or es",
        },
        "players": {
            "type": "array",
            "minItems": MIN_PLAYERS,
            "maxItems": MAX_PLAYERS,
            "items": SETUP_PLAYER,
        },
        "starting_cash": AMOUNT,
        "mode": {"enum": list(MODES)},
        "ends_at": {
            "type": "string",
            "maxLength": 40,
            "description": "TL1: ISO time of the end, with its offset, or local to "
            "time_zone (UTC when neither); stored and shown as UTC",
        },
        "time_zone": {
            "type": "string",
            "maxLength": 64,
            "description": "IANA name, e.g. America/New_York",
        },
        "free_parking_jackpot": FLAG,
        "double_go": FLAG,
        "no_auctions": FLAG,
        "income_tax_percent": {
            **FLAG,
            "description": "T1: income tax may be paid as a percentage of total worth; "
            "left out, the edition's own rule (on where the edition prints it)",
        },
        "phone_turns": {
            **FLAG,
            "description": "R1: each player's phone takes its own seat's turn (no banker needed)",
        },
    },
}


def _setup_player(seat: int, raw: object, cash: int) -> PlayerState:
    if not isinstance(raw, dict):
        raise RuleError("input", "Player {number} needs a name and a colour", number=seat + 1)
    name = raw.get("name")
    name = " ".join(name.split()) if isinstance(name, str) else ""
    if not 1 <= len(name) <= MAX_NAME:
        raise RuleError(
            "input",
            "Player {number} needs a name of 1 to {most} characters",
            number=seat + 1,
            most=MAX_NAME,
        )
    colour = raw.get("colour")
    player = PlayerState(seat=seat, name=name, colour=str(colour).lower(), cash=cash)
    if not isinstance(colour, str) or not COLOUR.match(colour):
        raise RuleError("input", "{player} needs a colour like #e03131", player=player)
    return player


def valid_time(value: object) -> bool:
    try:
        return isinstance(value, str) and datetime.fromisoformat(value) is not None
    except ValueError:
        return False


def zone_of(setup: dict) -> str | None:
    """The banker's time zone (IANA name, from the browser), None when not given."""
    name = setup.get("time_zone") or None
    if name is None:
        return None
    try:
        if not isinstance(name, str) or len(name) > 64:
            raise ValueError(name)
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise RuleError("input", "Unknown time zone {zone}", zone=str(name)[:64]) from None
    return name


def end_time_utc(ends_at: str, zone: str | None) -> str:
    """TL1: the agreed end as UTC. A time without an offset is the banker's local time in
    `zone` (UTC when no zone is given); one with an offset means what it says."""
    when = datetime.fromisoformat(ends_at)
    if when.tzinfo is None:
        when = when.replace(tzinfo=ZoneInfo(zone) if zone else UTC)
    return when.astimezone(UTC).isoformat()


def income_tax_option(edition: Edition, setup: dict) -> bool:
    """T1: the 10% choice is on where the edition prints it, unless the setup says no: the
    same default for the new-game page (ticked) and the API (field left out)."""
    if "income_tax_percent" in setup:
        return flag(setup, "income_tax_percent")
    return any(space.percent for space in edition.spaces)


def new_game(edition: Edition, setup: dict) -> GameState:
    """S1-S4: the players with their starting cash, every deed with the bank, the full
    supply; a short or time-limited game waits for its deal (SG1, TL1)."""
    if not isinstance(setup, dict):
        raise RuleError("input", "A new game is a JSON object")
    cash = whole_number(setup.get("starting_cash", 1500), "The starting cash")
    mode = setup.get("mode", "classic")
    if mode not in MODES:
        raise RuleError("input", "The mode must be one of {modes}", modes=", ".join(MODES))
    ends_at = setup.get("ends_at")
    if mode == "timed" and not valid_time(ends_at):
        raise RuleError("TL1", "A time-limited game needs its end time, like 2026-11-22T21:30")
    raw_players = setup.get("players")
    if not isinstance(raw_players, list) or not MIN_PLAYERS <= len(raw_players) <= MAX_PLAYERS:
        raise RuleError("S1", "A game has 2 to 8 players")
    players = [_setup_player(seat, raw, cash) for seat, raw in enumerate(raw_players)]
    names = [p.name.casefold() for p in players]
    if len(set(names)) < len(names):
        raise RuleError("input", "Two players have the same name")
    settings = Settings(
        starting_cash=cash,
        mode=mode,
        ends_at=end_time_utc(ends_at, zone_of(setup)) if mode == "timed" else None,
        time_zone=zone_of(setup),
        free_parking_jackpot=flag(setup, "free_parking_jackpot"),
        double_go=flag(setup, "double_go"),
        no_auctions=flag(setup, "no_auctions"),
        income_tax_percent=income_tax_option(edition, setup),
        phone_turns=flag(setup, "phone_turns"),
        receiver_chooses=setup.get("rules", RULES) != 2,
        trade_receiver_chooses=setup.get("rules", RULES) not in (2, 3),
        received_kept_at_end=setup.get("rules", RULES) not in (2, 3, 4),
    )
    return GameState(
        edition=edition.id,
        settings=settings,
        players=players,
        deeds={d.index: DeedState() for d in edition.deeds},
        houses=edition.houses,
        hotels=edition.hotels,
        pending=[Pending(DEAL, None)] if mode != "classic" else [],
    )


# -- the deal (SG1, TL1) -------------------------------------------------------------------

DEALT = 2  # SG1: two deeds to each player


@action("deal", label=N_("Deal"), rules="SG1, TL1", needs=("hands",))
def deal(act: Act) -> None:
    """SG1, TL1: once, before the first roll, two deeds to each player, who pays the printed
    price for each at once (the bank's random deal, or the cards dealt by hand); a price the
    cash does not cover is a debt (K1)."""
    waiting = act.state.waiting(DEAL)
    if not waiting:
        raise RuleError("SG1", "The deeds were dealt once already, before the first roll")
    hands = act.payload.get("hands")
    if not isinstance(hands, list) or len(hands) != len(act.state.players):
        raise RuleError("input", "Give the deeds dealt to each player, in seat order")
    seen: set[int] = set()
    for player, hand in zip(act.state.players, hands, strict=True):
        if not isinstance(hand, list) or len(hand) != DEALT:
            raise RuleError("SG1", "{player} is dealt two deeds", player=player)
        names = [deal_deed(act, player, value, seen) for value in hand]
        act.say("{player} is dealt {deeds}", player=player.name, deeds=", ".join(names))
    act.state.pending.remove(waiting[0])


def deal_deed(act: Act, player: PlayerState, value: object, seen: set[int]) -> str:
    index = whole_number(value, "A deed", 0, len(act.edition.spaces) - 1)
    space = act.edition.spaces[index]
    if not space.is_deed or index in seen or act.state.deeds[index].owner is not None:
        raise RuleError("SG1", "{deed} cannot be dealt", deed=space.name)
    seen.add(index)
    act.state.deeds[index].owner = player.seat
    words = ("", N_("{player} owes the bank {amount:money} for {deed}"))
    act.owe(player, None, space.price, words, player=player.name, deed=space.name)  # K1
    return space.name
