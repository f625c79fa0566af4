"""The generic random bot: plays any game from the decisions listing alone.

It knows nothing of any game.  It picks uniformly among a decision's enumerated options,
or samples its schema and keeps only answers the kernel accepts (falling back to the
decision's default, which is always legal).  The caller supplies the random generator,
so the engine itself stays free of randomness; bot seats in the service and the
random-playout tests both use this.
"""

from __future__ import annotations

from typing import Any, Optional

from engine.core import schema as schema_mod
from engine.core.errors import RuleViolation
from engine.core.types import Command, Decision, Pending


def choose(decision: Decision, rng: Any, *, tries: int = 8) -> Command:
    """A random legal answer to ``decision``."""
    if decision.options is not None:
        return rng.choice(list(decision.options))
    for _ in range(tries):
        args = schema_mod.sample(decision.schema or {}, rng)
        try:
            schema_mod.validate(decision.schema or {}, args)
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
