"""A phone whose live part shows nothing new at a version is not drawn again: what its stream
sends is then the part it sent before, with the new version in its forms. Over a game that
goes through every kind of thing a phone shows (money, deeds and buildings, mortgages, a
trade put to a phone, an auction with bids, jail, a debt, an undo, phone turns, the end),
every live part a stream sends is the page's own `?fragment=1` at that version."""

from __future__ import annotations

import re

from tablebank import bank
from tablebank.live import watcher
from tablebank.models import db
from tablebank.web.banker import banker_actions

from ..streams import Opened, templates_drawn
from ..support import BOARDWALK, INCOME_TAX, PARK_PLACE, READING


def same_page(html: str) -> str:
    """A live part without what each drawing makes afresh: keys, CSRF tokens, where a form
    goes back to."""
    html = re.sub(r'name="(key|csrf_token|back)" value="[^"]*"', r'name="\1"', html)
    return "\n".join(line.rstrip() for line in html.strip().splitlines())


TRADE = {"player": 4, "partner": 1, "give": {"deeds": [READING]}, "take": {"cash": 100}}
STEPS = [  # every kind of thing a phone or the table screen shows
    ("roll", {"player": 0, "dice": 10}),  # from GO to Just Visiting: the turn passes on
    ("bank_pay", {"player": 0, "amount": 50}),
    ("land", {"player": 0, "space": BOARDWALK, "choices": [{"kind": "buy"}]}),
    ("land", {"player": 0, "space": PARK_PLACE, "choices": [{"kind": "buy"}]}),
    ("build", {"player": 0, "group": "dark_blue", "levels": "1,1"}),
    ("transfer", {"from": 2, "to": 3, "amount": 20}),
    ("land", {"player": 4, "space": READING, "choices": [{"kind": "buy"}]}),
    ("mortgage", {"player": 4, "deed": READING}),
    ("trade_offer", TRADE),
    ("turn_to", {"player": 2}),
    ("land", {"player": 2, "space": 1, "choices": [{"kind": "decline"}]}),  # an auction
    ("bid", {"player": 3, "amount": 20}),
    ("bid", {"player": 5, "amount": 40}),
    ("auction_close", {}),
    ("go_to_jail", {"player": 1}),
    ("bank_collect", {"player": 3, "amount": 1460}),
    ("land", {"player": 3, "space": BOARDWALK}),  # rent with a house: a debt
    ("undo", {}),
    ("pay_debt", {"player": 3}),
    *[("bank_pay", {"player": seat, "amount": 5}) for seat in range(6)],  # throws roll away
    ("end_game", {}),
]


def test_every_part_a_stream_sends_is_the_page_at_that_version(table, app):
    table.new_api_game(names=("Ana", "Bea", "Cal", "Dan", "Eve", "Fay"), phone_turns=True)
    seen = table.game()["version"]
    tokens = table.tokens()
    phones = [Opened(app.test_client(), f"/p/{token}/live", seen) for token in tokens]
    fresh = app.test_client()
    redrawn = []
    try:
        with templates_drawn(app) as drawn:
            for kind, fields in STEPS:
                answer = table.send(kind, **fields)
                if answer.status_code != 201:
                    continue  # refused by the rules here: nothing to show
                version = answer.get_json()["game"]["version"]
                drawn.clear()
                for seat, phone in enumerate(phones):
                    shown_version, shown = phone.next_live()
                    assert shown_version == version, (kind, seat)
                    page = fresh.get(f"/p/{tokens[seat]}?fragment=1").text
                    assert same_page(shown) == same_page(page), (kind, seat)
                redrawn.append((kind, drawn.count("player_live.html")))
    finally:
        watcher(app).stop()
    done = [kind for kind, _ in redrawn]
    assert {"land", "build", "trade_offer", "bid", "auction_close", "undo", "end_game"} <= set(
        done
    ), done
    # a payment between two players, or the bank's to one, is drawn for them, not for all six
    streams_drew = dict(redrawn)
    assert streams_drew["bank_pay"] <= 1 + 6  # its phone, and the six fresh pages compared
    assert streams_drew["transfer"] <= 2 + 6


