"""Bell: a tiny game with a reaction window, for the window clock's tests.

Seat 0 rings the bell, softly or loudly (a turn); then a window asks every other seat, one at a time, to
object or pass (``interrupt``, private: whether one may object is one's own affair).  An
objection asks the others again; the window closes when all have passed in a row.  The
game ends after ``rings`` rings.

With the option ``hands``, a chance step first deals each seat 0 or 1 objection tokens,
seen by that seat only: a seat may object only while it holds one (objecting spends it).
Who is asked, and when, never depends on the tokens.

With the option ``aim``, every ring is aimed at that seat: the window names it as its public
``target`` (as a Spartacus scheme names the house it is played at).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Mapping, Optional

from engine.core.chance import ChanceRequest, Pick
from engine.core.types import Command, Decision, Event, Outcome, Pending, Viewer

NAME = "bell"


@dataclass(frozen=True)
class BellState:
    seats: int
    rings: int
    rung: int = 0
    window: tuple[int, ...] = ()  # seats still to answer, in order
    objections: int = 0
    tokens: Optional[tuple[int, ...]] = None  # None: no hands (or not dealt yet)
    dealt: bool = True
    aim: Optional[int] = None  # the seat every ring is aimed at (public)


class BellRules:
    name = NAME
    title = "Bell"
    rules_version = "1"

    def options_schema(self) -> Mapping[str, Any]:
        return {"type": "object", "properties": {"rings": {"type": "integer", "minimum": 1, "maximum": 100},
                                                 "hands": {"type": "boolean"},
                                                 "aim": {"type": "integer", "minimum": 1, "maximum": 2}},
                "additionalProperties": False}

    def seat_counts(self, options: Mapping[str, Any]) -> tuple[int, ...]:
        return (2, 3)

    def initial_state(self, seats: int, options: Mapping[str, Any]) -> BellState:
        return BellState(seats=seats, rings=options.get("rings", 3), dealt=not options.get("hands", False),
                         aim=options.get("aim"))

    def pending(self, state: BellState) -> Pending:
        if state.rung >= state.rings and not state.window:
            return Pending()
        if not state.dealt:
            return Pending(chance=ChanceRequest("deal", {f"seat{s}": Pick(2) for s in range(state.seats)},
                                                "deal the objection tokens"))
        if state.window:
            seat = state.window[0]
            passing = Command(seat, "pass", {})
            may_object = state.tokens is None or state.tokens[seat] > 0
            return Pending(decisions=(Decision(
                id=f"window:{state.rung}:{state.objections}:{len(state.window)}", seat=seat, mode="interrupt",
                prompt="The bell rang: object or pass.", default=passing,
                options=(passing, Command(seat, "object", {})) if may_object else (passing,), private=True,
                prompt_args={"target": state.aim} if state.aim is not None else {}),))
        rings = tuple(Command(0, "ring", {"loud": loud}) for loud in (False, True))
        return Pending(decisions=(Decision(id=f"ring:{state.rung}", seat=0, mode="turn", prompt="Ring the bell",
                                           default=rings[0], options=rings),))

    def decide(self, state: BellState, command: Command) -> list[Event]:
        if command.type == "resolve_chance":
            outcome = command.args["outcome"]
            return [Event("TokensDealt", {"tokens": [outcome[f"seat{s}"] for s in range(state.seats)]})]
        return [Event({"ring": "BellRung", "pass": "Passed", "object": "Objected"}[command.type],
                      {"seat": command.seat})]

    def apply(self, state: BellState, event: Event) -> BellState:
        others = tuple(s for s in range(state.seats) if s != 0)
        if event.type == "TokensDealt":
            return replace(state, tokens=tuple(event.data["tokens"]), dealt=True)
        if event.type == "BellRung":
            return replace(state, rung=state.rung + 1, window=others)
        if event.type == "Passed":
            return replace(state, window=state.window[1:])
        if event.type == "Objected":
            seat = event.data["seat"]
            again = tuple(s for s in others if s != seat)
            tokens = state.tokens
            if tokens is not None:
                tokens = tuple(t - 1 if s == seat else t for s, t in enumerate(tokens))
            return replace(state, objections=state.objections + 1, window=again, tokens=tokens)
        return state

    def view(self, state: BellState, viewer: Viewer) -> dict:
        mine = state.tokens[viewer] if state.tokens is not None and viewer is not None else None
        # two rings make a round (a public round and phase, for orders given "for this phase")
        return {"rung": state.rung, "objections": state.objections, "my_tokens": mine,
                "round": (state.rung + 1) // 2, "phase": "peal"}

    def visible(self, event: Event, viewer: Viewer) -> Optional[dict]:
        if event.type == "TokensDealt":
            return {} if viewer is None else {"my_tokens": event.data["tokens"][viewer]}
        return dict(event.data)

    def outcome(self, state: BellState) -> Optional[Outcome]:
        if state.rung >= state.rings and not state.window:
            return Outcome(winners=(0,))
        return None


RULES = BellRules()
