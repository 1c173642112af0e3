"""The turn in two taps through Flask's test client: the pad, the landing worked out by the
rules core, the undo in the result message, a debt that lives in the game (on every banker
page, on the debtor's phone, on the table screen) and the ways out of it, a stale page
(R1, R2, P1, P2, C1, C2, J1, J3, K1, K2)."""

from __future__ import annotations

import re

from ..support import (
    BOARDWALK,
    CHANCE,
    INCOME_TAX,
    JAIL,
    LIGHT_BLUE,
    LUXURY_TAX,
    READING,
    US,
    VERMONT,
)

CHEST = 2  # the first Community Chest
RENT = US.spaces[READING].rent[0]  # $25: one railroad
PRICE = US.spaces[READING].price


def dashboard(table) -> str:
    return table.page(f"/g/{table.id}/")


def debts(page: str) -> list[str]:
    return re.findall(r'<section class="debt".*?</section>', page, re.S)


def bea_owes_ana_the_rent(table, names=("Ana", "Bea")) -> None:
    """Ana owns Reading Railroad; Bea, with $10 and no deed, throws 5 onto it from GO: she
    moves, and the $25 rent waits as her debt."""
    table.new_game(names)
    table.own(0, READING)
    table.act("bank_collect", player=1, amount=1490)
    table.act("turn_to", player=1)
    table.act("place", player=1, space=0)
    turn = table.dice(dashboard(table), 5).text
    said = (
        f"Bea throws 5 and moves to Reading Railroad; Bea owes Ana ${RENT} rent for Reading "
        f"Railroad; Bea is ${RENT - 10} short: the debt waits until the money is raised"
    )
    assert table.button(turn, said)
    table.press(turn, said)


# -- the pad ------------------------------------------------------------------------------


def test_r1_the_dashboard_says_whose_turn_with_a_dice_pad(table):
    table.new_game()
    page = dashboard(table)
    assert "Ana's turn on GO" in table.text(page)
    assert all(f'name="dice" value="{n}"' in page for n in range(2, 13))
    assert 'name="doubles"' in page


def test_p1_two_taps_roll_and_buy_then_the_turn_passes(table):
    table.new_game()
    turn = table.dice(dashboard(table), 5).text
    said = f"Ana throws 5 and moves to Reading Railroad; Ana buys Reading Railroad for ${PRICE}"
    assert table.button(turn, said)
    done = table.press(turn, said)
    assert table.state().deeds[READING].owner == 0
    assert table.cash() == [1500 - PRICE, 1500]
    assert "Bea's turn" in table.read(done.headers["Location"])


def test_p2_the_rent_to_the_owner_is_worked_out_before_the_second_tap(table):
    table.new_game()
    first = table.dice(dashboard(table), 5).text
    table.press(first, "Ana throws 5 and moves to Reading Railroad; Ana buys")
    turn = table.dice(dashboard(table), 5).text
    said = f"Bea throws 5 and moves to Reading Railroad; Bea pays Ana ${RENT} rent"
    assert table.button(turn, said)
    assert table.cash() == [1500 - PRICE, 1500]
    table.press(turn, said)
    assert table.cash() == [1500 - PRICE + RENT, 1500 - RENT]


def test_r2_doubles_keep_the_turn_and_a_total_of_12_is_doubles_by_itself(table):
    table.new_game()
    turn = table.dice(dashboard(table), 4, doubles=True).text  # Income Tax, flat in this game
    table.press(turn, "Ana throws 4 and moves to Income Tax")
    assert "Ana's turn on Income Tax · doubles × 1" in table.read(f"/g/{table.id}/")
    turn = table.dice(dashboard(table), 12).text  # no toggle: 12 is doubles anyway
    table.press(turn, "Ana throws 12 and moves to St. James Place; Ana buys")
    assert table.state().turn == 0 and table.state().doubles == 2


def test_r1_the_result_message_has_its_undo_and_one_undo_takes_the_whole_turn_back(table):
    table.new_game()
    turn = table.dice(dashboard(table), INCOME_TAX).text
    done = table.client.get(table.press(turn, "Ana throws 4").headers["Location"]).text
    message = re.search(r'<div class="flash done".*?</div>', done, re.S).group(0)
    assert "Income Tax" in message and 'name="kind" value="undo"' in message
    assert table.cash() == [1500 - US.spaces[INCOME_TAX].amount, 1500]
    table.press(message, "Undo")
    after = table.state()
    assert after.players[0].cash == 1500 and after.players[0].position == 0 and after.turn == 0


