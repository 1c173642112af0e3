"""English, Spanish and Japanese: chosen from the browser or ?lang=, for every sentence."""

from __future__ import annotations

from ..support import BOARDWALK, GREEN, PARK_PLACE


def test_the_browser_s_language_is_used(client):
    page = client.get("/new", headers={"Accept-Language": "ja,en;q=0.5"}).text
    assert '<html lang="ja">' in page
    assert "新しいゲーム" in page and "ゲーム開始" in page


def test_lang_switches_and_is_remembered(client):
    assert "Partida nueva" in client.get("/?lang=es").text
    assert "Partida nueva" in client.get("/", headers={"Accept-Language": "en"}).text
    assert "New game" in client.get("/?lang=en").text


def test_a_spanish_table_gets_spanish_sentences_names_and_euros(table):
    table.new_game(("Ana", "Bea"), edition="es")
    table.own(0, BOARDWALK)
    page = table.read(f"/g/{table.id}/land/1/{BOARDWALK}?lang=es")
    assert "Bea paga a Ana 50 € de alquiler por Paseo del Prado" in page
    history = table.read(f"/g/{table.id}/history")
    assert "Ana compra Paseo del Prado por 400 €" in history


def test_a_refusal_is_explained_in_the_reader_s_language(table):
    table.new_game(("Ana", "Bea"))
    money = f"/g/{table.id}/money?kind=bank_collect&player=0&amount=2000"
    assert "Ana は $2,000 を払えません: $500 不足" in table.read(f"{money}&lang=ja")
    assert "Ana no puede pagar $2,000: le faltan $500" in table.read(f"{money}&lang=es")


def test_the_same_log_reads_in_each_language(table):
    table.new_game(("Ana", "Bea"))
    table.do("pass_go", player=1)
    assert "Bea collects $200 salary" in table.read(f"/g/{table.id}/history?lang=en")
    assert "Bea cobra $200 de sueldo" in table.read(f"/g/{table.id}/history?lang=es")
    assert "Bea が給料 $200 を受け取る" in table.read(f"/g/{table.id}/history?lang=ja")


def test_every_text_is_translated_into_spanish_and_japanese():
    from babel.messages.pofile import read_po
    from tablebank.paths import ROOT

    folder = ROOT / "app" / "translations"
    with open(folder / "messages.pot", "rb") as pot:
        wanted = {m.id for m in read_po(pot) if m.id}
    for language in ("es", "ja"):
        with open(folder / language / "LC_MESSAGES" / "messages.po", "rb") as po:
            done = {m.id for m in read_po(po) if m.id and m.string}
        assert wanted <= done, (language, sorted(wanted - done)[:5])


def test_a_player_s_turn_is_announced_in_the_reader_s_language(table, app):
    """The live part's spoken news ("Your turn") comes from the catalogues too, not only the
    page's visible words: it is marked for them where Python writes it (filters.news)."""
    table.new_game(("Ana", "Bea"))
    phone = app.test_client()
    for lang, said in (("en", "Your turn"), ("es", "Tu turno"), ("ja", "あなたの番です")):
        page = table.page(f"{table.phone(0)}?lang={lang}", phone)
        assert f'<li data-key="yours">{said}</li>' in page


def marked_for_the_catalogues() -> set[str]:
    """The msgids `pybabel extract` finds in the code, with the keywords of the README's
    command: what the catalogues can translate once refreshed."""
    from babel.messages.extract import extract_from_dir
    from tablebank.paths import ROOT

    keywords = {
        "_": None,
        "gettext": None,
        "N_": None,
        "say": None,
        "RuleError": (2,),
        "Phrase": None,
        "whole_number": (2,),
        "Np_": (1, 2),
    }
    found = extract_from_dir(ROOT / "app", [("**.py", "python")], keywords=keywords)
    return {message if isinstance(message, str) else message[0] for *_, message, _c, _x in found}


def test_every_sentence_of_the_money_and_mortgage_actions_is_marked_for_the_catalogues():
    """A payment by hand (with and without a note: the same sentence with its note) and a
    lifted mortgage (M3; at once, M4, in a trade and in a bankruptcy) read in Spanish and
    Japanese only if their words are where extraction finds them, not built up in code."""
    from ..support import CONNECTICUT, LIGHT_BLUE, PARK_PLACE, Table

    table = Table().own(0, PARK_PLACE, mortgaged=[PARK_PLACE])
    said = []
    for note in ({}, {"note": "pizza"}):
        said += table.do("bank_pay", player=0, amount=5, **note).lines
        said += table.do("bank_collect", player=0, amount=5, **note).lines
        said += table.do("transfer", **{"from": 0, "to": 1, "amount": 5}, **note).lines
    said += table.do("lift", player=0, deed=PARK_PLACE).lines
    table.do("mortgage", player=0, deed=PARK_PLACE)
    trade = {"give": {"deeds": [PARK_PLACE]}, "take": {"cash": 10}, "lift": [PARK_PLACE]}
    said += table.do("trade", player=0, partner=1, **trade).lines
    debtor = Table().own(1, *LIGHT_BLUE, houses=4).own(0, PARK_PLACE, mortgaged=[PARK_PLACE])
    debtor.put(0, cash=10).throws_onto(0, CONNECTICUT)
    said += debtor.do("bankrupt", player=0, lift=[PARK_PLACE]).lines
    marked = marked_for_the_catalogues()
    unmarked = [template for template, _ in said if template not in marked]
    assert not unmarked, unmarked


