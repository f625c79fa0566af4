"""PAX buttons say what a card or a legion costs, so two cards of one name never look alike."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from service.words import telling

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


# --------------------------------------------------------------------------- amounts and reasons in words

#: A laying question as the engine asks it (its English is not what a reader gets).
def _lay(cost: int, *, can_lay: bool = True, hand: int = 3, aurei: int = 0, limit: int = 0) -> dict:
    return {"prompt": "engine", "prompt_key": "pax.lay",
            "prompt_args": {"cost": cost, "laid": cost, "can_lay": can_lay, "hand": hand, "aurei": aurei,
                            "limit": limit}}


#: A number followed by the wrong form of the coin: "1 aurei", "2 Aureus", "1 ауреусов"...
WRONG_FORM = re.compile(r"(?<![0-9])(1 (aurei|Aurei|ауреуса|ауреусов)|([2-9]|1[0-9]) (aureus|Aureus)"
                        r"|(?<!1)[2-4] ауреусов|(?<!1)[5-9] ауреуса?\b|1[0-9] ауреуса?\b)")


@pytest.mark.parametrize("language, one, two, five", [
    ("en", "this one costs 1 aureus", "this one costs 2 aurei", "this one costs 5 aurei"),
    ("de", "diese kostet 1 Aureus", "diese kostet 2 Aurei", "diese kostet 5 Aurei"),
    ("ru", "эта стоит 1 ауреус", "эта стоит 2 ауреуса", "эта стоит 5 ауреусов"),
])
def test_the_price_of_laying_agrees_with_its_number(language, one, two, five):
    said = [telling.decision_prompt(language, _lay(n), "pax") for n in (1, 2, 5)]
    assert one in said[0] and two in said[1] and five in said[2], said
    assert "engine" not in said[0]
    free = telling.decision_prompt(language, _lay(0), "pax")
    assert not re.search(r"\b0\b", free), "the first card is free, not 0 aurei"


@pytest.mark.parametrize("language", ["en", "de", "ru"])
def test_every_pax_sentence_with_aurei_agrees_with_its_number(language):
    for n in range(0, 25):
        for event in ({"type": "CardLaid", "data": {"seat": 0, "card": "W03", "cost": n}},
                      {"type": "IncomeTaken", "data": {"seat": 0, "aurei": n}},
                      {"type": "LegionBought", "data": {"seat": 0, "legion": 1, "price": n, "cards": []}},
                      {"type": "GameSetUp", "data": {"start_seat": 0, "start_aurei": n}},
                      {"type": "DeckExhaustedAureiTaken", "data": {"seat": 0, "aurei": n}}):
            said = telling.describe_event(language, event, {0: "Ann (seat A)"}, "UTC", "pax")
            assert str(n) in said and not WRONG_FORM.search(said), said
        interrupt = {"prompt": "engine", "prompt_key": "pax.interrupt", "prompt_args": {"senator_seat": 1, "cost": n}}
        said = telling.decision_prompt(language, interrupt, "pax", {1: "Bob (seat B)"})
        assert not WRONG_FORM.search(said), said


@pytest.mark.parametrize("language", ["en", "de", "ru"])
def test_a_lay_question_with_only_stop_says_why(language):
    """Only "Stop" is offered: the question says which reason left nothing to lay."""
    said = {why: telling.decision_prompt(language, _lay(3, can_lay=False, **args), "pax")
            for why, args in {"empty": {"hand": 0}, "aurei": {"aurei": 3}, "limit": {"limit": 2},
                              "both": {"aurei": 1, "limit": 2}}.items()}
    assert len(set(said.values())) == 4, said
    words = {"en": ("no card", "aurei", "limit"), "de": ("keine Karte", "Aurei", "Limit"),
             "ru": ("нет карт", "ауреус", "предел")}[language]
    assert words[0] in said["empty"]
    assert words[1] in said["aurei"] and words[2] not in said["aurei"]
    assert words[2] in said["limit"] and "3" not in said["limit"]
    assert words[1] in said["both"] and words[2] in said["both"]

