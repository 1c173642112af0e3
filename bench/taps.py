"""Taps and page loads a banker needs, counted in headless Chromium at 390x844.

Method: one scripted 4-player classic game of --turns rolls from a fixed dice sequence
(--seed), played twice by a banker's phone: once with the flow before issue 10 ("Landed on…",
the player, the space, the action; the player's page for jail; the auction's form) against
the code of --before-ref (git archive of the commit before issue 10), once with the turn
pad against this tree.
Both games take the same decisions (buy when cash allows price + 100, else decline and the
richest other player bids; cards drawn from decks shuffled by the seed; in jail, roll for
doubles), so they cover rent, buys, auctions, cards, taxes and jail alike. The app's state is
read through the JSON API between taps (not counted). A tap is a click or the focus of a
field (typing is not counted); a page load is a main-frame navigation (a form post and its
redirect are one); a scroll is counted when the next tap is below the fold.

Then a money move (a player pays another 50) from the dashboard, and on a player's phone;
and (this tree only) a debt settled from the turn page: a throw onto a hotel the player
cannot pay, one mortgage, the payment (issue 19's target: at most 4 taps).

    .venv/bin/python -m bench.taps [--turns 100] [--seed 7] [--before-ref 9765e20]
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from . import common

JAIL, BOARD = 10, 40
MOVES_TO_JAIL = ("go_to_jail",)


class Counter:
    """Taps, page loads and scrolls on one page object, per turn and in all."""

    def __init__(self, page) -> None:
        self.page, self.taps, self.loads, self.scrolls = page, 0, 0, 0
        page.on("load", self.loaded)  # a page loaded: not a tap merged in place (app.js)

    def loaded(self, _page) -> None:
        self.loads += 1

    def tap(self, locator) -> None:
        locator = locator.first
        locator.wait_for(state="attached")
        below = locator.evaluate(
            "e => { const r = e.getBoundingClientRect(); "
            "return r.top < 0 || r.bottom > innerHeight; }"
        )
        self.scrolls += bool(below)
        self.taps += 1
        in_place = locator.evaluate(
            "e => { const b = e.closest('button'); const f = b && b.type === 'submit'"
            " && b.closest('form.act[method=post], form.quick-money[method=post]');"
            " if (f) { window.swapped = new Promise(r => document.addEventListener("
            "'swapped', r, {once: true})); } return Boolean(f); }"
        )
        locator.click()
        if in_place:  # posted by app.js, its answer merged into the page
            merged = self.page.evaluate(
                "() => Promise.race([window.swapped, new Promise(r => setTimeout(r, 30000))])"
            )
            if merged is None:
                raise common.BenchError(f"a tap was not merged in 30 s on {self.page.url}")
        self.page.wait_for_load_state("load")

    def fill(self, locator, text: str) -> None:
        self.taps += 1
        locator.first.fill(text)

    def mark(self) -> tuple[int, int, int]:
        return self.taps, self.loads, self.scrolls


def kind_button(page, kind: str, payload_part: str = ""):
    """The button of an action form, by its kind (and a piece of its payload)."""
    found = page.locator(f'form.act:has(input[name="kind"][value="{kind}"])')
    if payload_part:
        found = found.filter(has=page.locator(f"input[name=payload][value*='{payload_part}']"))
    return found.locator("button")


class Table:
    """The physical side: dice and decks, the same for both flows."""

    def __init__(self, seed: int, edition: dict) -> None:
        self.rng = random.Random(seed)
        self.decks = {}
        for deck in ("chance", "chest"):
            cards = [c for c in edition["cards"] if c["deck"] == deck]
            self.rng.shuffle(cards)
            self.decks[deck] = cards
        self.rolls = [self.roll() for _ in range(2000)]
        self.fresh = [self.rng.randint(2, 12) for _ in range(500)]

    def roll(self) -> tuple[int, bool]:
        a, b = self.rng.randint(1, 6), self.rng.randint(1, 6)
        return a + b, a == b

    def draw(self, deck: str) -> dict:
        card = self.decks[deck].pop(0)
        if card["effect"] != "jail_free":
            self.decks[deck].append(card)
        return card


class Play:
    """One game played by the banker's phone; `flow` is "before" or "after"."""

    def __init__(self, flow: str, base: str, browser, edition: dict, seed: int) -> None:
        self.flow, self.base = flow, base
        self.http = common.Http(base)
        self.game = common.Game(self.http, players=4)
        self.edition = edition
        self.spaces = edition["spaces"]
        self.table = Table(seed, edition)
        self.context = browser.new_context(viewport=common.PHONE, is_mobile=True)
        self.page = self.context.new_page()
        self.page.goto(f"{base}/g/{self.game.id}/?key={self.game.key}")
        self.count = Counter(self.page)
        self.turn, self.doubles, self.tries = 0, 0, {}
        self.per_turn: list[tuple[int, int, int]] = []
        self.kinds: dict[str, int] = {}
        self.stuck = 0

    # -- reading the game -------------------------------------------------------------------

    def view(self) -> dict:
        return self.game.refresh()

    def owner(self, index: int):
        return next(d["owner"] for d in self.view()["deeds"] if d["space"] == index)

    def dashboard(self) -> None:
        if not self.page.url.rstrip("/").endswith(f"/g/{self.game.id}"):
            self.page.goto(f"{self.base}/g/{self.game.id}/")  # between turns: not counted
            self.count.loads -= 1

    # -- the game ------------------------------------------------------------------------------

    def play(self, turns: int) -> None:
        for n in range(turns):
            dice, doubles = self.table.rolls[n]
            self.dashboard()
            before = self.count.mark()
            seat = self.current_seat()
            kind = self.one_turn(seat, dice, doubles)
            after = self.count.mark()
            self.per_turn.append(tuple(a - b for a, b in zip(after, before, strict=True)))
            self.kinds[kind] = self.kinds.get(kind, 0) + 1

    def current_seat(self) -> int:
        if self.flow == "after":
            return int(self.page.locator(".turn[data-seat]").first.get_attribute("data-seat"))
        players = self.view()["players"]
        while players[self.turn]["bankrupt"]:
            self.turn = (self.turn + 1) % len(players)
        return self.turn

    def one_turn(self, seat: int, dice: int, doubles: bool) -> str:
        player = self.view()["players"][seat]
        if self.flow == "after":
            return self.after_turn(player, dice, doubles)
        return self.before_turn(player, dice, doubles)

    # -- after: the pad ------------------------------------------------------------------------

    def after_turn(self, player: dict, dice: int, doubles: bool) -> str:
        page = self.page
        if doubles and dice not in (2, 12):
            self.count.tap(page.locator(".pad .doubles"))
        self.count.tap(page.locator(f'.pad button[name="dice"][value="{dice}"]'))
        if page.locator(".cards").count():
            return self.pick_card(player, dice)
        options = page.locator(".option form.act button")
        kind = self.choose(player, self.landing_space(player, dice))
        index = 1 if kind == "decline" and options.count() > 1 else 0
        if not self.enabled(options.nth(index)):
            return self.skip()
        self.count.tap(options.nth(index))
        self.follow(player)
        return kind

    def waiting(self) -> str:
        """What the dashboard's turn panel waits for (buy, throw, roll...), or "debt"."""
        if self.page.locator("#live .debt").count():
            return "debt"
        panel = self.page.locator(".turn[data-wait]")
        return panel.first.get_attribute("data-wait") if panel.count() else ""

    def follow_after(self, player: dict) -> None:
        """After a tap, what the game still waits for on the dashboard: a card's move onto a
        bank deed (buy or decline), a fresh throw for a utility, a debt, an auction."""
        for _ in range(6):
            if self.page.url.split("?")[0].endswith("/auction"):
                self.auction()
                continue
            what = self.waiting()
            if what == "buy":
                space = self.view()["players"][player["seat"]]["position"]
                options = self.page.locator(".turn .option form.act button")
                index = 1 if self.choose(player, space) == "decline" else 0
                self.count.tap(options.nth(index))
            elif what == "throw":
                fresh = self.table.fresh.pop()
                self.count.tap(self.page.locator(f'.pad button[name="dice"][value="{fresh}"]'))
                self.count.tap(self.page.locator(".option form.act button"))
            elif what == "debt":
                self.settle_debt()
            else:
                return

    def settle_debt(self) -> None:
        """K1 from the dashboard: pay when the cash covers it, else mortgage a deed (the
        debt's Mortgage link), else give up."""
        debt = self.page.locator("#live .debt")
        pay = debt.locator("form.act").filter(has=self.page.locator("input[value=pay_debt]"))
        give_up = debt.locator("form.act").filter(has=self.page.locator("input[value=bankrupt]"))
        if pay.locator("button").is_enabled():
            self.count.tap(pay.locator("button"))
        elif give_up.locator("button").is_enabled():
            self.count.tap(give_up.locator("button"))
        else:
            self.count.tap(debt.get_by_role("link", name="Mortgage"))
            mortgage = self.page.locator(".option form.act:has(input[value=mortgage]) button")
            self.count.tap(mortgage.filter(has_not=self.page.locator("[disabled]")).first)

    def landing_space(self, player: dict, dice: int) -> int:
        return (player["position"] + dice) % BOARD

    def pick_card(self, player: dict, dice: int) -> str:
        space = self.spaces[self.landing_space(player, dice)]
        card = self.table.draw(space["kind"])
        title = card["text"].split(";")[0].split("(")[0].strip()
        button = self.page.locator(".card-btn").filter(
            has=self.page.locator(".title", has_text=title)
        )
        if not self.page.locator(".cards .card-btn").filter(has_text=title).first.is_visible():
            self.count.tap(self.page.locator("details.lately summary"))
        if not self.enabled(button.first):
            return self.skip()
        self.count.tap(button)
        self.follow(player)
        return "card"

    # -- before: Landed on… --------------------------------------------------------------------

    def before_turn(self, player: dict, dice: int, doubles: bool) -> str:
        seat = player["seat"]
        if player["in_jail"]:
            return self.before_jail(player, dice, doubles)
        if doubles and self.doubles == 2:
            self.count.tap(self.page.locator("a[href$='/pick/go_to_jail']"))
            self.count.tap(kind_button(self.page, "go_to_jail", f'"player": {seat}}}'))
            self.pass_turn(seat, again=False)
            return "three doubles"
        kind = self.before_landing(player, dice)
        jailed = self.view()["players"][seat]["in_jail"]
        self.pass_turn(seat, again=doubles and not jailed)
        return kind

    def before_jail(self, player: dict, dice: int, doubles: bool) -> str:
        seat = player["seat"]
        tries = self.tries.get(seat, 0)
        if not doubles and tries < 2:
            self.tries[seat] = tries + 1
            self.pass_turn(seat, again=False)
            return "jail: stays"
        self.tries[seat] = 0
        self.count.tap(self.page.locator(".balances a.balance").nth(seat))
        way = "jail_doubles" if doubles else "jail_fine"
        self.count.tap(kind_button(self.page, way))
        self.page.goto(f"{self.base}/g/{self.game.id}/")
        self.count.loads -= 1
        self.before_landing(self.view()["players"][seat], dice)
        self.pass_turn(seat, again=False)
        return "jail: out"

    def before_landing(self, player: dict, dice: int) -> str:
        seat, page = player["seat"], self.page
        index = self.landing_space(player, dice)
        self.count.tap(page.locator(f"a[href$='/g/{self.game.id}/land']"))
        self.count.tap(page.locator(f"a[href$='/land/{seat}']"))
        self.count.tap(page.locator(f"a[href$='/land/{seat}/{index}']"))
        return self.land_page(player, index, dice)

    def land_page(self, player: dict, index: int, dice: int) -> str:
        page, space = self.page, self.spaces[index]
        if space["kind"] in ("chance", "chest"):
            card = self.table.draw(space["kind"])
            self.count.tap(kind_button(page, "card", f'"card": "{card["id"]}"'))
            self.follow(player)
            return "card"
        if page.locator("input[name=dice]").count():
            self.count.fill(page.locator("input[name=dice]"), str(self.table.fresh.pop()))
            self.count.tap(page.locator("form.stack button"))
        kind = self.choose(player, index)
        options = page.locator(".option form.act button")
        button = options.nth(1 if kind == "decline" else 0)
        if not self.enabled(button):
            return self.skip()
        self.count.tap(button)
        self.follow(player)
        return kind

    def pass_turn(self, seat: int, again: bool) -> None:
        if again:
            self.doubles += 1
            return
        self.doubles = 0
        self.turn = (seat + 1) % 4

    # -- shared: decisions, card moves, auctions -----------------------------------------------

    def choose(self, player: dict, index: int) -> str:
        space = self.spaces[index]
        if space["kind"] in ("street", "railroad", "utility"):
            owner = self.owner(index)
            if owner is None:
                cash = self.view()["players"][player["seat"]]["cash"]
                return "buy" if cash >= space["price"] + 100 else "decline"
            return "rent" if owner != player["seat"] else "visit"
        return {"tax": "tax", "go_to_jail": "go to jail"}.get(space["kind"], "visit")

    def follow(self, player: dict) -> None:
        """After the tap: a card's move to a space with a choice, or an auction."""
        if self.flow == "after":
            return self.follow_after(player)
        url = self.page.url
        if "/land/" in url:
            index = int(url.split("?")[0].rstrip("/").split("/")[-1])
            self.land_page(self.view()["players"][player["seat"]], index, 0)
        elif url.split("?")[0].endswith("/auction"):
            self.auction()

    def auction(self) -> None:
        view = self.view()
        lot = view["auction"]
        price = self.spaces[lot["deed"]]["price"] if lot["deed"] is not None else 100
        richest = max((p for p in view["players"] if not p["bankrupt"]), key=lambda p: p["cash"])
        page = self.page
        if richest["cash"] >= price:
            if self.flow == "after":
                name = f"{richest['name']} bids $100"
                self.count.tap(page.get_by_role("button", name=name, exact=True))
            else:
                self.count.tap(page.locator(f"input[name=player][value='{richest['seat']}']"))
                self.count.fill(page.locator("input[name=amount]"), "100")
                self.count.tap(page.locator("form.stack button").first)
                self.count.tap(page.locator(".option.preview button"))
        self.count.tap(kind_button(page, "auction_close"))

    def enabled(self, locator) -> bool:
        return locator.count() > 0 and locator.first.is_enabled()

    def skip(self) -> str:
        """A payment the player cannot make in the flow before issue 19 (a throw refused
        whole): not part of this count; the banker moves on."""
        self.stuck += 1
        return "stuck"

    # -- money moves -----------------------------------------------------------------------------

    def money_move(self) -> tuple[int, int, int]:
        """Ana pays Bea 50, from the dashboard."""
        self.dashboard()
        start, page = self.count.mark(), self.page
        if self.flow == "after":
            self.count.tap(page.locator(".balances a.balance").nth(0))
            self.count.tap(page.locator("input[name=to][value='1']"))
            self.count.tap(page.locator(".quick button[value='50']"))
        else:
            self.count.tap(page.locator("a[href$='/transfer']"))
            self.count.tap(page.locator("input[name=from][value='0']"))
            self.count.tap(page.locator("input[name=to][value='1']"))
            self.count.fill(page.locator("input[name=amount]"), "50")
            self.count.tap(page.locator("form.stack button"))
            self.count.tap(page.locator(".option.preview button"))
        return tuple(a - b for a, b in zip(self.count.mark(), start, strict=True))

    def phone_money_move(self) -> tuple[int, int, int]:
        """Bea pays Ana 50 on her own phone."""
        phone = self.context.new_page()
        phone.goto(f"{self.base}/p/{self.game.player_tokens[1]}")
        count = Counter(phone)
        count.tap(phone.locator("details.pay summary"))
        count.tap(phone.locator("details.pay input[name=to][value='0']"))
        if self.flow == "after":
            count.tap(phone.locator(".quick button[value='50']"))
            count.tap(phone.locator("form.act button"))  # issue 22: named, then confirmed
        else:
            count.fill(phone.locator("details.pay input[name=amount]"), "50")
            count.tap(phone.locator("details.pay form button"))
            count.tap(phone.locator("form.act button"))
        return count.mark()


