"""The phone of the player whose turn it is, during an auction: its close button sits in the
auction's own panel, under the bid form (P1, R1), and does not stand out before anyone bid."""

from __future__ import annotations

import re

from ..support import BALTIC, READING


def auction_panel(table, app) -> str:
    page = table.page(table.phone(0), app.test_client())
    panels = re.findall(r'<section class="(\w+)"[^>]*>(.*?)</section>', page, re.S)
    assert [kind for kind, inside in panels if "Auction:" in inside] == ["auction"]  # one
    return re.search(r'<section class="auction".*?</section>', page, re.S).group(0)


def test_p1_r1_the_turn_players_phone_closes_the_auction_under_its_bid_form(table, app):
    """P1: every player may bid, the decliner too: the turn player's close (R1) comes after
    the bid box, and only once someone bid is it the button that stands out."""
    table.new_game(("Ana", "Bea"), phone_turns="on")
    table.throws_onto(0, READING, 5, {"kind": "decline", "deed": READING})
    panel = auction_panel(table, app)
    assert table.text(panel).startswith("Auction: Reading Railroad No bid yet")
    close = "No bid: Reading Railroad stays with the bank"
    assert table.text(panel).index("Bid") < table.text(panel).index(close)
    assert re.search(r'class="btn secondary"[^>]*>\s*No bid: Reading Railroad', panel)
    table.act("bid", player=1, amount=50)
    panel = auction_panel(table, app)
    assert re.search(r'class="btn primary"[^>]*>\s*Bea wins Reading Railroad for \$50', panel)


def test_p1_a_phone_s_bid_still_counts_when_another_bid_came_while_it_was_confirmed(table, app):
    """P1: Bea's phone shows "Bea bids $80 for Reading Railroad"; meanwhile Ana bids $50 at
    the banker's. Bea's confirm still counts (it beats $50): auctions are bids at once, and
    her bid names its lot; it is refused in words only once that auction is over."""
    table.new_game(("Ana", "Bea"))
    table.throws_onto(0, READING, 5, {"kind": "decline", "deed": READING})
    phone = app.test_client()
    page = table.page(f"{table.phone(1)}/preview?kind=bid&amount=80", phone)
    table.act("bid", player=0, amount=50)  # another device moves the game on
    answer = table.press(page, "Bea bids $80 for Reading Railroad", client=phone)
    assert answer.status_code == 302
    auction = table.state().auction
    assert (auction.bid, auction.bidder) == (80, 1)
    table.act("auction_close")
    assert table.state().deeds[READING].owner == 1 and table.cash()[1] == 1500 - 80
    late = table.page(f"{table.phone(0)}/preview?kind=bid&amount=90", phone)
    assert "No auction is open" in table.text(late)


def test_p1_a_bid_drawn_for_an_auction_that_is_over_is_refused_in_words(table, app):
    """P1: Bea's confirm for Reading Railroad, sent once that auction is over and another
    (Baltic Avenue) is on: refused, nothing bid on Baltic."""
    table.new_game(("Ana", "Bea"))
    table.throws_onto(0, READING, 5, {"kind": "decline", "deed": READING})
    phone = app.test_client()
    page = table.page(f"{table.phone(1)}/preview?kind=bid&amount=80", phone)
    table.act("auction_close")
    table.throws_onto(1, BALTIC, 3, {"kind": "decline", "deed": BALTIC})
    answer = table.press(page, "Bea bids $80 for Reading Railroad", client=phone)
    said = table.text(table.page(answer.headers["Location"], phone))
    assert "The auction of Reading Railroad is over" in said
    assert table.state().auction.deed == BALTIC and table.state().auction.bidder is None
