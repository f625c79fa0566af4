"""Fights between planned fighters, run to the end: for statistics, balance tables and tests.

The engine draws no dice: the caller passes ``randbelow(n) -> 0..n-1`` (a seeded
``random.Random().randrange`` in the benchmarks and tests, ``secrets.randbelow`` anywhere
else), exactly as the service resolves a fight's chance requests.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Optional

from engine.core.chance import RESOLVE_CHANCE, draw_outcome
from engine.core.types import SYSTEM_SEAT, Command, Event
from engine.spartacus.arena import flow
from engine.spartacus.arena.events import apply_event
from engine.spartacus.arena.fight import start_fight
from engine.spartacus.arena.fighters import Entrant
from engine.spartacus.arena.plan import DEFAULT_PLAN, FightPlan
from engine.spartacus.arena.state import FightState
from engine.spartacus.cards.market import MarketDeck

RandBelow = Callable[[int], int]


def run_to_end(state: FightState, randbelow: RandBelow, *, max_steps: int = 10_000) -> tuple[FightState, list[Event]]:
    """Resolve chance until the fight ends; every fighter must have a plan (a decision that
    a plan does not answer is a ``RuntimeError``)."""
    log: list[Event] = []
    for _ in range(max_steps):
        if state.result is not None:
            return state, log
        request = flow.pending(state).chance
        if request is None:
            raise RuntimeError("the fight waits for a player: give both fighters a plan")
        command = Command(SYSTEM_SEAT, RESOLVE_CHANCE, {"id": request.id, "outcome": draw_outcome(request, randbelow)})
        events = flow.decide(state, command)
        for event in events:
            state = apply_event(state, event)
        log.extend(events)
    raise RuntimeError(f"fight did not end within {max_steps} chance steps")


@dataclass(frozen=True)
class FightFacts:
    """What the statistics count about one finished fight."""

    winner: int
    kind: str
    rounds: int
    initiative_winner: int  # who won the initiative of round 1
    first_mover: int  # who moved first in round 1
    cause: str


def facts(events: Iterable[Event]) -> FightFacts:
    initiative = first = -1
    end: dict[str, Any] = {}
    for event in events:
        if event.type in ("InitiativeDecided", "InitiativeRolled") and "winner" in event.data and initiative < 0 \
                and event.data["round"] == 1:
            initiative = event.data["winner"]
        elif event.type == "NetsRevealed" and initiative < 0 and event.data["winner"] >= 0:
            initiative = event.data["winner"]
        elif event.type == "OrderChosen" and first < 0:
            first = event.data["first_side"]
        elif event.type == "FightEnded":
            end = dict(event.data)
    return FightFacts(winner=end["winner"], kind=end["kind"], rounds=end["round"],
                      initiative_winner=initiative, first_mover=first, cause=end["cause"])


@dataclass
class Tally:
    """Counts over many fights, from fighter I's point of view."""

    fights: int = 0
    wins: list[int] = field(default_factory=lambda: [0, 0])
    initiative_winner_wins: int = 0
    first_mover_wins: int = 0
    first_mover_was: list[int] = field(default_factory=lambda: [0, 0])
    kinds: dict[str, int] = field(default_factory=dict)
    rounds: int = 0
    fatigue: int = 0

    def add(self, f: FightFacts) -> None:
        self.fights += 1
        self.wins[f.winner] += 1
        self.initiative_winner_wins += f.winner == f.initiative_winner
        self.first_mover_wins += f.winner == f.first_mover
        self.first_mover_was[f.first_mover] += 1
        self.kinds[f.kind] = self.kinds.get(f.kind, 0) + 1
        self.rounds += f.rounds
        self.fatigue += f.cause == "fatigue"

    def merge(self, other: "Tally") -> None:
        self.fights += other.fights
        self.wins = [a + b for a, b in zip(self.wins, other.wins)]
        self.initiative_winner_wins += other.initiative_winner_wins
        self.first_mover_wins += other.first_mover_wins
        self.first_mover_was = [a + b for a, b in zip(self.first_mover_was, other.first_mover_was)]
        for k, v in other.kinds.items():
            self.kinds[k] = self.kinds.get(k, 0) + v
        self.rounds += other.rounds
        self.fatigue += other.fatigue


def duels(first: Entrant, second: Entrant, fights: int, randbelow: RandBelow, *,
          plans: tuple[Optional[FightPlan], Optional[FightPlan]] = (DEFAULT_PLAN, DEFAULT_PLAN),
          deck: Optional[MarketDeck] = None) -> Tally:
    """Fight ``first`` (start hex I) against ``second`` ``fights`` times and count."""
    start = start_fight(first, second, plans=plans, deck=deck)
    tally = Tally()
    for _ in range(fights):
        _, events = run_to_end(start, randbelow)
        tally.add(facts(events))
    return tally


# --- how many questions a fight asks ---------------------------------------------------------------

@dataclass
class Asked:
    """What one fight asked of its players: ``decisions[side]`` answered by the player of fighter
    I / II, and ``handoffs``: how often the fight, waiting for players, turned from waiting on one
    player to waiting on the other (answers given together in one simultaneous step count once)."""

    decisions: list[int] = field(default_factory=lambda: [0, 0])
    handoffs: int = 0
    rounds: int = 0


def play_asking(state: FightState, randbelow: RandBelow, *, max_steps: int = 10_000) -> tuple[FightState, Asked]:
    """Play a fight to its end, every open decision answered as its ``suggested`` answer (what
    the default plan would do), chance from ``randbelow``; count what the players were asked.

    A side with a plan is never asked; a side without one answers every decision itself, as a
    player who fights blow by blow does."""
    asked = Asked()
    last: Optional[frozenset[int]] = None
    for _ in range(max_steps):
        if state.result is not None:
            asked.rounds = state.result.rounds
            return state, asked
        pending = flow.pending(state)
        if pending.chance is not None:
            command = Command(SYSTEM_SEAT, RESOLVE_CHANCE,
                              {"id": pending.chance.id, "outcome": draw_outcome(pending.chance, randbelow)})
            state = _fold(state, flow.decide(state, command))
            continue
        blocking = [d for d in pending.decisions if d.mode != "free"]
        if not blocking:
            raise RuntimeError("the fight waits for nothing")
        seats = frozenset(d.seat for d in blocking)
        if last is not None and seats != last:
            asked.handoffs += 1
        last = seats
        for decision in blocking:
            suggested = decision.context["suggested"]
            side = state.side_of_seat(decision.seat)
            asked.decisions[side] += 1
            state = _fold(state, flow.decide(state, Command(decision.seat, suggested["type"], suggested["args"])))
    raise RuntimeError(f"fight did not end within {max_steps} steps")


def _fold(state: FightState, events: Iterable[Event]) -> FightState:
    for event in events:
        state = apply_event(state, event)
    return state
