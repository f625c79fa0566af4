"""Where a power die lands on a track, and what it pushes (rulebook "Phase 2", p. 3-4).

A track is a tuple of :class:`~engine.rom.state.Group`, one per occupied section, left to
right with no gaps: section I is index 0.  These functions are pure and shared by
``pending`` (to enumerate and preview placements), ``decide`` (to validate) and ``apply``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from engine.core.records import quick_init
from engine.rom.state import Group


@quick_init
@dataclass(frozen=True)
class Landing:
    """The section (0-based) the die lands in, the seats whose groups it pushes one
    section right, and whether it joins the player's existing group."""

    section: int
    pushes: tuple[int, ...]
    joins: bool


#: Why a die cannot be placed on a track (``None`` when it can).
HIGHER_THAN_NEIGHBOUR = "higher_than_neighbour"
TRACK_FULL = "track_full"


def landing(groups: tuple[Group, ...], seat: int, value: int, sections: int,
            may_exceed: bool = False) -> tuple[Optional[Landing], Optional[str]]:
    """Where ``seat``'s die of ``value`` lands, or why it cannot be placed.

    "Power dice must be placed in the leftmost available section.  Only one player's dice
    may lie in a section.  If the first die placed in a section is lower than the leftmost
    die of another section of the same track, the new die is pushed into the section of
    the higher die and all other groups slide one section right."  "Further dice of a
    player on the same track must go into the section where that player's dice lie, placed
    to the right of them ... each new die must have the same or a lower value than the die
    it is placed next to."  "Only the leftmost die in a section decides whether the group
    is pushed."  (Phase 2, p. 3-4.)  ``may_exceed``: Legatus or Consul lifts the
    same-or-lower limit.
    """
    for i, group in enumerate(groups):
        if group.seat == seat:
            if value > group.dice[-1] and not may_exceed:
                return None, HIGHER_THAN_NEIGHBOUR
            return Landing(i, (), True), None
    if len(groups) >= sections:
        return None, TRACK_FULL
    for i, group in enumerate(groups):
        if value < group.dice[0]:
            return Landing(i, tuple([g.seat for g in groups[i:]]), False), None
    return Landing(len(groups), (), False), None


def needs_exceed(groups: tuple[Group, ...], seat: int, value: int) -> bool:
    """Whether joining with ``value`` needs Legatus or Consul."""
    for group in groups:
        if group.seat == seat:
            return value > group.dice[-1]
    return False


def place(groups: tuple[Group, ...], seat: int, value: int, at: Landing) -> tuple[Group, ...]:
    """The track after the die has landed as ``at`` says."""
    out = list(groups)
    if at.joins:
        group = out[at.section]
        out[at.section] = Group(group.seat, group.dice + (value,))
    else:
        out.insert(at.section, Group(seat, (value,)))
    return tuple(out)


def lower(groups: tuple[Group, ...], seat: int, index: int) -> tuple[tuple[Group, ...], bool]:
    """Senator: "Lower one of your placed dice by 1.  If it already shows a 1, put it on the
    leftmost section; it now counts as 0." (p. 8)

    A player's dice on a track always share one section, so the whole group moves to
    section I, with the 0 as its leftmost die (it now decides pushing: nothing can push a
    0).  Returns the new track and whether the group moved.  Nothing else moves: pushing
    happens only when a die is placed.
    """
    out = list(groups)
    pos = next(i for i, g in enumerate(out) if g.seat == seat)
    dice = list(out[pos].dice)
    if dice[index] > 1:
        dice[index] -= 1
        out[pos] = Group(seat, tuple(dice))
        return tuple(out), False
    del dice[index]
    del out[pos]
    out.insert(0, Group(seat, (0, *dice)))
    return tuple(out), True


def set_die(groups: tuple[Group, ...], seat: int, index: int, value: int) -> tuple[Group, ...]:
    """Military Tribune's re-roll: the die changes in place; "this does not change the order
    of activation"."""
    out = list(groups)
    pos = next(i for i, g in enumerate(out) if g.seat == seat)
    dice = list(out[pos].dice)
    dice[index] = value
    out[pos] = Group(seat, tuple(dice))
    return tuple(out)
