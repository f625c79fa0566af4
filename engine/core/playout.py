"""Drive a game to its end with bots: used by random-playout tests, benchmarks and demos.

Chance is drawn from the caller's generator here (tests want reproducible seeds); the
service draws it with ``secrets`` instead.  Every step goes through the kernel's
:func:`~engine.core.game.step`, exactly as a submitted command would.
"""

from __future__ import annotations

from typing import Any, Callable, Optional

from engine.core.bots import choose, pick_decision
from engine.core.chance import RESOLVE_CHANCE, draw_outcome
from engine.core.errors import RuleViolation
from engine.core.game import Rules, step
from engine.core.types import SYSTEM_SEAT, Command, Event, Pending


def resolve_chance_command(rules: Rules, state: Any, randbelow: Callable[[int], int]) -> Optional[Command]:
    """The command resolving the pending chance, or ``None`` if none is pending."""
    return _chance_command(rules.pending(state), randbelow)


def _chance_command(pending: Pending, randbelow: Callable[[int], int]) -> Optional[Command]:
    request = pending.chance
    if request is None:
        return None
    return Command(SYSTEM_SEAT, RESOLVE_CHANCE, {"id": request.id, "outcome": draw_outcome(request, randbelow)})


def play_out(
    rules: Rules,
    state: Any,
    rng: Any,
    *,
    max_steps: int = 100_000,
    on_step: Optional[Callable[[Any, Command, list[Event]], None]] = None,
) -> tuple[Any, list[Event]]:
    """Play ``state`` to the end with random bots for every seat; return (state, events)."""
    log: list[Event] = []
    for _ in range(max_steps):
        if rules.outcome(state) is not None:
            return state, log
        pending = rules.pending(state)
        command = _chance_command(pending, rng.randrange)
        if command is None:
            decision = pick_decision(pending, None, rng)
            if decision is None:
                raise RuntimeError("game is stuck: no outcome, no chance and no blocking decision")
            command = choose(decision, rng)
            try:
                state, events = step(rules, state, command)
            except RuleViolation:
                state, events = step(rules, state, decision.default)
                command = decision.default
        else:
            state, events = step(rules, state, command)
        log.extend(events)
        if on_step is not None:
            on_step(state, command, events)
    raise RuntimeError(f"game did not end within {max_steps} steps")
