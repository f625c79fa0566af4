"""Building Spartacus states by hand and driving them with scripted dice."""

from __future__ import annotations

from dataclasses import replace

from engine.core.game import step
from engine.core.types import SYSTEM_SEAT, Command
from engine.spartacus.game.rules import RULES
from engine.spartacus.game.state import Asset, GameState, Turn

HOUSES = ("batiatus", "glaber", "tullius", "solonius")


def chance(state: GameState, *, settle: bool = True, **outcome) -> tuple[GameState, list]:
    request = RULES.pending(state).chance
    assert request is not None, f"no chance pending at {state.stage}"
    state, events = step(RULES, state, Command(SYSTEM_SEAT, "resolve_chance", {"id": request.id, "outcome": outcome}))
    return passed_through(state, events) if settle else (state, events)


def passed_through(state: GameState, events: list | None = None) -> tuple[GameState, list]:
    """Every addressed dominus who can only pass, passes (as a player holding nothing
    playable would), until someone has a real choice or the game needs something else."""
    events = list(events or [])
    while RULES.pending(state).chance is None:
        owed = [d for d in RULES.pending(state).decisions if d.mode != "free"]
        if len(owed) != 1 or not owed[0].id.startswith("react:") or len(owed[0].options) != 1:
            break
        state, more = step(RULES, state, owed[0].options[0])
        events += more
    return state, events


def identity(request_draw_n: int) -> list[int]:
    return list(range(request_draw_n))


def play(state: GameState, who: int, type_: str, *, settle: bool = True, **args) -> tuple[GameState, list]:
    """``who`` answers with ``type_``; then, unless ``settle`` is False, the domini who can
    only pass in the windows that follow do so (:func:`passed_through`)."""
    state, events = step(RULES, state, Command(who, type_, args))
    return passed_through(state, events) if settle else (state, events)


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


def everyone(base: GameState, stage: str, **players) -> GameState:
    """Every player of four: no cards, no property, 5 gold, influence 4, unless given."""
    for seat in range(4):
        fields = players.setdefault(f"p{seat}", {})
        for key, value in (("hand", ()), ("assets", ()), ("gold", 5), ("influence", 4)):
            fields.setdefault(key, value)
    turn = players.pop("turn", None)
    return hand_built(base, stage=stage, turn=turn, **players)


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
