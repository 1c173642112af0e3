"""The result of the banker's tap ("The bank pays Ana $200", with its own Undo) is drawn above
the dashboard's live part: once another device (a phone, the banker's second tab, a program
with the key) undoes or follows that action, the result never goes on claiming it or offering
an Undo the bank would refuse, in headless Chromium at a phone's size. The news is said in the
live region; a focus inside the result that goes lands on the page's heading, a focus
elsewhere stays."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from .flows import Api, give_cash

PAID = "The bank pays Ana $200"


def paid_on_the_dashboard(phone: Page, live_server: str) -> Api:
    """The banker's tap: the bank pays Ana $200; the dashboard shows it with its Undo."""
    game = Api(live_server)
    game.banker(phone)
    give_cash(phone, "Ana", 200)
    result = phone.locator(".flash.done")
    expect(result).to_contain_text(PAID)
    expect(result.get_by_role("button", name="Undo")).to_be_enabled()
    return game


def test_a_result_undone_on_another_device_goes_and_its_focused_undo_hands_focus_to_the_heading(
    phone: Page, live_server
):
    game = paid_on_the_dashboard(phone, live_server)
    phone.locator(".flash.done").get_by_role("button", name="Undo").focus()
    game.act("undo")
    expect(phone.get_by_role("link", name=re.compile("^Undo: "))).to_have_count(0)
    expect(phone.locator(".flash.done")).to_have_count(0)
    expect(phone.locator("#announce")).to_contain_text(f"Undo: {PAID}")
    expect(phone.locator("h1")).to_be_focused()


def test_a_result_followed_by_another_action_goes_and_the_focus_elsewhere_stays(
    phone: Page, live_server
):
    game = paid_on_the_dashboard(phone, live_server)
    history = phone.get_by_role("link", name="History", exact=True)
    history.focus()
    game.act("bank_pay", player=1, amount=10)
    expect(phone.get_by_role("link", name="Undo: The bank pays Bea $10")).to_be_visible()
    expect(phone.locator(".flash.done")).to_have_count(0)
    expect(history).to_be_focused()
