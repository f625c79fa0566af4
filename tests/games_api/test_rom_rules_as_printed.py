"""Rom: Rise to Power as printed, met through ``/api/v1`` (issue 12, item 7).

Ann, Bob and Cat play Red, Blue and Yellow.  A card's moment needs a table no public setup
deals (Red holding Proconsul or Hispania Maximus), so each game starts from a hand-built
engine state through the test-only seam ``test_start_state`` (see
:func:`service.play.games._test_start_state`), chosen by the game's title; the dice come
from ``test_chance``: scripted where the rule is about them, else a seeded generator.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable

import pytest

from tests.games_api.api_steps import hand_built_games, command, events_after, listings

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "rom"))
from rom_support import BLUE, RED, YELLOW, placement_state  # noqa: E402

TABLES: dict[str, Callable[[], Any]] = {
    "proconsul": lambda: placement_state(
        dice={RED: [1, 2, 3, 4], BLUE: [6, 6, 6, 6], YELLOW: [6, 6, 6, 6]}, order=[RED, BLUE, YELLOW],
        p0={"senate": ("proconsul",), "provinces": ("etruria", "latium")}),
    # the last die of round 3 is Red's to place: resolution, then the forum is scored
    "hispania": lambda: replace(placement_state(
        dice={RED: [3], BLUE: [], YELLOW: []}, order=[RED, BLUE, YELLOW],
        p0={"senate": ("hispania_maximus",), "provinces": ("etruria",), "forum": (1, 1, 0)},
        p1={"forum": (1, 2, 0)}), round=3),
}

#: title -> the outcomes of the game's chance requests, in order
DICE: dict[str, list[dict]] = {"proconsul": [{"dice": [1, 1]}, {"dice": [5, 5]}, {"dice": [5, 5]}]}


@pytest.fixture
def config_overrides(config_overrides) -> dict:
    return {**config_overrides, **hand_built_games(TABLES, DICE)}


@pytest.fixture
def players(make_client) -> dict[int, Any]:
    """Seat -> client: Red (ann), Blue (bob), Yellow (cat)."""
    return {seat: make_client(name) for seat, name in zip((RED, BLUE, YELLOW), ("ann", "bob", "cat"))}


def start(players: dict[int, Any], title: str) -> str:
    body = {"game_type": "rom", "seats": 3, "options": {}, "title": title,
            "invites": [players[BLUE].email, players[YELLOW].email]}
    created = players[RED].post("games", json=body, idempotent=True)
    assert created.status_code == 201, created.get_json()
    game_id = created.get_json()["id"]
    for seat in (BLUE, YELLOW):
        assert players[seat].post(f"games/{game_id}/join", idempotent=True).status_code == 200
    return game_id


def act(game_id: str, client: Any, type_: str, **args: Any) -> list[dict]:
    version = client.get(f"games/{game_id}/decisions").get_json()["version"]
    response = command(client, game_id, version, type_, **args)
    assert response.status_code == 200, response.get_json()
    return events_after(client, game_id, version)


def owed(game_id: str, players: dict[int, Any]) -> tuple[int, dict]:
    """The first blocking decision open now, and its seat."""
    return next((seat, d) for seat, body in listings(game_id, players).items()
                for d in body["decisions"] if d["mode"] != "free")


def unplaced(game_id: str, client: Any, seat: int) -> list[int]:
    return client.get(f"games/{game_id}").get_json()["board"]["players"][seat]["unplaced"]


def test_proconsul_re_rolls_again_and_again(players):
    """Proconsul (p. 8): 'Wirf beliebig viele deiner ungesetzten Machtwürfel erneut. Das
    darfst du sogar wiederholen.' -- Red re-rolls two dice, then again, then once more, and
    keeps the dice when he likes; the offer comes back after every re-roll."""
    game_id = start(players, "proconsul")
    red = players[RED]
    act(game_id, red, "activate_card", card="proconsul", provinces=["etruria", "latium"], values=[1, 2])
    assert sorted(unplaced(game_id, red, RED)) == [1, 1, 3, 4]
    for values, after in (([1, 1], [3, 4, 5, 5]), ([3, 4], [5, 5, 5, 5])):
        listing = red.get(f"games/{game_id}/decisions").get_json()
        (again,) = [d for d in listing["decisions"] if d["id"].startswith("repeat:")]
        assert again["default"]["type"] == "keep_dice"
        assert {"type": "reroll_again", "args": {"values": values}} in again["options"]
        act(game_id, red, "reroll_again", values=values)
        assert sorted(unplaced(game_id, red, RED)) == after
    events = act(game_id, red, "keep_dice")
    assert [e["data"] for e in events if e["type"] == "RerollDeclined"] == [{"seat": RED, "card": "proconsul"}]
    seat, decision = owed(game_id, players)
    assert seat == RED and decision["id"].startswith("place:")


def test_hispania_maximus_advances_the_wine_marker(players):
    """Hispania Maximus (p. 8): 'Wertung: Wenn du die Forumsleiste Oliven wertest, lege diese
    Karte auf eine Olivenprovinzkarte (wodurch beide erschöpft werden), um deinen Marker auf
    der Weinleiste ein Feld vorzurücken.' -- the card text wins: Red's wine marker moves."""
    game_id = start(players, "hispania")
    red = players[RED]
    first = red.get(f"games/{game_id}/decisions").get_json()["version"]
    option = owed(game_id, players)[1]["options"][0]
    act(game_id, red, option["type"], **option["args"])
    for _ in range(300):
        moved = [e["data"] for e in events_after(red, game_id, first) if e["type"] == "ForumMarkerAdvanced"]
        if moved:
            break
        seat, decision = owed(game_id, players)
        answer = decision["default"]
        assert command(players[seat], game_id, listings(game_id, players)[seat]["version"], answer["type"],
                       **answer["args"]).status_code == 200
    assert moved == [{"seat": RED, "card": "hispania_maximus", "province": "etruria", "resource": "wine", "steps": 1}]
    forum = red.get(f"games/{game_id}").get_json()["board"]["players"][RED]["forum"]
    assert forum["olive"] == 1, "the olive marker stays where the olives were scored"
