"""A game as pages and the API show it: the state plus the figures worked out from it."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import asdict
from functools import partial

from .. import logbook
from ..bank import edition_of, ends_at, state_of
from ..i18n import locale_name
from ..kept import Kept
from ..models import Action, Game
from ..rules import UNDO, Edition, raisable, score, total_worth
from ..rules.moves import Wait, waits
from ..rules.state import HOTEL, DeedState, GameState, PlayerState
from ..snapshots import worked_out
from .filters import as_utc
from .shared import keeping
from .words import said


def winners(state, edition: Edition) -> list[int]:
    """The seats that won an ended game: the last player left (K4), else the richest by
    SG4 (SG3, TL1, or a game the banker ended), every one of them on a tie."""
    if not state.ended:
        return []
    left = state.in_play()
    if len(left) <= 1:
        return [p.seat for p in left]
    scores = {p.seat: score(state, edition, p.seat) for p in left}
    best = max(scores.values())
    return [seat for seat, worth in scores.items() if worth == best]


def standings(game: Game) -> list[tuple[int, int]]:
    """(seat, SG4 score) of the players still in, richest first."""
    return worked_out(game, "standings", lambda: ranked(game_view(game)["players"]))


def ranked(players: list[dict]) -> list[tuple[int, int]]:
    found = [(p["seat"], p["score"]) for p in players if not p["bankrupt"]]
    return sorted(found, key=lambda pair: pair[1], reverse=True)


def player_view(state: GameState, edition: Edition, p: PlayerState) -> dict:
    return {
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


def deed_view(edition: Edition, index: int, deed: DeedState) -> dict:
    space = edition.spaces[index]
    return {
        "space": index,
        "name": space.name,
        "group": space.group,
        "kind": space.kind,
        "owner": deed.owner,
        "houses": deed.houses if deed.houses < HOTEL else 0,
        "hotel": deed.houses == HOTEL,
        "mortgaged": deed.mortgaged,
    }


def game_view(game: Game) -> dict:
    """The game as the API and the pages give it, worked out once per version (read-only)."""
    return worked_out(game, "view", lambda: view_of(game))


def everyone_sees(game: Game) -> str:
    """What every live part shows of the game and its players but their money (their
    scores once it has ended), written out once per version for the parts' signatures."""

    def written() -> str:
        view = game_view(game)
        players = [
            (p["seat"], p["name"], p["colour"], p["bankrupt"], p["score"] if view["ended"] else 0)
            for p in view["players"]
        ]
        return repr((players, view["ended"], view["winners"], view["settings"], view["auction"]))

    return worked_out(game, "everyone sees", written)


def deeds_at(game: Game) -> dict[int, dict]:
    """The game view's deeds by their space, worked out once per version (read-only)."""
    return worked_out(game, "deeds at", lambda: {d["space"]: d for d in game_view(game)["deeds"]})


def view_of(game: Game) -> dict:
    state, edition = state_of(game), edition_of(game)
    return {
        "id": game.id,
        "edition": edition.id,
        "currency": edition.currency,
        "version": game.version,
        "settings": {**asdict(state.settings), "ends_at": utc_end(game)},
        "players": [player_view(state, edition, p) for p in state.players],
        "deeds": [deed_view(edition, i, deed) for i, deed in sorted(state.deeds.items())],
        "houses": state.houses,
        "hotels": state.hotels,
        "pot": state.pot,
        "ended": state.ended,
        "winners": winners(state, edition),
        "auction": asdict(state.auction) if state.auction else None,
        "to_auction": state.to_auction,
        "turn": {"seat": state.turn, "doubles": state.doubles, "moved": state.moved},
        "pending": [wait_view(wait) for wait in waits_of(game)],
        "offers": [{"id": offer.id, **offer.trade} for offer in state.offers],
    }


def waits_of(game: Game) -> list[Wait]:
    """What the game waits for (rules.moves.waits), worked out once per version."""
    return worked_out(game, "waits", lambda: waits(state_of(game), edition_of(game)))


