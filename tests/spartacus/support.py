"""A fight driven step by step with scripted dice, on hand-built states."""

from __future__ import annotations

from typing import Any, Optional

from engine.core.chance import RESOLVE_CHANCE
from engine.core.types import SYSTEM_SEAT, Command, Decision, Event
from engine.spartacus.arena import fight
from engine.spartacus.arena.board import Hex
from engine.spartacus.arena.fighters import Entrant
from engine.spartacus.arena.plan import FightPlan
from engine.spartacus.arena.state import FightState, evolve


class Bout:
    """Fighter I is seat 0, fighter II seat 1; ``roll``/``act`` submit chance and answers."""

    def __init__(self, first: str, second: str, *, kit_i: Optional[dict] = None, kit_ii: Optional[dict] = None,
                 plans: tuple[Optional[FightPlan], Optional[FightPlan]] = (None, None), **kwargs: Any) -> None:
        self.initial = fight.start_fight(Entrant(0, first, **(kit_i or {})), Entrant(1, second, **(kit_ii or {})),
                                         plans=plans, **kwargs)
        self.state: FightState = self.initial
        self.events: list[Event] = []

    # --- hand-built positions -------------------------------------------------------------
    def place(self, side: int, hex_: Hex) -> "Bout":
        self.state = self.state.with_side(evolve(self.state.sides[side], position=hex_))
        return self

    def set_dice(self, side: int, dice: tuple[int, int, int]) -> "Bout":
        self.state = self.state.with_side(evolve(self.state.sides[side], dice=dice))
        return self

    def adjacent(self) -> "Bout":
        return self.place(0, (0, 0)).place(1, (1, 0))

    # --- driving ----------------------------------------------------------------------------
    def submit(self, command: Command) -> list[Event]:
        events = fight.decide(self.state, command)
        for event in events:
            self.state = fight.apply(self.state, event)
        self.events.extend(events)
        return events

    def roll(self, **outcome: Any) -> list[Event]:
        request = fight.pending(self.state).chance
        assert request is not None, f"no chance pending; decisions: {[d.id for d in self.decisions()]}"
        return self.submit(Command(SYSTEM_SEAT, RESOLVE_CHANCE, {"id": request.id, "outcome": outcome}))

    def act(self, seat: int, kind: str, **args: Any) -> list[Event]:
        return self.submit(Command(seat, kind, args))

    def decisions(self, seat: Optional[int] = None, *, blocking: bool = True) -> list[Decision]:
        out = fight.pending(self.state).decisions
        return [d for d in out if (seat is None or d.seat == seat) and (not blocking or d.mode != "free")]

    def decision(self, seat: int) -> Decision:
        owed = self.decisions(seat)
        assert len(owed) == 1, [d.id for d in owed]
        return owed[0]

    def chance(self):
        return fight.pending(self.state).chance

    def of(self, kind: str) -> list[dict]:
        return [dict(e.data) for e in self.events if e.type == kind]

    def last(self, kind: str) -> dict:
        found = self.of(kind)
        assert found, f"no {kind} event"
        return found[-1]

    def initiative(self) -> dict:
        """How the last initiative roll settled: the roll's own event when nobody could reroll
        (``winner`` or ``tied``), else the ``InitiativeDecided`` or ``InitiativeTied`` after the rerolls."""
        found = [{**e.data, "tied": e.type == "InitiativeTied" or e.data.get("tied", False)} for e in self.events
                 if e.type in ("InitiativeDecided", "InitiativeTied")
                 or (e.type == "InitiativeRolled" and ("winner" in e.data or e.data.get("tied")))]
        assert found, "no settled initiative roll"
        return found[-1]

    # --- common openings ------------------------------------------------------------------------
    def to_first_turn(self, first: int = 0, *, speeds: tuple[list[int], list[int]] | None = None) -> "Bout":
        """Round 1: fighter ``first`` wins the initiative and moves first."""
        if self.chance() is None:
            for d in self.decisions():
                if d.prompt_key.endswith("use_net"):
                    self.act(d.seat, "use_net", use=False)
        request = self.chance()
        counts = [request.draws["I"].count, request.draws["II"].count]
        high, low = ([6] * counts[first], [1] * counts[1 - first])
        dice = (high, low) if first == 0 else (low, high)
        if speeds is not None:
            dice = speeds
        self.roll(I=dice[0], II=dice[1])
        winner = self.state.initiative
        if self.state.phase == "reroll":
            for d in self.decisions():
                self.act(d.seat, "reroll", dice=[])
            winner = self.state.initiative
        self.act(self.state.sides[winner].seat, "choose_order", first=winner == first)
        return self

    def attack(self, seat: int, attack: list[int], defence: list[int], **style: Any) -> list[Event]:
        """Attack and stay (the turn ends after the roll), unless ``then="move"`` is given."""
        args = {"style": "normal", **style}
        if not self.state.moved:
            args.setdefault("then", "stay")
        self.act(seat, "attack", **args)
        return self.roll(attack=attack, defence=defence)
