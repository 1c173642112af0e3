"""Random play of whole games through the JSON API (test_api_machine.py): `ApiGame` is the
random-play machine of tests/rules/random_play.py with its table made by `ApiPlay`.

`ApiPlay` is tests/rules/machine.py's `Play` whose every tap goes through Flask's test client:
`POST /api/games/<id>/actions` with the banker's key, and now and then, for a kind a
player's phone may send now, the form their phone posts to `/p/<token>/do`. The game is
driven mostly by the table's next act, drawn from the API's own `pending`
(`GET /api/games/<id>`: each wait with the actions that answer it and what they `ask`): the
throw of whose turn it is, buy or decline, a card, the tax's way, a fresh throw, a debt paid,
raised or given up, bids and the close of an auction, the deal. Now and then any other kind,
drawn by the rules machine's moves from the state the store holds.

The game's state is never worked out here: after each tap it is read back from the store, and
every check compares what the store, the log, the API and the rule book say:

- never a 500; a refusal is a 4xx with the rule and words, and changes nothing (the same
  version, the same snapshot, no row in the log); the rules core refuses it too, on the same
  state and the same cleaned fields, for the same rule;
- an action done is a 201 and exactly one new row in the history (`GET .../actions`) with the
  kind, the fields as stored and the movements the answer gave; the rules core on the state
  before gives the same state and the same movements (undo: exactly the state before the
  action it takes back);
- who gets what (tests/rules/ledger.py): every movement of the row goes to the party the rule
  book names, worked out from the state before; the turn, K1, K2, K4 as the rules machine
  checks them (`check_accepted`, `check_movements`, `check_who_gets_what`);
- the snapshot equals the log replayed by the bank (`logbook.replayed_state`) after every step,
  and the history as the API gives it, replayed by the rules core, every `replay_every`;
- the API's game is the store's: cash, tokens, deeds, whose turn, and `pending` equal to the
  rules core's own answer (`moves.waits`) on the stored state;
- the invariants of the rule book (machine.CHECKS) on the stored state.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from unittest.mock import patch

from tablebank import bank, logbook
from tablebank.inputs import clean_payload
from tablebank.models import Game, db
from tablebank.rules import KINDS, GameState, Movement, Outcome, RuleError, apply
from tablebank.rules.actions import ALWAYS
from tablebank.rules.moves import Move, Wait, waits

from ..rules.machine import (
    ANSWERS,
    ENDS_AT,
    MOVES,
    WEIGHTS,
    Chooser,
    Play,
    Violation,
    case_of,
    check_accepted,
    check_movements,
    check_who_gets_what,
    count,
    freeze,
    random_setup,
)
from ..rules.random_play import WholeGame

REFUSALS = {"input": 400, "not_found": 404, "stale": 409, "integrity": 409, "busy": 429}


class ApiPlay(Play):
    """One game through the API; `state` is always the store's, read back after each tap."""

    def __init__(self, app, client, setup: dict, phone_odds: float = 0.15) -> None:
        super().__init__(setup)
        self.app, self.client, self.phone_odds = app, client, phone_odds
        answer = client.post("/api/games", json=setup)
        if answer.status_code != 201:
            raise Violation(f"a new game answered {answer.status_code}: {answer.get_data()}")
        made = answer.get_json()
        self.game_id, self.headers = made["id"], {"X-Banker-Key": made["banker_key"]}
        with app.app_context():
            game = db.session.get(Game, self.game_id)
            self.setup = game.setup  # as stored: the product's defaults, the rules' version
            self.tokens = [p.token for p in sorted(game.players, key=lambda p: p.seat)]
        self.state, self.version = self.stored()
        self.stack, self.flows = [self.state], [0]
        self.start_money = sum(p.cash for p in self.state.players)
        self.statuses: dict[int, int] = {}
        self.calls = 0
        self.view = self.api_game()

    # -- the store and the API, as they are now --------------------------------------------------

    def stored(self) -> tuple[GameState, int]:
        with self.app.app_context():
            game = db.session.get(Game, self.game_id)
            return GameState.from_dict(game.state), game.version

    def api_game(self) -> dict:
        answer = self.client.get(f"/api/games/{self.game_id}", headers=self.headers)
        if answer.status_code != 200:
            raise Violation(f"GET the game answered {answer.status_code}")
        return answer.get_json()

    def newest_row(self) -> dict | None:
        url = f"/api/games/{self.game_id}/actions?limit=1"
        rows = self.client.get(url, headers=self.headers).get_json()
        return rows[0] if rows else None

    # -- a tap ---------------------------------------------------------------------------------

    def tap(self, kind: str, payload: dict, by_phone: bool = False) -> bool:
        """An action through the API (or a player's phone); True when it was done."""
        before, version = self.state, self.version
        frozen = freeze(before)
        expected = self.expected(kind, payload)
        status, answer = self.send(kind, payload, by_phone)
        count(self.statuses, status)
        after, now = self.stored()
        done = now != version
        if done and isinstance(expected, RuleError):
            raise Violation(f"{kind} {json.dumps(payload)} done; the rules core: {expected}")
        if done:
            self.done(kind, before, after, now, (status, answer), by_phone)
        else:
            self.check_refusal(kind, status, answer, expected, by_phone)
            if freeze(after) != frozen or after != before:
                raise Violation(f"a refused {kind} changed the stored game")
        if done:  # the game as the answer gives it, or as a phone's page would read it
            self.view = self.api_game() if by_phone else answer["game"]
            self.check_view(after, now)
        return done

    def expected(self, kind: str, payload: dict) -> Outcome | RuleError | None:
        """What the bank must do on the stored state: its cleaning, then the rules core
        (None: an undo with an action to take back)."""
        if kind == "undo":
            return RuleError("input", "There is nothing to undo") if len(self.stack) == 1 else None
        try:
            return apply(self.state, self.edition, kind, clean_payload(kind, payload))
        except RuleError as refusal:
            return refusal

    def send(self, kind: str, payload: dict, by_phone: bool) -> tuple[int, dict | None]:
        self.calls += 1
        try:
            if by_phone:
                token = self.tokens[payload[KINDS[kind].own_seat]]
                form = {"kind": kind, "payload": json.dumps(payload)}
                return self.client.post(f"/p/{token}/do", data=form).status_code, None
            answer = self.client.post(
                f"/api/games/{self.game_id}/actions",
                json={"kind": kind, **payload},
                headers=self.headers,
            )
            return answer.status_code, answer.get_json(silent=True)
        except Exception as error:  # the test client raises what would have been a 500
            raise Violation(f"{kind} raised {error!r} in the app (a 500)") from error

    def check_refusal(self, kind, status, answer, expected, by_phone) -> None:
        """A 4xx with the rule and its words (a phone: back to its page), and the rules core
        refuses it too, for the same rule."""
        if by_phone:
            if status != 302:
                raise Violation(f"a phone's refused {kind} answered {status}")
        else:
            rule = (answer or {}).get("rule")
            words = (answer or {}).get("error")
            if not 400 <= status < 500 or not isinstance(words, str) or len(words) < 6:
                raise Violation(f"a refused {kind} answered {status}: {answer}")
            if status != REFUSALS.get(rule, 422):
                raise Violation(f"{kind} refused for {rule} answered {status}")
            if isinstance(expected, RuleError) and expected.rule != rule:
                raise Violation(f"{kind} refused for {rule}, the rules core for {expected.rule}")
        if not isinstance(expected, RuleError):
            raise Violation(f"{kind} refused ({status}: {answer}); the rules core accepts it")
        count(self.refused, kind)

    def done(self, kind, before, after, version, answered, by_phone) -> None:
        """A 201 (a phone: back to its page), one new row as answered, the rule book's
        outcome; the store moves on."""
        status, answer = answered
        if status != (302 if by_phone else 201):
            raise Violation(f"{kind} was done and answered {status}: {answer}")
        row = self.newest_row()
        if version != self.version + 1 or row is None or row["seq"] != version:
            raise Violation(f"{kind}: version {self.version} -> {version}, newest row {row}")
        if row["kind"] != kind:
            raise Violation(f"{kind} was logged as {row['kind']}")
        movements = movements_of(row)
        if not by_phone:
            said = [Movement(**m) for m in answer["movements"]]
            if answer.get("seq") != version or said != movements:
                raise Violation(f"{kind} answered {answer}, the history holds {row}")
        self.accept(kind, row["payload"], before, after, movements)
        self.version = version

    def accept(self, kind, payload, before, after, movements) -> None:
        if kind == "undo":
            if len(self.stack) < 2 or after != self.stack[-2]:
                raise Violation("undo did not give back exactly the state before")
            self.stack.pop()
            self.flows.pop()
            self.undone = True
        else:
            outcome = apply(before, self.edition, kind, payload)
            if outcome.state != after or outcome.movements != movements:
                raise Violation(f"{kind} {json.dumps(payload)}: the store is not the rules'")
            check_accepted(before, after, kind, payload)
            flow = check_movements(before, after, movements, kind)
            done = Outcome(after, "", movements)
            check_who_gets_what(self.edition, before, done, kind, payload)
            count(self.cases, case_of(self.edition, kind, payload, before, done))
            self.stack.append(after)
            self.flows.append(self.flows[-1] + flow)
        self.state = after
        self.log.append((kind, payload))
        count(self.accepted, kind)

    # -- after every step --------------------------------------------------------------------

    def check_view(self, state: GameState, version: int) -> None:
        """The API shows the stored game: its version, cash, tokens, deeds, turn and pending
        (the rules core's own answer on that state)."""
        view = self.view
        seen = (
            view["version"],
            [(p["cash"], p["position"], p["in_jail"], p["bankrupt"]) for p in view["players"]],
            {d["space"]: d["owner"] for d in view["deeds"]},
            view["turn"],
            view["pending"],
        )
        wanted = (
            version,
            [(p.cash, p.position, p.in_jail, p.bankrupt) for p in state.players],
            {i: d.owner for i, d in state.deeds.items()},
            {"seat": state.turn, "doubles": state.doubles, "moved": state.moved},
            json.loads(json.dumps([wait_json(w) for w in waits(state, self.edition)])),
        )
        if seen != wanted:
            raise Violation(f"the API's game is not the store's: {seen} != {wanted}")

    def check(self, step: int = 0) -> None:
        """The rule book's invariants on the stored state; every `replay_every` steps and
        after every undo, the snapshot is the stored log replayed by the bank and the history
        as the API gives it replayed by the rules core (Play.check). (Between, each row done
        again on the snapshot before it gives the snapshot after it: `accept`.)"""
        due = self.undone or (self.replay_every and step % self.replay_every == 0)
        super().check(step)
        if due:
            self.replayed_by_the_bank()

    def replayed_by_the_bank(self) -> None:
        with self.app.app_context():
            game = db.session.get(Game, self.game_id)
            if logbook.replayed_state(game, bank.edition_of(game)).to_dict() != game.state:
                raise Violation("the log replayed is not the stored snapshot")

    # -- drawing the next tap ------------------------------------------------------------------

    def move(self, name: str, c: Chooser) -> bool | None:
        """The named move (machine.MOVES; "play": the next act, from the API's pending), sent
        now and then from the phone of the seat it is for, when that phone may send it."""
        drawn = self.next_act(c) if name == "play" else MOVES[name](self, c)
        if drawn is None:
            return None
        kind, payload = drawn
        phone = self.may_phone(kind, payload) and c.number(1, 100) <= 100 * self.phone_odds
        return self.tap(kind, payload, phone)

    def next_act(self, c: Chooser):
        """The table's next act: the answer to what the API says the game waits for."""
        found = [wait_of(item) for item in self.view["pending"]]
        if not found:
            return None
        wait = found[0] if len(found) == 1 or c.odds(5, 6) else c.pick(found)
        return ANSWERS[wait.what](self, c, wait)

    def may_phone(self, kind: str, payload: dict) -> bool:
        """A player's own phone may send this kind now, for the seat the payload names."""
        declared = KINDS.get(kind)
        if declared is None or declared.phone is None:
            return False
        allowed = declared.phone == ALWAYS or self.state.settings.phone_turns
        seat = payload.get(declared.own_seat)
        return allowed and isinstance(seat, int) and 0 <= seat < len(self.tokens)

    def clock_runs_out(self) -> None:
        """TL1: the end time of a time-limited game passes. The next action is refused (422,
        TL1) and the clock's end_game is logged: the one refusal that adds a row."""
        if self.setup["mode"] != "timed" or self.state.ended:
            return
        before = self.state
        later = datetime.fromisoformat(ENDS_AT).astimezone(UTC) + timedelta(minutes=1)
        with patch.object(bank, "datetime", wraps=datetime) as clock:
            clock.now.return_value = later
            clock.fromisoformat.side_effect = datetime.fromisoformat
            status, answer = self.send("pass_go", {"player": 0}, by_phone=False)
        if status != 422 or (answer or {}).get("rule") != "TL1":
            raise Violation(f"TL1: an action after the end time answered {status}: {answer}")
        after, version = self.stored()
        row = self.newest_row()
        if (row["kind"], row["actor"], row["seq"]) != ("end_game", "clock", self.version + 1):
            raise Violation(f"TL1: the clock's end is not the newest row: {row}")
        self.accept("end_game", row["payload"], before, after, movements_of(row))
        self.version = version
        self.view = self.api_game()
        self.check_view(after, version)


