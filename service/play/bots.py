"""The moves the server makes itself: chance, answers anyone could work out, and bot seats.

The engine never rolls a die and its bot never owns a generator, so the service supplies
both here: chance is drawn with ``secrets`` (players must not be able to predict it), and
each bot answer gets a fresh ``random.Random`` seeded from ``secrets`` (a bot's choice
need not be cryptographic, but it must not be predictable from earlier answers either).
Bot seats and stand-ins play at the operator's level (``CAPUA_BOT_LEVEL``, ``normal`` by
default; :mod:`engine.core.bots`), and the engine reads no clock, so the service bounds each
answer's wall time here (``CAPUA_BOT_THINK_MS``): the search answers with what it has.
Everything moves through :func:`service.play.store.step_as_stored`, exactly as a player's
command does, so a game played by bots replays like any other.

**Thinking is the worker's, and its time tells nothing.**  A request answers only what
takes no thought (chance, forced answers, standing orders, bots at ``random`` or ``easy``
and stand-ins playing ``defaults``: well under a millisecond each, whatever the seat
holds); when a *searching* bot (``normal``, ``hard``) owes an answer, the request stops
there (``search_answers=0``) and the worker plays on (:mod:`service.play.bot_turns`).
The worker's answers are *paced*: each is given exactly :func:`answer_ms` after its
search began (``think_ms`` at ``hard``, a tenth of it at ``normal``), however soon the
search ended (a decision with one legal answer takes the same
time as one with thirty), so when a bot answers says nothing of what it holds.
"""

from __future__ import annotations

import random
import secrets
import time
from typing import TYPE_CHECKING, Any, Callable, Collection, Mapping, Optional, Sequence

from engine import registry
from engine.core import bots
from engine.core.chance import ChanceRequest, RESOLVE_CHANCE, draw_outcome
from engine.core.errors import RuleViolation
from engine.core.game import Rules, forced_answer
from engine.core.types import Command, Decision, Event, SYSTEM_SEAT
from service.play.standing_orders import phase_key
from service.play.store import step_as_stored
from service.plumbing.clock import DEFAULTS_ONLY

if TYPE_CHECKING:
    from service.play.standing_orders import StandingBook

#: The levels that search, and so think long enough for their time to be worth hiding.
SEARCH_LEVELS = frozenset({"normal", "hard"})

#: The clock and the wait of paced answers (tests replace them to count the waits).
_monotonic = time.monotonic
_sleep = time.sleep

#: A bound on the server's own moves after one command.  A whole game of bots fits well
#: below it; reaching it means a game's ``pending`` is looping, a bug to report loudly.
MAX_AUTOPLAY_STEPS = 20_000


class AutoplayRunaway(RuntimeError):
    """The game kept asking for chance or bot moves beyond :data:`MAX_AUTOPLAY_STEPS`."""


def chance_command(request: ChanceRequest, draw: Optional[Callable[[ChanceRequest], Mapping]] = None) -> Command:
    """The command resolving ``request`` with outcomes drawn by the CSPRNG (or by ``draw``,
    which only a test's configuration supplies: see :func:`service.play.games.injected_chance`)."""
    outcome = draw(request) if draw is not None else draw_outcome(request, secrets.randbelow)
    return Command(SYSTEM_SEAT, RESOLVE_CHANCE, {"id": request.id, "outcome": outcome})


def answer_ms(level: str, think_ms: int) -> float:
    """The time a bot at ``level`` takes per answer under the operator's ``think_ms``
    (``CAPUA_BOT_THINK_MS``): all of it at ``hard``, a tenth at ``normal`` (a quarter of
    the worlds and shorter rollouts: its search is done within that on an idle core, see
    ``bench/RESULTS.md``), a bound never reached below."""
    return think_ms / 10 if level == "normal" else think_ms


def bot_command(rules: Rules, state: Any, decision: Decision, *, level: str = bots.DEFAULT_LEVEL,
                think_ms: int = 1000, paced: bool = False,
                generator: Optional[Callable[[Decision], random.Random]] = None) -> Command:
    """The answer of a bot at ``level`` to ``decision`` of ``state``, within
    :func:`answer_ms` of wall time (see :func:`engine.core.bots.answer`); ``paced``: not
    before it either, so the time an answer takes is the same for every decision.
    ``generator(decision)`` gives the bot's generator (a test's seeded one,
    :func:`service.play.games.injected_bot_generator`)."""
    began = _monotonic()
    give_up = began + answer_ms(level, think_ms) / 1000
    rng = generator(decision) if generator is not None else random.Random(secrets.randbits(64))
    command = bots.answer(rules, registry.bot_knowledge(rules.name), state, decision, rng, level=level,
                          should_stop=lambda: _monotonic() >= give_up)
    if paced:
        left = give_up - _monotonic()
        if left > 0:
            _sleep(left)
    return command


