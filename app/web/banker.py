"""The banker's pages: one hand, big buttons, every action shown in words before the tap."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import parse_qsl, urlencode, urlsplit

from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    g,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import get_locale
from flask_babel import gettext as _
from sqlalchemy import select

from .. import bank, logbook
from ..inputs import parse_json
from ..models import Game, db
from ..rules import KINDS, UNDO, Edition, GameState, RuleError
from ..rules.edition import Space
from ..rules.landing import Call, calls_for
from ..rules.rent import rent_due
from .args import arg, whole
from .auth import banker_games, is_banker, remember_banker
from .present import game_view, history_page, row_said
from .words import N_, refused, said

bp = Blueprint("banker", __name__)

FORM_META = ("csrf_token", "kind", "key", "version")
PALETTE = ["#e03131", "#1971c2", "#2f9e44", "#f08c00", "#7048e8", "#0c8599", "#d6336c", "#495057"]
MODES = {
    "classic": N_("Classic: play until one player is left"),
    "short": N_("Short game: two deeds dealt, ends at the second bankruptcy"),
    "timed": N_("Time-limited: two deeds dealt, ends at a set time"),
}


@dataclass
class Option:
    """One action a page offers: what it is, and the sentence its preview gives (or why not)."""

    kind: str
    payload: dict
    text: str = ""
    error: str = ""
    style: str = "primary"
    label: str = ""
    rule: str = ""  # the rule that refused it
    figures: dict | None = None  # K1: the debt's figures (player, amount, creditor)


def offer(game: Game, kind: str, payload: dict, label: str = "", style: str = "primary"):
    payload = {k: v for k, v in payload.items() if v is not None and v is not False}
    try:
        outcome = None if label else bank.preview(game, kind, payload)
        text = label or said(outcome.lines, bank.edition_of(game), outcome.text, kind == UNDO)
        return Option(kind, payload, text, style=style)
    except RuleError as refusal:
        declared = KINDS.get(kind)
        fallback = label or (_(declared.label) if declared else kind)
        figures = refusal.params if refusal.rule == "K1" else None
        return Option(kind, payload, fallback, refused(refusal), style, "", refusal.rule, figures)


def undo_offer(game: Game) -> Option:
    """The undo button: what it takes back, read from one row (the state is only worked out
    when the banker confirms)."""
    target = logbook.undo_target(game)
    if target is None:
        return Option(UNDO, {}, _(KINDS[UNDO].label), _("There is nothing to undo"), "danger")
    return Option(UNDO, {}, row_said(target, bank.edition_of(game), undo=True), style="danger")


def load(game_id: str) -> Game:
    """The request's game, as the banker check loaded it (or found now)."""
    game = g.get("game")
    if game is not None and game.id == game_id:
        return game
    try:
        return bank.find(game_id)
    except bank.NotFound:
        abort(404)


def page(template: str, game: Game | None = None, **context):
    if game is not None:
        view = game_view(game)
        deed_at = {deed["space"]: deed for deed in view["deeds"]}
        context.update(game=game, view=view, deed_at=deed_at, edition=bank.edition_of(game))
        context.setdefault("winners", view["winners"])
    return render_template(template, **context)


# -- home and new game -------------------------------------------------------------------


@bp.get("/")
def index():
    """This browser's own games (its cookie names them), never anyone else's."""
    ids = banker_games()[-20:]
    query = select(Game).where(Game.id.in_(ids)).order_by(Game.created_at.desc())
    listed = []
    for game in db.session.scalars(query) if ids else []:
        try:
            if is_banker(game):
                listed.append((game, bank.state_of(game)))
        except Exception:  # a damaged game row is left out; the page still works
            current_app.logger.exception("game %s cannot be listed", game.id)
    return page("index.html", games=listed)


@bp.get("/new")
def new():
    return page("new.html", form={}, **new_game_choices())


def new_game_choices() -> dict:
    default = "es" if str(get_locale()) == "es" else "us-2008"
    return {
        "editions": bank.editions().values(),
        "default_edition": default,
        "palette": PALETTE,
        "modes": MODES,
    }


