"""Rules core: every kind of card (C1-C3), the log with undo and replay, and edition files."""

from __future__ import annotations

import json
import shutil

import pytest
from tablebank import EDITIONS
from tablebank.edition_files import load_edition_file, load_editions
from tablebank.rules import HOTEL, EditionError, RuleError, apply, new_game, replay

from ..support import ALL_EDITIONS, setup_of

US = ALL_EDITIONS["us-classic"]
CHANCE, CHEST = 7, 2


def card(deck: str, effect: str, **match):
    return next(
        c
        for c in US.deck(deck)
        if c.effect == effect and all(getattr(c, k) == v for k, v in match.items())
    )


def draw(state, seat, drawn, space, **extra):
    return apply(state, US, "card", {"player": seat, "card": drawn.id, "space": space, **extra})


def at(state, seat, position):
    state = state.copy()
    state.players[seat].position = position
    return state


# -- cards ----------------------------------------------------------------------------------


def test_c1_every_card_of_every_edition_can_be_drawn(editions):
    for edition in editions.values():
        for drawn in edition.cards.values():
            state = new_game(edition, {**setup_of(), "edition": edition.id})
            space = next(s.index for s in edition.spaces if s.kind == drawn.deck)
            outcome = apply(state, edition, "card", {"player": 0, "card": drawn.id, "space": space})
            assert outcome.text.startswith("Ana draws"), (edition.id, drawn.id)


def test_c2_collect_from_the_bank(fresh):
    dividend = card("chance", "collect", amount=50)
    after = draw(fresh, 0, dividend, CHANCE).state
    assert after.players[0].cash == 1550


def test_c2_pay_the_bank(fresh):
    fee = card("chest", "pay", amount=50)
    assert draw(fresh, 0, fee, CHEST).state.players[0].cash == 1450


def test_c2_pay_each_other_player(fresh):
    chairman = card("chance", "pay_each")
    after = draw(fresh, 0, chairman, CHANCE).state
    assert [p.cash for p in after.players] == [1500 - 2 * chairman.amount] + [
        1500 + chairman.amount
    ] * 2


def test_c2_collect_from_each_other_player(fresh):
    opera = card("chest", "collect_each")
    after = draw(fresh, 1, opera, CHEST).state
    assert after.players[1].cash == 1500 + 2 * opera.amount == 1600


def test_c2_collect_from_each_is_refused_when_one_cannot_pay(fresh):
    opera = card("chest", "collect_each")
    state = fresh.copy()
    state.players[2].cash = 10
    with pytest.raises(RuleError) as refused:
        draw(state, 1, opera, CHEST)
    assert refused.value.rule == "K1" and refused.value.params["name"] == "Cal"


def test_c2_repairs_are_computed_from_the_buildings_held(fresh):
    repairs = card("chest", "repairs")
    state = fresh.copy()
    for index in US.groups["dark_blue"].deeds:
        state.deeds[index].owner = 0
    state.deeds[37].houses, state.deeds[39].houses = 3, HOTEL
    for index in US.groups["brown"].deeds:
        state.deeds[index].owner, state.deeds[index].houses = 0, 2
    after = draw(state, 0, repairs, CHEST).state
    assert 1500 - after.players[0].cash == 7 * repairs.house + 1 * repairs.hotel == 395


def test_c2_advance_without_passing_go(fresh):
    illinois = card("chance", "advance", to=24)
    outcome = draw(fresh, 0, illinois, CHANCE)
    assert outcome.state.players[0].cash == 1500
    assert outcome.next_space == 24


def test_g1_c2_advance_passing_go_pays_the_salary(fresh):
    st_charles = card("chance", "advance", to=11)
    outcome = draw(fresh, 0, st_charles, 22)
    assert outcome.state.players[0].cash == 1500 + US.salary
    assert outcome.next_space == 11


