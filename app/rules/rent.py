"""Rent a landing owes the owner of a deed (P2-P7, and the card multipliers of C2)."""

from __future__ import annotations

from .edition import Edition
from .state import GameState


def owns_whole_group(state: GameState, edition: Edition, index: int) -> bool:
    owner = state.deeds[index].owner
    group = edition.group_of(index)
    return owner is not None and all(state.deeds[i].owner == owner for i in group.deeds)


def held_in_group(state: GameState, edition: Edition, index: int) -> int:
    """How many deeds of this deed's group its owner holds, mortgaged ones included (P5, P6)."""
    owner = state.deeds[index].owner
    return sum(state.deeds[i].owner == owner for i in edition.group_of(index).deeds)


def rent_due(
    state: GameState,
    edition: Edition,
    index: int,
    dice: int | None = None,
    by_card: bool = False,
) -> int:
    """What landing on deed `index` costs; `by_card` is the nearest-railroad/utility card."""
    deed, space = state.deeds[index], edition.spaces[index]
    if deed.owner is None or deed.mortgaged:
        return 0  # P2, M2
    if space.kind == "street":
        if deed.houses:
            return space.rent[deed.houses]  # P4
        doubled = owns_whole_group(state, edition, index)  # P3
        return space.rent[0] * (2 if doubled else 1)
    if space.kind == "railroad":
        rent = space.rent[held_in_group(state, edition, index) - 1]  # P5
        return rent * 2 if by_card else rent
    multiplier = 10 if by_card else space.rent[held_in_group(state, edition, index) - 1]
    return multiplier * (dice or 0)  # P6
