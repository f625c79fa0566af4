"""The game pages in German and Russian: every page of this area drawn through the
catalogues, in the player's language and time zone."""

from __future__ import annotations

import html

import pytest

from service import demo
from service.identity import auth
from service.play import games
from service.plumbing.db import GameClock
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


@pytest.mark.parametrize("language, missed, stand_in, words", [
    ("en", 1, None, "A bot takes over a seat after 1 missed deadline."),
    ("en", 3, None, "A bot takes over a seat after 3 missed deadlines in a row."),
    ("de", 1, "defaults", "Nach 1 verpassten Frist erhalten die Entscheidungen eines Platzes sofort ihre Vorgaben."),
    ("de", 2, None, "Nach 2 verpassten Fristen in Folge übernimmt ein Bot den Platz."),
    ("ru", 1, None, "После 1 пропущенного срока подряд за место играет бот."),
    ("ru", 21, "defaults", "После 21 пропущенного срока подряд решения за место сразу принимаются по умолчанию."),
    ("ru", 3, None, "После 3 пропущенных сроков подряд за место играет бот."),
])
def test_the_clock_counts_missed_deadlines_in_the_readers_grammar(app, web_sessions, web_config, language, missed,
                                                                   stand_in, words):
    def set_clock(game, clock):
        clock.bot_after_missed, clock.stand_in = missed, stand_in

    assert html.escape(words) in _demo_game_page(app, web_sessions, web_config, language, set_clock)


@pytest.mark.parametrize("language, hours, words", [
    ("en", 1, ["1 hour per decision.", "1 hour per window answer (react, guard or pass)"]),
    ("en", 24, ["24 hours per decision.", "24 hours per window answer (react, guard or pass)"]),
    ("de", 1, ["1 Stunde pro Entscheidung.", "1 Stunde pro Antwort im Reaktionsfenster"]),
    ("de", 48, ["48 Stunden pro Entscheidung.", "48 Stunden pro Antwort im Reaktionsfenster"]),
])
def test_the_clock_counts_its_hours_in_the_readers_grammar(app, web_sessions, web_config, language, hours, words):
    def set_clock(game, clock):
        game.clock_hours = clock.window_hours = hours

    page = _demo_game_page(app, web_sessions, web_config, language, set_clock, game_type="spartacus", seats=3)
    for sentence in words:
        assert html.escape(sentence) in page


@pytest.mark.parametrize("game_type, seats, language, words", [
    ("pax", 5, "en", "3 hours per answer in a senator's window (lay a card for one aureus, or pass)"),
    ("pax", 6, "de", "3 Stunden pro Antwort im Fenster nach einem Senator"),
    ("pax", 8, "ru", "3 ч на ответ в окне после сенатора"),
    ("spartacus", 4, "ru", "3 ч на ответ в окне реакций (реакция, стражник или пас)"),
    ("pax", 4, "en", None),
    ("pax", 2, "de", None),
    ("rom", 3, "ru", None),
    ("spartacus_arena", 2, "en", None),
])
def test_the_clock_speaks_of_the_windows_the_game_can_open(app, web_sessions, web_config, game_type, seats,
                                                           language, words):
    """Spartacus opens reaction windows, PAX for 5-8 players a window after each senator laid
    ("all the other players may, in turn clockwise, lay one of their property cards from hand
    for a fixed price of one aureus"); a game that opens none has no window sentence."""
    def set_clock(game, clock):
        clock.window_hours = 3

    page = _demo_game_page(app, web_sessions, web_config, language, set_clock, game_type=game_type, seats=seats)
    window_words = {"en": ["per window answer", "senator's window"], "de": ["Reaktionsfenster", "nach einem Senator"],
                    "ru": ["в окне реакций", "после сенатора"]}[language]
    if words is None:
        assert not any(w in page for w in window_words)
    else:
        assert words in page


def _demo_game_page(app, web_sessions, web_config, language: str, set_clock, *, game_type: str = "pax",
                    seats: int = 4) -> str:
    """The page of a running game (the demo game, or ``game_type`` for ``seats`` with the
    demo player in seat 0 and bots in the others) for that player reading ``language``,
    after ``set_clock(game, clock)`` changed the game's clock."""
    with web_sessions() as s:
        if game_type == "pax" and seats == 4:
            _demo, game = demo.create_demo_game(s, web_config)
        else:
            game = games.create_game(s, web_config, creator=demo.demo_user(s), game_type=game_type, options={},
                                     seats=seats, bot_seats=list(range(1, seats)), creator_seat=0)
        user(s, demo.DEMO_EMAIL, timezone="UTC", language=language)
        clock = s.get(GameClock, game.id) or GameClock(game_id=game.id)  # (a game without a row of its own)
        s.add(clock)
        set_clock(game, clock)
        s.commit()
        game_id = game.id
    client = app.test_client()
    sign_in_with(app, client, demo.DEMO_EMAIL)
    page = client.get(f"/games/{game_id}")
    assert page.status_code == 200
    return page.get_data(as_text=True)


def _steps(language: str, n: int) -> str:
    """The sentence for a step the game lacks, by each language's own plural rule."""
    if language == "en":
        return f"There is no step 999: this game has {n} {'step' if n == 1 else 'steps'}."
    if language == "de":
        return f"Schritt 999 gibt es nicht: Dieses Spiel hat {n} {'Schritt' if n == 1 else 'Schritte'}."
    form = 0 if n % 10 == 1 and n % 100 != 11 else 1 if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14 else 2
    return f"Шага 999 нет: в этой игре {n} {('шаг', 'шага', 'шагов')[form]}."


@pytest.mark.parametrize("language", ["en", "de", "ru"])
def test_a_step_the_game_does_not_have_is_told_in_the_readers_grammar(app, web_sessions, web_config, language):
    with web_sessions() as s:
        _demo, game = demo.create_demo_game(s, web_config)
        user(s, demo.DEMO_EMAIL, timezone="UTC", language=language)
        s.commit()
        game_id, version = game.id, game.version
    client = app.test_client()
    sign_in_with(app, client, demo.DEMO_EMAIL)
    text = client.get(f"/games/{game_id}/history?at=999").get_data(as_text=True)
    assert html.escape(_steps(language, version)) in text


@pytest.mark.parametrize("language, bots, english", [("ru", ["Бот B", "Бот C", "Бот D"], True),
                                                     ("de", ["Bot B", "Bot C", "Bot D"], False),
                                                     ("en", ["Bot B", "Bot C", "Bot D"], False)])
def test_the_game_page_names_bots_in_the_readers_words(app, web_sessions, web_config, language, bots, english):
    """The view's seat names are the API's English ("Bot B"); the page says the reader's."""
    page = _demo_game_page(app, web_sessions, web_config, language, lambda game, clock: None)
    assert all(bot in page for bot in bots)
    if english:
        assert not any(f"Bot {letter}" in page for letter in "BCD")
