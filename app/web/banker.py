"""The banker's pages: one hand, big buttons, every action shown in words before the tap."""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial

from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    get_flashed_messages,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import get_locale
from flask_babel import gettext as _
from markupsafe import Markup
from sqlalchemy import select

from .. import bank
from ..models import Game, db
from ..rules import KINDS, UNDO, GameState, RuleError
from ..rules.rent import rent_due
from ..rules.turn import next_in_play, whose_turn
from . import clocks, new_games, shared, turns
from .args import arg, whole
from .auth import banker_games, is_banker, remember_banker
from .colours import make_legible
from .pages import (
    Option,
    action_page,
    back_to,
    confirming,
    expected_version,
    game_over,
    load,
    page,
    payload_from_form,
    previewed,
    stale_tap,
)
from .present import deeds_at, game_view, history_page, row_said, undo_target
from .taps import pass_on
from .words import N_, refused, said

bp = Blueprint("banker", __name__)

DONE_AT = "done_at"  # the version the banker's last action left (its flash's Undo)
YEAR = 365 * 24 * 3600  # the `tzo` cookie's life, as app.js sets it

# Each colour keeps 3:1 on the light and the dark pages and on the board (web/colours.py).
PALETTE = ["#e03131", "#1971c2", "#2b8a3e", "#e8590c", "#7950f2", "#0c8599", "#d6336c", "#868e96"]
MODES = {
    "classic": N_("Classic: play until one player is left"),
    "short": N_("Short game: two deeds dealt, ends at the second bankruptcy"),
    "timed": N_("Time-limited: two deeds dealt, ends at a set time"),
}


def undo_offer(game: Game) -> Option:
    """The undo button: what it takes back, read from one row (the state is only worked out
    when the banker confirms)."""
    target = undo_target(game)
    if target is None:
        return Option(UNDO, {}, _(KINDS[UNDO].label), _("There is nothing to undo"), "danger")
    return Option(UNDO, {}, row_said(target, bank.edition_of(game), undo=True), style="danger")


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
        "clocks": clocks.choices(datetime.now(UTC)),  # TL1 without JavaScript (clocks.py)
        "clock_guess": clocks.from_cookie(request.cookies.get("tzo")),
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
        "ends_at": clocks.on_clock(form.get("ends_at") or None, banker_clock()),
        "time_zone": form.get("time_zone") or None,  # the banker's browser's (app.js)
        "players": players,
        **{
            k: k in form
            for k in ("free_parking_jackpot", "double_go", "no_auctions", "phone_turns")
        },
        "income_tax_percent": "income_tax_percent" in form,
    }


def banker_clock() -> str | None:
    """The offset of the clock the banker chose, when the page could not send their time
    zone (no JavaScript: clocks.py)."""
    return None if request.form.get("time_zone") else clocks.chosen(request.form.get("clock"))


@bp.post("/new")
def create():
    setup = setup_from_form()
    changed = make_legible(setup["players"])  # 3:1 on every page (web/colours.py)
    try:
        if clocks.zone_unknown(setup):
            raise RuleError(
                "TL1", "Choose the time on your clock now: the end time is read in your time zone"
            )
        game = new_games.create_game(setup)
    except RuleError as refusal:
        flash(refused(refusal), "error")
        return page("new.html", form=request.form, **new_game_choices()), 400
    for name, picked, given, ratio in changed:
        words = _(
            "%(player)s's colour %(picked)s is hard to see on the page (%(ratio)s:1, at least"
            " 3:1 is needed): it is now %(given)s",
            player=name,
            picked=picked,
            ratio=f"{ratio:.1f}",
            given=given,
        )
        flash(words, "note")
    remember_banker(game)
    flash(game.id, "keep")  # the next page shows the banker link to keep (base.html)
    if game.setup.get("mode") in ("short", "timed"):
        answer = redirect(url_for("endgame.deal", game_id=game.id))  # SG1, TL1
    else:
        answer = redirect(url_for("banker.dashboard", game_id=game.id))
    clock = banker_clock()
    if clock:  # their pages in their own time, as app.js would have said it
        tzo = clocks.cookie_of(clock)
        answer.set_cookie("tzo", tzo, max_age=YEAR, secure=request.is_secure, samesite="Lax")
    return answer


# -- the game ----------------------------------------------------------------------------


DASHBOARD = "dashboard"  # its live part's name, for the page and its stream (shared.py)
# What a player's card on the dashboard shows of them (with their deeds' mortgages).
CARD = ("seat", "name", "colour", "in_jail", "jail_free", "bankrupt", "cash", "score")


@bp.get("/g/<game_id>/")
def dashboard(game_id: str):
    game = load(game_id)
    bank.end_if_time_is_up(game)
    if request.args.get("fragment"):
        return shared.fetched(*dashboard_live(game))
    if ("keep", game.id) in get_flashed_messages(with_categories=True):
        # A new game's banker link shows once in the live part: this page's own drawing.
        return page("game.html", game, codes=True, keep_link=True, **dashboard_context(game))
    return page("game.html", game, codes=True, live=dashboard_live(game))


