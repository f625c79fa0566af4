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
import json
import random
import re

import pytest
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from engine.core import bots as kernel_bots
from engine.core.types import Command, Decision
from service import auth, games, i18n, store, terms
from service.db import Game, User
from service.errors import Conflict, InvalidInput
from tests.web.support import sign_in_with

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
#: What the game's sentence says in each language (one word that only the hook writes).
SENTENCE = {
    "pax": {"en": "Rom", "de": "Rom", "ru": "Рим"},
    "rom": {"en": "victory points", "de": "Siegpunkte", "ru": "победных очков"},
    "spartacus": {"en": "won with House of", "de": "gewonnen", "ru": "Победа: "},
    "spartacus_arena": {"en": "in round", "de": "in Runde", "ru": "В раунде"},
}
HEAD = {"en": "Player", "de": "Spieler", "ru": "Игрок"}


def _decision(listed: dict) -> Decision:
    seat = listed["seat"]
    options = tuple(Command(seat, o["type"], o["args"]) for o in listed["options"]) if "options" in listed else None
    return Decision(id=listed["id"], seat=seat, mode=listed["mode"], prompt=listed["prompt"],
                    default=Command(seat, listed["default"]["type"], listed["default"]["args"]),
                    command_type=listed["command_type"], options=options, schema=listed.get("schema"))


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
            decision = _decision(listed)
            command = kernel_bots.choose(decision, rng)
            try:
                games.submit_command(s, web_config, game_id, ann, command_type=command.type, args=dict(command.args),
                                     expected_version=listed["version"])
            except (Conflict, InvalidInput):
                s.rollback()
                games.submit_command(s, web_config, game_id, ann, command_type=decision.default.type,
                                     args=dict(decision.default.args), expected_version=game.version)
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


@pytest.fixture
def folded_catalogues(app, tmp_path, monkeypatch):
    """The catalogues as they are once ``translations/pending/outcome.json`` is folded in
    (the lead runs ``tools.i18n_refresh`` on merge), compiled into a temporary directory
    that the pages and :mod:`service.i18n` read instead of ``translations/``."""
    handed_over = json.loads((i18n.TRANSLATIONS_DIR / "pending" / "outcome.json").read_text(encoding="utf-8"))
    for language in ("de", "ru"):
        with open(i18n.TRANSLATIONS_DIR / language / "LC_MESSAGES" / "messages.po", "rb") as f:
            catalog = read_po(f, locale=language)
        for msgid, by_language in handed_over.items():
            catalog.add(msgid, by_language[language])
        target = tmp_path / language / "LC_MESSAGES"
        target.mkdir(parents=True)
        with open(target / "messages.mo", "wb") as f:
            write_mo(f, catalog)
    monkeypatch.setattr(app.extensions["babel"], "translation_directories", [str(tmp_path)])
    monkeypatch.setattr(i18n, "TRANSLATIONS_DIR", tmp_path)
    i18n.translations.cache_clear()
    yield
    i18n.translations.cache_clear()


# --------------------------------------------------------------------------- real games, through the page


@pytest.mark.parametrize("game_type", sorted(GAMES))
@pytest.mark.parametrize("language", ["en", "de", "ru"])
def test_the_panel_tells_the_end_to_a_player_and_a_spectator(app, web_sessions, web_config, folded_catalogues,
                                                             game_type, language):
    game_id = finished_game(web_sessions, web_config, game_type, seed=len(game_type))
    outcome, names = stored_outcome(web_sessions, game_id)
    for address in (ANN, EVE):
        page = signed_in(app, web_sessions, address, language).get(f"/games/{game_id}").data.decode()
        panel = panel_of(page)
        assert SENTENCE[game_type][language] in panel
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
