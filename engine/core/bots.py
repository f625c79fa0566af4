"""The generic random bot: plays any game from the decisions listing alone.

It knows nothing of any game.  It picks uniformly among a decision's enumerated options,
or samples its schema and keeps only answers the kernel accepts (falling back to the
decision's default, which is always legal).  The caller supplies the random generator,
so the engine itself stays free of randomness; bot seats in the service and the
random-playout tests both use this.
"""

from __future__ import annotations

from typing import Any, Callable, Optional

from engine.core.schema import sample as sample_schema, validate as validate_schema
from engine.core.errors import RuleViolation
from engine.core.types import Command, Decision, Pending


def choose(decision: Decision, rng: Any, *, tries: int = 8) -> Command:
    """A random legal answer to ``decision``."""
    if decision.options is not None:
        return rng.choice(list(decision.options))
    for _ in range(tries):
        args = sample_schema(decision.schema or {}, rng)
        try:
            validate_schema(decision.schema or {}, args)
        except RuleViolation:
            continue
        return Command(decision.seat, decision.command_type, args)
    return decision.default


def pick_decision(pending: Pending, seats: Optional[set[int]], rng: Any) -> Optional[Decision]:
    """A blocking decision addressed to one of ``seats`` (all seats when ``None``)."""
    open_ = [d for d in pending.blocking if seats is None or d.seat in seats]
    if not open_:
        return None
    return rng.choice(open_)


#: The levels a bot seat may play at, weakest first.  ``random`` is the uniformly random
#: bot above; ``easy`` answers with its game's quick heuristic alone; ``normal`` and ``hard``
#: search (:mod:`engine.core.search`), ``hard`` with more worlds and longer rollouts.
LEVELS = ("random", "easy", "normal", "hard")
DEFAULT_LEVEL = "normal"


def answer(
    rules: Any, knowledge: Any, state: Any, decision: Decision, rng: Any, *, level: str = DEFAULT_LEVEL,
    should_stop: Optional[Callable[[], bool]] = None, iterations: Optional[int] = None,
) -> Command:
    """The answer of a bot playing at ``level`` to ``decision`` (a decision of ``state``).

    ``knowledge`` is the game's :class:`engine.core.search.Knowledge` (``None``: a game
    without one plays at random).  ``iterations`` overrides the level's think budget;
    ``should_stop`` lets the caller end a search early (the engine reads no clock).
    """
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}; choose one of {', '.join(LEVELS)}")
    if level == "random" or knowledge is None:
        return choose(decision, rng)
    from engine.core import search

    if level == "easy":
        budget = search.Budget(iterations=0)
    else:
        budget = knowledge.budgets[level]
        if iterations is not None:
            budget = search.Budget(iterations=iterations, depth=budget.depth)
        budget = search.Budget(budget.iterations, budget.depth, should_stop)
    return search.choose(rules, knowledge, state, decision, rng, budget)
