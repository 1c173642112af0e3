"""What a landing calls for: the one action a space asks of the player who stands on it.

`calls_for(state, edition, seat, space, dice)` answers with the calls a page offers as
buttons: one (rent, tax, go to jail, just landing), or a choice (buy or decline, P1; the
income tax's two ways, T1; the deck's cards, C1). Pure: it reads the state, changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .edition import Card, Edition, Space
from .state import GameState


@dataclass(frozen=True)
class Call:
    """One action a landing calls for: its kind and fields, and how a page shows it."""

    kind: str
    fields: dict = field(default_factory=dict)
    style: str = "primary"
    percent: int = 0  # T1: pay a share of the worth, chosen before it is worked out
    needs_dice: bool = False  # P6: a utility's rent waits for the dice total
    lately: bool = False  # C1: a card drawn lately, less likely to come up next


def owner_of(state: GameState, space: Space) -> int | None:
    return state.deeds[space.index].owner if space.is_deed else None


def calls_for(
    state: GameState,
    edition: Edition,
    seat: int,
    space: Space,
    dice: int | None = None,
    by_card: bool = False,
) -> list[Call]:
    """P1-P7, T1, T2, C1, J1, J2: the landing's action, worked out for the seat."""
    if space.is_deed:
        return deed_calls(state, space, seat, dice, by_card)
    if space.kind == "tax":
        return tax_calls(state, space)
    if space.kind in ("chance", "chest"):
        return card_calls(state, edition, space)
    if space.kind == "go_to_jail":
        return [Call("go_to_jail")]
    return [Call("visit", {"space": space.index})]


def deed_calls(state: GameState, space: Space, seat: int, dice, by_card: bool) -> list[Call]:
    owner, index = owner_of(state, space), space.index
    if owner is None:
        return [Call("buy", {"deed": index}), Call("decline", {"deed": index}, "secondary")]
    if owner == seat or state.deeds[index].mortgaged:
        return [Call("visit", {"space": index})]
    fields = {"deed": index, "by_card": by_card}
    if space.kind != "utility":
        return [Call("rent", fields)]
    if dice is None:
        return [Call("rent", fields, needs_dice=True)]
    return [Call("rent", {**fields, "dice": dice})]


def tax_calls(state: GameState, space: Space) -> list[Call]:
    calls = [Call("tax", {"space": space.index})]
    if space.percent and state.settings.income_tax_percent:
        fields = {"space": space.index, "percent": True}
        calls.append(Call("tax", fields, "secondary", percent=space.percent))
    return calls


def card_calls(state: GameState, edition: Edition, space: Space) -> list[Call]:
    """C1: each card of the deck once (twins shown once), the likely ones first."""
    fresh, lately = likely_cards(state, edition, space.kind)
    return [
        *(Call("card", {"card": c.id, "space": space.index}) for c in fresh),
        *(Call("card", {"card": c.id, "space": space.index}, lately=True) for c in lately),
    ]


def likely_cards(state: GameState, edition: Edition, deck: str) -> tuple[list[Card], list[Card]]:
    """A deck goes round: the cards drawn since it was last gone through are at the bottom.
    Returns (the others, those drawn lately, oldest first); a Get Out of Jail Free card that
    a player holds is out of the deck (C3), and twin cards are shown once."""
    drawn = state.drawn.get(deck, [])
    held = any(deck in p.jail_free for p in state.players)
    cards = [c for c in edition.deck(deck) if not (held and c.effect == "jail_free")]
    fresh, lately, seen = [], {}, set()
    for card in cards:
        if card.text in seen:
            continue
        twins = [c for c in cards if c.text == card.text]
        undrawn = next((c for c in twins if c.id not in drawn), None)
        seen.add(card.text)
        if undrawn is not None:
            fresh.append(undrawn)
        else:
            lately[max(drawn.index(c.id) for c in twins)] = card
    return fresh, [lately[i] for i in sorted(lately)]


def remember_draw(state: GameState, edition: Edition, card: Card) -> None:
    """C1: a drawn card goes to the bottom; once the deck is gone through it starts again."""
    drawn = [i for i in state.drawn.get(card.deck, []) if i != card.id] + [card.id]
    if len(drawn) >= len(edition.deck(card.deck)):
        drawn = []
    state.drawn = {**state.drawn, card.deck: drawn}