def setup_from_form() -> dict:
    form = request.form
    players = []
    for i in range(8):
        name = form.get(f"name{i}", "").strip()
        if name:
            players.append({"name": name, "colour": form.get(f"colour{i}", PALETTE[i])})
    return {
        "edition": form.get("edition"),
        "starting_cash": form.get("starting_cash", "1500"),
        "mode": form.get("mode", "classic"),
        "ends_at": form.get("ends_at") or None,
        "time_zone": form.get("time_zone") or None,  # the banker's browser's (app.js)
        "players": players,
        **{k: k in form for k in ("free_parking_jackpot", "double_go", "no_auctions")},
        "income_tax_percent": "income_tax_percent" in form,
    }


@bp.post("/new")
def create():
    setup = setup_from_form()
    try:
        game = bank.create_game(setup)
    except RuleError as refusal:
        flash(refused(refusal), "error")
        return page("new.html", form=request.form, **new_game_choices()), 400
    remember_banker(game)
    flash(game.id, "keep")  # the next page shows the banker link to keep (base.html)
    if game.setup.get("mode") in ("short", "timed"):
        return redirect(url_for("endgame.deal", game_id=game.id))  # SG1, TL1
    return redirect(url_for("banker.dashboard", game_id=game.id))


# -- the game ----------------------------------------------------------------------------


@bp.get("/g/<game_id>/")
def dashboard(game_id: str):
    game = load(game_id)
    if bank.time_is_up(game):
        bank.perform(game.id, "end_game", {}, actor="clock", key="clock:end")  # TL1
    if request.args.get("fragment"):
        return dashboard_fragment(game)
    return page("game.html", game, undo=undo_offer(game), codes=True, turn=turns.turn_panel(game))


def dashboard_fragment(game: Game) -> str:
    """The dashboard's live part: whose turn with the pad, the balances (the page's fetch and
    the pushed news draw the same)."""
    return page("_dashboard_live.html", game, turn=turns.turn_panel(game))


@bp.get("/g/<game_id>/turn")
def turn(game_id: str):
    """R1: the dice total tapped on the pad; the landing's action worked out, one tap away."""
    game = load(game_id)
    state = bank.state_of(game)
    dice, player = whole(request.args.get("dice")), turns.whose_turn(state)
    if dice is None or not 2 <= dice <= 12 or player is None:
        return redirect(url_for("banker.dashboard", game_id=game_id))
    doubles = request.args.get("doubles") == "1" and dice % 2 == 0
    landing = turns.turn_options(game, player, dice, doubles)
    return page("turn.html", game, who=player, dice=dice, doubles=doubles, **landing)


@bp.get("/g/<game_id>/owe")
def owe(game_id: str):
    """K1: a refused payment kept waiting; the dashboard then shows the ways to raise it."""
    game = load(game_id)
    kind, payload = request.args.get("kind", ""), arg_payload()
    try:
        bank.preview(game, kind, payload)
    except RuleError as refusal:
        if refusal.rule == "K1":
            turns.remember_debt(game, kind, payload, refusal.params)
    return redirect(url_for("banker.dashboard", game_id=game_id))


def arg_payload() -> dict:
    try:
        payload = parse_json(request.args.get("payload", "{}"))
    except RuleError:
        payload = None
    return payload if isinstance(payload, dict) else {}


@bp.get("/g/<game_id>/history")
def log(game_id: str):
    game = load(game_id)
    entries, older = history_page(game, arg("before"))
    return page("history.html", game, entries=entries, older=older)


def seated(game_id: str, seat: int) -> tuple[Game, GameState]:
    """The game and its state for a page about one seat: no such seat, no such page."""
    game = load(game_id)
    state = bank.state_of(game)
    if not 0 <= seat < len(state.players):
        abort(404)
    return game, state


@bp.get("/g/<game_id>/player/<int:seat>")
def player(game_id: str, seat: int):
    game, state = seated(game_id, seat)
    who = {"player": seat}
    jail = [offer(game, k, who) for k in ("jail_fine", "jail_card", "jail_doubles")]
    return page(
        "player.html",
        game,
        seat=seat,
        jail=jail,
        deeds=deeds_of(game, state, seat),
        presets=turns.PRESETS,
    )


def deeds_of(game: Game, state: GameState, seat: int) -> list[dict]:
    edition = bank.edition_of(game)
    rows = []
    for i in state.held_by(seat):
        rent = rent_due(state, edition, i, dice=7)
        rows.append({"space": edition.spaces[i], "state": state.deeds[i], "rent": rent})
    return rows


