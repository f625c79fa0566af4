"""The game pages in German and Russian: every page of this area drawn through the
catalogues, in the player's language and time zone."""

from __future__ import annotations

import html

import pytest

from service import demo
from service.identity import auth
from service.play import games
from service.words import i18n, telling
from tests.web.pages_play import user
from tests.web.support import sign_in_with

#: Per language: words each page must show, and the English they replace.
EXPECTED = {
    "de": {"/games": ["Meine Spiele", "Warten auf deine Entscheidung", "Spiel erstellen"],
           "/games/new?game=spartacus": ["Bedenkzeit pro Entscheidung", "Spieldauer", "Wer spielt",
                                         "Bedenkzeit am Wochenende anhalten"],
           "game": ["Der Tisch", "Plätze", "Verlauf und Wiederholung", "Tischgespräch", "Antworte bis"],
           "history": ["Was geschah", "Das Spielbrett nach Schritt", "Vorheriger"]},
    "ru": {"/games": ["Мои игры", "Ждут вашего решения", "Создать игру"],
           "/games/new?game=spartacus": ["Время на решение", "Длительность игры", "Кто играет"],
           "game": ["Стол", "Места", "История и повтор", "Разговор за столом", "Срок ответа"],
           "history": ["Что произошло", "Поле после шага", "Предыдущий"]},
}
ENGLISH = ["Awaiting your decision", "Time per decision", "Length of the game", "The table", "Table talk",
           "What happened", "Answer by", "History and replay", "Create a game"]


@pytest.mark.parametrize("language", ["de", "ru"])
def test_the_game_pages_speak_the_players_language(app, web_sessions, web_config, language):
    with web_sessions() as s:
        _demo, game = demo.create_demo_game(s, web_config)
        player = user(s, demo.DEMO_EMAIL, timezone="Europe/Moscow", language=language)
        decisions = games.decisions_for(s, game.id, player)
        s.commit()
        game_id = game.id
    client = app.test_client()
    sign_in_with(app, client, demo.DEMO_EMAIL)
    pages = {path: client.get(path) for path in ("/games", "/games/new?game=spartacus")}
    pages["game"] = client.get(f"/games/{game_id}")
    pages["history"] = client.get(f"/games/{game_id}/history?at=3")
    for name, answer in pages.items():
        assert answer.status_code == 200, name
        text = answer.get_data(as_text=True)
        for words in EXPECTED[language][name]:
            assert html.escape(words) in text, (name, words)
        for english in ENGLISH:
            assert english not in text, (name, english)
    game_page = pages["game"].get_data(as_text=True)
    for decision in decisions:
        prompt = telling.decision_prompt(language, decision, "pax")
        assert prompt != decision["prompt"] and html.escape(prompt) in game_page, "the prompt is translated"
        if decision.get("deadline_at"):
            assert html.escape(i18n.format_moment(decision["deadline_at"], language, "Europe/Moscow")) in game_page
    with web_sessions() as s:
        player = auth.get_or_create_user(s, demo.DEMO_EMAIL)
        assert player.language == language