BALTIC, PARK_PLACE, BOARDWALK = 3, 37, 39


def debt_taps(base: str, browser) -> tuple[int, int, int]:
    """K1 from the turn page: Ana throws 3 onto Baltic Avenue with Bea's hotel and cannot pay
    it from her cash; the banker settles it by one mortgage and the payment. Counted: the
    throw's button, then every tap until the debt is paid (the pad's tap is not counted)."""
    http = common.Http(base)
    game = common.Game(http, players=2, mode="short")
    game.act("deal", {"hands": [[PARK_PLACE, BOARDWALK], [1, BALTIC]]})
    game.act("build", {"player": 1, "group": "brown", "levels": [5, 5]})
    game.act("bank_collect", {"player": 0, "amount": 450})
    context = browser.new_context(viewport=common.PHONE, is_mobile=True)
    page = context.new_page()
    page.goto(f"{base}/g/{game.id}/?key={game.key}")
    page.locator('.pad button[name="dice"][value="3"]').click()
    count = Counter(page)
    count.tap(page.locator(".option form.act button"))
    count.tap(page.locator("#live .debt").get_by_role("link", name="Mortgage"))
    count.tap(page.locator(f"form.act:has(input[name=payload][value*='{BOARDWALK}']) button"))
    count.tap(page.locator("#live .debt form.act:has(input[value=pay_debt]) button"))
    paid = game.refresh()
    context.close()
    if paid["pending"][0]["what"] != "roll" or paid["players"][1]["cash"] != 980 + 450:
        raise common.BenchError(f"the debt was not settled as counted: {paid['pending']}")
    return count.mark()


