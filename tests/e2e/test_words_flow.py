"""The table's words on a phone (headless Chromium, 390x844): the banker link at the start,
plain words in three languages, deed chips that read, a winner, no tiles once it is over,
a confirmed lost-phone link and its friendly error page, times in the reader's own zone, and
a player's trade offer with Accept."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from playwright.sync_api import Browser, Page, expect

from ..support import US
from .flows import PHONE, Api, land, no_sideways_scroll, own_phone, pad, player_links, start_game

CONTRAST = """e => {
  const rgb = s => s.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = c => { const [r, g, b] = rgb(c).map(v => { v /= 255;
    return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const a = lum(getComputedStyle(e).color), b = lum(getComputedStyle(e).backgroundColor);
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}"""


def test_a_new_game_starts_with_the_banker_link_to_keep(phone: Page, live_server):
    start_game(phone, live_server)
    keep = phone.locator(".keep")
    expect(keep).to_contain_text("Keep this banker link")
    expect(keep.locator("svg")).to_be_visible()
    expect(keep.locator(".link a")).to_have_attribute("href", re.compile(r"/g/[\w-]+/\?key="))
    no_sideways_scroll(phone)
    phone.reload()
    expect(phone.locator(".keep")).to_have_count(0)  # once, at the start


def test_k1_k4_bankruptcy_lands_on_results_with_the_winner_and_no_tiles_are_left(
    phone: Page, live_server
):
    """K1, K4: Bea throws onto Ana's Boardwalk with a hotel; the rent is more than all she
    could raise, so the debt panel lets her go bankrupt, and the last player left wins."""
    api = Api(live_server)
    api.act("bank_pay", player=0, amount=2000)
    api.own(0, 37, 39)
    api.act("build", player=0, group="dark_blue", levels=[5, 5])
    api.before(1, 39, dice=8)
    api.banker(phone)
    pad(phone, 8)
    phone.get_by_role("button", name=re.compile("^Bea throws 8 and moves to Boardwalk")).click()
    debt = phone.locator(".debt")
    hotel = US.spaces[39].rent[5]
    expect(debt).to_contain_text(f"Bea owes Ana ${hotel:,}")
    expect(debt.locator(".figures")).to_contain_text("Could raise in all")
    expect(debt).not_to_contain_text("K1")
    debt.get_by_role("button", name=re.compile("^Bea is bankrupt, owing")).click()
    expect(phone).to_have_url(re.compile(r"/results$"))
    expect(phone.locator(".winner")).to_have_text(re.compile(r"Ana\s+wins the game"))
    phone.get_by_role("link", name="← Game").click()
    expect(phone.locator(".winner")).to_contain_text("Ana")
    for tile in ("Landed on…", "Passed GO", "Mortgages", "Trade"):
        expect(phone.get_by_role("link", name=tile, exact=True)).to_have_count(0)
    expect(phone.locator(".pad")).to_have_count(0)
    expect(phone.get_by_role("link", name="The game has ended: results")).to_be_visible()


def test_sg4_dashboard_chips_and_words_in_spanish_and_japanese(phone: Page, live_server):
    start_game(phone, live_server)
    for space in ("Oriental Avenue", "Reading Railroad"):
        land(phone, "Ana", space)
        phone.locator("form.act button").first.click()
    chips = phone.locator(".deed-chip")
    expect(chips).to_have_count(2)
    for chip in chips.all():
        box = chip.bounding_box()
        assert box["width"] >= 24 and box["height"] >= 24
    expect(chips.first.locator("svg")).to_be_visible()  # Reading Railroad's picture
    assert chips.nth(1).evaluate(CONTRAST) >= 4.5  # Oriental Avenue: dark ink on light blue
    ana = phone.locator(".balance").first
    expect(ana).to_contain_text("2 deeds · Net worth $1,700")  # 1,400 cash + 100 + 200
    phone.goto(phone.url.split("?")[0] + "?lang=es")
    expect(ana).to_contain_text("2 títulos · Patrimonio")
    expect(phone.locator(".balance").nth(1)).to_contain_text("0 títulos")
    phone.goto(phone.url.split("?")[0] + "?lang=ja")
    expect(ana).to_contain_text("権利書 2 枚 · 純資産")
    expect(phone.locator("body")).not_to_contain_text("(T1)")
    phone.goto(phone.url.split("?")[0] + "?lang=en")


def test_lost_phone_asks_first_and_the_old_link_then_says_what_to_do(
    browser: Browser, phone: Page, live_server
):
    start_game(phone, live_server)
    links = player_links(phone, live_server)
    phone.locator("#seat1").get_by_role("link", name="Lost phone: new link…").click()
    expect(phone.locator("h1")).to_contain_text("A new link for Bea?")
    phone.get_by_role("link", name="Cancel: keep the current link").click()
    bea = browser.new_context(viewport=PHONE, is_mobile=True).new_page()
    with bea.expect_response(re.compile(r"/live\?")):  # Bea's page, its live stream open
        bea.goto(links["Bea"])
    expect(bea.locator("#balance")).to_have_text("$1,500")  # nothing changed
    phone.locator("#seat1").get_by_role("link", name="Lost phone: new link…").click()
    phone.get_by_role("button", name="Yes: a new link for Bea").click()
    expect(phone.get_by_role("status")).to_contain_text("New link for Bea")
    # The stream says the link is gone and the page reloads by itself (a reload of ours at
    # that moment would race it): it says what to do.
    expect(bea.locator("h1")).to_have_text("This player link no longer works")
    expect(bea.locator(".todo")).to_contain_text("Ask the banker for your new code")
    no_sideways_scroll(bea)
    bea.goto(links["Bea"] + "?lang=es")
    expect(bea.locator(".todo")).to_contain_text("Pida al banquero su nuevo código")


def test_tl1_a_new_york_banker_sees_the_right_countdown_and_local_times(
    browser: Browser, live_server
):
    new_york = ZoneInfo("America/New_York")
    context = browser.new_context(
        viewport=PHONE, is_mobile=True, timezone_id="America/New_York", locale="en-US"
    )
    page = context.new_page()
    ends = (datetime.now(UTC) + timedelta(minutes=10)).astimezone(new_york)
    page.goto(live_server + "/new")
    page.get_by_label("Name of player 1").fill("Ana")
    page.get_by_label("Name of player 2").fill("Bea")
    page.locator(".choice", has_text="Time-limited").click()
    page.locator('input[name="ends_at"]').fill(ends.strftime("%Y-%m-%dT%H:%M"))
    page.get_by_role("button", name="Start the game").click()
    page.locator(".option form.act button").first.click()  # deal at random
    countdown = page.locator(".countdown-box .countdown")
    expect(countdown).to_have_text(re.compile(r"^(0\d:[0-5]\d|10:00) left$"))
    expect(page.locator(".countdown-box time")).to_have_text(ends.strftime("%Y-%m-%d %H:%M"))
    page.goto(page.url + "history")
    stamp = page.locator(".history time").first
    written = datetime.fromisoformat(stamp.get_attribute("datetime")).astimezone(new_york)
    expect(stamp).to_have_text(written.strftime("%H:%M"))
    page.goto(page.url.replace("history", "") + "?lang=ja")
    expect(countdown).to_have_text(re.compile(r"^残り "))
    context.close()


def test_tl1_a_new_york_banker_without_javascript_picks_their_clock_and_gets_their_end(
    browser: Browser, live_server
):
    """TL1 with JavaScript off: the page cannot send the browser's time zone, so it asks for
    the time on the banker's clock (each UTC offset's time now); the end typed is theirs."""
    new_york = ZoneInfo("America/New_York")
    context = browser.new_context(
        viewport=PHONE, is_mobile=True, timezone_id="America/New_York", java_script_enabled=False
    )
    page = context.new_page()
    now = datetime.now(new_york)
    ends = now + timedelta(minutes=30)
    page.goto(live_server + "/new")
    page.get_by_label("Name of player 1").fill("Ana")
    page.get_by_label("Name of player 2").fill("Bea")
    page.locator(".choice", has_text="Time-limited").click()
    page.locator('input[name="ends_at"]').fill(ends.strftime("%Y-%m-%dT%H:%M"))
    clock = page.get_by_label("The time on your clock now (for the end time)")
    east = int(now.utcoffset().total_seconds()) // 60
    clock.select_option(f"{'-' if east < 0 else '+'}{abs(east) // 60:02}:{abs(east) % 60:02}")
    listed = clock.evaluate("s => s.selectedOptions[0].text")  # 16:42 (2026-11-27, UTC-05:00)
    shown = datetime.strptime(listed[:17], "%H:%M (%Y-%m-%d").replace(tzinfo=new_york)
    assert timedelta(0) <= shown - now.replace(second=0, microsecond=0) <= timedelta(minutes=2)
    no_sideways_scroll(page)
    page.get_by_role("button", name="Start the game").click()
    page.locator(".option form.act button").first.click()  # deal at random
    expect(page.locator(".countdown-box time")).to_have_text(ends.strftime("%Y-%m-%d %H:%M"))
    context.close()


def test_the_time_zone_cookie_is_secure_over_https_and_plain_over_http(
    browser: Browser, live_server
):
    """The browser's UTC offset (`tzo`, app.js) goes back to the server only over https when
    the page came over https, as the session cookie does; over plain http (a home server)
    it must not be Secure, or the browser would drop it. The https site here is the test's
    own name for the live server, its answers passed through by the browser context."""
    context = browser.new_context(viewport=PHONE)
    context.route("https://bank.test/**", lambda route: pass_to(route, live_server))
    page = context.new_page()
    for site in ("https://bank.test", live_server):
        page.goto(site + "/new")
        expect(page.locator("h1")).to_have_text("New game")
    kept = {c["domain"]: c["secure"] for c in context.cookies() if c["name"] == "tzo"}
    assert kept == {"bank.test": True, "127.0.0.1": False}
    context.close()


def pass_to(route, server: str) -> None:
    answer = route.fetch(url=route.request.url.replace("https://bank.test", server))
    route.fulfill(response=answer)


def test_x1_a_trade_offer_on_the_phone_is_accepted_with_accept(
    browser: Browser, phone, live_server
):
    table = Api(live_server)
    table.banker(phone)
    table.own(0, 39)
    table.act("trade_offer", player=0, partner=1, give={"deeds": [39]}, take={"cash": 500})
    links = player_links(phone, live_server)
    bea = own_phone(browser, links["Bea"])
    offer = bea.locator(".offer")
    expect(offer.locator(".deal")).to_contain_text("Boardwalk from Ana to Bea")
    offer.get_by_role("button", name="Accept").click()
    expect(bea.get_by_role("status")).to_contain_text("Ana trades with Bea")
    expect(bea.locator("#balance")).to_have_text("$1,000")
    bea.goto(links["Bea"] + "/preview?to=0&amount=25")  # a bid or payment to confirm
    expect(bea.locator("header.phone-bar")).to_have_text(re.compile(r"←\s*Bea\s*\$1,000"))
    no_sideways_scroll(bea)


PHRASE_KEPT_WHOLE = """(label, word) => {
  // The label narrowed a pixel at a time: the word's two characters always share a line.
  const text = [...label.childNodes].find(n => n.nodeType === 3 && n.data.includes(word));
  const at = text.data.indexOf(word);
  const top = i => { const r = document.createRange(); r.setStart(text, i); r.setEnd(text, i + 1);
                     return Math.round(r.getBoundingClientRect().top); };
  const full = label.getBoundingClientRect().width, split = [];
  for (let width = full; width > full / 2; width -= 1) {
    label.style.width = width + "px";
    if (top(at) !== top(at + 1)) { split.push(width); }
  }
  label.style.width = "";
  return split;
}"""


def test_japanese_text_breaks_between_phrases_never_inside_a_word(phone: Page, live_server):
    """A Japanese line may break between any two characters; the page breaks it between
    phrases, as a printed page does: "残る" (stays) is never cut into "残" and "る", however
    narrow its line."""
    phone.goto(live_server + "/new?lang=ja")
    label = phone.locator("label.choice", has_text="見送られた権利書は銀行に残る")
    assert label.evaluate(PHRASE_KEPT_WHOLE, "残る") == []
