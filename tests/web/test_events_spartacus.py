"""Spartacus and arena events told in one sentence each, in every language, from what each
reader may see: a whole game and a whole duel played by bots, every event through every
seat's and a spectator's eyes."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from engine import registry
from engine.core.playout import play_out
from service.words import i18n, telling, terms
from service.words.terms import spartacus as spartacus_terms

LANGUAGES = ("en", "de", "ru")
NAMES = {0: "Ann", 1: "Bob", 2: "Cai"}
CAMEL = re.compile(r"\b[A-Z][a-z]+[A-Z][A-Za-z]+\b")


def _card_names(card: str) -> set[str]:
    names = {spartacus_terms.english_name(card)}
    for lang in ("de", "ru"):
        name = spartacus_terms.card_name(card, lang)
        if name:
            names.add(name)
    return names


def _play(game: str, seats: int, options: dict, seed: int):
    """Every event with the hands of each seat just before and after it."""
    rules = registry.get(game)
    state = rules.initial_state(seats, options)
    steps = []
    hands = {"before": _hands(state)}

    def on_step(after, command, events):
        now = _hands(after)
        for event in events:
            steps.append((event, {s: hands["before"].get(s, ()) + now.get(s, ()) for s in range(seats)}))
        hands["before"] = now

    play_out(rules, state, random.Random(seed), on_step=on_step)
    return rules, steps


def _hands(state) -> dict[int, tuple]:
    players = getattr(state, "players", None) or ()
    return {i: tuple(getattr(p, "hand", ())) for i, p in enumerate(players)}


def _sentence_words() -> str:
    """All the sentences' own words: a card named like a rules term ("Guard", "Wache") is
    no secret when the sentence itself says it."""
    from service.words.terms import spartacus_arena

    sentences = [s for table in (spartacus_terms.EVENTS, spartacus_arena.EVENTS) for row in table.values()
                 for s in row]
    return "\n".join(i18n.translator(lang)(sentence) for sentence in sentences for lang in LANGUAGES)


def _check(game: str, seats: int, options: dict, seed: int) -> set[str]:
    words = _sentence_words()
    rules, steps = _play(game, seats, options, seed)
    seen = set()
    for event, hands in steps:
        for viewer in (*range(seats), None):
            shown = rules.visible(event, viewer)
            if shown is None:
                continue
            seen.add(shown["type"])
            public = set(re.findall(r'"([a-z0-9_\-]+#\d+)"', json.dumps(shown.get("data"))))
            hidden = set()
            if viewer is not None:
                for seat, hand in hands.items():
                    if seat != viewer:
                        for card in hand:
                            if card not in public:
                                hidden |= _card_names(card)
                hidden -= {n for card in public for n in _card_names(card)}
                hidden = {n for n in hidden if not re.search(rf"\b{re.escape(n)}\b", words)}
            shown_names = sorted({n for card in public for n in _card_names(card)}, key=len, reverse=True)
            english = None
            for lang in LANGUAGES:
                ours = terms.describe_event(game, shown, lang, NAMES)
                assert ours, (shown, lang)
                text = telling.describe_event(lang, shown, NAMES, "UTC", game)
                assert text == ours
                assert "%(" not in text and not CAMEL.search(text), (shown, lang, text)
                bare = text
                for name in shown_names:  # a public card's name may hold a hidden one ("Guard")
                    bare = bare.replace(name, "")
                for name in hidden:
                    assert not re.search(rf"\b{re.escape(name)}\b", bare), (viewer, shown, lang, text, name)
                if lang == "en":
                    english = text
                else:
                    assert text != english, (shown, lang, text)
    return seen


def test_every_event_of_a_spartacus_game_is_told_in_every_language():
    seen = set()
    for seed in (1, 2):
        seen |= _check("spartacus", 3, {"max_rounds": 2}, seed)
    assert {"GameEnded", "FightBegan", "AuctionWon", "SchemePlayed"} <= seen
    seen = set()
    for seed in (3, 4):  # the house rule "all at once": sealed answers to a window
        seen |= _check("spartacus", 3, {"max_rounds": 2, "reactions": "together"}, seed)
    assert {"ReactionAnswered", "WindowRoundEnded"} <= seen


def test_every_event_of_an_arena_duel_is_told_in_every_language():
    seen = set()
    for seed in (1, 2, 3):
        seen |= _check("spartacus_arena", 2, {}, seed)
    assert {"FightBegan", "FightEnded", "AttackResolved"} <= seen


def test_every_sentence_has_its_translations():
    from service.words.terms import spartacus_arena

    sentences = [s for table in (spartacus_terms.EVENTS, spartacus_arena.EVENTS) for row in table.values()
                 for s in row]
    sentences += list(spartacus_terms.PHASES.values()) + [spartacus_arena.SIDE]
    for sentence in sentences:
        # a sentence with a number: each of its forms (the forms of 1, 2 and 5)
        forms = [(sentence.plural, i18n.translations(lang).ngettext(sentence.singular, sentence.plural, n), lang)
                 for lang in ("de", "ru") for n in (1, 2, 5)] if isinstance(sentence, i18n.Counted) \
            else [(sentence, i18n.translator(lang)(sentence), lang) for lang in ("de", "ru")]
        for english, words, lang in forms:
            assert words not in (english, getattr(sentence, "singular", None)) or english in ("Arena",), (lang, sentence)
            assert sorted(re.findall(r"%\((\w+)\)s", words)) == sorted(re.findall(r"%\((\w+)\)s", english))


def test_an_event_type_the_engine_emits_has_a_sentence():
    from service.words.terms import spartacus_arena

    root = Path(__file__).resolve().parents[2] / "engine" / "spartacus"
    emitted = set()
    for path in root.rglob("*.py"):
        emitted |= set(re.findall(r'(?:emit|record)\(\s*"([A-Z][A-Za-z]+)"', path.read_text(encoding="utf-8")))
        emitted |= set(re.findall(r'@on\("([A-Z][A-Za-z]+)"\)', path.read_text(encoding="utf-8")))
        emitted |= set(re.findall(r'_folds\("([A-Z][A-Za-z]+)"', path.read_text(encoding="utf-8")))
    told = {t.split(".")[0] for t in (*spartacus_terms.EVENTS, *spartacus_arena.EVENTS)}
    assert emitted and emitted <= told, sorted(emitted - told)


ONE_FOR_TWO = (
    ("spartacus", {"type": "ReactionPassed", "data": {"window": 3, "seat": 1, "closed": True, "moment": "scheme"}},
     "Bob did not react: no more reactions."),
    ("spartacus", {"type": "WindowRoundEnded", "data": {"window": 3, "seat": -1, "closed": True,
                                                        "moment": "scheme"}},
     "Everyone has answered: nobody reacts, no more reactions."),
    ("spartacus_arena", {"type": "FighterMoved", "data": {"fight": "f1", "round": 1, "side": 1, "from": [0, 0],
                                                          "to": [1, -2], "path": [[1, -1], [1, -2]],
                                                          "planned": False, "ends_turn": True}},
     "Fighter 2 moved to hex (1, -2) (2 steps) and ended the turn."),
    ("spartacus_arena", {"type": "InitiativeRolled", "data": {"fight": "f1", "round": 2, "attempt": 1, "chance": "c4",
                                                              "dice": [[6, 2], [1, 1]], "rerolls": [0, 0],
                                                              "sums": [8, 2], "winner": 0}},
     "The dice were rolled for the initiative: Fighter 1 won it."),
    ("spartacus_arena", {"type": "InitiativeRolled", "data": {"fight": "f1", "round": 2, "attempt": 1, "chance": "c4",
                                                              "dice": [[3, 2], [4, 1]], "rerolls": [0, 0],
                                                              "sums": [5, 5], "tied": True}},
     "The dice were rolled for the initiative: a tie, they are rolled again."),
)


@pytest.mark.parametrize("game,event,english", ONE_FOR_TWO)
def test_one_event_saying_what_two_did_is_told_as_one_sentence(game, event, english):
    """A closing pass, a move ending the turn, a roll settling the initiative: one sentence tells
    both halves, in every language, unlike the event without them."""
    plain = {"type": event["type"], "data": {k: v for k, v in event["data"].items()
                                             if k not in ("closed", "ends_turn", "winner", "tied", "sums")}}
    assert terms.describe_event(game, event, "en", NAMES) == english
    for lang in LANGUAGES:
        text = terms.describe_event(game, event, lang, NAMES)
        assert text and "%(" not in text and text != terms.describe_event(game, plain, lang, NAMES)
        if lang != "en":
            assert text != english


@pytest.mark.parametrize("lang,event,words", [
    ("en", {"type": "AttackResolved", "data": {"attacker": 0, "hits": 1}}, "The attack of Fighter 1 scored 1 hit."),
    ("en", {"type": "AttackResolved", "data": {"attacker": 0, "hits": 3}}, "The attack of Fighter 1 scored 3 hits."),
    ("ru", {"type": "AttackResolved", "data": {"attacker": 0, "hits": 21}}, "Атака (Боец 1): 21 попадание."),
    ("ru", {"type": "AttackResolved", "data": {"attacker": 0, "hits": 3}}, "Атака (Боец 1): 3 попадания."),
    ("ru", {"type": "AttackResolved", "data": {"attacker": 0, "hits": 5}}, "Атака (Боец 1): 5 попаданий."),
    ("en", {"type": "WoundsTaken", "data": {"side": 1, "count": 1}}, "Fighter 2 lost 1 die to wounds."),
    ("en", {"type": "WoundsTaken", "data": {"side": 1, "count": 2}}, "Fighter 2 lost 2 dice to wounds."),
    ("ru", {"type": "WoundsTaken", "data": {"side": 1, "count": 1}}, "Боец 2 теряет из-за Ран 1 кубик."),
])
def test_a_fights_numbers_are_told_in_the_readers_grammar(lang, event, words):
    assert telling.describe_event(lang, event, NAMES, "UTC", "spartacus_arena") == words


def test_a_counted_sentence_without_a_whole_number_takes_the_plural():
    sentence = i18n.NP_("%(n)s die", "%(n)s dice", "n")
    assert i18n.gettext("en", sentence, n="1") == "1 die"
    assert i18n.gettext("en", sentence, n="?") == "? dice"
    assert i18n.gettext("en", sentence, n=True) == "True dice"
