"""Prompts and buttons name players as the seat list does, never by the engine's index.

The engine numbers seats from 0; the pages name them by name and by the letter the boards
draw (A for the engine's seat 0).  A question
such as "Seat 2 plays Labor Contract on seat 0" (seat 0 being the reader) is what a
player read before; these checks read the sentence a person reads in each language.
"""

from __future__ import annotations

import re

import pytest

from service.words import telling

#: How the game page names the seats (``pages._seat_names``): name and the board's letter.
NAMES = {0: "Ann (seat A)", 1: "Bob (seat B)", 2: "Cy (seat C)"}


def _decision(key: str, prompt: str, **args) -> dict:
    return {"prompt_key": key, "prompt": prompt, "prompt_args": args}


SCHEME = _decision("react_scheme", "Seat 2 plays Labor Contract on seat 0: react or pass.",
                   window=1, moment="scheme", target=0, by=2, subject="scheme")
SUPPORT = _decision("support", "Seat 1 asks for your support.", asker=1)


@pytest.mark.parametrize("language, expected", [
    ("en", "Cy (seat C) plays a scheme on Ann (seat A): react, or pass."),
    ("de", "Cy (seat C) spielt eine Machenschaft gegen Ann (seat A): Reagiere oder passe."),
    ("ru", "Разыгран Заговор (играет: Cy (seat C), цель: Ann (seat A)): ответьте или пасуйте."),
])
def test_a_scheme_to_react_to_names_who_plays_it_on_whom(language, expected):
    assert telling.decision_prompt(language, SCHEME, "spartacus", NAMES) == expected


@pytest.mark.parametrize("language", ["en", "de", "ru"])
def test_no_prompt_or_button_shows_an_engine_index(language):
    said = [
        telling.decision_prompt(language, SCHEME, "spartacus", NAMES),
        telling.decision_prompt(language, SUPPORT, "spartacus", NAMES),
        telling.command_label(language, {"type": "request_support",
                                         "args": {"card": "labor_contract", "target": 0, "from": [1, 2]}},
                              {"labor_contract": "Labor Contract"}, "spartacus", NAMES),
        telling.command_label(language, {"type": "play_scheme", "args": {"card": "labor_contract", "target": 0}},
                              {"labor_contract": "Labor Contract"}, "spartacus", NAMES),
        telling.command_label(language, {"type": "give_gold", "args": {"amount": 2, "to": 1}}, {}, "spartacus",
                              NAMES),
        telling.command_label(language, {"type": "invite", "args": {"seat": 2}}, {}, "spartacus", NAMES),
    ]
    for sentence in said:
        assert not re.search(r"(?i)\b(seat|platz|место|места|месту) [0-9]", sentence.replace("(seat ", "(")), sentence
    assert "Bob (seat B)" in said[1] and "Cy (seat C)" in said[2] and "Ann (seat A)" in said[3]


def test_a_seat_without_a_name_is_named_by_its_letter():
    assert telling.decision_prompt("en", SUPPORT, "spartacus", {}) \
        == "Seat B asks for your support for a scheme. Your answer is binding."


@pytest.mark.parametrize("language, path, expected", [
    ("en", [[1, -1], [1, -2]], "Fighter 2 moved to hex (1, -2) (2 steps)."),
    ("de", [[1, -1], [1, -2]], "Kämpfer 2 ist auf das Feld (1, -2) gezogen (2 Schritte)."),
    ("ru", [[1, -1], [1, -2]], "Боец 2 перемещается на гекс (1, -2) (2 шага)."),
    ("en", [[1, -2]], "Fighter 2 moved to hex (1, -2) (1 step)."),
    ("de", [[1, -2]], "Kämpfer 2 ist auf das Feld (1, -2) gezogen (1 Schritt)."),
    ("ru", [[1, -2]], "Боец 2 перемещается на гекс (1, -2) (1 шаг)."),
])
def test_a_move_in_the_arena_says_who_went_where_and_how_far(language, path, expected):
    event = {"type": "FighterMoved", "data": {"round": 1, "side": 1, "from": [0, 0], "to": [1, -2],
                                              "path": path, "planned": False}}
    assert telling.describe_event(language, event, NAMES, "UTC", "spartacus_arena") == expected


#: A seat counted as a number, the way the pages once named players ("Seat 2", "seat 0").
_COUNTED_SEAT = re.compile(r"(?i)\b(seat|platz|место|места|месту|bot|player)\s+[0-9]")


@pytest.mark.parametrize("language", ["en", "de", "ru"])
def test_a_spartacus_page_names_every_player_by_name_and_letter(app, client, web_sessions, web_config, language):
    """The game page and its history, read as a person reads them: every player has the
    letter the board draws, and nothing counts seats from 0 or 1."""
    from tests.web.pages_play import bot_game, drive_until, user
    from tests.web.support import read_text, sign_in_with

    game_id = bot_game(web_sessions, web_config, "spartacus", 3)
    with web_sessions() as s:
        user(s, "ann@example.org", language=language)
        s.commit()
    drive_until(web_sessions, web_config, game_id, lambda d: d.get("prompt_key") == "intrigue_turn", steps=60)
    sign_in_with(app, client, "ann@example.org")
    page = read_text(client.get(f"/games/{game_id}").data)
    history = read_text(client.get(f"/games/{game_id}/history").data)
    for text in (page, history):
        assert not _COUNTED_SEAT.search(text), _COUNTED_SEAT.search(text).group(0)
    bot = {"en": "Bot", "de": "Bot", "ru": "Бот"}[language]
    assert f"{bot} B" in page and f"{bot} C" in page
    assert re.search(r"\bA\b", page) and "ann" in page
