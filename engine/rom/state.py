"""The state of a game of Rom: frozen dataclasses over tuples, picklable, folded from events.

Nothing here decides anything; the helpers only read.  Seats are ``0..n-1``; tracks and
resources are indexed in the order of :data:`TRACKS` and :data:`RESOURCES`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from engine.core.records import evolve, quick_init
from engine.rom.carddata import CardSet, Province, SenateCard
from engine.rom.vocabulary import RESOURCES, TRACKS

MILITARY, SENATE, BLACK_MARKET = range(3)

#: Phases: ``setup`` (decks to shuffle), ``roll`` (dice to roll), ``order`` (Phase 1 cards),
#: ``placement`` (Phase 2), ``resolution`` (Phase 3), ``scoring`` (Phase 4, forum),
#: ``arena`` (Phase 4, hidden sets), ``final`` (end-of-game scoring), ``cleanup``
#: (Phase 5), ``over``.
PHASES = ("setup", "roll", "order", "placement", "resolution", "scoring", "arena", "final", "cleanup", "over")


@quick_init
@dataclass(frozen=True)
class Group:
    """The dice of one player in one section of a track, left to right."""

    seat: int
    dice: tuple[int, ...]


@dataclass(frozen=True)
class Player:
    unplaced: tuple[int, ...] = ()  # power dice not yet placed this round, sorted
    rolled: tuple[int, ...] = ()  # as rolled in Phase 1 (public)
    provinces: tuple[str, ...] = ()
    senate: tuple[str, ...] = ()
    arena: tuple[str, ...] = ()  # hand: hidden from the others
    forum: tuple[int, int, int] = (0, 0, 0)  # markers on the olive, wine, jewel tracks
    vp: int = 0
    order_adjust: int = 0  # Tribunus effects on this round's dice total
    track_bonus: tuple[int, int, int] = (0, 0, 0)  # Magister Equitum, Magistrate, Aedile
    arena_set: Optional[tuple[str, ...]] = None  # submitted hidden set (None: not yet)


#: ``Reroll.repeat`` of a card whose re-roll "may even be repeated" without a limit.
REPEAT_FREELY = -1


@dataclass(frozen=True)
class Reroll:
    """A re-roll waiting for chance: ``seat``'s unplaced dice ``values``, or the placed
    die ``index`` of ``seat``'s group on ``track``.  ``repeat`` further re-rolls of the
    activator's own dice may follow (Proconsul); ``REPEAT_FREELY`` (-1): as many as he likes."""

    seat: int
    by: int
    card: str
    values: tuple[int, ...] = ()
    track: int = -1
    index: int = -1
    repeat: int = 0


@dataclass(frozen=True)
class State:
    cards: CardSet
    seats: int
    intrigue: bool = False
    custom_deck: tuple[str, ...] = ()
    round: int = 0
    phase: str = "setup"
    in_game_provinces: tuple[str, ...] = ()
    senate_in_game: tuple[str, ...] = ()
    province_deck: tuple[str, ...] = ()  # top first; hidden
    senate_deck: tuple[str, ...] = ()
    arena_deck: tuple[str, ...] = ()
    province_row: tuple[str, ...] = ()  # the cards laid out under the tracks, left to right
    senate_row: tuple[str, ...] = ()
    arena_row: tuple[str, ...] = ()
    tracks: tuple[tuple[Group, ...], ...] = ((), (), ())
    players: tuple[Player, ...] = ()
    previous_order: tuple[int, ...] = ()  # relative order that breaks ties in Phase 1
    turn_order: tuple[int, ...] = ()
    order_done: frozenset = frozenset()  # seats done with Phase 1 cards
    turn_seat: Optional[int] = None
    turn_placed: bool = False  # the turn seat has placed its die this turn
    reroll: Optional[Reroll] = None
    repeat_offer: Optional[Reroll] = None  # Proconsul: may re-roll again (values empty)
    market_spent: int = 0  # spent so far by the player resolving the black market
    exhausted_provinces: frozenset = frozenset()
    exhausted_senate: frozenset = frozenset()
    senate_on: tuple[tuple[str, tuple[str, ...]], ...] = ()  # card -> provinces it lies on
    arena_eligible: tuple[int, ...] = ()
    removed: tuple[str, ...] = ()  # cards out of the game (public)
    chance_seq: int = 0
    result: tuple = ()  # (winners, ranking, detail) once over
    scores_log: tuple = field(default=())  # per-scoring VP breakdowns, for the view

    # ---------------------------------------------------------------- reading helpers

    def player(self, seat: int) -> Player:
        return self.players[seat]

    def with_player(self, seat: int, **changes) -> "State":
        players = list(self.players)
        players[seat] = evolve(players[seat], **changes)
        return evolve(self, players=tuple(players))

    def province(self, pid: str) -> Province:
        return self.cards.province(pid)

    def senate_card(self, cid: str) -> SenateCard:
        return self.cards.senate_card(cid)

    def group(self, track: int, seat: int) -> Optional[Group]:
        for group in self.tracks[track]:
            if group.seat == seat:
                return group
        return None

    def owner_of_province(self, pid: str) -> Optional[int]:
        for seat, player in enumerate(self.players):
            if pid in player.provinces:
                return seat
        return None

    def track_cards(self) -> int:
        return self.cards.per_seats(self.cards.track_cards, self.seats)

    @property
    def last_round(self) -> bool:
        return self.round >= self.cards.rounds


def freeze(value):
    """JSON data as nested tuples (objects become sorted ``(key, value)`` pairs), so the
    state holds no mutable containers; :func:`thaw` turns it back."""
    if isinstance(value, dict):
        return ("__object__", tuple(sorted((str(k), freeze(v)) for k, v in value.items())))
    if isinstance(value, (list, tuple)):
        return tuple(freeze(v) for v in value)
    return value


def thaw(value):
    if isinstance(value, tuple) and len(value) == 2 and value[0] == "__object__":
        return {k: thaw(v) for k, v in value[1]}
    if isinstance(value, tuple):
        return [thaw(v) for v in value]
    return value


def resource_index(resource: str) -> int:
    return RESOURCES.index(resource)


def track_index(track: str) -> int:
    return TRACKS.index(track)
