"""Random playouts per second: the pure engine, no database, bots on every seat."""

from __future__ import annotations

import random
import time

from engine import registry
from engine.core.playout import play_out


def measure_playouts(game: str, seats: int, seconds: float = 5.0, options: dict | None = None) -> dict:
    rules = registry.get(game)
    games = events = 0
    seed = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        state = rules.initial_state(seats, dict(options or {}))
        _, log = play_out(rules, state, random.Random(seed))
        seed += 1
        games += 1
        events += len(log)
    elapsed = time.perf_counter() - t0
    return {"game": game, "seats": seats, "games": games, "games_per_s": games / elapsed,
            "events_per_game": events / games}
