"""The results of a game in which a player went bankrupt, read in headless Chromium at a
phone's size, light and dark: every word keeps 4.5:1 against what it sits on (3:1 when large;
WCAG 1.4.3), the bankrupt player's row and the winner's badge included."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from .flows import Api

LUXURY_TAX = 38  # a fixed tax: no choice to make, a debt to the bank when it cannot be paid

LOW_CONTRAST = """() => {
  const rgb = s => s.match(/[\\d.]+/g).map(Number);
  const lum = c => c.slice(0, 3).map(v => v / 255)
    .map(v => v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4))
    .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  const backdrop = e => {
    for (; e; e = e.parentElement) {
      const c = rgb(getComputedStyle(e).backgroundColor);
      if (c.length < 4 || c[3] > 0) { return c; }
    }
    return [255, 255, 255];
  };
  const low = [];
  for (const e of document.querySelectorAll("main *")) {
    const words = [...e.childNodes].filter(n => n.nodeType === 3)
      .map(n => n.textContent).join("").trim();
    if (!words || !e.getClientRects().length) { continue; }
    const style = getComputedStyle(e), under = backdrop(e);
    let seen = 1;
    for (let a = e; a; a = a.parentElement) { seen *= Number(getComputedStyle(a).opacity); }
    const ink = rgb(style.color).slice(0, 3).map((v, i) => v * seen + under[i] * (1 - seen));
    const [hi, lo] = [lum(ink), lum(under)].sort((x, y) => y - x);
    const ratio = (hi + 0.05) / (lo + 0.05), size = parseFloat(style.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
    if (ratio < (large ? 3 : 4.5)) { low.push(words.slice(0, 30) + " " + ratio.toFixed(2)); }
  }
  return low;
}"""


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_k3_the_results_with_a_bankrupt_player_read_at_4_5_to_1(phone: Page, live_server, theme):
    """K3: Bea cannot pay the luxury tax and goes bankrupt to the bank; the banker ends the
    game. The results say who won and that Bea is bankrupt, every word readable."""
    game = Api(live_server, names=("Ana", "Bea", "Cai"))
    game.act("bank_collect", player=1, amount=1500)
    game.act("land", player=1, space=LUXURY_TAX)
    game.act("bankrupt", player=1)
    game.act("end_game")
    game.banker(phone)
    phone.goto(f"{live_server}/?theme={theme}")
    phone.goto(f"{game.dashboard}results")
    assert phone.evaluate(LOW_CONTRAST) == []