def test_the_product_s_edition_names_are_written_in_the_reader_s_language(table, monkeypatch):
    """The dashboard's and the table screen's heading and the new-game page's choice name
    the edition in the reader's language: a Japanese page read "United States (classic,
    before 2008)". Each product edition's name is marked for the catalogues, and the pages
    pass it through them (a stand-in catalogue here, until the catalogues are refreshed)."""
    from tablebank.edition_files import load_editions
    from tablebank.web import words

    names = {edition.name for edition in load_editions().values()}
    assert names == set(words.EDITION_NAMES) and names <= marked_for_the_catalogues()
    monkeypatch.setattr(words, "gettext", lambda text: f"«{text}»" if text in names else text)
    table.new_game(("Ana", "Bea"))
    assert ">«United States (classic, before 2008)»</h1>" in table.page(f"/g/{table.id}/")
    assert "<h1>«United States (classic, before 2008)»</h1>" in table.page(table.screen())
    assert ">«United Kingdom»</option>" in table.page("/new")


def bankruptcy_sentences(lang: str, app) -> tuple[str, str]:
    """K2 and K3 with one deed each, as the history reads them in `lang`: Ana, with $10 and
    Mediterranean Avenue, owes Bea's four railroads $200 (K2), or the luxury tax (K3)."""
    from tablebank.web.words import said

    from ..support import LUXURY_TAX, MEDITERRANEAN, RAILROADS, US, Table

    to_bea = Table().own(1, *RAILROADS).own(0, MEDITERRANEAN).put(0, cash=10)
    to_bea.throws_onto(0, RAILROADS[1])
    to_bank = Table().own(0, MEDITERRANEAN).put(0, cash=10)
    to_bank.throws_onto(0, LUXURY_TAX)
    with app.test_request_context(f"/?lang={lang}"):
        return tuple(said(table.do("bankrupt", player=0).lines, US) for table in (to_bea, to_bank))


def test_k2_k3_a_bankruptcy_s_deeds_are_named_once_and_agree_in_spanish_and_japanese(app):
    """K2, K3: the count of deeds handed over already says "deeds" ("1 título", "権利書 1
    枚"): Japanese read "現金と権利書 権利書 1 枚" and Spanish "1 título incluidos"."""
    to_bea, to_bank = bankruptcy_sentences("es", app)
    assert "Bea se queda el efectivo y 1 título" in to_bea
    assert "el banco se queda con todo, también con 1 título" in to_bank
    to_bea, to_bank = bankruptcy_sentences("ja", app)
    assert "Bea が現金と 権利書 1 枚 を受け取る" in to_bea
    assert "銀行が 権利書 1 枚 を含むすべてを受け取る" in to_bank
    assert "権利書 権利書" not in to_bea + to_bank


def test_a_refusal_s_plain_numbers_are_grouped_as_the_reader_s_language_writes_them(table):
    """A refusal's "between 1 and 1,000,000" is English: Spanish groups with a point."""
    table.new_game(("Ana", "Bea"))
    money = f"/g/{table.id}/money?kind=bank_collect&player=0&amount=2000000"
    assert "entre 1 y 1.000.000" in table.read(f"{money}&lang=es")
    assert "1 から 1,000,000 の間" in table.read(f"{money}&lang=ja")
    assert "between 1 and 1,000,000" in table.read(f"{money}&lang=en")


