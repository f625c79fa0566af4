"""The "game has ended" panel: each game tells how it ended in sentences and a table of
every player's points, by player name, in the reader's language -- never the engine's raw
detail.

Games are real: Ann (seat 0) against service bots, played to the end with the kernel's
random bot choosing Ann's answers; the service's dice are random, so the tests check the
panel against the stored outcome rather than against a particular result.  The hooks
themselves are checked on hand-made details too.
"""

from __future__ import annotations

import html
import random
import re

import pytest

from engine.core import bots as kernel_bots
from service.identity import auth
from service.play import games, store
from service.plumbing.db import Game, User
from service.words import i18n, terms
from tests.web.support import answer_or_default, decision_of, sign_in_with

ANN, EVE = "ann@example.org", "eve@example.org"
#: Words of the engine's detail that must never reach the page.
RAW_KEYS = ("categories_laid", "stronger_than_rome", "fleet_and_army", "deck_exhausted", "rome_won",
            "primus_conspiratus", "tiebreak", "arena_cost_in_hand", "ForumScored", "ArenaSetsRevealed", "houses",
            "round_limit", "winner_card", "loser_card", "winner_seat", "fatigue", "{'", "[&#39;")
GAMES = {  # game -> (seats, options)
    "pax": (3, {}),
    "rom": (3, {}),
    "spartacus": (3, {"max_rounds": 1}),
    "spartacus_arena": (2, {}),
}
#: What the game's sentence says in each language (words that only the hook writes; any case).
SENTENCE = {
    "pax": {"en": "Rom", "de": "Rom", "ru": "Рим"},
    "rom": {"en": "victory points", "de": "Siegpunkte", "ru": "победных очков"},
    "spartacus": {"en": "won with House of", "de": "gewonnen", "ru": "победа"},
    "spartacus_arena": {"en": "in round", "de": "in Runde", "ru": "В раунде"},
}
HEAD = {"en": "Player", "de": "Spieler", "ru": "Игрок"}


def finished_game(web_sessions, web_config, game_type: str, seed: int) -> str:
    """A game of ``game_type`` played to its end: Ann in seat 0 answers like a random bot,
    service bots play every other seat."""
    seats, options = GAMES[game_type]
    rng = random.Random(seed)
    with web_sessions() as s:
        ann = auth.get_or_create_user(s, ANN)
        game = games.create_game(s, web_config, creator=ann, game_type=game_type, options=options, seats=seats,
                                 bot_seats=list(range(1, seats)), creator_seat=0)
        s.commit()
        game_id = game.id
    for _ in range(5000):
        with web_sessions() as s:
            game = s.get(Game, game_id)
            if game.status == "finished":
                return game_id
            ann = s.get(User, auth.get_or_create_user(s, ANN).id)
            owed = [d for d in games.decisions_for(s, game_id, ann) if d["mode"] != "free"]
            assert owed, "Ann owes an answer while the game runs"
            listed = owed[0]
            answer_or_default(s, web_config, game_id, ann, listed, kernel_bots.choose(decision_of(listed), rng))
            s.commit()
    raise AssertionError("the game did not end")


def stored_outcome(web_sessions, game_id: str) -> tuple[dict, dict[int, str]]:
    """The engine's outcome of the finished game and each seat's player name."""
    with web_sessions() as s:
        game = s.get(Game, game_id)
        rules = store.rules_of(game)
        outcome = rules.outcome(store.load_state(s, game, rules=rules))
        names = {seat["seat"]: seat["name"] for seat in games.game_summary(s, game, None)["seats"]}
    return {"winners": list(outcome.winners), "scores": dict(outcome.scores), "detail": outcome.detail}, names


def panel_of(page: str) -> str:
    match = re.search(r'<section class="panel outcome".*?</section>', page, re.S)
    assert match, "the page has the outcome panel"
    return html.unescape(match.group(0))


def rows_of(panel: str) -> dict[str, list[str]]:
    """Row heading (the player's name, without the seat mark) -> the row's cells."""
    rows = {}
    for head, cells in re.findall(r'<tr><th scope="row">(.*?)</th>(.*?)</tr>', panel, re.S):
        name = re.sub(r"<span[^>]*>.*?</span>", "", head).strip()
        rows[name] = re.findall(r"<td>(.*?)</td>", cells)
    return rows


def signed_in(app, web_sessions, address: str, language: str):
    with web_sessions() as s:
        s.get(User, auth.get_or_create_user(s, address).id).language = language
        s.commit()
    client = app.test_client()
    sign_in_with(app, client, address)
    return client