@bp.get("/g/<game_id>/pick/<kind>")
def pick(game_id: str, kind: str):
    """An action that needs only a player (pass GO, go to jail): one button each."""
    if kind not in ("pass_go", "go_to_jail", "parking_pot"):
        abort(404)
    game = load(game_id)
    state = bank.state_of(game)
    players = [p for p in state.in_play() if not (kind == "go_to_jail" and p.in_jail)]  # J1
    options = [(p, offer(game, kind, {"player": p.seat})) for p in players]
    return page("pick.html", game, options=options, kind=kind)


# -- landed on ---------------------------------------------------------------------------


@bp.get("/g/<game_id>/land")
def land_player(game_id: str):
    game = load(game_id)
    return page("land_player.html", game, players=bank.state_of(game).in_play())


@bp.get("/g/<game_id>/land/<int:seat>")
def land_space(game_id: str, seat: int):
    game, state = seated(game_id, seat)
    return page("land_space.html", game, who=state.players[seat])


@bp.get("/g/<game_id>/land/<int:seat>/<int:index>")
def land(game_id: str, seat: int, index: int):
    game, state = seated(game_id, seat)
    edition = bank.edition_of(game)
    if not 0 <= index < len(edition.spaces):
        abort(404)
    who, space = state.players[seat], edition.spaces[index]
    passed_default = 0 < index < who.position
    passed_go = request.args.get("passed_go", "1" if passed_default else "") == "1"
    context = Landing(game, state, edition, seat, space, passed_go)
    return page(
        "land.html",
        game,
        who=who,
        space=space,
        passed_go=passed_go,
        owner=context.owner(),
        options=context.options(),
        dice_needed=context.dice_needed(),
        by_card=context.by_card,
        place=place_offer(game, who, space),
    )


def place_offer(game: Game, who, space: Space) -> Option | None:
    """R1: the board is the truth; a token put right without anything else happening."""
    if who.in_jail or who.position == space.index:
        return None
    label = _("Only put the token here (nothing is paid)")
    return offer(game, "place", {"player": who.seat, "space": space.index}, label, "secondary")


class Landing:
    """The one action a space calls for, as buttons with their computed amounts."""

    def __init__(self, game, state: GameState, edition: Edition, seat: int, space: Space, passed):
        self.game, self.state, self.edition = game, state, edition
        self.seat, self.space = seat, space
        self.base = {"player": seat, "passed_go": passed and space.index != 0}
        self.by_card = request.args.get("by_card") == "1"
        self.dice = request.args.get("dice", "")

    def owner(self):
        if not self.space.is_deed:
            return None
        seat = self.state.deeds[self.space.index].owner
        return None if seat is None else self.state.players[seat]

    def calls(self) -> list[Call]:
        dice = whole(self.dice)
        return calls_for(self.state, self.edition, self.seat, self.space, dice, self.by_card)

    def dice_needed(self) -> bool:
        return any(call.needs_dice for call in self.calls())

    def options(self) -> list[Option]:
        return [self.option(call) for call in self.calls() if not call.needs_dice]

    def option(self, call: Call) -> Option:
        if call.kind == "go_to_jail":
            return offer(self.game, "go_to_jail", {"player": self.seat})
        label = ""
        if call.percent:
            # T1: the player chooses before the total worth is worked out, so no figure here.
            label = _(
                "Pay %(percent)s%% of total worth (worked out after choosing)",
                percent=call.percent,
            )
        return offer(self.game, call.kind, {**self.base, **call.fields}, label, call.style)


# -- money -------------------------------------------------------------------------------


@bp.get("/g/<game_id>/money")
def money(game_id: str):
    """Pay or collect from the bank: the form shows its sentence before the confirm button."""
    game = load(game_id)
    kind = request.args.get("kind", "bank_pay")
    if kind not in ("bank_pay", "bank_collect"):
        kind = "bank_pay"
    fields = {k: request.args.get(k) for k in ("player", "amount", "note")}
    option = offer(game, kind, fields) if request.args.get("amount") else None
    return page("money.html", game, kind=kind, fields=fields, option=option)


@bp.get("/g/<game_id>/transfer")
def transfer(game_id: str):
    game = load(game_id)
    fields = {k: request.args.get(k) for k in ("from", "to", "amount", "note")}
    option = offer(game, "transfer", fields) if request.args.get("amount") else None
    return page("transfer.html", game, fields=fields, option=option)


