"""Build PAX states and cards by hand, and drive them through the kernel, for rule tests."""

from __future__ import annotations

import itertools
from dataclasses import replace
from typing import Iterable, Optional, Sequence

from engine.core.game import step
from engine.core.types import Command, Event
from engine.pax.card_set import Card, load_card_set
from engine.pax.rules import RULES
from engine.pax.state import PaxState, card_count

_CODES = {"wealth": "W", "fleet": "F", "army": "A", "religion": "R", "senator": "S", "land": "L", "intrigue": "I"}
_serial = itertools.count(1)


def card(category: str, symbols: int = 1, price: int = 1, id: Optional[str] = None) -> Card:
    """A card; ids are unique across a test run (``t-A17``)."""
    return Card(id or f"t-{_CODES[category]}{next(_serial)}", category, symbols, price, category)


def cards(category: str, n: int, symbols: int = 1, price: int = 1) -> tuple[Card, ...]:
    return tuple(card(category, symbols, price) for _ in range(n))


def filler(n: int) -> tuple[Card, ...]:
    """``n`` plain land cards (1 symbol, 1 aureus): harmless anywhere."""
    return cards("land", n)


def table(
    seats: int = 2,
    *,
    phase: str = "turn",
    step: str = "choose",
    active: int = 0,
    start: int = 0,
    round: int = 1,
    turn: int = 1,
    deck: Optional[Sequence[Card]] = None,
    legions: Optional[Sequence[Sequence[Card]]] = None,
    hands: Optional[Sequence[Sequence[Card]]] = None,
    tableaux: Optional[Sequence[Sequence[Card]]] = None,
    gold: Optional[Sequence[int]] = None,
    rome_open: Sequence[Card] = (),
    rome_hidden: Optional[Sequence[Card]] = None,
    limbo: Optional[Sequence[Sequence[Card]]] = None,
    primus: Optional[int] = None,
    solo_level: int = 1,
    **more,
) -> PaxState:
    """A game in progress; every pile defaults to something plausible and small."""
    n_legions = 3 if seats == 1 else seats + 1
    state = PaxState(
        seats=seats, solo_level=solo_level, card_set=load_card_set("default"),
        phase=phase, step=step, round=round, turn=turn, start_seat=start, active_seat=active,
        deck=tuple(deck) if deck is not None else filler(20),
        legions=tuple(tuple(l) for l in legions) if legions is not None else tuple(filler(1) for _ in range(n_legions)),
        hands=tuple(tuple(h) for h in hands) if hands is not None else ((),) * seats,
        tableaux=tuple(tuple(t) for t in tableaux) if tableaux is not None else ((),) * seats,
        gold=tuple(gold) if gold is not None else (5,) * seats,
        rome_open=tuple(rome_open),
        rome_hidden=tuple(rome_hidden) if rome_hidden is not None else filler(3),
        limbo=tuple(tuple(l) for l in limbo) if limbo is not None else ((),) * seats,
        setup_choices=(None,) * seats, primus=primus,
    )
    state = replace(state, **more)
    return replace(state, total_cards=card_count(state))


def cmd(seat: int, type_: str, **args) -> Command:
    return Command(seat, type_, args)


def play(state: PaxState, *commands: Command) -> tuple[PaxState, list[Event]]:
    """Run commands through the kernel exactly as the service would; return state and all events."""
    log: list[Event] = []
    for command in commands:
        state, events = step(RULES, state, command)
        log.extend(events)
    return state, log


def types(events: Iterable[Event]) -> list[str]:
    return [e.type for e in events]


def only(events: Iterable[Event], type_: str) -> list[Event]:
    return [e for e in events if e.type == type_]


def decision(state: PaxState):
    """The single blocking decision (tests of sequential steps)."""
    blocking = RULES.pending(state).blocking
    assert len(blocking) == 1, blocking
    return blocking[0]


def option_args(state: PaxState) -> list[dict]:
    return [dict(c.args) for c in decision(state).options]


def at_draw(state: PaxState) -> PaxState:
    """Move a ``choose`` state on to drawing."""
    state, _ = play(state, cmd(state.active_seat, "draw_cards"))
    return state