def dashboard_live(game: Game) -> tuple[int, Markup]:
    """The dashboard's live part and the version it shows, drawn once per version and
    reader in this process for the page (a tap's answer, a fetch) and the banker's live
    stream alike: the stream that the tap woke sends what the answer drew."""
    key = (game.id, DASHBOARD, *shared.reader())
    path = url_for("banker.dashboard", game_id=game.id)
    return shared.for_page(key, game.version, lambda: dashboard_fragment(game), path)


def dashboard_fragment(game: Game) -> str:
    """The dashboard's live part: what the game waits for (the pad, a choice, a debt), the
    balances, what the undo takes back, the banker's actions (the page's fetch and the pushed
    news draw the same)."""
    return page("_dashboard_live.html", game, **dashboard_context(game))


def dashboard_context(game: Game) -> dict:
    return {
        "undo": undo_offer(game),
        "balance_card": partial(balance_card, game),
        "banker_actions": partial(banker_actions, game),
        **turn_context(game),
    }


def banker_actions(game: Game) -> Markup:
    """The banker's actions under the balances, drawn once per what they show (shared.piece):
    whether the game goes on and whether the Free Parking pot holds money. In a shared part
    their links carry the version's mark, put in as each page gets it."""
    view = game_view(game)
    pot = bool(view["settings"]["free_parking_jackpot"] and view["pot"])
    shows = ("banker actions", game.id, view["ended"], pot, shared.version_drawn(game))

    def drawn() -> str:
        return render_template("_banker_actions.html", game=game, view=view)

    return shared.piece(shows, drawn)


def balance_card(game: Game, player: dict) -> Markup:
    """A player's card among the dashboard's balances, drawn once per what it shows
    (shared.piece): an action moves one or two players' money, not the six cards."""
    view, deed_at = game_view(game), deeds_at(game)
    deeds = tuple((index, deed_at[index]["mortgaged"]) for index in player["deeds"])
    won = player["seat"] in view["winners"]
    shown = tuple(player[k] for k in CARD)
    shows = ("balance card", game.id, game.edition, shown, won, deeds)

    def drawn() -> str:
        edition = bank.edition_of(game)
        return render_template(
            "_balance_card.html", game=game, p=player, won=won, deed_at=deed_at, edition=edition
        )

    return shared.piece(shows, drawn)


def turn_context(game: Game) -> dict:
    """What the game waits for, as panels, and the banker's correction "Next: ..." (R1)."""
    state = bank.state_of(game)
    current = whose_turn(state)
    upcoming = None
    if current is not None and not state.ended:
        seat = next_in_play(state, current.seat)
        name = state.players[seat].name
        label = _("Next: %(player)s", player=name)
        upcoming = previewed(game, "turn_to", {"player": seat}, label, "secondary")
    return {"panels": turns.panels(game), "upcoming": upcoming}


@bp.get("/g/<game_id>/turn")
def turn(game_id: str):
    """R1: the dice total tapped on the pad for the seat the page was drawn for; the throw
    and its landing worked out, one tap away. A page drawn for an earlier moment (Back, a
    second banker phone) says the turn was taken, a game over says so, and neither offers
    anything."""
    game = load(game_id)
    seat, dice = whole(request.args.get("seat")), whole(request.args.get("dice"))
    if dice is None or not 2 <= dice <= 12 or seat is None:
        return redirect(url_for("banker.dashboard", game_id=game_id))
    doubles, version = request.args.get("doubles") == "1", whole(request.args.get("v"))
    over = game_over(game)  # K4, SG3, TL1 (a timed game's end comes first): no throw
    if over is not None or turns.turn_taken(game, seat, version):
        back = url_for("banker.dashboard", game_id=game_id)
        why = over or turns.no_throw_now(game, seat, version, dice, doubles)
        return page("turn_taken.html", game, back=back, why=why), 409
    who = bank.state_of(game).players[seat]
    landing = turns.dice_options(game, seat, dice, doubles)
    return page("turn.html", game, who=who, dice=dice, doubles=doubles, **landing)


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
    game = seated(game_id, seat)[0]
    ended = game_over(game)  # the card stays; what it offers to do goes
    state = bank.state_of(game)  # as the clock may have just left it (TL1)
    who = {"player": seat}
    jail = [previewed(game, k, who) for k in ("jail_fine", "jail_card")]
    return page(
        "player.html",
        game,
        seat=seat,
        jail=jail,
        deeds=deeds_of(game, state, seat),
        presets=turns.PRESETS,
        ended=ended,
    )


def deeds_of(game: Game, state: GameState, seat: int) -> list[dict]:
    edition = bank.edition_of(game)
    rows = []
    for i in state.held_by(seat):
        rent = rent_due(state, edition, i, dice=7)
        rows.append({"space": edition.spaces[i], "state": state.deeds[i], "rent": rent})
    return rows


