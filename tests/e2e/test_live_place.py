"""Live updates that keep your place (issue 22): another device acts while a player has their
"Pay someone" panel open on a phone; the update is merged into the page, not swapped in
whole, and the news is said in the page's polite live region. Headless Chromium, 390x844."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, Route, expect

from .flows import PHONE, player_links, start_game


def open_phone(browser: Browser, url: str) -> Page:
    page = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    page.goto(url)
    return page


def banker_pays(banker: Page, game_url: str, payer_seat: int, payee: str, amount: int) -> None:
    """The banker's quick money on a player's page: who is paid, then the amount."""
    banker.goto(f"{game_url}player/{payer_seat}")
    banker.get_by_label(payee).check()
    banker.get_by_role("button", name=f"${amount}", exact=True).click()


def test_an_update_keeps_the_open_pay_panel_the_chosen_payee_typed_amount_and_focus(
    browser: Browser, phone: Page, live_server
):
    start_game(phone, live_server)
    game_url = phone.url.split("?")[0].split("codes")[0]
    ana = open_phone(browser, player_links(phone, live_server)["Ana"])
    ana.get_by_text("Pay someone").click()
    ana.get_by_placeholder("Other amount").fill("75")
    payee = ana.get_by_label("Ana pays Bea")
    payee.check()
    payee.focus()

    banker_pays(phone, game_url, 1, "Bea pays Ana", 50)

    expect(ana.locator(".history")).to_contain_text("Bea pays Ana $50")  # the update came
    expect(ana.locator("details.pay")).to_have_attribute("open", "")
    expect(payee).to_be_checked()
    expect(ana.get_by_placeholder("Other amount")).to_have_value("75")
    expect(payee).to_be_focused()
    ana.context.close()


def test_the_live_region_says_a_payment_once(browser: Browser, phone: Page, live_server):
    start_game(phone, live_server)
    game_url = phone.url.split("?")[0].split("codes")[0]
    ana = open_phone(browser, player_links(phone, live_server)["Ana"])
    region = ana.locator("#announce")
    expect(region).to_have_attribute("aria-live", "polite")
    expect(region).to_have_text("")  # nothing is said when the page opens

    banker_pays(phone, game_url, 1, "Bea pays Ana", 50)
    expect(region).to_have_text("Bea pays Ana $50")

    banker_pays(phone, game_url, 1, "Bea pays the bank", 20)  # no news of Ana's: not said
    expect(ana.locator("#live")).to_have_attribute("data-version", "2")
    expect(region).to_have_text("Bea pays Ana $50")
    ana.context.close()


def test_the_merging_script_that_failed_to_load_once_is_fetched_again(
    browser: Browser, phone: Page, live_server
):
    """The script that merges updates is fetched at the first one; if the network failed it
    then, that update is put in whole, and the next one fetches the script again and merges:
    the open pay panel stays open."""
    start_game(phone, live_server)
    game_url = phone.url.split("?")[0].split("codes")[0]
    ana = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    failed: list[str] = []

    def fail_once(route: Route) -> None:
        if failed:
            route.continue_()
        else:
            failed.append(route.request.url)
            route.abort("internetdisconnected")

    ana.route(re.compile(r"/static/idiomorph"), fail_once)
    ana.goto(player_links(phone, live_server)["Ana"])
    banker_pays(phone, game_url, 1, "Bea pays Ana", 50)
    expect(ana.locator(".history")).to_contain_text("Bea pays Ana $50")  # put in whole
    assert failed
    ana.get_by_text("Pay someone").click()
    banker_pays(phone, game_url, 1, "Bea pays Ana", 20)
    expect(ana.locator(".history")).to_contain_text("Bea pays Ana $20")  # merged
    expect(ana.locator("details.pay")).to_have_attribute("open", "")
    ana.context.close()
