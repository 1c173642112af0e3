"""Issue 22 through the test client: players told apart without colour (3:1 colours, token
letters, dashed chart lines), the banker key asked first, the history as a spreadsheet."""

from __future__ import annotations

import csv
import io
import itertools

from tablebank.web.banker import PALETTE
from tablebank.web.colours import LEAST, SURFACES, contrast, legible, marks


def test_every_colour_of_the_palette_keeps_3_to_1_on_every_page_surface():
    for colour, surface in itertools.product(PALETTE, SURFACES):
        assert contrast(colour, surface) >= LEAST, (colour, surface)


def test_any_colour_is_drawn_at_3_to_1_or_more_and_a_readable_one_is_kept():
    steps = range(0, 256, 51)
    for r, g, b in itertools.product(steps, steps, steps):
        drawn = legible(f"#{r:02x}{g:02x}{b:02x}")
        assert all(contrast(drawn, s) >= LEAST for s in SURFACES), drawn
    assert legible("#1971C2") == "#1971c2"


def test_token_letters_are_unique_in_a_game():
    found = marks(["Ana", "Alex", "Al", "ana", "Bea", "さくら"])
    assert len(set(found)) == len(found)
    assert found[0] == "A" and found[4] == "B" and found[5] == "さ"


def test_a_colour_picked_below_3_to_1_is_adjusted_and_the_banker_is_told(table):
    table.new_game(names=("Ana", "Bea"), colour0="#ffd43b")
    ana = table.state().players[0]
    assert ana.colour != "#ffd43b"
    assert all(contrast(ana.colour, s) >= LEAST for s in SURFACES)
    page = table.read(f"/g/{table.id}/")
    said = "Ana's colour #ffd43b is hard to see on the page (1.3:1, at least 3:1 is needed)"
    assert f"{said}: it is now {ana.colour}" in page


def test_chips_and_board_tokens_carry_the_players_letter(table):
    table.new_game(names=("Ana", "Alex"))
    dashboard = table.page(f"/g/{table.id}/")
    assert 'aria-hidden="true">A</span> Ana' in dashboard
    assert 'aria-hidden="true">L</span> Alex' in dashboard


def test_the_chart_tells_players_apart_by_dash_and_letter_too(table):
    table.new_game(names=("Ana", "Bea"))
    table.act("bank_pay", player=0, amount=100)
    results = table.page(f"/g/{table.id}/results")
    assert results.count("stroke-dasharray=") >= 1
    assert ">B</text>" in results and ">A</text>" in results


def test_a_new_banker_key_is_asked_first(table):
    table.new_game()
    codes = table.page(f"/g/{table.id}/codes")
    banker_part = codes.split("Banker on")[1]
    assert "codes/banker-key" in banker_part and 'method="post"' not in banker_part
    asked = table.read(f"/g/{table.id}/codes/banker-key")
    assert "Lock out every other banker phone?" in asked
    stranger = table.app.test_client()  # the old key alone, as another banker phone holds it
    assert stranger.get(f"/api/games/{table.id}", headers=table.headers).status_code == 200
    table.client.post(f"/g/{table.id}/codes/banker-key")
    assert stranger.get(f"/api/games/{table.id}", headers=table.headers).status_code == 403


def test_a_banker_phone_locked_out_by_a_new_key_is_told_so(table):
    """The second banker phone, remembered with the old key, after the first made a new one:
    told the key changed and to ask the banker for the new link (the link it kept is the old
    one), not to use the link kept at the start."""
    table.new_game()
    second = table.app.test_client()
    second.get(f"/g/{table.id}/?key={table.headers['X-Banker-Key']}")  # the banker now
    assert second.get(f"/g/{table.id}/").status_code == 200
    table.client.post(f"/g/{table.id}/codes/banker-key")
    page = second.get(f"/g/{table.id}/")
    assert page.status_code == 403
    said = table.text(page.text)
    assert "the banker key was changed on another phone" in said
    assert "ask the banker for the new banker link" in said
    assert "This page is the banker's" in said


def test_the_history_downloads_as_a_spreadsheet_oldest_first_in_plain_words(table):
    table.new_game(names=("=Ana", "Bea"))
    table.act("transfer", **{"from": 0, "to": 1, "amount": 50})
    table.act("bank_pay", player=1, amount=20)
    answer = table.client.get(f"/g/{table.id}/history.csv")
    assert answer.status_code == 200 and answer.mimetype == "text/csv"
    assert "attachment" in answer.headers["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(answer.text)))
    assert rows[0][0] == "Number" and rows[0][4] == "What happened"
    assert [row[0] for row in rows[1:]] == ["1", "2"]
    assert rows[1][4] == "'=Ana pays Bea $50"  # a spreadsheet never reads it as a formula
    assert table.read(f"/g/{table.id}/results").count("Download the history (CSV)") == 1


def test_a_new_games_banker_link_comes_below_the_dice_pad(table):
    table.new_game()
    first = table.page(f"/g/{table.id}/")
    assert first.index('class="pad"') < first.index("Keep this banker link")
    assert "Keep this banker link" not in table.page(f"/g/{table.id}/")  # shown once


def test_the_dashboard_links_back_to_the_games_not_to_itself(table):
    table.new_game()
    dashboard = table.page(f"/g/{table.id}/")
    assert 'class="home" href="/"' in dashboard
    assert f'class="home" href="/g/{table.id}/"' in table.page(f"/g/{table.id}/history")
