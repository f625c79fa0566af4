"""Chance as data.

The engine never rolls a die.  When a game needs chance it returns a
:class:`ChanceRequest` from ``pending``; the service draws the outcome with a
cryptographically secure generator (``secrets.randbelow``) and submits it as the command
``Command(SYSTEM_SEAT, "resolve_chance", {"id": ..., "outcome": {...}})``.  The game's
``decide`` checks the outcome with :func:`check_outcome` and records it in an event, so a
stored game replays without any seed.  Tests script the outcome directly.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Union

from engine.core.errors import BadArguments

RESOLVE_CHANCE = "resolve_chance"


@dataclass(frozen=True)
class Shuffle:
    """A uniformly random permutation of ``range(n)``."""

    n: int


@dataclass(frozen=True)
class Dice:
    """``count`` dice with ``sides`` sides each, values ``1..sides``."""

    count: int
    sides: int = 6


@dataclass(frozen=True)
class Pick:
    """One index from ``range(n)`` (who starts, which card of a hand at random...)."""

    n: int


Draw = Union[Shuffle, Dice, Pick]


@dataclass(frozen=True)
class ChanceRequest:
    """A named set of draws the service must make; ``id`` is unique within the game."""

    id: str
    draws: Mapping[str, Draw] = field(default_factory=dict)
    reason: str = ""

    def to_json(self) -> dict:
        return {
            "id": self.id,
            "reason": self.reason,
            "draws": {k: {"kind": type(v).__name__.lower(), **v.__dict__} for k, v in self.draws.items()},
        }


def draw_outcome(request: ChanceRequest, randbelow: Callable[[int], int]) -> dict[str, Any]:
    """Draw every part of ``request`` with ``randbelow(n) -> 0..n-1``.

    The service passes ``secrets.randbelow``; the engine itself stays free of randomness.
    Shuffles are Fisher-Yates, so every permutation is equally likely.
    """
    outcome: dict[str, Any] = {}
    for name, draw in request.draws.items():
        if isinstance(draw, Shuffle):
            perm = list(range(draw.n))
            for i in range(draw.n - 1, 0, -1):
                j = randbelow(i + 1)
                perm[i], perm[j] = perm[j], perm[i]
            outcome[name] = perm
        elif isinstance(draw, Dice):
            outcome[name] = [randbelow(draw.sides) + 1 for _ in range(draw.count)]
        elif isinstance(draw, Pick):
            outcome[name] = randbelow(draw.n)
        else:  # pragma: no cover - the union above is closed
            raise TypeError(f"unknown draw {draw!r}")
    return outcome


def check_outcome(request: ChanceRequest, outcome: Any) -> dict[str, Any]:
    """Validate a submitted outcome against its request; return it normalised.

    Raises :class:`BadArguments` on any mismatch, so a forged or garbled resolution is
    refused like any other bad command.
    """
    if not isinstance(outcome, Mapping) or set(outcome) != set(request.draws):
        raise BadArguments(f"chance {request.id}: outcome must have exactly {sorted(request.draws)}")
    out: dict[str, Any] = {}
    for name, draw in request.draws.items():
        value = outcome[name]
        if isinstance(draw, Shuffle):
            if (
                not isinstance(value, list)
                or any(type(v) is not int for v in value)
                or sorted(value) != list(range(draw.n))
            ):
                raise BadArguments(f"chance {request.id}.{name}: not a permutation of {draw.n}")
            out[name] = list(value)
        elif isinstance(draw, Dice):
            if (
                not isinstance(value, list)
                or len(value) != draw.count
                or any(type(v) is not int or not 1 <= v <= draw.sides for v in value)
            ):
                raise BadArguments(f"chance {request.id}.{name}: not {draw.count}d{draw.sides}")
            out[name] = list(value)
        elif isinstance(draw, Pick):
            if type(value) is not int or not 0 <= value < draw.n:
                raise BadArguments(f"chance {request.id}.{name}: not an index below {draw.n}")
            out[name] = value
    return out