def test_g1_passing_go_then_advance_to_go_pays_twice(fresh):
    state = apply(fresh, US, "pass_go", {"player": 0}).state
    advance = card("chest", "advance", to=0)
    after = draw(state, 0, advance, CHEST).state
    assert after.players[0].cash == 1500 + 2 * US.salary


def test_c2_back_three_spaces_leads_to_that_landing(fresh):
    back = card("chance", "back")
    outcome = draw(fresh, 0, back, CHANCE)
    assert outcome.next_space == CHANCE - 3 == 4  # Income Tax: its own action follows
    assert outcome.state.players[0].cash == 1500


def test_c2_nearest_railroad_pays_the_owner_twice_the_rent(fresh):
    state = fresh.copy()
    state.deeds[15].owner = 1
    state.deeds[25].owner = 1
    outcome = draw(state, 0, card("chance", "nearest", kind="railroad"), CHANCE)
    assert outcome.next_space == 15
    rent = apply(outcome.state, US, "rent", {"player": 0, "deed": 15, "by_card": True})
    assert rent.state.players[0].cash == 1500 - 2 * US.spaces[15].rent[1] == 1400


def test_c2_nearest_utility_pays_ten_times_a_fresh_roll_whatever_is_held(fresh):
    state = fresh.copy()
    state.deeds[28].owner = 1  # one utility only: the card still makes it 10x
    outcome = draw(state, 0, card("chance", "nearest", kind="utility"), 22)
    assert outcome.next_space == 28
    args = {"player": 0, "deed": 28, "by_card": True, "dice": 6}
    rent = apply(outcome.state, US, "rent", args)
    assert rent.state.players[0].cash == 1500 - 60


def test_c2_nearest_from_the_last_chance_passes_go(fresh):
    outcome = draw(fresh, 0, card("chance", "nearest", kind="railroad"), 36)
    assert outcome.next_space == 5
    assert outcome.state.players[0].cash == 1500 + US.salary


def test_c2_g2_go_to_jail_card_pays_no_salary(fresh):
    outcome = draw(fresh, 0, card("chance", "jail"), 36)
    assert outcome.state.players[0].in_jail
    assert outcome.state.players[0].cash == 1500


def test_c3_get_out_of_jail_free_is_kept_then_returned_on_use(fresh):
    free = card("chance", "jail_free")
    state = draw(fresh, 0, free, CHANCE).state
    assert state.players[0].jail_free == ["chance"]
    with pytest.raises(RuleError) as refused:
        draw(state, 1, free, CHANCE)
    assert refused.value.rule == "C3"
    state = apply(state, US, "go_to_jail", {"player": 0}).state
    state = apply(state, US, "jail_card", {"player": 0}).state
    assert state.players[0].jail_free == [] and not state.players[0].in_jail
    assert draw(state, 1, free, CHANCE).state.players[1].jail_free == ["chance"]


def test_c1_a_chance_card_is_not_drawn_on_community_chest(fresh):
    with pytest.raises(RuleError) as refused:
        draw(fresh, 0, card("chance", "collect", amount=50), CHEST)
    assert refused.value.rule == "C1"


# -- the log --------------------------------------------------------------------------------


def test_replay_with_undos_gives_the_state_applied_step_by_step(us):
    setup = setup_of()
    steps = [
        ("buy", {"player": 0, "deed": 39}),
        ("rent", {"player": 1, "deed": 39}),
        ("undo", {}),
        ("pass_go", {"player": 2}),
        ("transfer", {"from": 2, "to": 1, "amount": 75}),
        ("undo", {}),
        ("undo", {}),
        ("rent", {"player": 2, "deed": 39}),
    ]
    state = new_game(us, setup)
    by_hand = [state]
    for kind, payload in steps:
        if kind == "undo":
            by_hand.pop()
        else:
            by_hand.append(apply(by_hand[-1], us, kind, payload).state)
    replayed = replay(us, setup, steps)
    assert replayed == by_hand[-1]
    assert [p.cash for p in replayed.players] == [1100 + 50, 1500, 1450]


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
