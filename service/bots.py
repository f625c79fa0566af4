"""The moves the server makes itself: chance, and the answers of bot seats.

The engine never rolls a die and its bot never owns a generator, so the service supplies
both here: chance is drawn with ``secrets`` (players must not be able to predict it), and
each bot answer gets a fresh ``random.Random`` seeded from ``secrets`` (a bot's choice
need not be cryptographic, but it must not be predictable from earlier answers either).
Everything moves through :func:`service.store.step_as_stored`, exactly as a player's
command does, so a game played by bots replays like any other.
"""

from __future__ import annotations

import random
import secrets
from typing import Any, Collection

from engine.core import bots
from engine.core.chance import RESOLVE_CHANCE, ChanceRequest, draw_outcome
from engine.core.errors import RuleViolation
from engine.core.game import Rules
from engine.core.types import SYSTEM_SEAT, Command, Decision, Event
from service.store import step_as_stored

#: A bound on the server's own moves after one command.  A whole game of bots fits well
#: below it; reaching it means a game's ``pending`` is looping, a bug to report loudly.
MAX_AUTOPLAY_STEPS = 20_000


class AutoplayRunaway(RuntimeError):
    """The game kept asking for chance or bot moves beyond :data:`MAX_AUTOPLAY_STEPS`."""


def chance_command(request: ChanceRequest) -> Command:
    """The command resolving ``request`` with outcomes drawn by the CSPRNG."""
    return Command(SYSTEM_SEAT, RESOLVE_CHANCE, {"id": request.id, "outcome": draw_outcome(request, secrets.randbelow)})


def bot_command(decision: Decision) -> Command:
    """A random legal answer to ``decision`` (see :func:`engine.core.bots.choose`)."""
    return bots.choose(decision, random.Random(secrets.randbits(64)))


def autoplay(
    rules: Rules, state: Any, bot_seats: Collection[int], *, max_steps: int = MAX_AUTOPLAY_STEPS
) -> tuple[Any, list[Event]]:
    """Resolve chance and answer bot seats until only humans owe an answer or the game ends.

    A bot's answer that the rules refuse (a schema sample can be legal in shape but not
    in the game) is replaced by the decision's default, which is always legal.  Free
    actions never block anyone, so bots leave them alone.  Returns the state and the
    events made, in stored form.
    """
    bot_seats = frozenset(bot_seats)
    events: list[Event] = []
    for _ in range(max_steps):
        if rules.outcome(state) is not None:
            return state, events
        pending = rules.pending(state)
        if pending.chance is not None:
            state, made = step_as_stored(rules, state, chance_command(pending.chance))
        else:
            owed = [d for d in pending.blocking if d.seat in bot_seats]
            if not owed:
                return state, events
            decision = min(owed, key=lambda d: d.order)
            try:
                state, made = step_as_stored(rules, state, bot_command(decision))
            except RuleViolation:
                state, made = step_as_stored(rules, state, decision.default)
        events.extend(made)
    raise AutoplayRunaway(f"{rules.name}: still resolving chance or bot moves after {max_steps} steps")
