"""PAX buttons say what a card or a legion costs, so two cards of one name never look alike."""

from __future__ import annotations

import re
from collections import Counter

from tests.web.pages_play import bot_game, drive_until, option_buttons
from tests.web.support import sign_in_with

PRICE = re.compile(r" · (\d+) (aureus|aurei)\b")


def _labels_of(client, game_id: str, ctype: str) -> list[dict]:
    page = client.get(f"/games/{game_id}").data.decode()
    return [b for b in option_buttons(page) if b["command"]["type"] == ctype]


def test_keep_and_buy_buttons_carry_their_price_in_words(app, client, web_sessions, web_config):
    game_id = bot_game(web_sessions, web_config, "pax", 3)
    sign_in_with(app, client, "ann@example.org")
    keep = drive_until(web_sessions, web_config, game_id,
                       lambda d: any(o["type"] == "keep_card" for o in d.get("options") or []))
    assert keep is not None
    buttons = _labels_of(client, game_id, "keep_card")
    assert buttons
    for button in buttons:
        match = PRICE.search(button["label"])
        assert match, button["label"]
        assert (match.group(2) == "aureus") == (match.group(1) == "1"), "1 aureus, 2 aurei"
    # two cards of one name at different prices no longer read alike
    by_label = Counter(b["label"] for b in buttons)
    for label, n in by_label.items():
        if n > 1:
            prices = {PRICE.search(b["label"]).group(1) for b in buttons if b["label"] == label}
            assert len(prices) == 1

    buy = drive_until(web_sessions, web_config, game_id,
                      lambda d: any(o["type"] == "buy_legion" for o in d.get("options") or []))
    if buy is not None:
        for button in _labels_of(client, game_id, "buy_legion"):
            legion = button["command"]["args"]["legion"]
            price = buy["context"]["prices"][str(legion)]
            assert f" · {price} {'aureus' if price == 1 else 'aurei'}" in button["label"], button["label"]


def test_the_price_reads_right_in_russian_and_german(app):
    from service.web import pages

    from flask_babel import force_locale

    with app.test_request_context():
        with force_locale("ru"):
            russian = [pages._with_price("X", n) for n in (1, 2, 5, 21)]
        with force_locale("de"):
            german = [pages._with_price("X", n) for n in (1, 2)]
    assert russian == ["X · 1 ауреус", "X · 2 ауреуса", "X · 5 ауреусов", "X · 21 ауреус"]
    assert german == ["X · 1 Aureus", "X · 2 Aurei"]