def wait_json(wait: Wait) -> dict:
    """A wait as the API gives it (app/web/present.py: wait_view)."""
    return {
        "what": wait.what,
        "seat": wait.seat,
        "space": wait.space,
        "figures": wait.figures,
        "actions": [{"kind": m.kind, "fields": m.fields, "asks": list(m.asks)} for m in wait.moves],
    }


def movements_of(row: dict) -> list[Movement]:
    """A history row's movements: [payer, payee, amount], None the bank."""
    return [Movement(*m) for m in row["movements"]]


def wait_of(item: dict) -> Wait:
    """A wait of the API's `pending`, as the rules machine's answers read one."""
    moves = tuple(Move(a["kind"], a["fields"], tuple(a["asks"])) for a in item["actions"])
    return Wait(item["what"], item["seat"], item["space"], item["figures"], moves)


# The rules machine's mix, with more building and trading (dearer rents: debts, bankruptcies
# within a few hundred steps) and fewer games ended by the banker.
MIX = {name: 2 * weight for name, weight in WEIGHTS.items()} | {
    "build": 24,
    "trade": 12,
    "end_game": 1,
}
NAMES, MIX_WEIGHTS = list(MIX), list(MIX.values())


class ApiGame(WholeGame):
    """The random-play machine through the API and the phones, on one app: a table short of
    cash half the time (debts and bankruptcies come sooner), and in a time-limited game the
    clock may run out between two moves (TL1). The stored log is replayed every 10 steps and
    after every undo (between, each row done again on the state before it: `ApiPlay.accept`)."""

    replay_every = 10

    def __init__(self, app, client) -> None:
        super().__init__()
        self.app, self.client = app, client

    def new_table(self, setup: dict) -> ApiPlay:
        return ApiPlay(self.app, self.client, setup)

    def a_setup(self, c: Chooser) -> dict:
        setup = random_setup(c)
        if c.odds(1, 2):
            setup["starting_cash"] = c.pick((200, 400, 600))
        return setup

    def a_move_name(self, c: Chooser) -> str:
        return c.weighted(NAMES, MIX_WEIGHTS)

    def between_moves(self, c: Chooser) -> None:
        if self.play.setup["mode"] == "timed" and c.odds(1, 400):
            self.play.clock_runs_out()

    def teardown(self):
        if self.play is not None:
            self.play.replayed_by_the_bank()
        super().teardown()
