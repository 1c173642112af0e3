"""A game as pages and the API show it: the state plus the figures worked out from it."""

from __future__ import annotations

from ..bank import edition_of, log_of, state_of
from ..models import Game
from ..rules import raisable, score, total_worth
from ..rules.log import standing
from ..rules.state import HOTEL
from .words import said


def game_view(game: Game) -> dict:
    state, edition = state_of(game), edition_of(game)
    players = []
    for p in state.players:
        players.append(
            {
                "seat": p.seat,
                "name": p.name,
                "colour": p.colour,
                "cash": p.cash,
                "position": p.position,
                "in_jail": p.in_jail,
                "jail_free": len(p.jail_free),
                "bankrupt": p.bankrupt,
                "deeds": state.held_by(p.seat),
                "total_worth": total_worth(state, edition, p.seat),
                "raisable": raisable(state, edition, p.seat),
                "score": score(state, edition, p.seat),
            }
        )
    deeds = []
    for index, deed in sorted(state.deeds.items()):
        space = edition.spaces[index]
        deeds.append(
            {
                "space": index,
                "name": space.name,
                "group": space.group,
                "owner": deed.owner,
                "houses": deed.houses if deed.houses < HOTEL else 0,
                "hotel": deed.houses == HOTEL,
                "mortgaged": deed.mortgaged,
            }
        )
    return {
        "id": game.id,
        "edition": edition.id,
        "currency": edition.currency,
        "version": game.version,
        "settings": state.to_dict()["settings"],
        "players": players,
        "deeds": deeds,
        "houses": state.houses,
        "hotels": state.hotels,
        "pot": state.pot,
        "ended": state.ended,
        "auction": state.auction,
        "to_auction": state.to_auction,
    }


def history(game: Game) -> list[dict]:
    """Every action in plain words, newest first, with the ones taken back marked."""
    log = log_of(game)
    edition = edition_of(game)
    in_force = set(standing([a.kind for a in log]))
    entries = []
    for position, row in enumerate(log):
        entries.append(
            {
                "seq": row.seq,
                "kind": row.kind,
                "payload": row.payload,
                "actor": row.actor,
                "text": said(row.lines, edition, row.text, row.kind == "undo"),
                "at": row.created_at.isoformat(),
                "undone": row.kind != "undo" and position not in in_force,
                "movements": row.movements or [],
            }
        )
    return entries[::-1]


CELL = 90  # board squares in SVG units; the board is 11 squares a side


def board_cell(index: int) -> tuple[int, int]:
    """Where a space sits on the 11x11 board: GO bottom right, play runs clockwise."""
    side, step = divmod(index, 10)
    return [(10 - step, 10), (0, 10 - step), (step, 0), (10, step)][side]


def board(game: Game) -> list[dict]:
    """Each space with its place, group colour, owner colour, buildings and mortgage."""
    state, edition = state_of(game), edition_of(game)
    cells = []
    for space in edition.spaces:
        x, y = board_cell(space.index)
        deed = state.deeds.get(space.index)
        owner = state.players[deed.owner] if deed and deed.owner is not None else None
        cells.append(
            {
                "x": x * CELL,
                "y": y * CELL,
                "name": space.name,
                "band": edition.groups[space.group].colour if space.kind == "street" else None,
                "owner": owner.colour if owner else None,
                "houses": deed.houses if deed and deed.houses < HOTEL else 0,
                "hotel": bool(deed and deed.houses == HOTEL),
                "mortgaged": bool(deed and deed.mortgaged),
            }
        )
    return cells
