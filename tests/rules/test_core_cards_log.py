"""Rules core: every kind of card (C1-C3), drawn where a throw lands, its effect and who it
pays worked out by the core; the log with undo and replay; and edition files."""

from __future__ import annotations

import json
import shutil

import pytest
from tablebank.edition_files import load_edition_file, load_editions
from tablebank.paths import EDITIONS
from tablebank.rules import HOTEL, EditionError, apply, new_game, replay

from ..support import (
    ALL_EDITIONS,
    BOARDWALK,
    BROWN,
    CHANCE,
    CHEST,
    GO,
    ILLINOIS,
    INCOME_TAX,
    JAIL,
    LUXURY_TAX,
    PARK_PLACE,
    RAILROADS,
    READING,
    US,
    WATER,
    Table,
    card_of,
    paid,
    setup_of,
)

ST_CHARLES = 11
LAST_CHANCE, SECOND_CHANCE = 36, 22


# -- cards ----------------------------------------------------------------------------------


def test_c1_every_card_of_every_edition_can_be_drawn():
    for edition in ALL_EDITIONS.values():
        for drawn in edition.cards.values():
            table = Table(edition)
            space = next(s.index for s in edition.spaces if s.kind == drawn.deck)
            step = {"kind": "card", "card": drawn.id}
            outcome = table.do("land", player=0, space=space, choices=[step])
            assert f"Ana draws “{drawn.text}”" in outcome.text, (edition.id, drawn.id)
            assert table.state.drawn[drawn.deck] == [drawn.id], (edition.id, drawn.id)


def test_c2_collect_from_the_bank():
    dividend = card_of(US, "collect", deck="chance", amount=50)
    table = Table()
    assert paid(table.draws(0, dividend)) == [(None, 0, dividend.amount)]
    assert table.cash(0) == 1550


def test_c2_pay_the_bank():
    fee = card_of(US, "pay", deck="chest", amount=50)
    table = Table()
    assert paid(table.draws(0, fee)) == [(0, None, fee.amount)]
    assert table.cash(0) == 1450


def test_c2_pay_each_other_player():
    chairman = card_of(US, "pay_each")
    table = Table()
    outcome = table.draws(0, chairman)
    assert paid(outcome) == [(0, 1, chairman.amount), (0, 2, chairman.amount)]
    assert table.cash() == [1500 - 2 * chairman.amount] + [1500 + chairman.amount] * 2


def test_c2_collect_from_each_other_player():
    opera = card_of(US, "collect_each")
    table = Table()
    outcome = table.draws(1, opera)
    assert paid(outcome) == [(0, 1, opera.amount), (2, 1, opera.amount)]
    assert table.cash(1) == 1500 + 2 * opera.amount == 1600


def test_c2_k1_collect_from_each_leaves_a_debt_for_one_who_cannot_pay():
    """Cal has 10 and owes Bea the card's 50: Ana pays at once, Cal's share waits as a debt
    to Bea; with nothing to raise, Cal's bankruptcy gives Bea all Cal holds (K2)."""
    opera = card_of(US, "collect_each")
    table = Table().put(2, cash=10)
    outcome = table.draws(1, opera)
    assert paid(outcome) == [(0, 1, opera.amount)]
    assert table.waiting() == [("debt", 2)]
    [debt] = table.state.debts_of(2)
    assert (debt.amount, debt.creditor) == (opera.amount, 1)
    outcome = table.do("bankrupt", player=2)
    assert paid(outcome) == [(2, 1, 10)]
    assert table.cash() == [1500 - opera.amount, 1500 + opera.amount + 10, 0]


@pytest.mark.parametrize(
    ("effect", "cash", "said"),
    [
        ("collect_each", 1500, "collects ${amount} from Bea"),
        ("pay_each", 1500, "pays Bea ${amount}"),
        ("pay_each", 10, "owes Bea ${amount}"),
    ],
)
def test_c2_a_card_for_each_other_player_names_the_only_other_one(effect, cash, said):
    """C2 in a game of two: the card's sentence names Bea, instead of "collects $50 from
    each of 1 player" (the plural's count read wrong in every language)."""
    card = card_of(US, effect)
    table = Table(names=("Ana", "Bea")).put(0, cash=cash)
    outcome = table.draws(0, card)
    assert said.format(amount=card.amount) in outcome.text and "each of" not in outcome.text


def test_c2_repairs_are_computed_from_the_buildings_held():
    repairs = card_of(US, "repairs", deck="chest")
    table = Table().own(0, PARK_PLACE, houses=3).own(0, BOARDWALK, houses=HOTEL)
    table.own(0, *BROWN, houses=2)
    outcome = table.draws(0, repairs)
    cost = 7 * repairs.house + 1 * repairs.hotel
    assert cost == 395
    assert paid(outcome) == [(0, None, cost)]


