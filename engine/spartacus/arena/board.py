"""The arena board: hexes in axial coordinates, start hexes I and II, distances and paths.

The rulebook shows the board ("the board shows the arena", Spielbrett) and names the
start hexes "I" and "II" (Einladung) but prints no map, so Capua's board is its own: an oval of
65 hexes, the hexes within 3 steps of the five-hex centre line from (-2, 0) to (2, 0).
It is 11 hexes long and 7 wide, close to the sand of the published board; the start hexes
(-3, 0) and (3, 0) are 6 hexes apart with 2 hexes of sand behind each.  Six hexes is more
than any fighter can cover and still strike in one turn unless it has speed 5, so speed
decides who strikes first, and the winner of the initiative has a real choice between
moving first and waiting ("Sally decides to wait", Initiative im Kampf).

Axial coordinates ``(q, r)``: the six neighbours of a hex differ by the
:data:`DIRECTIONS`; the distance of two hexes is the number of steps between them.  The
arena has no obstacles: the only blocked hex is the one the opponent stands on.
"""

from __future__ import annotations

import functools
from types import MappingProxyType
from dataclasses import dataclass, field
from typing import Iterable, Mapping

Hex = tuple[int, int]

#: Neighbour offsets, in the fixed order every search uses (east, then counter-clockwise).
DIRECTIONS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def distance(a: Hex, b: Hex) -> int:
    """Hex steps between ``a`` and ``b``."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


@dataclass(frozen=True)
class Board:
    """A hex arena: its hexes and the start hexes of fighter I and fighter II."""

    name: str
    hexes: frozenset[Hex]
    starts: tuple[Hex, Hex]
    _order: tuple[Hex, ...] = field(default=(), compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_order", tuple(sorted(self.hexes, key=lambda h: (h[1], h[0]))))

    def __contains__(self, hex_: object) -> bool:
        return hex_ in self.hexes

    @property
    def ordered(self) -> tuple[Hex, ...]:
        """Every hex, row by row (``r`` then ``q``): the canonical order of choices."""
        return self._order

    def neighbours(self, hex_: Hex) -> tuple[Hex, ...]:
        """The hexes next to ``hex_`` on the board ("an adjacent hex", Angreifen)."""
        q, r = hex_
        return tuple((q + dq, r + dr) for dq, dr in DIRECTIONS if (q + dq, r + dr) in self.hexes)

    def within(self, hex_: Hex, steps: int) -> tuple[Hex, ...]:
        """Hexes of the board at distance ``1..steps`` from ``hex_`` (as the crow flies)."""
        return tuple(h for h in self._order if 0 < distance(h, hex_) <= steps)

    def reachable(self, start: Hex, steps: int, blocked: Iterable[Hex] = ()) -> Mapping[Hex, tuple[Hex, ...]]:
        """Every hex a fighter on ``start`` can move to in up to ``steps`` steps, with a shortest
        path to it (the hexes entered, ``start`` excluded); ``blocked`` hexes are neither
        entered nor passed through.

        "A fighter may move at most as many hexes as it has speed dice" (Bewegen).  The search is breadth first with a fixed
        neighbour order, so the path offered for a hex is always the same.
        """
        return _reachable(self, start, steps, frozenset(blocked))

    def destinations(self, start: Hex, steps: int,
                     blocked: Iterable[Hex] = ()) -> tuple[tuple[Hex, tuple[Hex, ...]], ...]:
        """:meth:`reachable` as ``(hex, path)`` pairs in the board's :attr:`ordered` order, the
        order in which moves are offered.  The same few positions recur all fight long, so
        each answer is kept."""
        return _destinations(self, start, steps, frozenset(blocked))

    def _search(self, start: Hex, steps: int, block: frozenset) -> Mapping[Hex, tuple[Hex, ...]]:
        around = _neighbour_table(self)
        paths: dict[Hex, tuple[Hex, ...]] = {start: ()}
        frontier = [start]
        for _ in range(steps):
            nxt = []
            for hex_ in frontier:
                for n in around[hex_]:
                    if n not in paths and n not in block:
                        paths[n] = paths[hex_] + (n,)
                        nxt.append(n)
            frontier = nxt
        del paths[start]
        return MappingProxyType(paths)

    def rows(self) -> list[list[Hex]]:
        """The board's hexes grouped by row ``r``, west to east (for drawings)."""
        out: dict[int, list[Hex]] = {}
        for h in self._order:
            out.setdefault(h[1], []).append(h)
        return [out[r] for r in sorted(out)]

    def drawing(self, marks: Mapping[Hex, str] | None = None) -> str:
        """The board as text, one row of hexes per line; ``marks`` label some hexes."""
        marks = marks or {}
        lines = []
        min_x = min(2 * h[0] + h[1] for h in self.hexes)
        for row in self.rows():
            r = row[0][1]
            cells = {2 * q + r - min_x: marks.get((q, r), ".") for q, _ in row}
            width = max(cells) + 1
            chars = [" "] * (width * 2)
            for x, label in cells.items():
                chars[x * 2: x * 2 + len(label)] = list(label)
            lines.append("".join(chars).rstrip())
        return "\n".join(lines)


@functools.lru_cache(maxsize=8)
def _neighbour_table(board: Board) -> Mapping[Hex, tuple[Hex, ...]]:
    """Every hex's :meth:`Board.neighbours`, worked out once per board."""
    return {h: board.neighbours(h) for h in board.hexes}


@functools.lru_cache(maxsize=4096)
def _reachable(board: Board, start: Hex, steps: int, blocked: frozenset) -> Mapping[Hex, tuple[Hex, ...]]:
    return board._search(start, steps, blocked)


@functools.lru_cache(maxsize=4096)
def _destinations(board: Board, start: Hex, steps: int,
                  blocked: frozenset) -> tuple[tuple[Hex, tuple[Hex, ...]], ...]:
    paths = _reachable(board, start, steps, blocked)
    return tuple([(h, paths[h]) for h in board.ordered if h in paths])


def oval(name: str, half_length: int, radius: int, start_offset: int) -> Board:
    """The hexes within ``radius`` of the centre line ``(-half_length, 0)..(half_length, 0)``,
    with the start hexes ``(-start_offset, 0)`` (I) and ``(start_offset, 0)`` (II)."""
    line = [(q, 0) for q in range(-half_length, half_length + 1)]
    span = half_length + radius
    hexes = frozenset(
        (q, r)
        for q in range(-span - radius, span + radius + 1)
        for r in range(-radius, radius + 1)
        if min(distance((q, r), c) for c in line) <= radius
    )
    return Board(name=name, hexes=hexes, starts=((-start_offset, 0), (start_offset, 0)))


#: Capua's arena: 65 hexes, start hexes 6 apart.
ARENA = oval("capua-oval", half_length=2, radius=3, start_offset=3)
