"""Every registered game, for every seat count it allows, played to its end through the
REST API by bots and one scripted human who knows nothing but the decisions listing.

This is the generic-client promise of the architecture: a game added to the registry is
playable over the API with no code of its own in the service.
"""

from __future__ import annotations

import random

import pytest

from engine import registry
from tests.api.players import create_game, play_to_end

#: (game, seats, options): the seat counts each game allows, and options that keep
#: the long games short enough for the suite.
CASES = [
    ("rom", 2, {}),
    ("rom", 3, {}),
    ("rom", 4, {}),
    ("spartacus_arena", 2, {}),
    # two rounds, then the most influential dominus wins (ties: the tournament)
    ("spartacus", 3, {"max_rounds": 2}),
    ("spartacus", 4, {"max_rounds": 2}),
]


def test_the_cases_cover_every_registered_game_but_pax():
    """PAX has its own, deeper playthrough tests in tests/api."""
    covered = {game for game, _, _ in CASES} | {"pax"}
    assert set(registry.names()) <= covered


@pytest.mark.parametrize("game_type,seats,options", CASES, ids=[f"{g}-{s}" for g, s, _ in CASES])
def test_plays_to_a_result(ann, game_type, seats, options):
    rng = random.Random(seats * 7919 + len(game_type))
    game = create_game(ann, game_type=game_type, seats=seats, options=options,
                       bot_seats=list(range(1, seats)), my_seat=0)
    assert game["status"] == "running"
    final = play_to_end(game["id"], [ann], rng)

    outcome = final["outcome"]
    assert outcome is not None
    assert set(outcome["winners"]) <= set(range(seats))
    assert sorted(outcome["ranking"]) == list(range(seats))
    assert ann.get(f"games/{game['id']}/decisions").get_json()["decisions"] == []
    # the log as the human may see it ends at the final version, and every step replays
    events = ann.get(f"games/{game['id']}/events?limit=1000").get_json()
    assert events["version"] == final["version"]
    middle = ann.get(f"games/{game['id']}/states/{final['version'] // 2}")
    assert middle.status_code == 200
