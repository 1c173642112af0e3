"""Debts and bankruptcy (K1-K3, K5, SG3).

A payment the rules call for and the cash does not cover waits as a debt in `state.pending`
(`Act.owe`): the move and the salary have happened, and the debtor raises the money (sells
buildings, mortgages, trades) and pays, or, only when all they could raise falls short,
goes bankrupt to the creditor with everything they then hold.
"""

from __future__ import annotations

from dataclasses import dataclass

from .actions import ALWAYS, TURNS, Act, action
from .auctions import next_deed_lot, open_auction, withdraw_bid
from .edition import Edition
from .endgame import end
from .errors import RuleError
from .property import await_choices, say_back_to_bank, sell_group_buildings, settle_mortgaged
from .state import DEBT, GameState, PlayerState
from .wealth import raisable
from .words import N_


@dataclass(frozen=True)
class DebtFigures:
    """K1: one set of figures for a debtor, wherever a page shows the debt."""

    seat: int
    owed: int  # all the debtor owes now
    cash: int
    raisable: int  # cash + mortgage values + half of what the buildings cost
    creditor: int | None  # the one player owed; None: the bank, or several players (K5)

    @property
    def short(self) -> int:
        return max(self.owed - self.cash, 0)

    @property
    def bankrupt(self) -> bool:
        """K1: bankruptcy only when all the debtor could raise falls short."""
        return self.raisable < self.owed


def creditor_of(state: GameState, seat: int) -> int | None:
    """K5: the player a debtor owes, when they owe one player only (what they owe the bank
    beside it goes unpaid); else the bank."""
    players = {debt.creditor for debt in state.debts_of(seat)} - {None}
    return players.pop() if len(players) == 1 else None


def debt_figures(state: GameState, edition: Edition, seat: int) -> DebtFigures | None:
    owed = state.owed_by(seat)
    if not owed:
        return None
    could = raisable(state, edition, seat)
    cash = state.players[seat].cash
    return DebtFigures(seat, owed, cash, could, creditor_of(state, seat))


def debtors(state: GameState) -> list[int]:
    """The seats that owe a debt, in the order the debts arose."""
    seats: list[int] = []
    for item in state.pending:
        if item.what == DEBT and item.seat not in seats:
            seats.append(item.seat)
    return seats


def owing(act: Act) -> tuple[PlayerState, int]:
    player = act.player()
    owed = act.state.owed_by(player.seat)
    if not owed:
        raise RuleError("K1", "{player} owes nothing", player=player)
    return player, owed


@action("pay_debt", label=N_("Pay the debt"), rules="K1", needs=("player",), phone=ALWAYS)
def pay_debt(act: Act) -> None:
    """K1: the debtor pays everything they owe at once, now that the cash covers it."""
    player, owed = owing(act)
    if player.cash < owed:
        raise RuleError(
            "K1",
            "{player} is {short:money} short: sell buildings, mortgage or trade first",
            player=player,
            short=owed - player.cash,
            owed=owed,
            cash=player.cash,
            raisable=raisable(act.state, act.edition, player.seat),
        )
    for debt in act.state.debts_of(player.seat):
        act.state.pending.remove(debt)
        creditor = None if debt.creditor is None else act.state.players[debt.creditor]
        act.pay(player, creditor, debt.amount)
        if debt.fee and act.state.settings.free_parking_jackpot:
            act.state.pot += debt.amount
        if creditor is None:  # whole, not "{creditor}": Spanish says "al banco", not "a el banco"
            act.say(
                "{player} pays the bank the {amount:money} owed",
                player=player.name,
                amount=debt.amount,
            )
        else:
            act.say(
                "{player} pays {creditor} the {amount:money} owed",
                player=player.name,
                creditor=creditor.name,
                amount=debt.amount,
            )


@action(
    "bankrupt",
    label=N_("Declare bankruptcy"),
    rules="K1-K3, K5, SG3; lift: the creditor's lift-now choice for the mortgaged deeds, "
    "made at the table (M4); left out, each waits for the creditor's choice",
    needs=("player",),
    may=("lift",),
    phone=TURNS,
    others=("lift",),  # the creditor's choice (M4): never the debtor's phone's
)
def bankrupt(act: Act) -> None:
    """K1-K3, K5, SG3: a debtor who cannot raise what they owe leaves the game, and the
    creditor (a player, or the bank) takes what they hold."""
    debtor, owed = owing(act)
    could = raisable(act.state, act.edition, debtor.seat)
    if could >= owed:
        raise RuleError(
            "K1",
            "{player} could still raise {raisable:money} by selling and mortgaging: "
            "enough for the {owed:money} owed",
            player=debtor,
            owed=owed,
            raisable=could,
        )
    seat = creditor_of(act.state, debtor.seat)
    creditor = None if seat is None else act.state.players[seat]
    if creditor is not None:  # K5: a fee owed to the bank beside the player's debt goes unpaid
        owed = sum(d.amount for d in act.state.debts_of(debtor.seat) if d.creditor == seat)
    if creditor is None:
        act.say(
            "{player} is bankrupt, owing {amount:money} to the bank",
            player=debtor.name,
            amount=owed,
        )
    else:
        act.say(
            "{player} is bankrupt, owing {amount:money} to {creditor}",
            player=debtor.name,
            amount=owed,
            creditor=creditor.name,
        )
    leave_game(act, debtor, creditor)