def autoplay(
    rules: Rules, state: Any, bot_seats: Collection[int], *, max_steps: int = MAX_AUTOPLAY_STEPS,
    standing: Optional["StandingBook"] = None, level: str = bots.DEFAULT_LEVEL, think_ms: int = 1000,
    draw: Optional[Callable[[ChanceRequest], Mapping]] = None, levels: Optional[Mapping[int, str]] = None,
    search_answers: Optional[int] = None, paced: bool = False,
    generator: Optional[Callable[[Decision], random.Random]] = None,
) -> tuple[Any, list[Event]]:
    """Resolve chance and answer bot seats until only humans owe an answer or the game ends.

    A bot seat plays at its level in ``levels`` (``level`` for a seat not in it), each
    answer within ``think_ms`` of wall time; a seat at :data:`DEFAULTS_ONLY` answers every
    decision with its default, as its deadline would.

    ``search_answers`` bounds the answers of searching bots (:data:`SEARCH_LEVELS`; ``None``:
    no bound): at the bound autoplay stops before the next one, and
    :func:`owed_by_bots` tells the caller that bots still owe answers.  ``paced`` paces
    those answers (:func:`bot_command`).  A bot's answer that the rules refuse (a schema
    sample can be legal in shape but not in the game) is replaced by the decision's
    default, which is always legal.  Returns the state and the events made, in stored form.

    Free actions (gifts, offers) bots take none of their own, but they answer what is
    offered to them at once, as their game's bot knowledge says (``free_answer``: a
    Spartacus bot turns every trade down).

    A human's decision whose one legal answer anyone could work out from public
    information (:func:`engine.core.game.forced_answer`) is answered here at once: that
    tells nobody anything.  A *private* decision is asked even with a single option, so
    whether and when it is answered never depends on what its player holds.

    With ``standing`` (the players' standing orders, :mod:`service.play.standing_orders`),
    a human's decision that one of their orders answers is answered here too, in the
    decisions' ``order`` like a bot's; an answer the rules refuse is not replaced but
    left to the player, and ``standing`` records which events each answer made.
    """
    bot_seats = frozenset(bot_seats)
    free_answer = getattr(registry.bot_knowledge(rules.name), "free_answer", None)
    events: list[Event] = []
    for _ in range(max_steps):
        if rules.outcome(state) is not None:
            return state, events
        pending = rules.pending(state)
        if pending.chance is not None:
            state, made = step_as_stored(rules, state, chance_command(pending.chance, draw))
        else:
            free = _free_answer(free_answer, state, pending.decisions, bot_seats) if free_answer is not None else None
            if free is not None:
                state, made = step_as_stored(rules, state, free)
                events.extend(made)
                continue
            blocking = pending.blocking
            owed = [d for d in blocking if d.seat in bot_seats]
            humans_owe = len(owed) < len(blocking)  # else nothing is forced or ordered for a human
            forced = _forced(blocking, pending.decisions, bot_seats) if humans_owe else None
            if forced is not None and (not owed or forced[0].order <= min(d.order for d in owed)):
                state, made = step_as_stored(rules, state, forced[1])
                events.extend(made)
                continue
            ordered = _standing_answer(standing, blocking, bot_seats, _phase_of(rules, state)) \
                if standing is not None and humans_owe else None
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
            seat_level = levels.get(decision.seat, level) if levels is not None else level
            if seat_level in SEARCH_LEVELS and search_answers is not None:
                if search_answers <= 0:
                    return state, events
                search_answers -= 1
            if seat_level == DEFAULTS_ONLY:
                state, made = step_as_stored(rules, state, decision.default)
            else:
                try:
                    command = bot_command(rules, state, decision, level=seat_level, think_ms=think_ms,
                                          paced=paced and seat_level in SEARCH_LEVELS, generator=generator)
                    state, made = step_as_stored(rules, state, command)
                except RuleViolation:
                    state, made = step_as_stored(rules, state, decision.default)
        events.extend(made)
    raise AutoplayRunaway(f"{rules.name}: still resolving chance or bot moves after {max_steps} steps")


def owed_by_bots(rules: Rules, state: Any, bot_seats: Collection[int]) -> bool:
    """Whether one of ``bot_seats`` owes an answer that holds the game up."""
    return rules.outcome(state) is None and any(d.seat in bot_seats for d in rules.pending(state).blocking)


def _free_answer(answer: Callable[[Any, Decision], Optional[Command]], state: Any,
                 decisions: Sequence[Decision], bot_seats: frozenset[int]) -> Optional[Command]:
    """The first free action a bot seat takes on what was offered to it, if any
    (``answer``: the game's bot knowledge's ``free_answer``)."""
    for decision in decisions:
        if decision.seat in bot_seats and decision.mode == "free":
            command = answer(state, decision)
            if command is not None:
                return command
    return None


def _forced(blocking: Sequence[Decision], open_decisions: Sequence[Decision],
            bot_seats: frozenset[int]) -> Optional[tuple[Decision, Command]]:
    """The first human decision (in ``order``) whose single answer follows from public information."""
    for decision in sorted((d for d in blocking if d.seat not in bot_seats), key=lambda d: d.order):
        command = forced_answer(decision, open_decisions)
        if command is not None:
            return decision, command
    return None


def _phase_of(rules: Rules, state: Any) -> Callable[[], Optional[dict]]:
    """The game's public round and phase, worked out once and only if an order asks."""
    known: list = []

    def phase() -> Optional[dict]:
        if not known:
            known.append(phase_key(rules, state))
        return known[0]

    return phase


def _standing_answer(standing: "StandingBook", blocking: Sequence[Decision], bot_seats: frozenset[int],
                     phase: Optional[Callable[[], Optional[dict]]] = None
                     ) -> Optional[tuple[Decision, Command, int]]:
    """The first human decision (in ``order``) that a standing order answers."""
    for decision in sorted((d for d in blocking if d.seat not in bot_seats), key=lambda d: d.order):
        found = standing.answer(decision, phase)
        if found is not None:
            return decision, found[0], found[1]
    return None
