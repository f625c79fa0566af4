"""Whole PAX games through the API: bots and one scripted human, to the end."""

from __future__ import annotations

import random

import pytest

from tests.api.players import create_game, play_to_end
from tests.api.support import assert_error


def _replay_check(every: int):
    """Every ``every``-th command is sent twice: the retry replays, and changes nothing."""
    counter = {"n": 0}

    def check(client, request, response):
        counter["n"] += 1
        if counter["n"] % every:
            return
        url = response.request.path
        key = response.request.headers["Idempotency-Key"]
        again = client.post(url, json=request, headers={"Idempotency-Key": key})
        assert again.status_code == 200
        assert again.headers["Idempotent-Replayed"] == "true"
        assert again.get_json() == response.get_json()
        game_id = url.split("/")[4]
        assert client.get(f"games/{game_id}").get_json()["version"] >= response.get_json()["version"]

    return check


@pytest.mark.parametrize("seats", [1, 2, 4, 6, 8])
def test_pax_plays_to_the_end(ann, seats):
    rng = random.Random(1000 + seats)
    game = create_game(ann, game_type="pax", seats=seats, bot_seats=list(range(1, seats)), my_seat=0,
                       title=f"PAX for {seats}")
    assert game["status"] == "running"
    assert game["board"]["seats"] == seats
    final = play_to_end(game["id"], [ann], rng, check=_replay_check(every=7))

    outcome = final["outcome"]
    assert outcome is not None and set(outcome) >= {"winners", "ranking", "scores"}
    assert sorted(outcome["ranking"]) == list(range(seats))
    assert final["board"]["phase"] == "ended"
    assert ann.get(f"games/{game['id']}/decisions").get_json()["decisions"] == []

    listed = ann.get("games").get_json()["games"]
    assert [g["status"] for g in listed if g["id"] == game["id"]] == ["finished"]

    # the whole log, paged, ends at the final version; every state along it is readable
    seen, after = [], 0
    while True:
        page = ann.get(f"games/{game['id']}/events?after={after}&limit=50").get_json()
        if not page["events"]:
            break
        seen.extend(page["events"])
        after = page["events"][-1]["seq"]
    assert [e["seq"] for e in seen] == sorted({e["seq"] for e in seen})
    assert seen[-1]["type"] == "GameEnded"
    assert seen[-1]["seq"] == final["version"]
    for seq in (0, final["version"] // 2, final["version"]):
        state = ann.get(f"games/{game['id']}/states/{seq}")
        assert state.status_code == 200 and state.get_json()["seq"] == seq
    assert_error(ann.get(f"games/{game['id']}/states/{final['version'] + 1}"), 404)
    assert_error(ann.post(f"games/{game['id']}/commands", json={"type": "pass", "args": {}}), 409, "game_over")
