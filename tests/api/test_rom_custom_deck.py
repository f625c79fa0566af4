"""Rom's custom senate deck through the API: a 2-player deck may not hold a marked card."""

from __future__ import annotations

from engine.rom.carddata import load_card_set
from tests.api.support import assert_error


def _two_player_deck(with_marked: bool) -> list[str]:
    cards = load_card_set("default")
    deck = [c.id for c in cards.senate if not c.intrigue and not c.two_player_removed]
    if with_marked:
        marked = next(c.id for c in cards.senate if c.two_player_removed and c.epoch != 3)
        deck = [c for c in deck if c != "legatus"] + [marked]
    return deck


def test_a_two_player_custom_deck_with_a_card_marked_for_three_or_more_is_refused(ann, count_rows):
    """"Regeln für 2 Spieler -- Senatskarten: alle Senatskarten mit diesem Symbol werden aus
    dem Spiel genommen." (p. 7): the deck fits no seat count, and no game is made."""
    from service.plumbing.db import Game

    before = count_rows(Game)
    body = {"game_type": "rom", "seats": 2, "bot_seats": [1], "options": {"custom_deck": _two_player_deck(True)}}
    error = assert_error(ann.post("games", json=body, idempotent=True), 422, "invalid_seats")
    assert error["details"] == {"field": "seats", "allowed": []}
    assert count_rows(Game) == before
    body["options"]["custom_deck"] = _two_player_deck(False)
    assert ann.post("games", json=body, idempotent=True).status_code == 201
