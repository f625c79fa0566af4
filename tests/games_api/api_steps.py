"""Playing a game over ``/api/v1`` as its players: the shared steps of the API scenario
tests (``{seat: client}`` maps each seat to the client of its player)."""

from __future__ import annotations

import random
from typing import Any, Callable, Mapping, Optional

from engine.core.chance import draw_outcome


def listings(game_id: str, seats: dict[int, Any]) -> dict[int, dict]:
    return {seat: client.get(f"games/{game_id}/decisions").get_json() for seat, client in seats.items()}


def command(client: Any, game_id: str, version: int, type_: str, **args: Any):
    return client.post(f"games/{game_id}/commands", json={"type": type_, "args": args, "expected_version": version},
                       idempotent=True)


def decision_of(listing: dict, prompt_key: str) -> Optional[dict]:
    return next((d for d in listing["decisions"] if d["prompt_key"] == prompt_key), None)


def board(seats: dict[int, Any], seat: int, game_id: str) -> dict:
    return seats[seat].get(f"games/{game_id}").get_json()["board"]


def events_after(client: Any, game_id: str, version: int) -> list[dict]:
    """The events after ``version`` as ``client`` may see them: ``{"type", "data"}`` each."""
    listed = client.get(f"games/{game_id}/events?after={version}&limit=1000").get_json()["events"]
    return [{"type": e["type"], "data": e["data"]["data"]} for e in listed]


def hand_built_games(tables: Mapping[str, Callable[[], Any]], scripted: Mapping[str, list[dict]]) -> dict:
    """The test-only settings that start a game from a hand-built engine state and script its
    chance, both chosen by the game's title (see :func:`service.play.games._test_start_state`
    and :func:`service.play.games.injected_chance`).

    ``tables[title]()`` builds the state a game with that title starts from; ``scripted[title]``
    lists the outcomes of its chance requests in order.  A game whose title is not scripted
    draws from a generator seeded by the title, its version and the request."""
    left: dict[str, list[dict]] = {}

    def start(game: Any, state: Any) -> Any:
        return tables[game.title]() if game.title in tables else state

    def roll(game: Any, request: Any) -> dict:
        if game.title not in scripted:
            return draw_outcome(request, random.Random(f"{game.title}:{game.version}:{request.id}").randrange)
        outcomes = left.setdefault(game.id, list(scripted[game.title]))
        assert outcomes, f"an unscripted chance request in {game.title!r}: {request}"
        return outcomes.pop(0)

    return {"test_start_state": start, "test_chance": roll}