def trade_taps(base: str, browser) -> tuple[int, int, int]:
    """The banker's deed-for-cash trade (issue 22: at most 4 taps): Ana sells Boardwalk to
    Bea at its printed price, from the dashboard."""
    http = common.Http(base)
    game = common.Game(http, players=2)
    game.act("land", {"player": 0, "space": BOARDWALK, "choices": [{"kind": "buy"}]})
    context = browser.new_context(viewport=common.PHONE, is_mobile=True)
    page = context.new_page()
    page.goto(f"{base}/g/{game.id}/?key={game.key}")
    count = Counter(page)
    count.tap(page.locator("a[href$='/trade']"))
    count.tap(page.locator(".sell a[aria-label='Bea buys Boardwalk']"))
    count.tap(page.locator(".option.preview button"))
    done = game.refresh()
    context.close()
    if BOARDWALK not in done["players"][1]["deeds"]:
        raise common.BenchError("the trade was not done as counted")
    return count.mark()


def figures(play: Play) -> dict:
    taps = [t for t, _, _ in play.per_turn]
    loads = [load for _, load, _ in play.per_turn]
    return {
        "turns": len(play.per_turn),
        "taps_median": statistics.median(taps),
        "taps_mean": round(statistics.mean(taps), 2),
        "taps_max": max(taps),
        "loads_median": statistics.median(loads),
        "loads_mean": round(statistics.mean(loads), 2),
        "scrolls": sum(s for _, _, s in play.per_turn),
        "stuck": play.stuck,
        "kinds": play.kinds,
    }


