"""The table screen on a TV (1920x1080, 1280x800 and 1280x720, landscape) and a tablet (1024x768,
1180x820): the board fills the screen
with the balances, the last actions and the countdown in its middle; every space's name is
whole and at least 14 px; tokens stand where the bank says each player is, live."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from ..support import ALL_EDITIONS
from .flows import Api

TV_SIZES = [{"width": 1920, "height": 1080}, {"width": 1280, "height": 800}]

# Each label as drawn: its font size, whether it fits its own box and its square, its words.
LABELS = """() => [...document.querySelectorAll('.sq')].map(sq => {
  const nm = sq.querySelector('.nm'), box = sq.getBoundingClientRect();
  const r = nm.getBoundingClientRect();
  return {
    space: Number(sq.dataset.space), text: nm.textContent,
    size: parseFloat(getComputedStyle(nm).fontSize),
    fits: nm.scrollWidth <= nm.clientWidth + 1 && nm.scrollHeight <= nm.clientHeight + 1,
    inside: r.left >= box.left - 0.5 && r.right <= box.right + 0.5 &&
            r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5,
    shown: r.width > 0 && r.height > 0,
  };
})"""


def busy_table(url: str, edition: str) -> Api:
    """Six players, deeds dealt, houses, a hotel, a mortgage, tokens spread and stacked."""
    names = ("Ana", "Bea", "Cal", "Dmitri Alexandrovich", "Eve", "Fer")
    ends = "2099-01-01T20:00:00+00:00"
    api = Api(url, names, edition, mode="timed", ends_at=ends)
    api.act("deal", hands=[[1, 3], [31, 32], [5, 15], [12, 28], [37, 39], [6, 8]])
    api.act("bank_pay", player=1, amount=3000)
    api.own(1, 34)
    api.act("build", player=1, group="green", levels=[4, 4, 5])
    api.act("mortgage", player=4, deed=37)
    for seat, space in [(0, 20), (1, 31), (2, 5), (3, 20), (4, 39)]:
        api.act("place", player=seat, space=space)
    api.act("go_to_jail", player=5)
    return api


TABLETS = [{"width": 1024, "height": 768}, {"width": 1180, "height": 820}]  # iPads, landscape


@pytest.mark.parametrize(
    "size",
    [*TV_SIZES, {"width": 1280, "height": 720}, *TABLETS],
    ids=lambda s: f"{s['width']}x{s['height']}",
)
@pytest.mark.parametrize("edition", ["us-classic", "uk", "es"])
def test_tl1_the_table_screen_fills_a_tv_with_whole_names_of_14_px_or_more(
    browser: Browser, live_server, tmp_path, size, edition
):
    api = busy_table(live_server, edition)
    context = browser.new_context(viewport=size)
    tv = context.new_page()
    tv.goto(api.table_url())
    tv.screenshot(path=str(tmp_path / f"table-{edition}-{size['width']}.png"))

    grid = tv.locator(".board-grid").bounding_box()
    assert grid["width"] >= size["width"] - 1 and grid["height"] >= size["height"] - 1
    assert tv.evaluate("document.documentElement.scrollHeight") <= size["height"]
    assert tv.evaluate("document.documentElement.scrollWidth") <= size["width"]

    names = {space.index: space.name for space in ALL_EDITIONS[edition].spaces}
    labels = tv.evaluate(LABELS)
    assert len(labels) == 40
    for label in labels:
        # the whole name, not cut; a long word may break at a soft hyphen (Medi-ter-ranean)
        assert label["text"].replace("\u00ad", "") == names[label["space"]], label
        assert label["shown"] and label["size"] >= 14, label
        assert label["fits"] and label["inside"], label

    centre = tv.locator(".centre")
    expect(centre.locator(".table-balances li")).to_have_count(6)
    expect(centre.locator(".latest li").first).to_contain_text("Fer")
    expect(centre.locator(".countdown")).to_contain_text("left")
    for part in (".table-balances", ".latest", ".countdown"):
        box = centre.locator(part).bounding_box()
        assert box["y"] + box["height"] <= size["height"], part  # on screen, no scrolling
    context.close()


def test_tokens_stand_on_the_tracked_spaces_and_move_live(browser: Browser, live_server):
    api = busy_table(live_server, "us-classic")
    context = browser.new_context(viewport=TV_SIZES[0])
    tv = context.new_page()
    tv.goto(api.table_url())
    parking = tv.locator('.sq[data-space="20"] .token')
    expect(parking).to_have_count(2)
    expect(tv.locator('.sq[data-space="20"] .token[title="Ana"]')).to_have_text("A")
    expect(tv.locator('.sq[data-space="10"] .token.jailed')).to_have_attribute(
        "title", "Fer · in jail"
    )
    font = tv.locator('.sq[data-space="20"] .token').first.evaluate(
        "e => parseFloat(getComputedStyle(e).fontSize)"
    )
    assert font >= 14
    api.act("turn_to", player=0)
    api.act("roll", player=0, dice=8)  # from Free Parking onto Dmitri's Water Works
    expect(tv.locator('.sq[data-space="28"] .token[title="Ana"]')).to_be_visible()
    expect(parking).to_have_count(1)
    context.close()


# How many lines a word of a balance's name is drawn on (2 or more: broken inside the word).
WORD_LINES = """(word) => {
  const name = [...document.querySelectorAll('.table-balances .name')]
    .find(n => n.textContent.includes(word));
  const walk = document.createTreeWalker(name, NodeFilter.SHOW_TEXT);
  let text = walk.nextNode();
  while (!text.textContent.includes(word)) text = walk.nextNode();
  const at = text.textContent.indexOf(word), range = document.createRange();
  range.setStart(text, at);
  range.setEnd(text, at + word.length);
  return new Set([...range.getClientRects()].map(r => Math.round(r.top))).size;
}"""


@pytest.mark.parametrize(
    "size", [TV_SIZES[0], TABLETS[0]], ids=lambda s: f"{s['width']}x{s['height']}"
)
def test_a_long_name_among_the_balances_is_never_broken_inside_a_word(
    browser: Browser, live_server, size
):
    """Six players, two columns of balances: "Dmitri Alexandrovich" breaks between its words
    if it must, its cash going under it, never inside "Alexandrovich" (it read "Alexandrovi /
    ch" on a TV and "Dmi / tri / Ale / xan / dro / vich" on a tablet)."""
    api = busy_table(live_server, "us-classic")
    context = browser.new_context(viewport=size)
    tv = context.new_page()
    tv.goto(api.table_url())
    assert tv.evaluate(WORD_LINES, "Alexandrovich") == 1
    assert tv.evaluate(WORD_LINES, "Dmitri") == 1
    context.close()


# Each building on a square as drawn, and whether it is whole inside the square's band.
BUILDINGS = """(space) => [...document.querySelectorAll(`.sq[data-space="${space}"] .band > *`)]
  .map(b => {
    const r = b.getBoundingClientRect(), band = b.parentElement.getBoundingClientRect();
    return { kind: b.className, width: r.width, height: r.height,
             inside: r.top >= band.top - 0.5 && r.bottom <= band.bottom + 0.5 &&
                     r.left >= band.left - 0.5 && r.right <= band.right + 0.5 };
  })"""


def test_b3_houses_and_a_hotel_are_counted_across_the_table_on_a_tv(browser: Browser, live_server):
    """B3: Bea's greens carry 4, 4 houses and a hotel. On a TV of 1080 lines a house is a
    square of 16 px or more (1.5% of the screen's height; it was 11.5 px) and the hotel twice
    as wide, each whole inside its square's band, the names still whole (above)."""
    api = busy_table(live_server, "us-classic")
    context = browser.new_context(viewport=TV_SIZES[0])
    tv = context.new_page()
    tv.goto(api.table_url())
    for space in (31, 32):  # Pacific and North Carolina Avenues
        houses = tv.evaluate(BUILDINGS, space)
        assert [b["kind"] for b in houses] == ["house"] * 4, houses
        assert all(b["width"] >= 16 and b["height"] >= 16 and b["inside"] for b in houses), houses
    (hotel,) = tv.evaluate(BUILDINGS, 34)  # Pennsylvania Avenue
    assert hotel["kind"] == "hotel" and hotel["width"] >= 32 and hotel["inside"], hotel
    context.close()


# A square's stripes and its name's backing, as drawn: the contrast of each stripe colour
# against the square's white (WCAG 1.4.11 asks 3:1 of a mark that means something).
STRIPES = """(space) => {
  const sq = document.querySelector(`.sq[data-space="${space}"]`);
  const lum = c => c.map(v => v / 255)
    .map(v => v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4))
    .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  const colours = [...getComputedStyle(sq).backgroundImage.matchAll(/rgb\\(([^)]*)\\)/g)]
    .map(m => m[1].split(',').map(Number));
  return {
    contrasts: colours.map(c => 1.05 / (lum(c) + 0.05)),
    name: getComputedStyle(sq.querySelector('.nm')).backgroundColor,
  };
}"""


def test_m1_a_mortgaged_deed_is_striped_for_the_whole_table_to_see(browser: Browser, live_server):
    """M1: Eve's Park Place is mortgaged, her Boardwalk is not. On the TV the mortgaged square
    carries stripes of 3:1 or more against its white, its name kept on white to be read; the
    other square has no stripes."""
    api = busy_table(live_server, "us-classic")
    context = browser.new_context(viewport=TV_SIZES[0])
    tv = context.new_page()
    tv.goto(api.table_url())
    park_place = tv.evaluate(STRIPES, 37)
    assert max(park_place["contrasts"]) >= 3, park_place
    assert park_place["name"] == "rgb(255, 255, 255)"
    assert tv.evaluate(STRIPES, 39)["contrasts"] == []  # Boardwalk
    expect(tv.locator('.sq[data-space="37"]')).to_contain_text("mortgaged")  # and said so
    context.close()


def test_the_table_screen_on_a_phone_shows_the_news_above_a_small_board(phone, live_server):
    api = busy_table(live_server, "us-classic")
    phone.goto(api.table_url())
    news = phone.locator(".centre").bounding_box()
    board = phone.locator('.sq[data-space="0"]').bounding_box()
    assert news["y"] < board["y"]
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    # The names are too small to draw here, but a screen reader still hears each square's
    # name before its owner ("Park Place owned by Eve · mortgaged").
    park_place = phone.locator('.sq[data-space="37"]')
    assert " ".join(park_place.inner_text().split()) == "Park Place owned by Eve · mortgaged"
    heard = {
        space: " ".join(phone.locator(f'.sq[data-space="{space}"] .body').inner_text().split())
        for space in (31, 34)
    }  # B3: and its buildings, drawn too small to count here
    assert heard == {
        31: "Pacific Avenue owned by Bea · 4 houses",
        34: "Pennsylvania Avenue owned by Bea · 1 hotel",
    }
    drawn = park_place.locator(".nm").bounding_box()
    assert drawn["width"] <= 1 and drawn["height"] <= 1


# The rows of a list that the screen cuts: below (or above) a box that hides what overflows.
CUT_ROWS = """(rows) => [...document.querySelectorAll(rows)].filter(row => {
  const r = row.getBoundingClientRect();
  for (let box = row.parentElement; box; box = box.parentElement) {
    if (getComputedStyle(box).overflow === 'visible') continue;
    const b = box.getBoundingClientRect();
    if (r.bottom > b.bottom + 0.5 || r.top < b.top - 0.5) return true;
  }
  return r.bottom > innerHeight;
}).map(row => row.querySelector('.name').textContent.trim())"""


@pytest.mark.parametrize(
    "size", [*TV_SIZES, {"width": 1280, "height": 720}], ids=lambda s: f"{s['width']}x{s['height']}"
)
def test_s1_sg4_seven_balances_and_standings_stay_on_the_tv_in_an_auction_and_at_the_end(
    browser: Browser, live_server, size
):
    """S1 (2 to 8 players), P1, SG4: with an auction's banner up, every player's balance is
    on the TV, none cut off below the news; once the game ends, every player's standing."""
    names = ("Ana", "Bea", "Cal", "Dee", "Eve", "Fer", "Gus")
    api = Api(live_server, names)
    api.act("roll", player=0, dice=6)
    api.act("decline", player=0, deed=6)
    context = browser.new_context(viewport=size)
    tv = context.new_page()
    tv.goto(api.table_url())
    expect(tv.locator(".auction-banner")).to_be_visible()
    expect(tv.locator(".table-balances li")).to_have_count(7)
    assert tv.evaluate(CUT_ROWS, ".table-balances li") == []
    api.act("end_game")
    expect(tv.locator(".centre .standings li")).to_have_count(7)  # live, no reload
    assert tv.evaluate(CUT_ROWS, ".centre .standings li") == []
    context.close()


# What the screen shows of each of these: "whole", "cut" (partly hidden by a box that hides
# what overflows, or by the screen's edge) or "hidden" (none of it on screen).
SHOWN = """(selector) => [...document.querySelectorAll(selector)].map(e => {
  const r = e.getBoundingClientRect();
  if (r.width === 0 || r.height === 0) return "hidden";
  const boxes = [{left: 0, top: 0, right: innerWidth, bottom: innerHeight}];
  for (let box = e.parentElement; box; box = box.parentElement) {
    if (getComputedStyle(box).overflow !== 'visible') boxes.push(box.getBoundingClientRect());
  }
  const inside = b => r.left >= b.left - 0.5 && r.right <= b.right + 0.5 &&
                      r.top >= b.top - 0.5 && r.bottom <= b.bottom + 0.5;
  const apart = b => r.left >= b.right - 0.5 || r.right <= b.left + 0.5 ||
                     r.top >= b.bottom - 0.5 || r.bottom <= b.top + 0.5;
  if (boxes.some(apart)) return "hidden";
  return boxes.every(inside) ? "whole" : "cut";
})"""

EIGHT = ("Ana", "Bea", "Cal", "Dmitri Alexandrovich", "Eve", "Fer", "Gus", "Hana")
EIGHT_COLOURS = [
    "#e03131",
    "#1971c2",
    "#2f9e44",
    "#f08c00",
    "#7048e8",
    "#0c8599",
    "#d6336c",
    "#868e96",
]


@pytest.mark.parametrize(
    "size", [{"width": 1280, "height": 720}, *TV_SIZES], ids=lambda s: f"{s['width']}x{s['height']}"
)
def test_s1_sg4_the_last_actions_under_eight_final_standings_show_whole_or_not_at_all(
    browser: Browser, live_server, size
):
    """S1 (8 players), SG4: the TV of an ended game of eight lists their standings; under
    them, "Last actions" shows with at least one whole action, or not at all: never a cut
    heading at the foot of the screen, nor an action cut in half."""
    players = [{"name": n, "colour": c} for n, c in zip(EIGHT, EIGHT_COLOURS, strict=True)]
    api = Api(live_server, EIGHT, players=players)
    for seat in range(5):
        api.act("bank_pay", player=seat, amount=10 * (seat + 1))
    api.act("end_game")
    context = browser.new_context(viewport=size)
    tv = context.new_page()
    tv.goto(api.table_url())
    expect(tv.locator(".centre .standings li")).to_have_count(8)
    heading = tv.evaluate(SHOWN, "#latest-title")
    actions = tv.evaluate(SHOWN, ".latest li")
    assert heading in (["whole"], ["hidden"]), heading
    assert "cut" not in actions, actions
    if heading == ["whole"]:
        assert "whole" in actions  # a heading with an action under it
    else:
        assert set(actions) == {"hidden"}
    if size["height"] >= 800:
        assert heading == ["whole"]  # room for the last actions: they show
    context.close()