def wait_view(wait: Wait) -> dict:
    """What the game waits for, as the API gives it: who must act (null: the banker, or
    anyone for an auction), where, its figures, and the actions that answer it."""
    return {
        "what": wait.what,
        "seat": wait.seat,
        "space": wait.space,
        "figures": wait.figures,
        "actions": [
            {"kind": move.kind, "fields": move.fields, "asks": list(move.asks)}
            for move in wait.moves
        ],
    }


def utc_end(game: Game) -> str | None:
    """TL1: the end time in UTC with its offset, the way every page and the API give it."""
    end = ends_at(game)
    return end.isoformat() if end else None


def history(
    game: Game, before: int | None = None, limit: int = logbook.PAGE, seat: int | None = None
) -> list[dict]:
    """A page of the log in plain words, newest first, from `before` back (None: the newest),
    with the actions taken back marked; only those that concern `seat` if one is given."""
    if seat is None and before is None and limit <= NEWEST:
        rows = newest_rows(game)[:limit]
    elif seat is None:
        rows = logbook.page_of(game, before, limit)
    else:
        rows = logbook.own_page_of(game, seat, before, limit)
    undone = logbook.undone_in(game, rows, newest=before is None)
    edition = edition_of(game)
    return [entry(row, edition, row.seq in undone) for row in rows]


def entry(row, edition: Edition, undone: bool) -> dict:
    """A logged action as a history shows it."""
    return {
        "seq": row.seq,
        "kind": row.kind,
        "payload": row.payload,
        "actor": row.actor,
        "text": row_said(row, edition),
        "at": as_utc(row.created_at).isoformat(),
        "undone": undone,
        "movements": row.movements or [],
    }


NEWEST = logbook.KEPT_NEWEST  # the log's newest rows read at once


def newest_rows(game: Game) -> list:
    """The log's newest rows (SHOWN), read once per version of the game object: the latest
    entry a banker's page names, what its undo takes back, the table's last actions and a
    phone's take-back all come from them."""
    return newest(game).rows


def newest(game: Game) -> logbook.Newest:
    return worked_out(game, "newest rows", lambda: logbook.newest_at(game))


OWN_KEPT = 512  # players' own histories kept per process (a few kB each), least recent out
# (game id, seat, language, length) -> (version, the seat's newest actions then, newest first,
# each as its history shows it: seq, the action it undoes, time, sentence; and them as a phone
# shows them)
_own: Kept[tuple[int, tuple, list[dict]]] = Kept(OWN_KEPT, lambda kept: kept[0])


def own_history(game: Game, seat: int, limit: int) -> list[dict]:
    """The `limit` newest actions that concern `seat`, as a phone shows them (`history` with
    a seat, without the payloads): worked out from what this process showed at an earlier
    version and the log's newest rows when every action since is among them, else read.
    Worked out once per game object: a phone's signature, its fills and its part all ask."""
    language = locale_name()
    work = partial(own_history_at, game, seat, limit, language)
    return worked_out(game, ("own history", seat, language, limit), work)


def own_history_at(game: Game, seat: int, limit: int, language: str) -> list[dict]:
    key = (game.id, seat, language, limit)
    kept = (_own.at if keeping() else _own.passing)(
        key, game.version, lambda earlier: own_grown(game, seat, limit, earlier)
    )
    if kept[0] != game.version:  # an older game object than the one kept
        return history(game, limit=limit, seat=seat)
    return kept[2]


def own_grown(game: Game, seat: int, limit: int, earlier: tuple | None) -> tuple:
    edition = edition_of(game)
    if earlier is None or earlier[0] < game.version - NEWEST:
        rows = logbook.own_page_of(game, seat, None, limit)
        return own_kept(game.version, tuple(own_entry(row, edition) for row in rows))
    found = newest(game)
    since = [r for r in found.rows if r.seq > earlier[0] and seat in found.seats.get(r.seq, ())]
    if not since:  # the others' actions: the same history, shown the same
        return game.version, earlier[1], earlier[2]
    grown = (*(own_entry(row, edition) for row in since), *earlier[1])[:limit]
    return own_kept(game.version, grown)


