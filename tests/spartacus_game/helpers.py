"""Building Spartacus states by hand and driving them with scripted dice."""

from __future__ import annotations

from dataclasses import replace

from engine.core.game import step
from engine.core.types import SYSTEM_SEAT, Command
from engine.spartacus.game.rules import RULES
from engine.spartacus.game.state import Asset, GameState, Turn

HOUSES = ("batiatus", "glaber", "tullius", "solonius")


def chance(state: GameState, **outcome) -> tuple[GameState, list]:
    request = RULES.pending(state).chance
    assert request is not None, f"no chance pending at {state.stage}"
    return step(RULES, state, Command(SYSTEM_SEAT, "resolve_chance", {"id": request.id, "outcome": outcome}))


def identity(request_draw_n: int) -> list[int]:
    return list(range(request_draw_n))


def play(state: GameState, who: int, type_: str, **args) -> tuple[GameState, list]:
    return step(RULES, state, Command(who, type_, args))


def new_game(seats: int = 4, options: dict | None = None) -> GameState:
    """Seat 0 rolls highest and hosts; houses in seat order; decks unshuffled (identity)."""
    s = RULES.initial_state(seats, options or {})
    s, _ = chance(s, rolls=[6] + [1] * (seats - 1))
    for seat in range(seats):
        s, _ = play(s, seat, "choose_house", house=HOUSES[seat])
    req = RULES.pending(s).chance
    s, _ = chance(s, **{k: list(range(v.n)) for k, v in req.draws.items()})
    return s


def card(state: GameState, key: str, n: int = 1) -> str:
    """The n-th copy of intrigue or market card ``key`` that exists in the set."""
    return f"{key}#{n}"


def hand_built(state: GameState, *, stage: str = "intrigue_turns", turn: int | None = None, **players) -> GameState:
    """Replace players' fields: players=dict(p0=dict(gold=..., hand=(...), assets=(...)))."""
    for name, fields in players.items():
        seat = int(name[1:])
        state = state.with_player(seat, **fields)
    state = replace(state, stage=stage, chance=None, sealed=None, windows=(), prompts=(), resolutions=(),
                    draws_owed=())
    if turn is not None:
        state = replace(state, turn=Turn(seat=turn), turn_order=tuple(state.clockwise(turn)))
    return state


def assets(*specs) -> tuple[Asset, ...]:
    """assets(("thraex#1", "gladiator"), ("pietros#1", "slave", {"exhausted": True}))"""
    out = []
    for spec in specs:
        extra = spec[2] if len(spec) > 2 else {}
        out.append(Asset(id=spec[0], kind=spec[1], **extra))
    return tuple(out)


def types(events) -> list[str]:
    return [e.type for e in events]


def interrupts(state: GameState) -> list:
    """The open interrupt decisions (reaction windows, support requests)."""
    return [d for d in RULES.pending(state).decisions if d.mode == "interrupt"]


def blocking(state: GameState) -> list:
    return [d for d in RULES.pending(state).decisions if d.mode != "free"]
