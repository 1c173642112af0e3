"""The three measures of a player's wealth: total worth (T1), raisable (K1), score (SG4)."""

from __future__ import annotations

from .edition import Edition
from .state import DEBT, HOTEL, GameState


def buildings_paid(state: GameState, edition: Edition, index: int) -> int:
    """What the owner paid for the buildings on a street: a hotel includes its houses (SG4)."""
    houses = state.deeds[index].houses
    if not houses:
        return 0
    price = edition.group_of(index).house_price or 0
    if houses == HOTEL:
        return price * (1 + state.settings.houses_for_hotel)
    return price * houses


def total_worth(state: GameState, edition: Edition, seat: int) -> int:
    """T1: cash + printed price of every deed held + the price paid for every building."""
    held = state.held_by(seat)
    return (
        state.players[seat].cash
        + sum(edition.spaces[i].price for i in held)
        + sum(buildings_paid(state, edition, i) for i in held)
    )


def buildings_refund(state: GameState, edition: Edition, index: int) -> int:
    """B6: what selling a street's buildings back pays: half the house price each, rounded
    down (a hotel is one building and the houses it was bought on)."""
    houses = state.deeds[index].houses
    count = 1 + state.settings.houses_for_hotel if houses == HOTEL else houses
    return count * ((edition.group_of(index).house_price or 0) // 2)


def raisable(state: GameState, edition: Edition, seat: int) -> int:
    """K1: cash + mortgage value of unmortgaged deeds + half the price of every building."""
    held = state.held_by(seat)
    return (
        state.players[seat].cash
        + sum(edition.spaces[i].mortgage for i in held if not state.deeds[i].mortgaged)
        + sum(buildings_refund(state, edition, i) for i in held)
    )


def debts_net(state: GameState, seat: int) -> int:
    """K1, SG4: what others owe the seat in open debts, less what the seat owes."""
    owed_to = sum(d.amount for d in state.pending if d.what == DEBT and d.creditor == seat)
    return owed_to - state.owed_by(seat)


def score_breakdown(state: GameState, edition: Edition, seat: int) -> dict[str, int]:
    """SG4, part by part: unmortgaged deeds at price, mortgaged at half, buildings as paid;
    a debt still open counts against the debtor and for the creditor (K1)."""
    held = state.held_by(seat)
    plain = [i for i in held if not state.deeds[i].mortgaged]
    mortgaged = [i for i in held if state.deeds[i].mortgaged]
    on_streets = [(i, state.deeds[i].houses) for i in held]
    parts = {
        "cash": state.players[seat].cash,
        "deeds": sum(edition.spaces[i].price for i in plain),
        "mortgaged": sum(edition.spaces[i].price // 2 for i in mortgaged),
        "houses": sum(buildings_paid(state, edition, i) for i, h in on_streets if h < HOTEL),
        "hotels": sum(buildings_paid(state, edition, i) for i, h in on_streets if h == HOTEL),
        "debts": debts_net(state, seat),
    }
    parts["total"] = sum(parts.values())
    return parts


def score(state: GameState, edition: Edition, seat: int) -> int:
    return score_breakdown(state, edition, seat)["total"]