@pytest.mark.parametrize("game_type", sorted(GAMES))
@pytest.mark.parametrize("language", ["en", "de", "ru"])
def test_the_panel_tells_the_end_to_a_player_and_a_spectator(app, web_sessions, web_config,
                                                             game_type, language):
    game_id = finished_game(web_sessions, web_config, game_type, seed=len(game_type))
    outcome, names = stored_outcome(web_sessions, game_id)
    # a player without a display name is named on the page by the seat's letter, in words
    seat_words = {"en": "Seat", "de": "Platz", "ru": "Место"}[language]
    bot_word = {"en": "Bot", "de": "Bot", "ru": "Бот"}[language]  # (and a bot by the reader's word for one)
    names = {seat: re.sub(r"^Bot ([A-Z])$", rf"{bot_word} \1", re.sub(r"^Player ([A-Z])$", rf"{seat_words} \1", name))
             for seat, name in names.items()}
    for address in (ANN, EVE):
        page = signed_in(app, web_sessions, address, language).get(f"/games/{game_id}").data.decode()
        panel = panel_of(page)
        assert SENTENCE[game_type][language].lower() in panel.lower()
        for raw in RAW_KEYS:
            assert raw not in panel, f"{raw!r} of the engine's detail is on the page"
        for seat, name in names.items():
            assert name in panel, f"the panel names seat {seat}'s player"
        if language != "en":
            for english in ('<th scope="col">Player</th>', "The game has ended", " won ", " beat ", " of each "):
                assert english not in panel, f"{english!r} is translated"
        if game_type == "spartacus_arena":
            assert "<table" not in panel
            continue
        assert f"<th scope=\"col\">{HEAD[language]}</th>" in panel
        assert 'class="scroll" tabindex="0" role="region" aria-labelledby="outcome-caption"' in panel
        rows = rows_of(panel)
        assert len(rows) == len(names)
        for seat, name in names.items():
            (row,) = [cells for heading, cells in rows.items() if heading.startswith(name)]
            total = outcome["scores"][seat]
            assert str(total) in (row[-1:] if game_type == "pax" else row), "the player's total is in their row"


def test_the_generic_panel_names_players_for_a_game_without_a_hook(app):
    from service.web import pages

    with app.test_request_context():
        drawn = pages._outcome({"winners": [1], "ranking": [1, 0], "scores": {"0": 3, "1": 5}, "detail": {"x": 1}},
                               {0: "Ann (seat 1)", 1: "Bob (seat 2)"}, "no_such_game", "en")
    assert drawn["panel"] is None
    assert drawn["winners"] == ["Bob (seat 2)"] and drawn["ranking"] == ["Bob (seat 2)", "Ann (seat 1)"]
    assert drawn["scores"] == [("Bob (seat 2)", 5), ("Ann (seat 1)", 3)]


# --------------------------------------------------------------------------- the hooks on hand-made details

NAMES = {0: "Ann (seat 1)", 1: "Bob (seat 2)", 2: "Cy (seat 3)"}


def _pax_player(seat, points, total):
    kinds = ("categories_laid", "stronger_than_rome", "fleet_and_army", "primus_conspiratus", "richest")
    return {"seat": seat, "symbols": {}, "categories_laid": [], "stronger_than_rome": [], "riches": 0,
            "points": dict(zip(kinds, points)), "total": total}


def test_pax_players_beat_rome_and_share_the_victory():
    result = {"winners": [1, 2], "ranking": [1, 2, 0], "scores": {"0": 10, "1": 15, "2": 15}, "detail": {
        "rome_won": False, "reason": "deck_exhausted", "rome": {"symbols": {}, "holds": ["fleet", "land"]},
        "primus_conspiratus": 0, "richest": [2],
        "players": [_pax_player(0, (6, 0, 3, 1, 0), 10), _pax_player(1, (8, 3, 4, 0, 0), 15),
                    _pax_player(2, (6, 3, 2, 0, 4), 15)], "shared_victory": True}}
    panel = terms.outcome("pax", result, "en", NAMES)
    assert panel["lines"] == [
        "The game ended because the deck could no longer fill every empty legion.",
        "The players beat Rome: it is at least as strong as every player in only 2 categories, so the most "
        "points win.",
        "Bob (seat 2), Cy (seat 3) share the victory with 15 points.",
    ]
    table = panel["table"]
    assert table["head"] == ["Player", "Categories laid", "Stronger than Rome", "Fleets and armies",
                             "Primus conspiratus", "Most money", "Total"]
    assert [r["seat"] for r in table["rows"]] == [1, 2, 0], "best first"
    assert table["rows"][1]["cells"] == ["Cy (seat 3)", "6", "3", "2", "0", "4", "15"]