def test_c2_advance_without_passing_go():
    illinois = card_of(US, "advance", to=ILLINOIS)
    table = Table()
    outcome = table.draws(0, illinois)
    assert paid(outcome) == [] and table.cash(0) == 1500
    assert table.state.players[0].position == ILLINOIS
    assert table.waiting() == [("buy", 0)]  # the bank's deed: buy or decline


def test_g1_c2_advance_passing_go_pays_the_salary():
    st_charles = card_of(US, "advance", to=ST_CHARLES)
    table = Table()
    outcome = table.draws(0, st_charles, SECOND_CHANCE)
    assert paid(outcome) == [(None, 0, US.salary)]
    assert table.state.players[0].position == ST_CHARLES
    assert table.waiting() == [("buy", 0)]


def test_g1_passing_go_then_advance_to_go_pays_twice():
    to_go = card_of(US, "advance", deck="chest", to=GO)
    table = Table()
    outcome = table.draws(0, to_go, 2)  # a throw of 7 from Short Line, past GO
    assert paid(outcome) == [(None, 0, US.salary), (None, 0, US.salary)]
    assert table.cash(0) == 1500 + 2 * US.salary
    assert table.state.players[0].position == GO


def test_c2_t1_back_three_spaces_leads_to_that_landing():
    back = card_of(US, "back")
    table = Table()
    outcome = table.draws(0, back)
    assert table.state.players[0].position == CHANCE - 3 == INCOME_TAX
    assert paid(outcome) == [] and table.waiting() == [("tax", 0)]  # its own action follows
    outcome = table.do("tax", player=0)
    assert paid(outcome) == [(0, None, US.spaces[INCOME_TAX].amount)]


def test_c2_nearest_railroad_pays_the_owner_twice_the_rent():
    table = Table().own(1, RAILROADS[1], RAILROADS[2])
    outcome = table.draws(0, card_of(US, "nearest", kind="railroad"))
    rent = 2 * US.spaces[RAILROADS[1]].rent[1]
    assert rent == 100
    assert table.state.players[0].position == RAILROADS[1]
    assert paid(outcome) == [(0, 1, rent)] and table.cash(0) == 1400


def test_c2_nearest_utility_pays_ten_times_a_fresh_roll_whatever_is_held():
    table = Table().own(1, WATER)  # one utility only: the card still makes it 10x
    table.draws(0, card_of(US, "nearest", kind="utility"), SECOND_CHANCE)
    assert table.state.players[0].position == WATER
    assert table.waiting() == [("throw", 0)]
    outcome = table.do("throw", player=0, dice=6)
    assert paid(outcome) == [(0, 1, 60)]


def test_c2_nearest_from_the_last_chance_passes_go():
    table = Table()
    outcome = table.draws(0, card_of(US, "nearest", kind="railroad"), LAST_CHANCE)
    assert table.state.players[0].position == READING
    assert paid(outcome) == [(None, 0, US.salary)]
    assert table.waiting() == [("buy", 0)]


def test_c2_g2_go_to_jail_card_pays_no_salary():
    table = Table()
    outcome = table.draws(0, card_of(US, "jail", deck="chance"), LAST_CHANCE)
    ana = table.state.players[0]
    assert ana.in_jail and ana.position == JAIL
    assert paid(outcome) == [] and ana.cash == 1500
    assert table.waiting() == [("roll", 1)]


def test_c3_get_out_of_jail_free_is_kept_then_returned_on_use():
    free = card_of(US, "jail_free", deck="chance")
    table = Table()
    table.draws(0, free)
    assert table.state.players[0].jail_free == ["chance"]
    table.turn_of(1).put(1, 0)
    refused = table.refused("roll", player=1, dice=7, choices=[{"kind": "card", "card": free.id}])
    assert refused.rule == "C3" and "Ana" in refused.message
    table.do("go_to_jail", player=0)
    outcome = table.do("jail_card", player=0)
    assert paid(outcome) == []
    assert table.state.players[0].jail_free == [] and not table.state.players[0].in_jail
    table.draws(1, free)
    assert table.state.players[1].jail_free == ["chance"]


def test_c1_a_chance_card_is_not_drawn_on_community_chest():
    dividend = card_of(US, "collect", deck="chance", amount=50)
    table = Table().turn_of(0).put(0, CHEST - 7)
    step = {"kind": "card", "card": dividend.id}
    assert table.refused("roll", player=0, dice=7, choices=[step]).rule == "C1"
    table.roll(0, 7)
    assert table.refused("card", player=0, card=dividend.id).rule == "C1"
    assert table.waiting() == [("card", 0)]


# -- the log --------------------------------------------------------------------------------