def run(flow: str, root: Path, browser, args) -> dict:
    with common.fresh_database("sqlite") as db_url:
        port = common.free_port()
        code = (
            "from tablebank import create_app; from werkzeug.serving import run_simple; "
            f"run_simple('127.0.0.1', {port}, create_app(), threaded=True)"
        )
        path = {"PYTHONPATH": common.checkout_path(root)}
        server = common.Server([sys.executable, "-c", code], db_url, port, flow, path)
        with server:
            edition = common.edition_data(common.Http(server.url))
            play = Play(flow, server.url, browser, edition, args.seed)
            play.play(args.turns)
            result = figures(play)
            result["money_taps"], result["money_loads"], _ = play.money_move()
            result["phone_money_taps"], result["phone_money_loads"], _ = play.phone_money_move()
            if flow == "after":
                result["debt_taps"], result["debt_loads"], _ = debt_taps(server.url, browser)
                result["trade_taps"], result["trade_loads"], _ = trade_taps(server.url, browser)
            play.context.close()
            return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=100)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--before-ref", default="9765e20", help="the code before issue 10")
    parser.add_argument("--flows", default="before,after")
    parser.add_argument("--smoke", action="store_true", help="a run of a few seconds")
    args = parser.parse_args()
    if args.smoke:
        args.turns, args.flows = 3, "after"
    from playwright.sync_api import sync_playwright

    before = Path(tempfile.mkdtemp(prefix="tablebank-before-"))
    archive = subprocess.run(
        ["git", "-C", str(common.ROOT), "archive", args.before_ref], capture_output=True, check=True
    )
    subprocess.run(["tar", "-x", "-C", str(before)], input=archive.stdout, check=True)
    roots = {"before": before, "after": common.ROOT}
    results = {}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=common.BROWSER_ARGS)
        for flow in args.flows.split(","):
            results[flow] = run(flow, roots[flow], browser, args)
        browser.close()
    shutil.rmtree(before, ignore_errors=True)
    rows = [
        [flow, r["taps_median"], r["taps_mean"], r["taps_max"], r["loads_median"], r["loads_mean"]]
        + [r["scrolls"], r["money_taps"], r["phone_money_taps"], r["stuck"], r.get("debt_taps")]
        + [r.get("trade_taps")]
        for flow, r in results.items()
    ]
    headers = ["flow", "taps p50", "taps mean", "taps max", "loads p50", "loads mean"]
    headers += ["scrolls", "money taps", "phone money taps", "stuck", "debt taps", "trade taps"]
    print(common.table(headers, rows))
    print(json.dumps(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
