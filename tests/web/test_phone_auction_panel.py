"""The phone of the player whose turn it is, during an auction: its close button sits under
a heading that names the lot (P1, R1), not under a player's name that is not there."""

from __future__ import annotations

import re

from ..support import READING


def test_p1_the_turn_players_phone_names_the_auction_it_closes(table, app):
    table.new_game(("Ana", "Bea"), phone_turns="on")
    table.throws_onto(0, READING, 5, {"kind": "decline", "deed": READING})
    page = table.page(table.phone(0), app.test_client())
    panel = re.search(r'<section class="turn".*?</section>', page, re.S).group(0)
    assert table.text(panel).startswith("Auction: Reading Railroad ")
    assert "No bid: Reading Railroad stays with the bank" in table.text(panel)