def test_c1_c2_cards_are_short_and_the_likely_ones_first(table):
    table.new_game()
    turn = table.dice(dashboard(table), CHEST).text
    labels = [label for label, _ in table.buttons(turn)]
    assert any(label.startswith("Advance to Go") and "+$200" in label for label in labels)
    assert not any(";" in label for label in labels)
    assert "Drawn lately" not in turn
    table.press(turn, "Advance to Go")
    assert table.cash() == [1500 + US.salary, 1500]
    assert table.state().players[0].position == 0


def test_c1_g1_past_go_onto_a_card_the_salary_is_said_once_and_each_card_shows_its_own(table):
    """C1, G1: Ana throws from Boardwalk past GO onto Chance. The page says, in the core's
    words, that she collects her salary; each card then shows what it does itself: Advance
    to Go the salary once more, Go to Jail nothing (it used to show the throw's salary on
    every card: "Go to Jail +$200", "Advance to Go +$400"). The tap pays both salaries."""
    table.new_game()
    table.do("place", player=0, space=BOARDWALK)
    turn = table.dice(dashboard(table), (CHANCE - BOARDWALK) % 40).text
    salary = f"${US.salary}"
    assert f"Ana collects {salary} salary" in table.text(turn)
    labels = {label.split(" +")[0].split(" −")[0]: label for label, _ in table.buttons(turn)}
    assert labels["Advance to Go"] == f"Advance to Go +{salary}"
    assert labels["Go to Jail, do not pass Go"] == "Go to Jail, do not pass Go"
    table.press(turn, "Advance to Go")
    assert table.cash() == [1500 + 2 * US.salary, 1500]


# -- a stale page ---------------------------------------------------------------------------


def test_r1_a_pad_page_drawn_before_the_turn_was_taken_says_so_and_does_nothing(table):
    """The phone's Back button, or a second banker phone: the turn page of a moment gone by
    is a 409 that says so, with the way back, and offers no button."""
    table.new_game()
    turn = table.dice(dashboard(table), 5)
    done = table.press(turn.text, "Ana throws 5 and moves to Reading Railroad; Ana buys")
    table.page(done.headers["Location"])  # the dashboard, Bea's turn
    again = table.client.get(turn.request.full_path)  # Back: the same address, Bea's turn now
    assert again.status_code == 409
    assert "This turn was already taken" in table.text(again.text)
    assert table.buttons(again.text) == []
    assert f'href="/g/{table.id}/"' in again.text
    assert table.cash() == [1500 - PRICE, 1500] and table.state().turn == 1


def test_r1_a_turn_page_for_the_seat_whose_turn_it_is_not_is_refused(table):
    """A crafted link: the page says whose turn it is (the core's word), not that the turn
    was taken."""
    table.new_game()
    version = table.game()["version"]
    page = table.client.get(f"/g/{table.id}/turn?seat=1&dice=5&v={version}")
    assert page.status_code == 409 and "It is Ana's turn" in table.text(page.text)
    assert "already taken" not in page.text
    assert table.state().players[1].position == 0


def test_r1_a_stale_turn_button_is_refused_rather_than_applied(table):
    """The turn page is open on one banker phone while another banker phone acts."""
    table.new_game()
    turn = table.dice(dashboard(table), 5).text
    table.act("pass_go", player=1)  # the other phone (the API) acts first
    response = table.press(turn, "Ana throws 5 and moves to Reading Railroad; Ana buys")
    assert response.status_code == 409
    assert "This turn was already taken" in table.text(response.text)
    assert table.state().players[0].position == 0 and table.state().deeds[READING].owner is None


# -- debts (K1) -----------------------------------------------------------------------------


def test_k1_a_throw_that_cannot_be_paid_moves_and_leaves_a_debt_on_every_banker_page(table):
    bea_owes_ana_the_rent(table)
    assert table.state().players[1].position == READING
    assert table.cash() == [1500 - PRICE, 10]  # nothing paid yet
    for url in ("", "player/1", "history", "mortgages?player=1", "build?player=1", "money"):
        found = debts(table.page(f"/g/{table.id}/{url}"))
        assert len(found) == 1, url
        assert table.text(found[0]).startswith("Bea owes Ana $25 Cash $10 Could raise in all $10")


