"""Search over the engine itself: how a bot chooses an answer from its own view.

The method is determinized Monte Carlo search with a shared root (the root bandit of
single-observer information-set MCTS, Cowling, Powley and Whitehouse 2012): every iteration
samples one *world* consistent with what the deciding seat knows, tries one candidate
answer in it (chosen by UCB1 over the statistics of all worlds so far), plays on with a
game-aware rollout policy for a bounded number of decisions, and scores the position it
reaches from the seat's point of view.  The answer with the best mean score wins.

A game supplies its knowledge as a :class:`Knowledge`:

``redact(state, seat)``
    the state with everything ``seat`` cannot see put back into canonical order (unseen
    cards pooled and sorted, secret answers of others withdrawn): two positions that differ
    only in other seats' hidden information redact to equal states.  Nothing downstream
    ever sees the real state, which is what makes a bot decide from its own view only.
``determinize(redacted, seat, rng)``
    one world: the pooled unknowns dealt out at random into the same places.
``candidates(state, decision, rng)``
    the answers worth searching (every option of an enumerated decision; a handful of
    sensible answers of a schema decision).
``policy(state, decision, rng)``
    a quick answer with game sense: the rollout policy, and the whole of the *easy* bot.
``evaluate(state, seat)``
    how good an unfinished position is for ``seat``, as a share of a win in ``[0, 1]``.

Optionally, ``trust``: how much mean score the first candidate (the game sense's own
favourite) is credited when the answer is picked, so sampling noise over a short horizon
does not overrule a strategic judgement the evaluation cannot see (default 0);
``reward(outcome, seat)``: what a finished game is worth to ``seat``, when the
game's bot values some wins above others (default: :func:`outcome_share`); and, for speed
in rollouts: ``blocking(state)`` (the pending chance and blocking
decisions, leaving out free actions) and ``fold(state, command)`` (the state after a
command answering a listed option, without the kernel's re-matching).

No clock is read here: a budget is an iteration count, and the caller may pass a
``should_stop`` callable (the service uses it to bound wall time).  Randomness comes from
the caller's ``random.Random``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Optional, Protocol, Sequence

from engine.core.chance import RESOLVE_CHANCE, draw_outcome
from engine.core.errors import RuleViolation
from engine.core.game import Rules, step
from engine.core.types import SYSTEM_SEAT, Command, Decision, Outcome

#: Exploration constant of UCB1 for rewards in [0, 1].
EXPLORATION = 0.7


class Knowledge(Protocol):
    """What a game tells the search (see the module docstring)."""

    def redact(self, state: Any, seat: int) -> Any: ...

    def determinize(self, redacted: Any, seat: int, rng: Any) -> Any: ...

    def candidates(self, state: Any, decision: Decision, rng: Any) -> list[Command]: ...

    def policy(self, state: Any, decision: Decision, rng: Any) -> Command: ...

    def evaluate(self, state: Any, seat: int) -> float: ...


@dataclass(frozen=True)
class Budget:
    """How much a bot may think about one decision.

    ``iterations`` -- worlds sampled (0: no search, the policy answers alone);
    ``depth``      -- decisions played in a rollout before the position is evaluated
                      (0: to the end of the game);
    ``should_stop``-- polled between iterations; the search answers with what it has
                      once it returns true (at least one iteration always runs).
    """

    iterations: int
    depth: int = 0
    should_stop: Optional[Callable[[], bool]] = None


@dataclass
class _Arm:
    command: Command
    visits: int = 0
    total: float = 0.0
    illegal: bool = False

    @property
    def mean(self) -> float:
        return self.total / self.visits if self.visits else 0.0


def outcome_share(outcome: Outcome, seat: int) -> float:
    """A finished game's reward: an equal share of the win, nothing for a loss."""
    if seat in outcome.winners:
        return 1.0 / len(outcome.winners)
    return 0.0


def next_decision(rules: Rules, state: Any) -> Optional[Decision]:
    """The blocking decision answered first (lowest ``order``, as the service's autoplay does)."""
    blocking = rules.pending(state).blocking
    if not blocking:
        return None
    return min(blocking, key=lambda d: (d.order, d.seat))


def advance(rules: Rules, state: Any, command: Command, fallback: Command) -> Any:
    """``state`` after ``command``, or after ``fallback`` (a decision's default) if refused."""
    try:
        return step(rules, state, command)[0]
    except RuleViolation:
        return step(rules, state, fallback)[0]