def test_pax_rome_wins_with_and_without_primus_conspiratus_in_german():
    detail = {"rome_won": True, "reason": "deck_exhausted", "rome": {"holds": ["wealth", "army", "land", "intrigue"]},
              "primus_conspiratus": 2, "richest": [0], "players": [_pax_player(0, (2, 0, 0, 0, 4), 6)]}
    panel = terms.outcome("pax", {"winners": [2], "ranking": [2, 0], "detail": detail}, "en", NAMES)
    assert panel["lines"][1] == ("Rome won: in 4 categories (Wealth, Army, Land, Intrigue) it has at least as many "
                                 "symbols as every player.")
    assert panel["lines"][2] == "Cy (seat 3) holds primus conspiratus and wins with Rome."
    assert panel["lines"][3] == "The points below did not count, since Rome won."
    nobody = terms.outcome("pax", {"winners": [], "detail": dict(detail, primus_conspiratus=None)}, "en", NAMES)
    assert nobody["lines"][2] == "Nobody holds primus conspiratus, so no player wins with Rome."


def test_pax_solo():
    detail = {"solo_level": 2, "needed": 4, "all_categories_needed": True, "won": False, "rome_won": True,
              "reason": "deck_exhausted", "rome": {"symbols": {}},
              "players": [{"seat": 0, "symbols": {}, "categories_laid": ["wealth", "fleet"],
                           "stronger_than_rome": ["fleet"]}]}
    panel = terms.outcome("pax", {"winners": [], "ranking": [0], "scores": {"0": 1}, "detail": detail}, "en", NAMES)
    assert panel["lines"][1:] == [
        "Rome won the solo game (level 2): Ann (seat 1) was stronger in only 1 category, 4 were needed.",
        "All 7 categories had to be laid; Ann (seat 1) laid 2."]
    assert panel["table"]["rows"] == [{"seat": 0, "cells": ["Ann (seat 1)", "2", "Fleet"]}]


def test_rom_tie_broken_by_provinces_and_the_scoring_history():
    result = {"winners": [2], "ranking": [2, 0, 1], "scores": {"0": 20, "1": 9, "2": 20}, "detail": {
        "tiebreak": {"0": [20, 3, 5], "1": [9, 1, 0], "2": [20, 4, 0]},
        "tiebreak_order": ["vp", "provinces", "arena_cost_in_hand"],
        "scoring": [{"event": "ForumScored", "round": 3}, {"event": "ArenaSetsRevealed", "round": 3},
                    {"event": "ForumScored", "round": 5}, {"event": "ArenaSetsRevealed", "round": 5},
                    {"event": "SenateCardsScored", "round": 5}, {"event": "RegionsScored", "round": 5}]}}
    panel = terms.outcome("rom", result, "en", NAMES)
    assert panel["lines"] == [
        "Cy (seat 3) won with 20 victory points.",
        "Cy (seat 3) had as many victory points as Ann (seat 1) and won with more provinces.",
        "The forum was scored in rounds 3, 5.",
        "The arena games were held in rounds 3, 5.",
        "The final scoring of senate cards and regions came after round 5.",
    ]
    assert panel["table"]["head"] == ["Player", "Victory points", "Provinces", "Price of arena cards in hand"]
    assert [r["cells"] for r in panel["table"]["rows"]] == [
        ["Cy (seat 3)", "20", "4", "0"], ["Ann (seat 1)", "20", "3", "5"], ["Bob (seat 2)", "9", "1", "0"]]


def test_rom_tie_broken_by_arena_cards():
    result = {"winners": [0], "ranking": [0, 1], "detail": {
        "tiebreak": {"0": [20, 3, 5], "1": [20, 3, 2]}, "tiebreak_order": ["vp", "provinces", "arena_cost_in_hand"]}}
    lines = terms.outcome("rom", result, "en", NAMES)["lines"]
    assert lines[1] == ("Ann (seat 1) had as many victory points and provinces as Bob (seat 2) and won with the "
                        "more valuable arena cards in hand.")