def test_replay_with_undos_gives_the_state_applied_step_by_step():
    setup = setup_of()
    buy = [{"kind": "buy"}]
    steps = [
        ("roll", {"player": 0, "dice": 5, "choices": buy}),  # Ana buys Reading Railroad
        ("roll", {"player": 1, "dice": 5}),  # Bea pays Ana its rent
        ("undo", {}),
        ("pass_go", {"player": 2}),
        ("transfer", {"from": 2, "to": 1, "amount": 75}),
        ("undo", {}),
        ("undo", {}),
        ("roll", {"player": 1, "dice": 5}),
    ]
    state = new_game(US, setup)
    by_hand = [state]
    for kind, payload in steps:
        if kind == "undo":
            by_hand.pop()
        else:
            by_hand.append(apply(by_hand[-1], US, kind, payload).state)
    replayed = replay(US, setup, steps)
    assert replayed == by_hand[-1]
    price, rent = US.spaces[READING].price, US.spaces[READING].rent[0]
    assert [p.cash for p in replayed.players] == [1500 - price + rent, 1500 - rent, 1500]
    assert replayed.players[1].position == READING


# -- edition files --------------------------------------------------------------------------


def test_s4_all_four_editions_load_with_their_own_names():
    editions = load_editions(EDITIONS)
    assert sorted(editions) == ["es", "uk", "us-2008", "us-classic"]
    assert [editions[e].spaces[39].name for e in ("us-classic", "uk", "es")] == [
        "Boardwalk",
        "Mayfair",
        "Paseo del Prado",
    ]
    assert editions["uk"].spaces[32].rent[4] == 1100  # the known typo of public UK data


def figures(edition, index: int) -> tuple:
    space = edition.spaces[index]
    house = edition.groups[space.group].house_price if space.group else None
    return space.kind, space.price, space.mortgage, space.rent, house, space.amount, space.percent


def effects(edition) -> list[tuple]:
    fields = ("deck", "effect", "amount", "to", "spaces", "kind", "house", "hotel")
    return [tuple(getattr(card, f) for f in fields) for card in edition.cards.values()]


def test_s4_m1_c2_the_four_editions_print_the_same_figures():
    """The US, UK and Spanish boards differ in names only: every space's price, mortgage
    value (half the price, M1), rent table, house price and tax are the same, as are the
    card effects of the 2008 decks. The classic US board's taxes (T1: the 10% option; T2:
    luxury tax 75) and three Community Chest cards differ."""
    us, uk, es, classic = (ALL_EDITIONS[e] for e in ("us-2008", "uk", "es", "us-classic"))
    for index in range(len(us.spaces)):
        assert figures(us, index) == figures(uk, index) == figures(es, index), index
        if index not in (INCOME_TAX, LUXURY_TAX):
            assert figures(classic, index) == figures(us, index), index
    assert all(deed.mortgage * 2 == deed.price for deed in us.deeds)
    taxes = [(e.spaces[INCOME_TAX].percent, e.spaces[LUXURY_TAX].amount) for e in (classic, us)]
    assert taxes == [(10, 75), (None, 100)]
    assert effects(us) == effects(uk) == effects(es)
    changed = [(a[:3], b[:3]) for a, b in zip(effects(classic), effects(us), strict=True) if a != b]
    assert changed == [
        (("chest", "collect", 45), ("chest", "collect", 50)),  # sale of stock
        (("chest", "collect_each", 50), ("chest", "collect_each", 10)),  # opera night, birthday
        (("chest", "pay", 150), ("chest", "pay", 50)),  # school tax, school fees
    ]


def copy_edition(tmp_path, change):
    data = json.loads((EDITIONS / "us-classic.json").read_text())
    change(data)
    path = tmp_path / "us-classic.json"
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize(
    ("change", "fault"),
    [
        (lambda d: d["spaces"].pop(), "the board needs 40 spaces, found 39"),
        (lambda d: d["spaces"][39]["rent"].pop(), "Boardwalk) needs a rent table of 6"),
        (lambda d: d["spaces"][39].update(group="purple"), "unknown group 'purple'"),
        (
            lambda d: d["spaces"][5].update(kind="street", rent=[1, 2, 3, 4, 5, 6]),
            "has no house_price",
        ),
        (lambda d: d["cards"]["chance"][0].update(effect="fly"), "unknown effect 'fly'"),
        (lambda d: d.pop("salary"), "salary must be a whole number"),
    ],
)
def test_a_malformed_edition_is_refused_naming_the_file_and_the_fault(tmp_path, change, fault):
    path = copy_edition(tmp_path, change)
    with pytest.raises(EditionError) as refused:
        load_edition_file(path)
    assert str(refused.value).startswith("us-classic.json: ")
    assert fault in str(refused.value)


def test_an_edition_that_is_not_json_is_refused_by_name(tmp_path):
    shutil.copy(EDITIONS / "uk.json", tmp_path / "uk.json")
    (tmp_path / "broken.json").write_text("{not json")
    with pytest.raises(EditionError) as refused:
        load_editions(tmp_path)
    assert str(refused.value).startswith("broken.json: cannot be read as JSON")