@bp.get("/g/<game_id>/pick/<kind>")
@action_page
def pick(game_id: str, kind: str):
    """An action that needs only a player (pass GO, go to jail): one button each."""
    if kind not in ("pass_go", "go_to_jail", "parking_pot"):
        abort(404)
    game = load(game_id)
    state = bank.state_of(game)
    options = [(p, previewed(game, kind, {"player": p.seat})) for p in state.in_play()]
    accepted = [(p, option) for p, option in options if not option.error]
    options = accepted or options  # none accepted (an empty pot): each refusal in words
    back = url_for("banker.dashboard", game_id=game.id)
    return confirming("pick.html", game, back, options=options, kind=kind)


# -- landed on ---------------------------------------------------------------------------


@bp.get("/g/<game_id>/land")
@action_page
def land_player(game_id: str):
    game = load(game_id)
    return page("land_player.html", game, players=bank.state_of(game).in_play())


@bp.get("/g/<game_id>/land/<int:seat>")
@action_page
def land_space(game_id: str, seat: int):
    game, state = seated(game_id, seat)
    return page("land_space.html", game, who=state.players[seat])


@bp.get("/g/<game_id>/land/<int:seat>/<int:index>")
@action_page
def land(game_id: str, seat: int, index: int):
    """R1: the board is the truth: a landing the dice pad did not see, worked out by the
    rules core as after a throw (the salary if the token passed GO on its way)."""
    game, state = seated(game_id, seat)
    edition = bank.edition_of(game)
    if not 0 <= index < len(edition.spaces):
        abort(404)
    who, space = state.players[seat], edition.spaces[index]
    passed_default = 0 < index < who.position
    passed_go = request.args.get("passed_go", "1" if passed_default else "") == "1"
    base = {"player": seat, "space": index, "passed_go": passed_go and index != 0}
    landing = {**turns.landing_options(game, "land", base), "space": space}
    return confirming(
        "land.html",
        game,
        url_for("banker.dashboard", game_id=game.id),
        who=who,
        passed_go=passed_go,
        owner=owner_of(state, space),
        place=place_offer(game, who, space),
        **landing,
    )


def owner_of(state: GameState, space):
    seat = state.deeds[space.index].owner if space.is_deed else None
    return None if seat is None else state.players[seat]


def place_offer(game: Game, who, space) -> Option | None:
    """R1: the board is the truth; a token put right without anything else happening."""
    if who.in_jail or who.position == space.index:
        return None
    label = _("Only put the token here (nothing is paid)")
    return previewed(game, "place", {"player": who.seat, "space": space.index}, label, "secondary")


# -- money -------------------------------------------------------------------------------


@bp.get("/g/<game_id>/money")
@action_page
def money(game_id: str):
    """Pay or collect from the bank: the form shows its sentence before the confirm button."""
    game = load(game_id)
    kind = request.args.get("kind", "bank_pay")
    if kind not in ("bank_pay", "bank_collect"):
        kind = "bank_pay"
    fields = {k: request.args.get(k) for k in ("player", "amount", "note")}
    if not request.args.get("amount"):
        return page("money.html", game, kind=kind, fields=fields, option=None)
    option = previewed(game, kind, fields)
    back = url_for("banker.dashboard", game_id=game.id)
    return confirming("money.html", game, back, kind=kind, fields=fields, option=option)


@bp.get("/g/<game_id>/transfer")
@action_page
def transfer(game_id: str):
    game = load(game_id)
    fields = {k: request.args.get(k) for k in ("from", "to", "amount", "note")}
    if not request.args.get("amount"):
        return page("transfer.html", game, fields=fields, option=None)
    option = previewed(game, "transfer", fields)
    back = url_for("banker.dashboard", game_id=game.id)
    return confirming("transfer.html", game, back, fields=fields, option=option)


@bp.get("/g/<game_id>/undo")
def undo(game_id: str):
    game = load(game_id)
    back = url_for("banker.dashboard", game_id=game.id)
    return confirming("confirm.html", game, back, option=undo_offer(game))


# -- the one door ------------------------------------------------------------------------


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
    """The banker's tap through the one door; a refusal goes back where it came from."""
    try:
        done = bank.perform(
            game.id,
            kind,
            payload,
            key=request.form.get("key") or None,
            expected_version=expected_version(),
        )
    except RuleError as refusal:
        if refusal.rule == "stale":  # drawn for an earlier moment: Back, another phone
            return stale_tap(game.id, kind, url_for("banker.dashboard", game_id=game.id))
        flash(refused(refusal), "error")
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
    pass_on(done.game)  # the page the answer leads to draws the game as the action left it
    text = said(done.action.lines, bank.edition_of(done.game), done.action.text, kind == UNDO)
    flash(_("Already done: %(what)s", what=text) if done.repeated else text, "done")
    session[DONE_AT] = [game_id, done.game.version]  # what its Undo may take back (_flash.html)
    state = bank.state_of(done.game)
    if state.ended:
        return redirect(url_for("endgame.results", game_id=game_id))  # K4, SG3: who won
    if state.auction:
        return redirect(url_for("endgame.auction", game_id=game_id))
    return redirect(url_for("banker.dashboard", game_id=game_id))


@bp.app_context_processor
def turn_helpers() -> dict:
    """The open debts, on every page of the banker's (see _flash.html)."""
    return {"debts_of": turns.debt_panels, "ways_out": turns.ways_out}