@pytest.mark.parametrize("how, sentence", [
    ("influence", "Bob (seat 2) won with House of Glaber, reaching 12 influence in round 7."),
    ("tournament", "Bob (seat 2) won with House of Glaber by winning the tournament in round 7."),
    ("round_limit", "The last round, round 7, is over: Bob (seat 2) won with House of Glaber, the house with the "
                    "most influence (12)."),
])
def test_spartacus_endings(how, sentence):
    result = {"winners": [1], "ranking": [1, 0], "scores": {"0": 8, "1": 12},
              "detail": {"how": how, "round": 7, "houses": {"0": "batiatus", "1": "glaber"}}}
    panel = terms.outcome("spartacus", result, "en", NAMES)
    assert panel["lines"] == [sentence]
    assert [r["cells"] for r in panel["table"]["rows"]] == [["Bob (seat 2)", "House of Glaber", "12"],
                                                            ["Ann (seat 1)", "House of Batiatus", "8"]]
    ru = terms.outcome("spartacus", result, "ru", NAMES)
    assert ru["table"]["rows"][0]["cells"][1] == "Дом Глабра", "the house as the Russian rulebook names it"


@pytest.mark.parametrize("kind, cause, expected", [
    ("defeated", "fatigue", ["Crixus yielded.", "Fatigue decided the fight: both fighters lost dice every round "
                                                "until Crixus gave out."]),
    ("injured", "wounds", ["Crixus was carried off the sand injured."]),
    ("decapitated", "wounds", ["Crixus was decapitated."]),
])
def test_the_arena_duel(kind, cause, expected):
    detail = {"winner": 1, "loser": 0, "winner_seat": 1, "loser_seat": 0, "winner_card": "spartacus",
              "loser_card": "crixus", "kind": kind, "zeros": ["speed"], "rounds": 6, "cause": cause, "exhausted": []}
    panel = terms.outcome("spartacus_arena", {"winners": [1], "ranking": [1, 0], "detail": detail}, "en", NAMES)
    assert panel["table"] is None
    assert panel["lines"] == ["Spartacus, the fighter of Bob (seat 2), beat Crixus, the fighter of Ann (seat 1), "
                              "in round 6."] + expected


def test_an_unknown_detail_falls_back_to_the_generic_panel():
    for game in ("pax", "rom", "spartacus", "spartacus_arena"):
        assert terms.outcome(game, {"winners": [0], "detail": {"something": 1}}, "en", NAMES) is None
        assert terms.outcome(game, {"winners": [0], "detail": None}, "en", NAMES) is None
    assert terms.outcome("no_such_game", {"detail": {}}, "en", NAMES) is None


@pytest.mark.parametrize("lang,points,words", [
    ("en", 1, "Cy (seat 3) won with 1 victory point."),
    ("en", 2, "Cy (seat 3) won with 2 victory points."),
    ("de", 1, "Cy (seat 3) hat mit 1 Siegpunkt gewonnen."),
    ("de", 2, "Cy (seat 3) hat mit 2 Siegpunkten gewonnen."),
    ("ru", 1, "Победа: Cy (seat 3), победных очков: 1."),
])
def test_a_winners_points_are_counted_in_the_readers_grammar(lang, points, words):
    result = {"winners": [2], "ranking": [2, 0], "detail": {
        "tiebreak": {"0": [0, 0, 0], "2": [points, 0, 0]}, "tiebreak_order": ["vp", "provinces", "arena_cost_in_hand"]}}
    assert terms.outcome("rom", result, lang, NAMES)["lines"][0] == words


@pytest.mark.parametrize("lang,holds,words", [
    ("en", ["fleet"], "The players beat Rome: it is at least as strong as every player in only 1 category, so the "
                      "most points win."),
    ("en", [], "The players beat Rome: it is at least as strong as every player in only 0 categories, so the most "
               "points win."),
    ("de", ["fleet"], "Die Spieler haben Rom geschlagen: Rom ist nur in 1 Kategorie mindestens so stark wie jeder "
                      "Spieler, also gewinnen die meisten Punkte."),
])
def test_the_categories_rome_holds_are_counted_in_the_readers_grammar(lang, holds, words):
    detail = {"rome_won": False, "reason": "deck_exhausted", "rome": {"holds": holds},
              "players": [_pax_player(0, (2, 0, 0, 0, 4), 1)]}
    lines = terms.outcome("pax", {"winners": [0], "ranking": [0], "detail": detail}, lang, NAMES)["lines"]
    assert lines[1] == words
    assert lines[2] == {"en": "Ann (seat 1) won with 1 point.", "de": "Ann (seat 1) hat mit 1 Punkt gewonnen."}[lang]
