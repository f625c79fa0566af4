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
from typing import TYPE_CHECKING, Any, Collection, Optional, Sequence

from engine.core import bots
from engine.core.chance import RESOLVE_CHANCE, ChanceRequest, draw_outcome
from engine.core.errors import RuleViolation
from engine.core.game import Rules
from engine.core.types import SYSTEM_SEAT, Command, Decision, Event
from service.store import step_as_stored

if TYPE_CHECKING:
    from service.standing_orders import StandingBook

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
    rules: Rules, state: Any, bot_seats: Collection[int], *, max_steps: int = MAX_AUTOPLAY_STEPS,
    standing: Optional["StandingBook"] = None,
) -> tuple[Any, list[Event]]:
    """Resolve chance and answer bot seats until only humans owe an answer or the game ends.

    A bot's answer that the rules refuse (a schema sample can be legal in shape but not
    in the game) is replaced by the decision's default, which is always legal.  Free
    actions never block anyone, so bots leave them alone.  Returns the state and the
    events made, in stored form.

    With ``standing`` (the players' standing orders, :mod:`service.standing_orders`),
    a human's decision that one of their orders answers is answered here too, in the
    decisions' ``order`` like a bot's; an answer the rules refuse is not replaced but
    left to the player, and ``standing`` records which events each answer made.
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
            ordered = _standing_answer(standing, pending.blocking, bot_seats) if standing is not None else None
            if ordered is not None and (not owed or ordered[0].order <= min(d.order for d in owed)):
                decision, command, order_id = ordered
                try:
                    state, made = step_as_stored(rules, state, command)
                except RuleViolation:
                    standing.refused(decision)
                    continue
                standing.applied(decision, order_id, len(events), len(made))
                events.extend(made)
                continue
            if not owed:
                return state, events
            decision = min(owed, key=lambda d: d.order)
            try:
                state, made = step_as_stored(rules, state, bot_command(decision))
            except RuleViolation:
                state, made = step_as_stored(rules, state, decision.default)
        events.extend(made)
    raise AutoplayRunaway(f"{rules.name}: still resolving chance or bot moves after {max_steps} steps")


def _standing_answer(standing: "StandingBook", blocking: Sequence[Decision],
                     bot_seats: frozenset[int]) -> Optional[tuple[Decision, Command, int]]:
    """The first human decision (in ``order``) that a standing order answers."""
    for decision in sorted((d for d in blocking if d.seat not in bot_seats), key=lambda d: d.order):
        found = standing.answer(decision)
        if found is not None:
            return decision, found[0], found[1]
    return None
