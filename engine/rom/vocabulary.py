"""The senate cards' effect vocabulary: every kind of effect a card may carry, as data.

A senate card in a card set names one ``kind`` from :data:`KINDS` and gives its
parameters; the parameters are checked against the kind's schema (the kernel's JSON
schema subset) when the card set is loaded.  The behaviour of every kind lives in
:mod:`engine.rom.effects`, the one place with card-specific code.

*Timing* says when a card of that kind is activated (rulebook "Senatskarten", p. 4,
and "Phase 4. Wertung", p. 6):

``order``      Phase 1, after the roll, before the turn order is fixed (Tribunus);
``turn``       during the owner's placement turn, before or after placing a die;
``placement``  together with the placement of a die (Legatus, Consul);
``forum``      Phase 4, while a forum track is scored (no matching province needed);
``arena``      Phase 4, while the arena is scored (no matching province needed);
``end``        at the end of the game (no matching province needed).

Cards of the first three timings are laid on matching province cards of their owner,
exhausting both for the round.  "Scoring cards" (printed "Wertung") are those of timing
``forum`` or ``end``; the custom-deck rule keeps epoch-III scoring cards at the bottom.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

TRACKS = ("military", "senate", "black_market")
RESOURCES = ("olive", "wine", "jewel")
SYMBOLS = ("arena", "camp", "villa")
ARENA_TYPES = ("roman", "beast", "barbarian")

TIMINGS = ("order", "turn", "placement", "forum", "arena", "end")
SCORING_TIMINGS = ("forum", "end")


@dataclass(frozen=True)
class Kind:
    timing: str
    params: Mapping[str, Any]
    summary: str


def _int(lo: int, hi: int) -> dict:
    return {"type": "integer", "minimum": lo, "maximum": hi}


def _enum(*values: str) -> dict:
    return {"type": "string", "enum": list(values)}


KINDS: dict[str, Kind] = {
    "adjust_order_sum": Kind(
        "order", {"amount": _int(-12, 12), "target": _enum("self", "any")},
        "Phase 1: add `amount` to the dice total of yourself (`self`) or of any player (`any`) for the turn order."),
    "reroll_unplaced": Kind(
        "turn", {"target": _enum("self", "any"), "dice": _enum("one", "any"), "repeat": _int(-1, 3)},
        "Re-roll one (`one`) or any number (`any`) of the unplaced dice of yourself or of any player; "
        "`repeat` more re-rolls of your own dice may follow (-1: as many as you like)."),
    "change_unplaced": Kind(
        "turn", {"delta": _int(1, 5), "wrap": {"type": "boolean"}},
        "Change one of your unplaced dice by +`delta` or -`delta`; with `wrap`, 6+1 is 1 and 1-1 is 6."),
    "flip_unplaced": Kind("turn", {}, "Turn one of your unplaced dice upside down (value becomes 7 - value)."),
    "lower_placed": Kind(
        "turn", {},
        "Lower one of your placed dice by 1; a 1 becomes a 0 and its group moves to the leftmost section."),
    "reroll_placed": Kind(
        "turn", {"track": _enum(*TRACKS)}, "Re-roll one of your placed dice on `track`; nothing moves."),
    "track_bonus": Kind(
        "turn", {"track": _enum("military", "black_market"), "amount": _int(1, 12)},
        "Phase 3: add `amount` to your legion strength or black market budget, if you have a die on `track`."),
    "steal_resource": Kind(
        "turn", {"resource": _enum(*RESOURCES), "amount": _int(1, 3)},
        "Move another player's `resource` marker back by `amount` and yours forward as far."),
    "discard_province": Kind(
        "turn", {"epoch": _int(1, 3)},
        "Discard one of your senate cards (this one too) to discard a province of epoch `epoch` of any player."),
    "exceed_on_join": Kind(
        "placement", {}, "Placed with a die: the die may be higher than the die it is placed next to."),
    "forum_advance": Kind(
        "forum",
        {"scoring": _enum(*RESOURCES), "exhaust": _enum(*RESOURCES), "advance": _enum(*RESOURCES), "steps": _int(1, 3)},
        "While the `scoring` track is scored: exhaust an `exhaust` province to advance your `advance` marker."),
    "arena_bonus": Kind(
        "arena", {"vp": _int(0, 10), "rank": _int(0, 5)},
        "Arena scoring: +`vp` for your performance, and your rank counts `rank` higher for the best performance."),
    "vp_per_province_symbol": Kind(
        "end", {"symbol": _enum(*SYMBOLS), "vp": _int(0, 10)}, "End: `vp` for each of your provinces with `symbol`."),
    "vp_per_region_with_arch": Kind("end", {"vp": _int(0, 10)}, "End: `vp` for each region in which you have an arch."),
    "vp_per_symbol_pair": Kind(
        "end", {"vp": _int(0, 10)}, "End: `vp` for each pair of one of your senate cards and one of your provinces "
                                    "with the same symbol (each card in one pair at most)."),
}


def params_schema(kind: str) -> dict:
    """The schema of a card's ``effect`` object for ``kind``."""
    spec = KINDS[kind]
    return {
        "type": "object",
        "properties": {"kind": {"type": "string"}, **spec.params},
        "required": ["kind", *spec.params],
        "additionalProperties": False,
    }
