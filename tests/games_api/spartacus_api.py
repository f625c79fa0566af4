"""Speaking Spartacus over ``/api/v1`` as the players of one game: the shared steps of the
API scenario tests (``{seat: client}`` maps each seat to the client of its player)."""

from __future__ import annotations

from typing import Any, Optional


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