def rollout(rules: Rules, knowledge: Knowledge, state: Any, seat: int, rng: Any, depth: int) -> float:
    """Play on with the policy for every seat and chance from ``rng``; score for ``seat``."""
    played = 0
    pending_of = getattr(knowledge, "blocking", None) or rules.pending
    fold = getattr(knowledge, "fold", None)
    reward = getattr(knowledge, "reward", None) or outcome_share
    while True:
        outcome = rules.outcome(state)
        if outcome is not None:
            return reward(outcome, seat)
        if depth and played >= depth:
            return knowledge.evaluate(state, seat)
        pending = pending_of(state)
        if pending.chance is not None:
            command = Command(SYSTEM_SEAT, RESOLVE_CHANCE,
                              {"id": pending.chance.id, "outcome": draw_outcome(pending.chance, rng.randrange)})
            state = fold(state, command) if fold is not None else step(rules, state, command)[0]
            continue
        blocking = pending.blocking
        if not blocking:
            return knowledge.evaluate(state, seat)
        decision = min(blocking, key=lambda d: (d.order, d.seat))
        command = knowledge.policy(state, decision, rng)
        if decision.options is not None and command in decision.options:
            # an enumerated option is legal by construction: skip the kernel's re-matching
            if fold is not None:
                state = fold(state, command)
            else:
                for event in rules.decide(state, command):
                    state = rules.apply(state, event)
        else:
            state = advance(rules, state, command, decision.default)
        played += 1


def _own_decision(rules: Rules, state: Any, decision: Decision) -> Decision:
    """The same decision as it stands in ``state`` (a redacted state or one world)."""
    for candidate in rules.pending(state).for_seat(decision.seat):
        if candidate.id == decision.id:
            return candidate
    return decision


def choose(
    rules: Rules, knowledge: Knowledge, state: Any, decision: Decision, rng: Any, budget: Budget,
) -> Command:
    """The answer ``decision.seat`` gives to ``decision`` after searching within ``budget``."""
    seat = decision.seat
    redacted = knowledge.redact(state, seat)
    own = _own_decision(rules, redacted, decision)
    if budget.iterations <= 0:
        world = knowledge.determinize(redacted, seat, rng)
        return knowledge.policy(world, _own_decision(rules, world, own), rng)
    arms = [_Arm(c) for c in _unique(knowledge.candidates(redacted, own, rng))]
    if not arms:
        return own.default
    if len(arms) == 1:
        return arms[0].command
    done = 0
    for i in range(budget.iterations):
        if i and budget.should_stop is not None and budget.should_stop():
            break
        arm = _select(arms, done)
        if arm is None:
            break
        world = knowledge.determinize(redacted, seat, rng)
        try:
            after = step(rules, world, arm.command)[0]
        except RuleViolation:
            arm.illegal = True
            continue
        reward = rollout(rules, knowledge, after, seat, rng, budget.depth)
        arm.visits += 1
        arm.total += reward
        done += 1
    legal = [a for a in arms if not a.illegal and a.visits]
    if not legal:
        return own.default
    return _best(legal, arms[0], getattr(knowledge, "trust", 0.0)).command


def _best(arms: Sequence[_Arm], first: Optional[_Arm] = None, trust: float = 0.0) -> _Arm:
    """The arm of the best mean; ``first`` (the game sense's own favourite) is credited
    ``trust``, so the search overrules it only on a clear margin."""
    def score(arm: _Arm) -> tuple[float, int]:
        return (arm.mean + (trust if arm is first else 0.0), arm.visits)

    best = arms[0]
    for arm in arms[1:]:
        if score(arm) > score(best):
            best = arm
    return best


def _select(arms: Sequence[_Arm], done: int) -> Optional[_Arm]:
    """UCB1: every arm once (in the candidates' order), then the best upper bound."""
    open_ = [a for a in arms if not a.illegal]
    if not open_:
        return None
    for arm in open_:
        if arm.visits == 0:
            return arm
    log_n = math.log(max(done, 1))
    return max(open_, key=lambda a: a.mean + EXPLORATION * math.sqrt(log_n / a.visits))


def _unique(commands: Sequence[Command]) -> list[Command]:
    seen: set[str] = set()
    out: list[Command] = []
    for command in commands:
        key = repr(sorted(command.to_json()["args"].items())) + command.type
        if key not in seen:
            seen.add(key)
            out.append(command)
    return out
