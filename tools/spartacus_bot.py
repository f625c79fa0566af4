"""The balance tool's driver for the heuristic Spartacus bot.

The bot itself lives in the engine (:class:`engine.spartacus.game.heuristic.HeuristicBot`),
where it is also the rollout policy of the Spartacus bots; the tool lets one instance play
every seat of a game, reading the real table (every seat is such a bot there).
"""

from __future__ import annotations

import random

from engine.core.chance import RESOLVE_CHANCE, draw_outcome
from engine.core.types import SYSTEM_SEAT, Command
from engine.spartacus.game import flow
from engine.spartacus.game.heuristic import HeuristicBot
from engine.spartacus.game.state import GameState

__all__ = ["HeuristicBot", "next_command"]


def next_command(s: GameState, bot: HeuristicBot, rng: random.Random) -> Command:
    """The chance resolution or the bot's answer to one open blocking decision."""
    pending = flow.pending(s, free=False)
    if pending.chance is not None:
        return Command(SYSTEM_SEAT, RESOLVE_CHANCE, {"id": pending.chance.id,
                                                     "outcome": draw_outcome(pending.chance, rng.randrange)})
    blocking = [d for d in pending.decisions if d.mode != "free"]
    if not blocking:
        raise RuntimeError(f"the game is stuck at {s.stage}")
    return bot.answer(s, blocking[0])
