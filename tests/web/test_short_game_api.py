"""SG1-SG4 end to end through the JSON API: a short game played to its end, then scored."""

from __future__ import annotations

from ..support import ALL_EDITIONS, setup_of

US = ALL_EDITIONS["us-classic"]
PARK_PLACE, BOARDWALK = 37, 39
READING, PENNSYLVANIA_RR = 5, 15
MEDITERRANEAN, BALTIC = 1, 3


def test_sg1_to_sg4_a_short_game_played_through_the_api_ends_with_the_right_scores(client):
    created = client.post("/api/games", json=setup_of(mode="short")).get_json()
    headers = {"X-Banker-Key": created["banker_key"]}
    url = f"/api/games/{created['id']}"

    def act(kind, **fields):
        response = client.post(f"{url}/actions", json={"kind": kind, **fields}, headers=headers)
        assert response.status_code == 201, response.get_json()
        return response.get_json()

    hands = [[PARK_PLACE, BOARDWALK], [READING, PENNSYLVANIA_RR], [MEDITERRANEAN, BALTIC]]
    act("deal", hands=hands)  # SG1
    price = {i: US.spaces[i].price for hand in hands for i in hand}
    cash = [1500 - sum(price[i] for i in hand) for hand in hands]

    act("bank_pay", player=0, amount=2000, note="a prize")
    cash[0] += 2000
    blue_house = US.groups["dark_blue"].house_price
    act("build", player=0, group="dark_blue", levels=[5, 5])  # SG2: 3 houses, then the hotel
    cash[0] -= 2 * 4 * blue_house

    hotel_rent = US.spaces[BOARDWALK].rent[5]
    assert hotel_rent > cash[2]
    act("bankrupt", player=2, owed=hotel_rent, creditor=0)  # SG3: the first, as usual (K2)
    cash[0], cash[2] = cash[0] + cash[2], 0

    act("mortgage", player=1, deed=READING)
    cash[1] += US.spaces[READING].mortgage
    park_rent = US.spaces[PARK_PLACE].rent[5]
    ended = act("bankrupt", player=1, owed=park_rent, creditor=0)  # SG3: the second ends it
    cash[0], cash[1] = cash[0] + cash[1], 0
    assert ended["game"]["ended"] is True

    game = client.get(url, headers=headers).get_json()
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
    refused = client.post(f"{url}/actions", json={"kind": "pass_go", "player": 0}, headers=headers)
    assert refused.status_code == 422 and refused.get_json()["rule"] == "K4"
