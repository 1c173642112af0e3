"""SG1-SG4 end to end through the JSON API: a short game played to its end by throws, then
scored; each bankruptcy's money goes to the creditor."""

from __future__ import annotations

from ..support import BALTIC, BOARDWALK, MEDITERRANEAN, PARK_PLACE, RAILROADS, READING, US

PENNSYLVANIA_RR = RAILROADS[1]


def test_sg1_to_sg4_a_short_game_played_through_the_api_ends_with_the_right_scores(table):
    table.new_api_game(mode="short")
    assert [p["what"] for p in table.game()["pending"]] == ["deal"]
    hands = [[PARK_PLACE, BOARDWALK], [READING, PENNSYLVANIA_RR], [MEDITERRANEAN, BALTIC]]
    table.act("deal", hands=hands)  # SG1
    price = {i: US.spaces[i].price for hand in hands for i in hand}
    cash = [1500 - sum(price[i] for i in hand) for hand in hands]
    assert table.cash() == cash

    table.act("bank_pay", player=0, amount=2000, note="a prize")
    cash[0] += 2000
    blue_house = US.groups["dark_blue"].house_price
    table.act("build", player=0, group="dark_blue", levels=[5, 5])  # SG2: 3 houses, the hotel
    cash[0] -= 2 * 4 * blue_house

    hotel_rent = US.spaces[BOARDWALK].rent[5]
    landed = table.throws_onto(2, BOARDWALK)  # Cal cannot raise the hotel's rent
    assert table.paid(landed) == [] and table.state().owed_by(2) == hotel_rent
    first = table.act("bankrupt", player=2)  # SG3: the first, as usual (K2)
    assert table.paid(first) == [(2, 0, cash[2])]
    cash[0], cash[2] = cash[0] + cash[2], 0
    assert first["game"]["ended"] is False

    table.act("mortgage", player=1, deed=READING)
    cash[1] += US.spaces[READING].mortgage
    table.throws_onto(1, PARK_PLACE)
    assert table.state().owed_by(1) == US.spaces[PARK_PLACE].rent[5]
    ended = table.act("bankrupt", player=1)  # SG3: the second ends it
    assert table.paid(ended) == [(1, 0, cash[1])]
    cash[0], cash[1] = cash[0] + cash[1], 0
    assert ended["game"]["ended"] is True

    game = table.game()
    assert [p["cash"] for p in game["players"]] == cash
    unmortgaged = [PARK_PLACE, BOARDWALK, MEDITERRANEAN, BALTIC, PENNSYLVANIA_RR]
    expected = (
        cash[0]
        + sum(US.spaces[i].price for i in unmortgaged)
        + US.spaces[READING].price // 2
        + 2 * (blue_house * 3 + blue_house)  # SG4: hotels with the 3 houses given for them
    )
    assert [p["score"] for p in game["players"]] == [expected, 0, 0]
    assert expected == 6500
    assert [p["bankrupt"] for p in game["players"]] == [False, True, True]
    assert game["winners"] == [0] and game["pending"] == []
    assert table.act("pass_go", 422, player=0)["rule"] == "SG3"  # the second bankruptcy
