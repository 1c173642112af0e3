"""English, Spanish and Japanese: chosen from the browser or ?lang=, for every sentence."""

from __future__ import annotations

import json

from .test_pages import new_game


def do(client, game_id, kind, **payload):
    return client.post(f"/g/{game_id}/do", data={"kind": kind, "payload": json.dumps(payload)})


def test_the_browser_s_language_is_used(client):
    page = client.get("/new", headers={"Accept-Language": "ja,en;q=0.5"}).text
    assert '<html lang="ja">' in page
    assert "新しいゲーム" in page and "ゲーム開始" in page


def test_lang_switches_and_is_remembered(client):
    assert "Partida nueva" in client.get("/?lang=es").text
    assert "Partida nueva" in client.get("/", headers={"Accept-Language": "en"}).text
    assert "New game" in client.get("/?lang=en").text


def test_a_spanish_table_gets_spanish_sentences_names_and_euros(client):
    game_id = new_game(client, ("Ana", "Bea"), edition="es")
    do(client, game_id, "buy", player=0, deed=39)
    page = client.get(f"/g/{game_id}/land/1/39?lang=es").text
    assert "Bea paga a Ana 50 € de alquiler por Paseo del Prado" in page
    history = client.get(f"/g/{game_id}/history").text
    assert "Ana compra Paseo del Prado por 400 €" in history


def test_a_refusal_is_explained_in_the_reader_s_language(client):
    game_id = new_game(client, ("Ana", "Bea"))
    page = client.get(f"/g/{game_id}/money?kind=bank_collect&player=0&amount=2000&lang=ja").text
    assert "Ana は $2,000 を払えません: $500 不足" in page
    page = client.get(f"/g/{game_id}/money?kind=bank_collect&player=0&amount=2000&lang=es").text
    assert "Ana no puede pagar $2,000: le faltan $500" in page


def test_the_same_log_reads_in_each_language(client):
    game_id = new_game(client, ("Ana", "Bea"))
    do(client, game_id, "pass_go", player=1)
    assert "Bea collects $200 salary" in client.get(f"/g/{game_id}/history?lang=en").text
    assert "Bea cobra $200 de sueldo" in client.get(f"/g/{game_id}/history?lang=es").text
    assert "Bea が給料 $200 を受け取る" in client.get(f"/g/{game_id}/history?lang=ja").text


def test_every_text_is_translated_into_spanish_and_japanese():
    from babel.messages.pofile import read_po
    from tablebank import ROOT

    folder = ROOT / "app" / "translations"
    with open(folder / "messages.pot", "rb") as pot:
        wanted = {m.id for m in read_po(pot) if m.id}
    for language in ("es", "ja"):
        with open(folder / language / "LC_MESSAGES" / "messages.po", "rb") as po:
            done = {m.id for m in read_po(po) if m.id and m.string}
        assert wanted <= done, (language, sorted(wanted - done)[:5])
