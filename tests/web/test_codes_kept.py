"""QR codes drawn once per link: the codes page shown again draws none, and a new link for a
lost phone draws only the new code (the old link's code is never shown again)."""

from __future__ import annotations

import qrcode
from tablebank.web import codes


def test_a_code_is_drawn_once_per_link_until_the_link_changes(table, monkeypatch):
    table.new_game(("Ana", "Bea", "Cal"))
    drawn: list[str] = []
    make = qrcode.make

    def counting(data, **options):
        drawn.append(data)
        return make(data, **options)

    monkeypatch.setattr(qrcode, "make", counting)
    codes.qr_svg.cache_clear()
    first = table.page(f"/g/{table.id}/codes")
    assert len(drawn) == 5  # three players, the table, the banker
    again = table.page(f"/g/{table.id}/codes")
    assert len(drawn) == 5 and first.count(table.phone(2)) == again.count(table.phone(2))
    old = table.phone(1)
    table.client.post(f"/g/{table.id}/codes/1/new")
    after = table.page(f"/g/{table.id}/codes")
    assert len(drawn) == 6 and drawn[-1].endswith(table.phone(1))
    assert old not in after and table.phone(1) in after