def leave_game(act: Act, debtor: PlayerState, creditor: PlayerState | None) -> None:
    state = act.state
    second_short = state.settings.mode == "short" and state.bankruptcies >= 1
    ends = second_short or len(state.in_play()) == 2  # SG3, K4: no auction after (K3)
    withdraw_bid(act, debtor)  # first: the cash a standing bid kept goes to the creditor too
    state.pending = [item for item in state.pending if item.seat != debtor.seat]
    state.offers = [offer for offer in state.offers if not offer.concerns(debtor.seat)]
    for debt in state.waiting(DEBT):
        if debt.creditor == debtor.seat:  # what others owe the debtor is owed to the creditor
            debt.creditor = None if creditor is None else creditor.seat
    if second_short:
        hand_everything(act, debtor, creditor)  # SG3
    elif creditor is not None:
        to_player(act, debtor, creditor, asked=ends)  # K2
    else:
        to_bank(act, debtor, auctions=not ends)  # K3
    debtor.bankrupt, debtor.cash, debtor.jail_free = True, 0, []
    debtor.in_jail, debtor.jail_tries = False, 0  # out of the game, out of jail (J3)
    state.bankruptcies += 1
    if ends:
        end(act)  # SG3, K4


def sell_all_buildings(act: Act, debtor: PlayerState) -> None:
    """Buildings stand only on whole groups (B1), so a built street of the debtor's means a
    whole group of theirs; each group's are sold at half price, said with what goes back to
    the bank (the banker takes it off the board)."""
    houses = hotels = 0
    for group in act.edition.groups.values():
        if any(
            act.state.deeds[i].houses and act.state.deeds[i].owner == debtor.seat
            for i in group.deeds
        ):
            sold = sell_group_buildings(act, debtor, group.deeds[0])
            houses, hotels = houses + sold[0], hotels + sold[1]
    say_back_to_bank(act, houses, hotels)


def to_player(act: Act, debtor: PlayerState, creditor: PlayerState, asked: bool) -> None:
    """K2: buildings sold at half, then cash, deeds and cards to the creditor; M4 on mortgages:
    the creditor's choice comes with the bankruptcy (`lift`), or waits for them. `asked`: the
    game ends with it, so nothing may wait: what is not lifted is kept."""
    sell_all_buildings(act, debtor)
    act.pay(debtor, creditor, debtor.cash)
    held = [act.edition.spaces[i] for i in act.state.held_by(debtor.seat)]
    for space in held:
        act.state.deeds[space.index].owner = creditor.seat
    creditor.jail_free.extend(debtor.jail_free)
    mortgaged = [s for s in held if act.state.deeds[s.index].mortgaged]
    if creditor_asked(act) or asked:
        lift_now = {int(x) for x in (act.payload.get("lift") or []) if str(x).isdigit()}
        settle_mortgaged(act, creditor, mortgaged, lift_now, owe=True)
    else:
        await_choices(act, creditor, mortgaged)
    act.say("{player} takes the cash and {count:deeds}", player=creditor.name, count=len(held))


def creditor_asked(act: Act) -> bool:
    """M4: the bankruptcy carries the creditor's lift-now choice (`lift`, maybe empty: keep
    them all), or, under rules 2, a bankruptcy without it kept every mortgaged deed."""
    return "lift" in act.payload or not act.state.settings.receiver_chooses


def to_bank(act: Act, debtor: PlayerState, auctions: bool = True) -> None:
    """K3: everything to the bank; every deed unmortgaged and auctioned (not when the game
    ends with this bankruptcy: `auctions` False); cards to their decks."""
    sell_all_buildings(act, debtor)
    act.pay(debtor, None, debtor.cash)
    held = act.state.held_by(debtor.seat)
    for index in held:
        act.state.deeds[index].owner, act.state.deeds[index].mortgaged = None, False
    if auctions and not act.state.settings.no_auctions:
        act.state.to_auction.extend(held)
    act.say("the bank takes everything, {count:deeds} included", count=len(held))
    if auctions and act.state.to_auction and not act.state.auction:
        open_auction(act, next_deed_lot(act))


def hand_everything(act: Act, debtor: PlayerState, creditor: PlayerState | None) -> None:
    """SG3: the second bankruptcy of a short game: everything, buildings included, as it is."""
    if creditor is None:
        to_bank(act, debtor, auctions=False)  # the game ends at once
        return
    act.pay(debtor, creditor, debtor.cash)
    for index in act.state.held_by(debtor.seat):
        act.state.deeds[index].owner = creditor.seat
    creditor.jail_free.extend(debtor.jail_free)