def test_k1_k3_a_debt_to_the_bank_reads_al_banco_in_spanish(table):
    """K1, K3: Spanish says "al banco", never "a el banco"; and the history, which reads the
    log's lines back from JSON, said "Ana paga a the bank", in English. Ana pays her luxury
    tax late; Bea, with nothing, goes bankrupt over hers."""
    from ..support import LUXURY_TAX

    table.new_game(("Ana", "Bea", "Cal"))
    table.act("bank_collect", player=0, amount=1490)
    table.act("land", player=0, space=LUXURY_TAX)  # $75 owed, $10 in cash
    table.act("bank_pay", player=0, amount=100)
    table.act("pay_debt", player=0)
    table.act("bank_collect", player=1, amount=1490)
    table.act("land", player=1, space=LUXURY_TAX)
    table.act("bankrupt", player=1)
    spanish = table.read(f"/g/{table.id}/history?lang=es")
    assert "Ana paga al banco los $75 que debía" in spanish
    assert "Bea quiebra debiendo $75 al banco" in spanish
    assert "a el banco" not in spanish and "the bank" not in spanish
    japanese = table.read(f"/g/{table.id}/history?lang=ja")
    assert "Ana は銀行に借りの $75 を払います" in japanese
    assert "Bea は銀行への $75 を払えず破産" in japanese


def test_b5_the_bank_s_last_hotel_is_counted_in_the_singular_in_each_language(app):
    """B5: the bank's count of buildings agrees with its noun: it said "The bank has 1
    hotels", "El banco tiene 1 hoteles"."""
    from tablebank.web.words import refused

    from ..support import GREEN, Table

    table = Table().own(0, *GREEN, houses=4)
    table.state.hotels = 1
    error = table.refused("build", player=0, group="green", levels=[5, 5, 5])
    for lang, words in (
        ("en", "The bank has 1 hotel; this needs 3"),
        ("es", "El banco tiene 1 hotel; esto necesita 3"),
        ("ja", "銀行には ホテル 1 軒 しかありませんが、必要なのは 3 軒です"),
    ):
        with app.test_request_context(f"/?lang={lang}"):
            assert refused(error) == words


def test_b1_a_colour_group_of_the_us_board_is_named_in_the_reader_s_language(table):
    """A group's name is its colour, not words printed on the board: the build page and the
    rules' sentences (B1: the whole group; the mortgage page's sale of its buildings) name it
    in Spanish and Japanese on the US edition, whose streets keep their printed names; the
    API's refusal keeps the edition's name."""
    table.new_game(("Ana", "Bea"))
    table.do("bank_pay", player=0, amount=10_000)
    table.own(0, *GREEN)
    table.do("build", player=0, group="green", levels=[1, 1, 1])
    build = table.page(f"/g/{table.id}/build?player=0&lang=es")
    assert "<h2>Verde <small>" in build
    mortgages = table.read(f"/g/{table.id}/mortgages?player=0&lang=es")
    assert "Ana vende los edificios de Verde por $300" in mortgages
    assert "Pacific Avenue" in mortgages  # a street's printed name stays as the board has it
    table.own(1, PARK_PLACE)
    refusal = table.preview("build", player=1, group="dark_blue", levels=[1, 1])
    assert refusal.get_json()["error"] == "Bea does not hold the whole Dark blue group: Boardwalk"
    mortgages = table.read(f"/g/{table.id}/mortgages?player=0&lang=ja")
    assert "Ana が 緑 の建物を $300 で売却" in mortgages


def test_a_percent_in_the_words_reads_as_one_in_each_language_page_after_page(table):
    """Words without values are kept per language (i18n.template_gettext): "10%%" in the
    catalogue is "10%" on the page, the first time and the next, in English and Spanish."""
    table.new_game(("Ana", "Bea"))
    table.own(0, BOARDWALK)
    mortgages = f"/g/{table.id}/mortgages?player=0"
    for _ in range(2):
        english = table.read(f"{mortgages}&lang=en")
        assert "lifting costs that plus 10%, rounded up" in english
        assert "10%%" not in english
        spanish = table.read(f"{mortgages}&lang=es")
        assert "cuesta eso más un 10 %, redondeado hacia arriba" in spanish
        assert "10 %%" not in spanish


def test_p3_the_things_one_action_did_are_joined_as_the_reader_s_language_joins_sentences(app):
    """P3: Ana's throw onto Bea's Boardwalk moves her and pays the rent, two sentences in one
    entry: English and Spanish join them with a semicolon, Japanese ends the first with "。"."""
    from tablebank.web.words import said

    from ..support import US, Table

    lines = Table().own(1, BOARDWALK).throws_onto(0, BOARDWALK).lines
    rent = f"${US.spaces[BOARDWALK].rent[0]}"
    joined = {}
    for lang in ("en", "es", "ja"):
        with app.test_request_context(f"/?lang={lang}"):
            joined[lang] = said(lines, US)
    assert joined["en"].startswith("Ana throws 7 and moves to Boardwalk; Ana pays Bea " + rent)
    assert "Boardwalk; Ana paga" in joined["es"]
    first, second = joined["ja"].split("。")
    assert "Boardwalk" in first and rent in second and ";" not in joined["ja"]
