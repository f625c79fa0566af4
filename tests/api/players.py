"""A scripted human player: it plays any game from the decisions listing alone.

It reads ``GET /decisions``, picks a random legal answer (an enumerated option, or a
sample of the argument schema), and submits it through ``POST /commands`` with the
version it read and an ``Idempotency-Key``, exactly as an API client would.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Optional, Sequence

from engine.core import schema as schema_mod


def choose(decision: dict, rng: random.Random) -> tuple[str, dict]:
    """A random answer to ``decision`` (as listed by the API)."""
    if "options" in decision:
        option = rng.choice(decision["options"])
        return option["type"], option["args"]
    return decision["command_type"], schema_mod.sample(decision["schema"], rng)


def blocking(decisions: Sequence[dict]) -> list[dict]:
    return [d for d in decisions if d["mode"] != "free"]


def create_game(client: Any, **body: Any) -> dict:
    response = client.post("games", json=body, idempotent=True)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def take_turn(client: Any, game_id: str, rng: random.Random,
              check: Optional[Callable[[Any, dict, Any], None]] = None) -> bool:
    """Answer one of ``client``'s open blocking decisions; ``False`` if it owes none."""
    listing = client.get(f"games/{game_id}/decisions")
    assert listing.status_code == 200, listing.get_json()
    body = listing.get_json()
    owed = blocking(body["decisions"])
    if not owed:
        return False
    decision = owed[0]
    command_type, args = choose(decision, rng)
    request = {"type": command_type, "args": args, "expected_version": body["version"]}
    response = client.post(f"games/{game_id}/commands", json=request, idempotent=True)
    if response.status_code in (409, 422) and "options" not in decision:
        # a schema sample can fit the shape and still break a rule: the default never does
        request = {**request, **decision["default"]}
        response = client.post(f"games/{game_id}/commands", json=request, idempotent=True)
    assert response.status_code == 200, (request, response.get_json())
    if check is not None:
        check(client, request, response)
    return True


def play_to_end(game_id: str, humans: Sequence[Any], rng: random.Random, *, max_rounds: int = 2000,
                check: Optional[Callable[[Any, dict, Any], None]] = None,
                between: Optional[Callable[[int], None]] = None) -> dict:
    """Let ``humans`` answer their decisions in turn until the game ends; the final view."""
    for round_ in range(max_rounds):
        progressed = False
        for client in humans:
            progressed = take_turn(client, game_id, rng, check) or progressed
        if between is not None:
            between(round_)
        game = humans[0].get(f"games/{game_id}").get_json()
        if game["status"] == "finished":
            return game
        assert progressed, f"nobody owes anything but the game has not ended: {game['awaiting_seats']}"
    raise AssertionError(f"game {game_id} did not end within {max_rounds} rounds")