def test_every_part_the_table_s_stream_sends_is_the_screen_at_that_version(table, app):
    """The table screen's stream, over the same game: each part it sends is the screen's own
    `?fragment=1` at that version (balances, last actions, last throw, auction, debt, the
    end), though a payment is not drawn again, only put in."""
    table.new_api_game(names=("Ana", "Bea", "Cal", "Dan", "Eve", "Fay"), phone_turns=True)
    screen = Opened(app.test_client(), table.screen() + "/live", table.game()["version"])
    fresh = app.test_client()
    redrawn, thrown = [], None
    try:
        with templates_drawn(app) as drawn:
            for kind, fields in STEPS:
                answer = table.send(kind, **fields)
                if answer.status_code != 201:
                    continue
                version = answer.get_json()["game"]["version"]
                drawn.clear()
                shown_version, shown = screen.next_live()
                assert shown_version == version, kind
                redrawn.append((kind, drawn.count("table_live.html")))
                page = fresh.get(f"{table.screen()}?fragment=1").text
                assert same_page(shown) == same_page(page), kind
                if kind == "roll":
                    thrown = re.findall(r"Last throw <strong>(\d+)</strong>", shown)
    finally:
        watcher(app).stop()
    done = [kind for kind, _ in redrawn]
    assert {"roll", "land", "bid", "auction_close", "undo", "end_game"} <= set(done), done
    assert dict(redrawn)["transfer"] == 0 and dict(redrawn)["bank_pay"] == 0
    assert thrown == ["10"]  # the throw on the screen, until newer actions push it out


def test_a_payment_to_one_player_draws_no_phone_again_and_puts_in_what_it_changed(table, app):
    """The bank pays Ana $10 twice: after the first, no phone's part is drawn again. Ana's
    shows her new cash, net worth and the payment at the top of her history (put in as the
    version is sent); the five others show the same as before, at the new version."""
    table.new_api_game(names=("Ana", "Bea", "Cal", "Dan", "Eve", "Fay"))
    seen = table.game()["version"]
    phones = [Opened(app.test_client(), f"/p/{token}/live", seen) for token in table.tokens()]
    try:
        with templates_drawn(app) as drawn:
            table.act("bank_pay", player=0, amount=10)
            before = [phone.next_live()[1] for phone in phones]  # drawn: none was kept before
            drawn.clear()
            version = table.act("bank_pay", player=0, amount=10)["game"]["version"]
            after = [phone.next_live() for phone in phones]
    finally:
        watcher(app).stop()
    assert drawn.count("player_live.html") == 0
    assert {shown for shown, _ in after} == {version}
    ana = table.text(after[0][1])
    assert "$1,520" in ana and "Net worth $1,520" in ana
    assert [line.count("The bank pays Ana $10") for line in ana_history(after[0][1])] == [1, 1]
    for seat in range(1, 6):
        assert same_page(table.text(after[seat][1])) == same_page(table.text(before[seat]))


def ana_history(html: str) -> list[str]:
    """The lines of a phone's own history, newest first."""
    listed = re.search(r'<ol class="list history">(.*?)</ol>', html, re.S)[1]
    return re.findall(r"<li[^>]*>(.*?)</li>", listed, re.S)


def test_the_table_s_squares_are_drawn_again_only_when_the_board_changes(table, app):
    """A payment changes the balances on the table screen, not its squares; a deed bought
    does."""
    table.new_api_game(names=("Ana", "Bea", "Cal"))
    with templates_drawn(app) as drawn:
        table.page(table.screen())
        drawn.clear()
        table.act("bank_pay", player=0, amount=10)
        paid = table.read(table.screen())
        assert drawn.count("_squares.html") == 0
        assert "$1,510" in paid
        table.own(1, BOARDWALK)
        drawn.clear()
        bought = table.page(table.screen())
        assert drawn.count("_squares.html") == 1
        assert "owned by Bea" in table.text(bought)


