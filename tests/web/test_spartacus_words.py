"""Spartacus read as a person reads it: a house is chosen knowing what it can do, a guard is
named once, a support request says what the asker calls the scheme, card names are whole,
and Russian numbers and dates take their proper forms."""

from __future__ import annotations

import re

import pytest

from service.words import telling
from service.words.terms import spartacus as words
from tests.web.pages_play import bot_game, drive_until, user
from tests.web.support import read_text, sign_in_with

NAMES = {0: "Ann (seat A)", 1: "Bob (seat B)"}


@pytest.mark.parametrize("language, house, ability", [
    ("en", "House of Batiatus", "Exhaust 2 ready gladiators: gain 2 gold."),
    ("de", "Haus Glaber", "Informanten"),
    ("ru", "Дом Туллия", "Гонцы"),
])
def test_a_house_is_chosen_with_its_abilities(language, house, ability):
    labels = [telling.command_label(language, {"type": "choose_house", "args": {"house": h}}, {}, "spartacus")
              for h in ("batiatus", "glaber", "tullius", "solonius")]
    shown = next(label for label in labels if label.startswith(house))
    assert ability in shown and "+1" in shown, shown


@pytest.mark.parametrize("language", ["en", "de", "ru"])
def test_the_guard_is_named_once(language):
    label = telling.command_label(language, {"type": "use_guard", "args": {"card": "guard#2"}}, {}, "spartacus")
    guard = words.card_name("guard", language) or "Guard"
    assert label.lower().count(guard.lower()[:5]) == 1, label
    assert not re.search(r"(?i)\b(guard|wache|стража)\W+(guard|wache|стража)\b", label), label


@pytest.mark.parametrize("language, claimed", [("en", "Robbery"), ("de", "Raub"), ("ru", "Ограбление")])
def test_a_support_request_names_the_scheme_the_asker_claims(language, claimed):
    name = words.card_name("robbery", language) or "Robbery"
    decision = {"prompt_key": "support", "prompt": "engine", "prompt_args": {"asker": 1, "claim": "robbery"}}
    said = telling.decision_prompt(language, decision, "spartacus", NAMES)
    assert name in said and "Bob (seat B)" in said, said
    plain = telling.decision_prompt(language, {**decision, "prompt_args": {"asker": 1}}, "spartacus", NAMES)
    assert name not in plain


def test_card_names_on_the_board_are_whole(app):
    from service.web.boards import spartacus as board

    with app.test_request_context():
        drawn = board._property({"card": "water_carrier#1", "name": "Water Carrier", "kind": "slave"}, "en",
                                board._Choices("g", [], "en"), 0, 0)
        russian = board._property({"card": "house_slave#1", "name": "House Slave", "kind": "slave"}, "ru",
                                  board._Choices("g", [], "en"), 0, 0)
    assert drawn["name"] == "Water Carrier" and drawn["name_squeeze"]
    assert "…" not in russian["name"]


@pytest.mark.parametrize("n, form", [(1, "1 очко Влияния"), (2, "2 очка Влияния"), (5, "5 очков Влияния"),
                                     (21, "21 очко Влияния")])
def test_russian_influence_agrees_with_its_number(n, form):
    from service.web.boards import spartacus as board

    assert board._counting("ru")("needs %(num)s influence", "needs %(num)s influence", n) == f"нужно {form}"


def test_a_russian_spartacus_page_reads_right(app, client, web_sessions, web_config):
    """No "до пятница" (a weekday after "до" in the nominative), no "1 Влияния" or "1 Золота"."""
    game_id = bot_game(web_sessions, web_config, "spartacus", 3)
    with web_sessions() as s:
        user(s, "ann@example.org", language="ru")
        s.commit()
    drive_until(web_sessions, web_config, game_id, lambda d: d.get("prompt_key") == "intrigue_turn", steps=60)
    sign_in_with(app, client, "ann@example.org")
    text = read_text(client.get(f"/games/{game_id}").data)
    assert "Срок ответа" in text or "Ответьте" not in text
    assert not re.search(r"\bдо (понедельник|вторник|среда|четверг|пятница|суббота|воскресенье)\b", text), text
    assert not re.search(r"\b1 (Влияния|Золота)\b", text)
    assert "…" not in text


def test_no_russian_message_puts_a_number_before_a_noun_it_cannot_agree_with():
    """A placeholder number straight before "Золота" or "Влияния" reads "1 Золота" for one:
    Russian messages either count with plural forms or name the amount after a colon."""
    from babel.messages.pofile import read_po

    from service.words.i18n import TRANSLATIONS_DIR

    with open(TRANSLATIONS_DIR / "ru" / "LC_MESSAGES" / "messages.po", "rb") as f:
        catalogue = read_po(f, locale="ru")
    wrong = [m.string for m in catalogue if isinstance(m.string, str)
             and re.search(r"%\(\w+\)s (Золота|Влияния)\b", m.string)]
    assert wrong == []


@pytest.mark.parametrize("language, awaited", [("en", "Secret answers awaited from"),
                                                ("de", None), ("ru", None)])
def test_a_window_answered_all_at_once_names_whom_it_awaits(app, language, awaited):
    """With the house rule "all at once" the board names every dominus still to answer a
    window, never what those who answered chose."""
    from service.web.boards.spartacus import _status
    from service.words.i18n import translator

    board = {"windows": [{"id": 9, "moment": "scheme", "asked": [0, 1], "together": True, "round": 0,
                          "waiting_for": [0, 1], "answered": [],
                          "subject": {"card": "robbery#1", "seat": 1, "target": 0, "kind": "scheme"}}]}
    with app.test_request_context():
        lines = _status(board, language, NAMES)
    text = " ".join(lines)
    expected = awaited or translator(language)("Secret answers awaited from %(seats)s", seats="")
    assert expected.strip(" :") in text and "A (Ann (seat A)), B (Bob (seat B))" in text, text
