"""Every page can be told apart and read at any size (issue 22, WCAG 1.4.4, 1.4.10, 2.4.2):
its own title, exactly one h1, and no sideways scroll at 320 px, at 200% zoom on a phone, or
with the browser's default font size doubled. Headless Chromium over every kind of page."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page

from .flows import PHONE
from .tour import Tour, grown_game

pytestmark = pytest.mark.slow  # every page, six times over

PHONE_WIDTH = PHONE["width"]


@pytest.fixture
def tour(browser: Browser, live_server):
    context = browser.new_context(viewport={"width": PHONE_WIDTH, "height": 844})
    yield grown_game(context, live_server), context
    context.close()


WIDE = """() => {
  const root = document.documentElement, over = root.scrollWidth - root.clientWidth;
  if (over <= 0) { return null; }
  const wide = [...document.querySelectorAll("body *")]
    .filter(e => e.getBoundingClientRect().right > root.clientWidth)
    .slice(-3).map(e => e.tagName.toLowerCase() + "." + [...e.classList].join("."));
  return over + " px, past the edge: " + wide.join(", ");
}"""


def sideways(page: Page) -> str | None:
    """How far the page scrolls sideways, and what sticks out (None: it reflows)."""
    return page.evaluate(WIDE)


def visit_all(tour: Tour, page: Page, look) -> list[str]:
    found = []
    for path in tour.all_pages():
        page.goto(tour.url + path)
        problem = look(page)
        if problem:
            found.append(f"{path}: {problem}")
    return found


def test_each_page_has_its_own_title_and_one_h1(tour):
    tour, context = tour
    page = context.new_page()
    titles = {}

    def look(page: Page):
        h1 = page.locator("h1").count()
        titles.setdefault(page.title(), []).append(page.url)
        return None if h1 == 1 else f"{h1} h1"

    found = visit_all(tour, page, look)
    assert not found, "\n".join(found)
    shared = {title: urls for title, urls in titles.items() if len(urls) > 1}
    assert not shared, f"pages share a title: {shared}"
    assert all(title != "tablebank" for title in titles)


@pytest.mark.parametrize(
    ("width", "scale", "font"),
    [(320, 1, None), (PHONE_WIDTH // 2, 4, None), (PHONE_WIDTH, 2, 32)],
    ids=["320px", "200%-zoom-on-a-phone", "doubled-default-font"],
)
def test_no_page_scrolls_sideways(browser: Browser, tour, width, scale, font):
    """200% zoom on a 390 px phone leaves 195 CSS pixels; a doubled default font is set as
    the reader would, in the browser's settings (Chromium's Page.setFontSizes)."""
    tour, banker = tour
    context = browser.new_context(
        viewport={"width": width, "height": 800},
        device_scale_factor=scale,
        storage_state=banker.storage_state(),
    )
    page = context.new_page()
    if font:
        cdp = context.new_cdp_session(page)
        cdp.send("Page.setFontSizes", {"fontSizes": {"standard": font, "fixed": font}})
    page.goto(tour.url + "/")
    grown = page.evaluate("parseFloat(getComputedStyle(document.body).fontSize)")
    assert font is None or grown > 30, "the font setting did not take"
    found = visit_all(tour, page, sideways)
    assert not found, "\n".join(found)
    context.close()


CONTRAST = """() => {
  const rgb = s => (s.match(/[\\d.]+/g) || []).slice(0, 4).map(Number);
  const lum = ([r, g, b]) => [r, g, b]
    .map(v => (v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4)
    .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  const opaque = c => c.length === 3 || c[3] > 0;
  const beside = e => {  // what the colour touches: its ring or border, else what is under it
    const style = getComputedStyle(e);
    if (style.boxShadow !== "none") { return rgb(style.boxShadow); }
    if (parseFloat(style.borderTopWidth) > 0) { return rgb(style.borderTopColor); }
    for (let p = e.parentElement; p; p = p.parentElement) {
      const c = rgb(getComputedStyle(p).backgroundColor);
      if (opaque(c)) { return c; }
    }
    return [255, 255, 255];
  };
  const low = [];
  document.querySelectorAll(".chip, .token").forEach(e => {
    const a = lum(rgb(getComputedStyle(e).backgroundColor)), b = lum(beside(e));
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    if (ratio < 3) { low.push(e.className + " " + e.textContent + " " + ratio.toFixed(2)); }
  });
  return low.length ? low.join("; ") : null;
}"""


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_every_players_colour_keeps_3_to_1_where_it_is_drawn(browser: Browser, tour, theme):
    """Each chip and board token against what it sits on, on every page (issue 22)."""
    tour, banker = tour
    page = banker.new_page()
    page.goto(f"{tour.url}/?theme={theme}")
    found = visit_all(tour, page, lambda p: p.evaluate(CONTRAST))
    assert not found, "\n".join(found)
