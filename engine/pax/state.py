"""The state of a game of PAX: one frozen dataclass of tuples, plus small read-only helpers.

Piles are tuples of :class:`~engine.pax.card_set.Card`; the top of the deck is index 0, so
"under the deck" appends.  Seats are 0-based and clockwise order is ascending seat number.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Optional

from engine.pax import errors
from engine.pax.card_set import CATEGORIES, Card, CardSet

#: Where a freshly drawn card may go (Karten ziehen).
DESTINATIONS = ("hand", "legion", "deck")

ROMAN = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX")


@dataclass(frozen=True)
class SetupChoice:
    """A seat's secret start-hand choice: the card kept and (solo levels 3-5) the one pushed under."""

    keep: str
    push: Optional[str] = None


@dataclass(frozen=True)
class PaxState:
    """Everything about one game of PAX.

    ``phase``: ``shuffle`` (waiting for chance), ``setup`` (start hands being chosen),
    ``turn``, ``interrupt`` (5-8 players: the senator window), ``ended``.
    ``step`` (during ``turn``): ``choose`` (draw or peek), ``draw``, ``buy``, ``lay``.
    """

    seats: int
    solo_level: int
    card_set: CardSet
    phase: str = "shuffle"
    step: str = ""
    round: int = 0
    turn: int = 0
    start_seat: int = 0
    active_seat: int = 0
    deck: tuple[Card, ...] = ()
    set_aside: tuple[Card, ...] = ()
    legions: tuple[tuple[Card, ...], ...] = ()
    rome_open: tuple[Card, ...] = ()
    rome_hidden: tuple[Card, ...] = ()
    hands: tuple[tuple[Card, ...], ...] = ()
    gold: tuple[int, ...] = ()
    tableaux: tuple[tuple[Card, ...], ...] = ()
    #: cards seen by one seat and not yet placed: start cards, or the cards being drawn
    limbo: tuple[tuple[Card, ...], ...] = ()
    setup_choices: tuple[Optional[SetupChoice], ...] = ()
    #: drawing: destinations still open, and sizes of the batches still to draw
    dest_left: tuple[str, ...] = ()
    batches_left: tuple[int, ...] = ()
    assigned: int = 0
    laid_this_turn: tuple[Card, ...] = ()
    primus: Optional[int] = None
    peeked: tuple[int, ...] = ()
    #: the senator window: who laid the senator, who is still to answer since the last card
    #: laid in it (in order), who laid a card in it, and how many answers it has had
    interrupt_by: Optional[int] = None
    responders: tuple[int, ...] = ()
    window_laid: tuple[int, ...] = ()
    window_answers: int = 0
    end_reason: str = ""
    total_cards: int = 0

    @property
    def solo(self) -> bool:
        return self.seats == 1


def symbols(cards: Iterable[Card], category: str) -> int:
    """Symbols of one category.  Rulebook, Winner: "what counts is always the number of symbols"."""
    total = 0
    for c in cards:  # a plain loop: asked on every step, and cheaper than a generator
        if c.category == category:
            total += c.symbols
    return total


def symbol_counts(cards: Iterable[Card]) -> dict[str, int]:
    """Symbols per category, every category present."""
    out = dict.fromkeys(CATEGORIES, 0)
    for c in cards:
        out[c.category] += c.symbols
    return out


def row_length(cards: Iterable[Card], category: str) -> int:
    """Cards (not symbols) in one category row.  Rulebook, Winner: "the number of cards only
    matters for income"."""
    return sum(1 for c in cards if c.category == category)


def legion_value(cards: Iterable[Card]) -> int:
    """Rulebook, End of round: "the most valuable cards (highest sum of aurei)"."""
    return sum([c.price for c in cards])


def find(cards: Iterable[Card], card_id: object) -> Optional[Card]:
    for c in cards:
        if c.id == card_id:
            return c
    return None


def without(cards: tuple[Card, ...], card_id: str) -> tuple[Card, ...]:
    """``cards`` minus the one card with ``card_id`` (order kept)."""
    return tuple([c for c in cards if c.id != card_id])


def replace_at(items: tuple, index: int, value) -> tuple:
    return items[:index] + (value,) + items[index + 1:]


def next_seat(state: PaxState, seat: int) -> int:
    """Rulebook, Play: "then the next player clockwise" -- ascending seat numbers."""
    return (seat + 1) % state.seats


def clockwise_from(state: PaxState, seat: int) -> list[int]:
    return [(seat + i) % state.seats for i in range(state.seats)]


def card_count(state: PaxState) -> int:
    """Every card in the game, wherever it lies (the conservation invariant)."""
    piles = [state.deck, state.set_aside, state.rome_open, state.rome_hidden]
    piles += list(state.legions) + list(state.hands) + list(state.tableaux) + list(state.limbo)
    return sum(len(p) for p in piles)


def require_step(state: PaxState, seat: int, step: str) -> None:
    """Refuse, with the named reason, a command that is not ``seat``'s ``step`` of the turn."""
    if state.phase != "turn":
        raise errors.WrongStep(f"no turn is being played (phase {state.phase})")
    if seat != state.active_seat:
        raise errors.NotYourTurn(f"it is seat {state.active_seat}'s turn")
    if state.step != step:
        raise errors.WrongStep(f"this turn is at its {state.step or 'end'} step, not {step}")