def test_k1_the_bankruptcy_page_shows_the_debt_once(table):
    """One debt, one set of figures and one pair of buttons on the page about it."""
    bea_owes_ana_the_rent(table)
    page = table.page(f"/g/{table.id}/bankrupt?player=1")
    assert len(debts(page)) == 1


def test_k1_the_debt_shows_on_the_debtors_phone_and_the_table_screen(table):
    bea_owes_ana_the_rent(table)
    phone = table.read(table.phone(1))
    assert "You owe Ana $25" in phone
    assert "Cash $10; you could raise $10 in all" in phone
    creditor = table.read(table.phone(0))  # Ana's: the debt is owed to her, not by her
    assert "Bea owes you $25" in creditor and "you owe" not in creditor.lower()
    assert "Bea owes Ana $25" in table.read(table.screen())


def test_k1_a_second_banker_phone_sees_the_same_debt(table, app):
    bea_owes_ana_the_rent(table)
    other = app.test_client()
    assert other.get(f"/g/{table.id}/?key={table.headers['X-Banker-Key']}").status_code == 302
    [debt] = debts(other.get(f"/g/{table.id}/").text)
    assert table.text(debt).startswith("Bea owes Ana $25 Cash $10")


def test_k1_nobody_rolls_while_the_debt_is_open(table):
    bea_owes_ana_the_rent(table)
    page = dashboard(table)
    assert 'class="pad"' not in page
    refused = table.do("roll", player=0, dice=6)
    assert "Bea owes $25: pay or raise it first" in table.page(refused.headers["Location"])
    assert table.state().players[0].position == READING  # Ana stands where she bought


def test_k1_pay_the_debt_is_refused_with_the_shortfall_until_the_money_is_raised(table):
    bea_owes_ana_the_rent(table)
    page = dashboard(table)
    assert not table.button(page, "Pay the debt")
    assert "Bea is $15 short: sell buildings, mortgage or trade first" in table.text(debts(page)[0])
    table.do("bank_pay", player=1, amount=100)  # a prize from the bank, say
    page = dashboard(table)
    assert table.button(page, "Bea pays Ana the $25 owed")
    paid = table.press(page, "Bea pays Ana the $25 owed")
    assert "Bea pays Ana the $25 owed" in table.read(paid.headers["Location"])
    assert table.cash() == [1500 - PRICE + RENT, 110 - RENT]
    assert debts(dashboard(table)) == [] and 'class="pad"' in dashboard(table)


def test_k1_the_debtor_mortgages_from_the_ways_out_then_pays(table):
    """K1, M1: the debt's Mortgage link, a mortgage, then the payment; the rent reaches Ana."""
    table.new_game()
    table.own(0, READING)
    table.own(1, BOARDWALK)
    table.act("bank_collect", player=1, amount=1500 - US.spaces[BOARDWALK].price - 10)
    table.throws_onto(1, READING, 5)
    debt = debts(dashboard(table))[0]
    assert "Could raise in all $210" in table.text(debt)
    link = re.search(r'href="([^"]*/mortgages\?player=1)"', debt).group(1)
    table.press(table.page(link), "Bea mortgages Boardwalk for $200")
    table.press(dashboard(table), "Bea pays Ana the $25 owed")
    assert table.cash() == [1500 - PRICE + RENT, 10 + 200 - RENT]
    assert table.state().pending == []


def test_k1_bankruptcy_is_refused_while_the_debtor_could_raise_enough(table):
    table.new_game()
    table.own(0, READING)
    table.own(1, BOARDWALK)
    table.act("bank_collect", player=1, amount=1500 - US.spaces[BOARDWALK].price - 10)
    table.throws_onto(1, READING, 5)
    page = table.page(f"/g/{table.id}/bankrupt?player=1")
    assert not table.button(page, "Declare bankruptcy")
    assert "Bea could still raise $210 by selling and mortgaging: enough for the $25 owed" in (
        table.text(page)
    )
    before = table.game()
    table.do("bankrupt", player=1)
    assert table.game() == before


