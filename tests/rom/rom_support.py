"""Helpers for the Rom tests: hand-built states, scripted chance, stepping through the kernel."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any, Iterable, Optional

from engine.core.chance import RESOLVE_CHANCE
from engine.core.game import step
from engine.core.types import SYSTEM_SEAT, Command, Event
from engine.rom import flow
from engine.rom.rules import RULES
from engine.rom.state import Group, State
from engine.rom.vocabulary import TRACKS

RED, BLUE, YELLOW, PURPLE = 0, 1, 2, 3


def new_game(seats: int = 3, **options: Any) -> State:
    """A game with the decks in data order (identity shuffles), ready for the first roll."""
    state = RULES.initial_state(seats, options)
    request = RULES.pending(state).chance
    outcome = {name: list(range(draw.n)) for name, draw in request.draws.items()}
    state, _ = step(RULES, state, Command(SYSTEM_SEAT, RESOLVE_CHANCE, {"id": "setup", "outcome": outcome}))
    return state


def roll(state: State, dice: dict[int, list[int]], tiebreak: Optional[list[int]] = None) -> tuple[State, list[Event]]:
    request = RULES.pending(state).chance
    outcome: dict[str, Any] = {f"seat_{s}": v for s, v in dice.items()}
    if "tiebreak" in request.draws:
        outcome["tiebreak"] = tiebreak if tiebreak is not None else list(range(state.seats))
    return step(RULES, state, Command(SYSTEM_SEAT, RESOLVE_CHANCE, {"id": request.id, "outcome": outcome}))


def chance(state: State, **outcome: Any) -> tuple[State, list[Event]]:
    request = RULES.pending(state).chance
    return step(RULES, state, Command(SYSTEM_SEAT, RESOLVE_CHANCE, {"id": request.id, "outcome": outcome}))


def act(state: State, seat: int, type_: str, **args: Any) -> tuple[State, list[Event]]:
    """One command through the kernel's ``step`` (the path the service takes)."""
    return step(RULES, state, Command(seat, type_, args))


def decision(state: State, seat: Optional[int] = None):
    decisions = RULES.pending(state).decisions
    if seat is not None:
        decisions = tuple(d for d in decisions if d.seat == seat)
    assert len(decisions) == 1, decisions
    return decisions[0]


def options(state: State, seat: Optional[int] = None, type_: Optional[str] = None) -> list[dict]:
    d = decision(state, seat)
    return [dict(o.args) for o in d.options if type_ is None or o.type == type_]


def placement_state(seats: int = 3, dice: Optional[dict[int, Iterable[int]]] = None, order: Optional[list[int]] = None,
                    tracks: Optional[dict[str, list[tuple[int, list[int]]]]] = None, turn: Optional[int] = None,
                    **players: Any) -> State:
    """A state in Phase 2 with the given unplaced dice, turn order, tracks and whose turn."""
    state = new_game(seats)
    order = order if order is not None else list(range(seats))
    ps = list(state.players)
    for s in range(seats):
        values = tuple(sorted((dice or {}).get(s, (3, 3, 3, 3))))
        ps[s] = replace(ps[s], unplaced=values, rolled=values)
    built = [(), (), ()]
    for name, groups in (tracks or {}).items():
        built[TRACKS.index(name)] = tuple(Group(s, tuple(v)) for s, v in groups)
    state = replace(state, players=tuple(ps), phase="placement", turn_order=tuple(order), previous_order=tuple(order),
                    turn_seat=order[0] if turn is None else turn, turn_placed=False, tracks=tuple(built))
    for key, value in players.items():  # e.g. p0={"provinces": (...), "senate": (...)}
        state = state.with_player(int(key[1:]), **value)
    return state


def settle(state: State) -> State:
    return flow.settle(state)[0]


def with_player(state: State, seat: int, **changes: Any) -> State:
    return state.with_player(seat, **changes)


def stored(events: Iterable[Event]) -> list[Event]:
    """Events as they read back from the event store (JSON round trip)."""
    return [Event.from_json(json.loads(json.dumps(e.to_json()))) for e in events]


def types(events: Iterable[Event]) -> list[str]:
    return [e.type for e in events]


def find(events: Iterable[Event], type_: str) -> Event:
    return next(e for e in events if e.type == type_)