def own_kept(version: int, entries: tuple) -> tuple[int, tuple, list[dict]]:
    """A seat's own history as kept at `version`: its entries, and them as a phone shows
    them (an undo among them marks the action it took back)."""
    undone = {undoes for _, undoes, _, _ in entries if undoes is not None}
    shown = [
        {"seq": seq, "text": text, "at": at, "undone": seq in undone}
        for seq, _, at, text in entries
    ]
    return version, entries, shown


def own_entry(row, edition: Edition) -> tuple:
    undoes = row.undoes if row.kind == UNDO else None
    return row.seq, undoes, as_utc(row.created_at).isoformat(), row_said(row, edition)


def undo_target(game: Game):
    """The action the next undo takes back: the newest row when it still stands (the read the
    page's latest entry makes), else the row the log's undo chain names."""
    rows = newest_rows(game)
    if rows and rows[0].seq == game.last_standing:
        return rows[0]
    return logbook.undo_target(game)


WORDED: OrderedDict[tuple, str] = OrderedDict()
WORDED_MOST = 20_000  # sentences kept per process, about 4 MB


def row_said(row: Action, edition: Edition, undo: bool = False) -> str:
    """A logged action's sentence in the reader's language ("Undo: ..." for an undo row, or
    for the action the undo button would take back). A row never changes once logged, so
    each is worded once per language and process, not at every refresh of every phone."""
    undo = undo or row.kind == UNDO
    key = (row.game_id, row.seq, row.created_at, undo, locale_name())
    text = WORDED.get(key)
    if text is None:
        text = said(row.lines, edition, row.text, undo)
        WORDED[key] = text
        if len(WORDED) > WORDED_MOST:
            WORDED.popitem(last=False)  # the oldest worded, not the least read: good enough
    return text


def history_page(
    game: Game, before: int | None, seat: int | None = None, limit: int = logbook.PAGE
) -> tuple[list[dict], int | None]:
    """A page of history and where the next (older) one starts, None when this is the last."""
    entries = history(game, before, limit + 1, seat)
    older = entries[limit - 1]["seq"] if len(entries) > limit else None
    return entries[:limit], older


def board_cell(index: int) -> tuple[int, int]:
    """Where a space sits on the 11x11 board: GO bottom right, play runs clockwise."""
    side, step = divmod(index, 10)
    return [(10 - step, 10), (0, 10 - step), (step, 0), (10, step)][side]


def board_side(x: int, y: int) -> str:
    """Which edge a square is on: corners, the top and bottom rows, the two side columns."""
    if x in (0, 10) and y in (0, 10):
        return "corner"
    return "row" if y in (0, 10) else "col"


def board(game: Game) -> list[dict]:
    """Each space with its place on the grid (column, row, edge), group colour, owner,
    buildings, mortgage and the tokens standing on it (positions the bank tracks)."""
    state, edition = state_of(game), edition_of(game)
    standing: dict[int, list] = {}
    for p in state.in_play():
        standing.setdefault(p.position, []).append(p)
    cells = []
    for space in edition.spaces:
        x, y = board_cell(space.index)
        deed = state.deeds.get(space.index)
        owner = state.players[deed.owner] if deed and deed.owner is not None else None
        cells.append(
            {
                "index": space.index,
                "col": x + 1,
                "row": y + 1,
                "side": board_side(x, y),
                "name": space.name,
                "kind": space.kind,
                "band": edition.groups[space.group].colour if space.kind == "street" else None,
                "owner": owner.colour if owner else None,
                "owner_name": owner.name if owner else None,
                "houses": deed.houses if deed and deed.houses < HOTEL else 0,
                "hotel": bool(deed and deed.houses == HOTEL),
                "mortgaged": bool(deed and deed.mortgaged),
                "tokens": standing.get(space.index, []),
            }
        )
    return cells