def test_k1_k2_f1_a_bankruptcy_to_a_player_gives_them_all_the_debtor_holds_salary_included(
    table,
):
    """F1: Dev has $15 on Luxury Tax, throws 10, passes GO and owes Ana a hotel on Vermont
    Avenue. The throw happens (the salary too), and the bankruptcy gives Ana the $215."""
    table.new_game(("Ana", "Bea", "Cal", "Dev"))
    table.own(0, *LIGHT_BLUE)
    table.act("build", player=0, group="light_blue", levels=[5, 5, 5])
    ana = table.cash()[0]
    table.act("bank_collect", player=3, amount=1500 - 15)
    table.act("turn_to", player=3)
    table.act("place", player=3, space=LUXURY_TAX)
    turn = table.dice(dashboard(table), 10).text
    table.press(turn, "Dev throws 10 and moves to Vermont Avenue")
    hotel = US.spaces[VERMONT].rent[5]
    [debt] = debts(dashboard(table))
    assert table.text(debt).startswith(f"Dev owes Ana ${hotel} Cash $215 Could raise in all $215")
    page = table.page(f"/g/{table.id}/bankrupt?player=3")
    table.press(page, "Dev is bankrupt")
    assert table.cash() == [ana + 215, 1500, 1500, 0]
    assert table.state().players[3].bankrupt and table.state().turn == 0
    assert debts(dashboard(table)) == []


def test_k1_a_payment_asked_for_by_hand_that_the_cash_does_not_cover_is_refused(table):
    """K1: only a payment the rules call for becomes a debt; a hand payment is refused."""
    table.new_game()
    page = table.page(f"/g/{table.id}/money?kind=bank_collect&player=1&amount=2000")
    assert "Bea cannot pay $2,000: $500 short" in table.text(page)
    assert not table.button(page, "Pay the bank")
    assert debts(dashboard(table)) == [] and table.cash() == [1500, 1500]


# -- jail -------------------------------------------------------------------------------------


def test_j1_go_to_jail_is_not_offered_for_a_player_already_in_jail(table):
    table.new_game()
    table.do("go_to_jail", player=0)
    labels = [label for label, _ in table.buttons(table.page(f"/g/{table.id}/pick/go_to_jail"))]
    assert "Bea goes to jail" in labels and "Ana goes to jail" not in labels


def test_j3_a_jailed_players_turn_offers_the_ways_out(table):
    table.new_game()
    table.do("go_to_jail", player=0)  # Ana's turn ends there: Bea throws, then Ana
    table.press(table.dice(dashboard(table), 10).text, "Bea throws 10")  # just visiting
    page = dashboard(table)
    assert "In jail, try 1 of 3" in table.text(page)
    assert table.button(page, "Ana pays the $50 fine and leaves jail")
    roll = table.dice(page, 7).text
    assert table.button(roll, "Ana throws 7, no doubles: stays in jail (try 1 of 3)")
    table.press(roll, "Ana throws 7")
    ana = table.state().players[0]
    assert ana.in_jail and ana.position == JAIL and ana.cash == 1500 and table.state().turn == 1


def test_j3_a_jailed_player_s_page_offers_only_the_ways_out_of_jail_that_exist(table):
    """J3: the player page of a jailed player offers the fine and the card, nothing else: no
    button named after an action kind the bank does not know ("jail_doubles")."""
    table.new_game()
    table.act("go_to_jail", player=0)
    page = table.page(f"/g/{table.id}/player/0")
    assert table.button(page, "Ana pays the $50 fine and leaves jail")
    assert not table.button(page, "Use Get Out of Jail Free")  # Ana holds no card
    assert "jail_doubles" not in page and "Unknown action" not in page


# -- money by hand ------------------------------------------------------------------------------


def test_k1_quick_money_from_a_players_card_is_one_tap_on_the_amount(table):
    table.new_game()
    page = table.page(f"/g/{table.id}/player/0")
    assert 'name="amount" value="50"' in page and "Ana pays Bea" in page
    table.client.post(f"/g/{table.id}/quick/0", data={"to": "1", "amount": "50"})
    table.client.post(
        f"/g/{table.id}/quick/1", data={"to": "bank", "amount": "typed", "typed": "25"}
    )
    table.client.post(f"/g/{table.id}/quick/0", data={"to": "from_bank", "amount": "100"})
    assert table.cash() == [1500 - 50 + 100, 1500 + 50 - 25]


