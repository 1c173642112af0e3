"""The whole game under random play through the JSON API (and the players' phones), for the
hypothesis machine in test_api_machine.py and `bench/soak.py --api`.

`ApiPlay` is tests/rules/machine.py's `Play` whose taps go through Flask's test client: the
banker's as `POST /api/games/<id>/actions`, and now and then a player's own (paying, bidding,
answering a trade offered to them) as the form their phone posts to `/p/<token>/do`. The
rules core on a mirror of the game says what each answer must be. After every tap:

- never a 500 (nor an exception out of the app);
- 201 exactly when the rules core accepts the action, and then the same sentence; otherwise
  400 for bad input and 422 for a rule (a phone is sent back to its page either way);
- the log grows by one row per action done and by none per refusal;
- the stored snapshot equals the mirror and the log replayed (undo: the state before the
  action it takes back, exactly).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from unittest.mock import patch

from sqlalchemy import func, select
from tablebank import bank
from tablebank.models import Action, Game, Player, db
from tablebank.rules import KINDS, RuleError, apply

from ..rules.machine import ENDS_AT, Play, Violation, freeze

PHONE_KINDS = {kind.name: kind.own_seat for kind in KINDS.values() if kind.own_seat}


class ApiPlay(Play):
    def __init__(self, app, client, setup: dict, phone_odds: float = 0.3) -> None:
        super().__init__(setup)
        self.app, self.client = app, client
        answer = client.post("/api/games", json=setup)
        if answer.status_code != 201:
            raise Violation(f"a new game answered {answer.status_code}: {answer.get_data()}")
        made = answer.get_json()
        self.game_id, self.headers = made["id"], {"X-Banker-Key": made["banker_key"]}
        with app.app_context():
            query = select(Player.token).where(Player.game_id == self.game_id)
            self.tokens = list(db.session.scalars(query.order_by(Player.seat)))
        self.phone_odds = phone_odds
        self.calls = 0
        self.statuses: dict[int, int] = {}
        self.rows = 0

    def tap(self, kind: str, payload: dict, by_phone: bool = False) -> bool:
        before = self.state
        frozen = freeze(before)
        if kind == "undo":
            expected: object = len(self.stack) > 1
        else:
            try:
                expected = apply(before, self.edition, kind, payload)
            except RuleError as refusal:
                expected = refusal
        status, answer = self.send(kind, payload, by_phone)
        self.statuses[status] = self.statuses.get(status, 0) + 1
        accepted = Play.tap(self, kind, payload)  # the mirror, and the core's own checks
        self.compare(kind, expected, accepted, status, answer, by_phone)
        self.check_store(kind, accepted, frozen)
        return accepted

    def send(self, kind: str, payload: dict, by_phone: bool) -> tuple[int, dict | None]:
        self.calls += 1
        try:
            if by_phone:
                token = self.tokens[payload[self.phone_field(kind)]]
                form = {"kind": kind, "payload": json.dumps(payload)}
                answer = self.client.post(f"/p/{token}/do", data=form)
                return answer.status_code, None
            answer = self.client.post(
                f"/api/games/{self.game_id}/actions",
                json={"kind": kind, **payload},
                headers=self.headers,
            )
            return answer.status_code, answer.get_json(silent=True)
        except Exception as error:  # the test client raises what would have been a 500
            raise Violation(f"{kind} raised {error!r} in the app (a 500)") from error

    def compare(self, kind, expected, accepted, status, answer, by_phone) -> None:
        if status >= 500:
            raise Violation(f"{kind} answered {status}")
        if by_phone:
            if status != 302:
                raise Violation(f"a phone's {kind} answered {status}, not back to its page")
            return
        if expected is False:  # undo with nothing to undo
            expected = RuleError("input", "There is nothing to undo")
        if isinstance(expected, RuleError):
            wanted = 400 if expected.rule == "input" else 422
            if status != wanted or (answer or {}).get("rule") != expected.rule:
                raise Violation(f"{kind} refused ({expected.rule}) answered {status}: {answer}")
        elif status != 201 or not accepted:
            raise Violation(f"{kind} accepted by the rules core answered {status}: {answer}")
        elif kind != "undo" and answer["text"] != expected.text:
            raise Violation(f"{kind} said {answer['text']!r}, the rules core {expected.text!r}")

    def check_store(self, kind: str, accepted: bool, frozen: tuple) -> None:
        with self.app.app_context():
            game = db.session.get(Game, self.game_id)
            query = select(func.count()).select_from(Action).where(Action.game_id == game.id)
            rows = db.session.scalar(query)
            if rows != self.rows + accepted:
                raise Violation(f"{kind}: the log went from {self.rows} rows to {rows}")
            self.rows = rows
            stored = game.state
            if stored != self.state.to_dict():
                raise Violation(f"{kind}: the stored snapshot is not the game's state")
            if not accepted and freeze(bank.state_of(game)) != frozen:
                raise Violation(f"a refused {kind} changed the stored game")
            due = self.replay_every and self.calls % self.replay_every == 0
            if due and bank.replayed_state(game).to_dict() != stored:
                raise Violation(f"{kind}: the log replayed is not the stored snapshot")

    def clock_runs_out(self) -> None:
        """TL1: the end time of a time-limited game passes. The next action is refused (422,
        TL1) and the clock's own end_game is logged: the one refusal that adds a row."""
        if self.setup["mode"] != "timed" or self.state.ended:
            return
        later = datetime.fromisoformat(ENDS_AT).astimezone(UTC) + timedelta(minutes=1)
        with patch.object(bank, "datetime", wraps=datetime) as clock:
            clock.now.return_value = later
            clock.fromisoformat.side_effect = datetime.fromisoformat
            status, answer = self.send("pass_go", {"player": 0}, by_phone=False)
        if status != 422 or (answer or {}).get("rule") != "TL1":
            raise Violation(f"TL1: an action after the end time answered {status}: {answer}")
        Play.tap(self, "end_game", {})
        self.check_store("the clock's end_game", True, freeze(self.state))

    def phone_field(self, kind: str) -> str | None:
        """The field a player's own phone fills with its seat, for what a phone may do: pay,
        bid, answer a trade, and roll for its own turn when the banker allows it (R1)."""
        if kind == "roll" and self.state.settings.phone_turns:
            return "player"
        return PHONE_KINDS.get(kind)

    def may_phone(self, kind: str, payload: dict) -> bool:
        field = self.phone_field(kind)
        return field is not None and isinstance(payload.get(field), int)

    def move(self, name, c) -> bool | None:
        drawn = self.draw(name, c)
        if drawn is None:
            return None
        kind, payload = drawn
        by_phone = self.may_phone(kind, payload) and c.number(1, 100) <= 100 * self.phone_odds
        return self.tap(kind, payload, by_phone)

    def draw(self, name, c):
        from ..rules.machine import MOVES

        return MOVES[name](self, c)
