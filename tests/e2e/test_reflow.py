"""Every page can be told apart and read at any size (issue 22, WCAG 1.4.4, 1.4.10, 2.4.2):
its own title, exactly one h1, and no sideways scroll at 320 px, at 200% zoom on a phone, or
with the browser's default font size doubled. Headless Chromium over every kind of page."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page

from .tour import Tour, grown_game

PHONE_WIDTH = 390


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