def test_k3_a_phone_s_pay_form_is_drawn_again_only_when_the_players_change(table, app):
    """A payment puts Bea's new balance in her live part, drawing neither the part nor the
    form that pays someone from her phone; Cal's bankruptcy to the bank (K3: out of the
    game, owing the Income Tax with nothing left) takes him out of that form at once."""
    table.new_api_game(names=("Ana", "Bea", "Cal"))
    table.act("bank_collect", player=2, amount=1500)
    table.throws_onto(2, INCOME_TAX, 4, {"kind": "tax"})
    seen = table.game()["version"]
    bea = Opened(app.test_client(), f"/p/{table.tokens()[1]}/live", seen)
    try:
        with templates_drawn(app) as drawn:
            table.act("bank_pay", player=1, amount=10)
            _, first = bea.next_live()
            assert "Bea pays Cal" in first and "$1,510" in first
            drawn.clear()
            table.act("bank_pay", player=1, amount=15)
            _, paid = bea.next_live()
            assert "$1,525" in paid and "Bea pays Cal" in paid
            assert drawn.count("player_live.html") == 0
            assert drawn.count("_quick_money.html") == 0
            drawn.clear()
            table.act("bankrupt", player=2)
            _, after = bea.next_live()
            assert "Bea pays Ana" in after and "Bea pays Cal" not in after
            assert drawn.count("_quick_money.html") == 1
    finally:
        watcher(app).stop()


def test_a_payment_redraws_one_card_of_the_banker_s_dashboard_and_its_links_move_on(table, app):
    """The bank pays Bea: the banker's open dashboard shows her new balance with only her
    card drawn again; the banker's actions are not drawn again, yet their links for a
    browser without JavaScript name the new version (a stale one would be refused)."""
    table.new_api_game(names=("Ana", "Bea", "Cal"))
    banker = app.test_client()
    assert banker.get(f"/g/{table.id}/?key={table.headers['X-Banker-Key']}").status_code == 302
    dashboard = Opened(banker, f"/g/{table.id}/live", table.game()["version"])
    try:
        with templates_drawn(app) as drawn:
            table.act("bank_pay", player=0, amount=10)
            dashboard.next_live()
            drawn.clear()
            version = table.act("bank_pay", player=1, amount=25)["game"]["version"]
            shown_version, live = dashboard.next_live()
    finally:
        watcher(app).stop()
    assert shown_version == version
    assert drawn.count("_balance_card.html") == 1 and drawn.count("_banker_actions.html") == 0
    cards = re.findall(r'<span class="cash"[^>]*>([^<]*)</span>', live)
    assert cards == ["$1,510", "$1,525", "$1,500"]
    assert f"/pick/pass_go?v={version}" in live and f"/pick/go_to_jail?v={version}" in live


def test_the_banker_s_actions_drawn_for_one_page_name_the_version_they_were_drawn_at(table, app):
    """Outside a shared live part (a new game's first dashboard draws its own), the actions'
    links name the game's version itself: a later drawing names the later version, not the
    one kept from before."""
    table.new_api_game(names=("Ana", "Bea"))

    def actions() -> str:
        with app.test_request_context(f"/g/{table.id}/"):
            drawn = str(banker_actions(bank.find(table.id)))
            db.session.remove()
            return drawn

    before = table.game()["version"]
    first = actions()
    after = table.act("bank_pay", player=0, amount=10)["game"]["version"]
    assert f"/pick/pass_go?v={before}" in first
    assert f"/pick/pass_go?v={after}" in actions()


def test_each_fetched_live_part_says_the_version_it_shows(table):
    """A page that fetches its live part (`?fragment=1`: when polling, or told "version N is
    out") is told the version the part was drawn at, as its page's `data-version` says: an
    answer that arrives after the stream brought a newer part is not drawn over it
    (static/app.js). The dashboard, an auction, a player's page and the table screen."""
    table.new_api_game(names=("Ana", "Bea"))
    table.act("bank_pay", player=1, amount=50)
    version = table.act("land", player=0, space=READING, choices=[{"kind": "decline"}])["game"][
        "version"
    ]
    pages = (f"/g/{table.id}/", f"/g/{table.id}/auction", table.phone(1), table.screen())
    for url in pages:
        whole = table.page(url)
        assert f'data-version="{version}"' in whole, url
        fetched = table.client.get(url + "?fragment=1")
        assert fetched.status_code == 200 and fetched.mimetype == "text/html", url
        assert fetched.headers["X-Tablebank-Version"] == str(version), url
        assert "<html" not in fetched.text, url
