"""Each game's words: looked up in the game's own terms module, then in those of games
played inside it (the Spartacus arena phase speaks the arena duel's words)."""

from __future__ import annotations

import types

import pytest

from service.words import telling, terms


@pytest.fixture
def fake_terms(monkeypatch):
    outer = types.SimpleNamespace(
        PROMPTS={"bid": "Bid, outer."}, COMMANDS={"bid": "Bid"}, CONFIRM={"sell"},
        command_label=lambda language, command, names, seat_names: "Sell it" if command.get("type") == "sell" else None,
        card_name=lambda card_id, language: {"de": "Wache"}.get(language) if card_id == "guard" else None,
    )
    inner = types.SimpleNamespace(PROMPTS={"spartacus_arena.turn": "Your turn in the arena."},
                                  COMMANDS={"move": "Move"}, CONFIRM={"thumbs_down"})
    monkeypatch.setattr(terms, "_modules", {"spartacus": outer, "spartacus_arena": inner, "rom": None})
    return outer, inner


def test_a_game_finds_its_own_words_and_those_of_the_game_played_inside_it(fake_terms):
    assert terms.prompt("spartacus", "bid") == "Bid, outer."
    assert terms.prompt("spartacus", "spartacus_arena.turn") == "Your turn in the arena."
    assert terms.command("spartacus", "move") == "Move"
    assert terms.needs_confirmation("spartacus", "thumbs_down") and terms.needs_confirmation("spartacus", "sell")
    assert not terms.needs_confirmation("spartacus", "bid")


def test_a_prefixed_key_is_the_prefix_games_word_from_any_game(fake_terms):
    assert terms.prompt("rom", "spartacus_arena.turn") == "Your turn in the arena."
    assert terms.prompt("rom", "bid") is None


def test_unknown_games_and_names_fall_back(fake_terms):
    assert terms.prompt("no such game!", "bid") is None
    assert terms.command(None, "move") is None
    assert terms.card_name("spartacus", "guard", "de", "Guard") == "Wache"
    assert terms.card_name("spartacus", "guard", "ru", "Guard") == "Guard"
    assert terms.card_name("rom", "guard", "de", "Guard") == "Guard"


def test_i18n_labels_use_the_games_words_first(fake_terms):
    assert telling.command_label("en", {"type": "sell", "args": {"card": "x"}}, {}, "spartacus") == "Sell it"
    assert telling.command_label("en", {"type": "move", "args": {}}, {}, "spartacus") == "Move"
    # without a game, the generic words
    assert telling.command_label("en", {"type": "pass", "args": {}}, {}) == "Pass"
    decision = {"prompt": "Engine words.", "prompt_key": "spartacus_arena.turn"}
    assert telling.decision_prompt("en", decision, "spartacus") == "Engine words."


def test_tables_merge_with_the_games_own_entries_first(fake_terms, monkeypatch):
    outer, inner = fake_terms
    monkeypatch.setattr(outer, "VALUES", {"close": "Close in"}, raising=False)
    monkeypatch.setattr(inner, "VALUES", {"close": "Approach", "far": "Keep away"}, raising=False)
    assert terms.table("spartacus", "VALUES") == {"close": "Close in", "far": "Keep away"}
    assert terms.table("spartacus_arena", "VALUES") == {"close": "Approach", "far": "Keep away"}
    assert terms.table("rom", "VALUES") == {}


def test_events_are_told_in_the_games_words_and_capuas_own_events_by_capua(fake_terms, monkeypatch):
    outer, inner = fake_terms
    monkeypatch.setattr(inner, "describe_event", lambda event, language, names: f"{names[event['data']['seat']]} struck",
                        raising=False)
    event = {"type": "AttackResolved", "data": {"seat": 1}}
    assert terms.describe_event("spartacus", event, "en", {1: "Bob"}) == "Bob struck"
    assert telling.describe_event("en", event, {1: "Bob"}, "UTC", "spartacus") == "Bob struck"
    paused = {"type": "capua.GamePaused", "data": {"by_seat": 0}}
    assert telling.describe_event("en", paused, {0: "Ann"}, "UTC", "spartacus").startswith("Ann paused the game")
    assert telling.describe_event("en", event, {1: "Bob"}, "UTC", "rom") == "Bob: Attack resolved"