@bp.get("/g/<game_id>/undo")
def undo(game_id: str):
    game = load(game_id)
    return page("confirm.html", game, option=undo_offer(game))


# -- the one door ------------------------------------------------------------------------


def payload_from_form() -> dict:
    """The action's fields: one JSON field from the pages' buttons, or plain form fields."""
    if "payload" in request.form:
        try:
            payload = parse_json(request.form["payload"])
        except RuleError:
            payload = None
        if not isinstance(payload, dict):
            raise RuleError("input", "The form was damaged: reload the page and try again")
        return payload
    return {k: v for k, v in request.form.items() if k not in FORM_META}


def expected_version() -> int | None:
    return whole(request.form.get("version"))


def back_to(game_id: str) -> str:
    """Where a refused action returns: the page its form came from (the form says, see
    _macros.html), if that is a page of this game on this site; else the dashboard. Never
    the Referer, which another site may set."""
    back = request.form.get("back", "")
    parts = urlsplit(back)
    inside = f"/g/{game_id}/"
    if (
        back.startswith(inside)
        and not (parts.scheme or parts.netloc)
        and "\\" not in back
        and len(back) < 500
    ):
        query = urlencode([(k, v) for k, v in parse_qsl(parts.query) if k != "fragment"])
        return parts.path + (f"?{query}" if query else "")  # the whole page, not its live part
    return url_for("banker.dashboard", game_id=game_id)


@bp.post("/g/<game_id>/do")
def do(game_id: str):
    game = load(game_id)
    kind = request.form.get("kind", "")
    try:
        payload = payload_from_form()
    except RuleError as refusal:
        flash(refused(refusal), "error")
        return redirect(back_to(game_id))
    return perform_form(game, kind, payload)


def perform_form(game: Game, kind: str, payload: dict):
    """The banker's tap through the one door; a refusal goes back where it came from, a
    payment refused for want of cash (K1) waits with its ways out."""
    try:
        done = bank.perform(
            game.id,
            kind,
            payload,
            key=request.form.get("key") or None,
            expected_version=expected_version(),
        )
    except RuleError as refusal:
        flash(refused(refusal), "error")
        if refusal.rule == "K1":
            turns.remember_debt(game, kind, payload, refusal.params)
        return redirect(back_to(game.id))
    return after(done, kind)


@bp.post("/g/<game_id>/quick/<int:seat>")
def quick(game_id: str, seat: int):
    """Quick money from a player's card: to the bank, to a player, or from the bank."""
    game = load(game_id)
    form = request.form
    amount = form.get("typed") if form.get("amount") == "typed" else form.get("amount")
    kind, payload = turns.money_move(seat, form.get("to", "bank"), amount)
    return perform_form(game, kind, payload)


def after(done, kind: str):
    """The result in the green message (with its undo), then the page the action leads to."""
    game_id = done.game.id
    turns.settle_debt(game_id, done.action)
    text = said(done.action.lines, bank.edition_of(done.game), done.action.text, kind == UNDO)
    flash(_("Already done: %(what)s", what=text) if done.repeated else text, "done")
    outcome = done.outcome
    if outcome is not None and outcome.state.ended:
        return redirect(url_for("endgame.results", game_id=game_id))  # K4, SG3: who won
    if outcome is not None and outcome.state.auction:
        return redirect(url_for("endgame.auction", game_id=game_id))
    if outcome is not None and outcome.next_space is not None:
        seat = int(done.action.payload["player"])
        by_card = "1" if outcome.by_card else None
        target = url_for(
            "banker.land", game_id=game_id, seat=seat, index=outcome.next_space, by_card=by_card
        )
        return redirect(target)
    return redirect(url_for("banker.dashboard", game_id=game_id))


from . import turns  # noqa: E402  (the turn's pages use the options above)


@bp.app_context_processor
def turn_helpers() -> dict:
    """The waiting payment and the way out, on every page of the banker's (see _flash.html)."""
    return {"debt_of": turns.debt_panel}


@bp.app_template_global("owe_link")
def owe_link(game: Game, option: Option) -> str:
    """A refused payment's way out, wherever an action button is drawn (see _macros.html)."""
    return turns.owe_link(game, option)