def test_k1_pay_someone_on_a_players_phone(table, app):
    table.new_game()
    phone, token = app.test_client(), table.tokens()[1]
    page = table.page(f"/p/{token}", phone)
    assert "Pay someone" in page and 'name="amount" value="50"' in page
    phone.post(f"/p/{token}/pay", data={"to": "0", "amount": "50"})
    phone.post(f"/p/{token}/pay", data={"to": "from_bank", "amount": "20"})  # never from the bank
    assert table.cash() == [1550, 1500 - 50 - 20]


# -- a phone takes its own turn --------------------------------------------------------------


def test_r1_a_phone_takes_its_own_turn_only_when_the_banker_allows(table, app):
    table.new_game()
    phone, ana = app.test_client(), table.phone(0)
    roll = {"kind": "roll", "payload": '{"dice": 5, "choices": [{"kind": "buy"}]}'}
    assert phone.post(f"{ana}/do", data=roll).status_code == 403
    assert 'name="dice"' not in table.page(ana, phone)
    table.do("phone_turns", allow=True)
    page = table.page(ana, phone)
    assert 'name="dice"' in page
    turn = table.dice(page, 5, client=phone)
    said = f"Ana throws 5 and moves to Reading Railroad; Ana buys Reading Railroad for ${PRICE}"
    assert table.button(turn.text, said)
    table.press(turn.text, said, client=phone)
    assert table.state().deeds[READING].owner == 0 and table.cash() == [1500 - PRICE, 1500]
    back = phone.get(turn.request.full_path)  # Ana's Back button: Bea's turn now
    assert back.status_code == 409 and "This turn was already taken" in back.text
    assert 'name="dice"' not in table.page(ana, phone)  # no pad for Ana on Bea's turn
    assert 'name="dice"' in table.page(table.phone(1), app.test_client())


def test_j3_a_phone_in_jail_says_which_try_its_throw_is_and_a_double_says_so(table, app):
    """J3, R2: the jailed player's own pad says what a throw there does (try 1 of 3, doubles
    leave jail), as the banker's does; after doubles, the pad says the count, as the
    banker's does."""
    table.new_game()
    table.do("phone_turns", allow=True)
    phone, ana, bea = app.test_client(), table.phone(0), table.phone(1)
    table.act("roll", player=0, dice=4, doubles=True)
    assert "Ana's turn on Income Tax · doubles × 1" in table.read(ana, phone)
    table.act("go_to_jail", player=0)
    table.act("roll", player=1, dice=3, choices=[{"kind": "buy"}])
    words = table.read(ana, phone)
    assert "Ana's turn on Jail" in words
    assert "In jail, try 1 of 3: doubles leave jail; after the third try the fine is paid." in words
    assert "In jail" not in table.read(bea, app.test_client())


# -- auctions and corrections -----------------------------------------------------------------


def test_p1_auction_chips_bid_in_one_tap_each(table):
    table.new_game()
    turn = table.dice(dashboard(table), 5).text
    done = table.press(turn, "Ana throws 5 and moves to Reading Railroad; Ana declines")
    assert done.headers["Location"].endswith(f"/g/{table.id}/auction")
    page = table.page(f"/g/{table.id}/auction")
    assert 'id="live"' in page and "Ana bids $10" in page
    table.press(page, "Bea bids $50")  # a chip: its words are said to a screen reader
    assert table.state().auction.bid == 50 and table.state().auction.bidder == 1
    fragment = table.page(f"/g/{table.id}/auction?fragment=1")
    assert "Highest $50 by Bea" in table.text(fragment) and "Ana bids $60" in fragment
    assert "<html" not in fragment


def test_r1_a_position_is_corrected_from_the_space_list(table):
    table.new_game()
    spaces = table.page(f"/g/{table.id}/land/0")
    assert 'id="here"' in spaces
    page = table.page(f"/g/{table.id}/land/0/24")
    table.press(page, "Only put the token here")
    after = table.state()
    assert after.players[0].position == 24 and after.players[0].cash == 1500
    assert after.turn == 0  # a correction, not a move: still Ana's throw


def test_r1_a_recorded_landing_that_passed_go_pays_the_salary(table):
    table.new_game()
    table.act("place", player=0, space=CHANCE + 30)
    page = table.page(f"/g/{table.id}/land/0/{READING}")
    assert "Passed GO on the way (tap if not)" in table.text(page)
    table.press(page, "Ana lands on Reading Railroad; Ana collects $200 salary; Ana buys")
    assert table.cash() == [1500 + US.salary - PRICE, 1500]
