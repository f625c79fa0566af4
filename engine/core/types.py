"""The shared vocabulary of every game: commands in, events out, decisions pending.

A game is ``fold(apply, events, initial_state)``.  A *command* is what a player (or the
service, for chance) asks for; ``decide`` turns it into past-tense *events* or raises a
:class:`~engine.core.errors.RuleViolation`; ``apply`` folds an event into the state and
never validates.  Everything here is frozen and JSON-shaped (dicts of str/int/bool/list)
so that the service can store it without knowing the game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, Mapping, Optional, Union

from engine.core.records import quick_init

#: A viewer is a seat number, or ``None`` for a spectator who holds no seat.
Viewer = Optional[int]
SPECTATOR: Viewer = None

#: The seat used for commands the service issues itself (chance resolutions).
SYSTEM_SEAT = -1

JSON = Union[None, bool, int, float, str, list, dict]


@quick_init
@dataclass(frozen=True)
class Command:
    """An imperative request: ``type`` names it (``"draw_assign"``, ``"place_bid"``).

    ``seat`` is the acting seat; ``SYSTEM_SEAT`` for chance resolutions issued by the
    service.  ``args`` is a JSON object whose shape the addressed decision describes.
    """

    seat: int
    type: str
    args: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict:
        return {"seat": self.seat, "type": self.type, "args": dict(self.args)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Command":
        return cls(seat=int(data["seat"]), type=str(data["type"]), args=dict(data.get("args") or {}))


@quick_init
@dataclass(frozen=True)
class Event:
    """A past-tense fact (``"CardDrawn"``) with a stable type name and schema version.

    ``data`` holds everything ``apply`` needs, including the outcome of any chance, so a
    stored game replays without a seed.
    """

    type: str
    data: Mapping[str, Any] = field(default_factory=dict)
    version: int = 1

    def to_json(self) -> dict:
        return {"type": self.type, "version": self.version, "data": dict(self.data)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Event":
        return cls(type=str(data["type"]), data=dict(data.get("data") or {}), version=int(data.get("version", 1)))


#: How a decision relates to the others open at the same time.
#: ``turn``         -- sequential: the game waits for this seat alone (or this step of its turn);
#: ``simultaneous`` -- part of a ``group``: every addressed seat answers in secret, and the
#:                     answers are revealed together once all have answered;
#: ``interrupt``    -- a response window opened by an event; responders answer in ``order``;
#: ``free``         -- never blocks anyone (give gold, propose a trade); has no deadline.
DecisionMode = Literal["turn", "simultaneous", "interrupt", "free"]


@quick_init
@dataclass(frozen=True)
class Decision:
    """One open question addressed to one seat.

    Legal answers are either enumerated in ``options`` (each a complete :class:`Command`)
    or described by ``schema`` (a JSON schema of the command's ``args``, with bounds; see
    :mod:`engine.core.schema` for the supported subset) together with ``command_type``.
    ``default`` is the command the server submits when the deadline passes; it is always
    legal.  ``id`` is stable while the decision stays open and unique within the game.
    ``prompt`` is a short English sentence; ``prompt_key`` and ``prompt_args`` let pages
    and emails translate it.  ``context`` carries what the addressed player needs to
    choose (for example the cards just drawn); it is visible to that seat only.

    ``private`` marks a decision whose options follow from the addressed seat's hidden
    information (its hand, hidden gold, cards drawn, a secret it set): nobody may answer it
    on that seat's behalf because of what it holds, so a private decision with a single
    legal option is still asked, and whether, when and how it is answered must never
    depend on that option count.  A decision that is not private has options that anyone
    could work out from public information; when it has a single one, the service may
    answer it at once (:func:`engine.core.game.forced_answer`).  Whether a decision is
    private is a property of its kind, decided from public information like everything else
    others may see of it.
    """

    id: str
    seat: int
    mode: DecisionMode
    prompt: str
    default: Command
    command_type: str = ""
    options: Optional[tuple[Command, ...]] = None
    schema: Optional[Mapping[str, Any]] = None
    group: Optional[str] = None
    order: int = 0
    prompt_key: str = ""
    prompt_args: Mapping[str, Any] = field(default_factory=dict)
    context: Mapping[str, Any] = field(default_factory=dict)
    private: bool = False

    def __post_init__(self) -> None:
        if (self.options is None) == (self.schema is None):
            raise ValueError(f"decision {self.id}: give exactly one of options or schema")
        if self.schema is not None and not self.command_type:
            raise ValueError(f"decision {self.id}: a schema decision needs command_type")

    def to_json(self, *, with_options: bool = True) -> dict:
        """The decision as the addressed seat sees it (options included) or, with
        ``with_options=False``, as anyone else may see it: who owes what, nothing more."""
        out: dict[str, Any] = {
            "id": self.id,
            "seat": self.seat,
            "mode": self.mode,
            "prompt": self.prompt,
            "prompt_key": self.prompt_key or self.id.split(":")[0],
            "group": self.group,
            "private": self.private,
        }
        if not with_options:
            return out
        out["prompt_args"] = dict(self.prompt_args)
        out["context"] = dict(self.context)
        out["command_type"] = self.command_type or self.default.type
        if self.options is not None:
            out["options"] = [{"type": c.type, "args": dict(c.args)} for c in self.options]
        else:
            out["schema"] = dict(self.schema or {})
        out["default"] = {"type": self.default.type, "args": dict(self.default.args)}
        return out


@quick_init
@dataclass(frozen=True)
class Pending:
    """Everything the game is waiting for.

    When ``chance`` is set the service must resolve it (with a CSPRNG) before anyone
    acts; ``decisions`` is then empty.  ``decisions`` lists the open decisions of all
    seats: a blocking set (turn / simultaneous / interrupt) plus free actions.
    """

    decisions: tuple[Decision, ...] = ()
    chance: Optional["ChanceRequest"] = None  # noqa: F821 - defined in engine.core.chance

    def for_seat(self, seat: int) -> tuple[Decision, ...]:
        return tuple([d for d in self.decisions if d.seat == seat])

    @property
    def blocking(self) -> tuple[Decision, ...]:
        decisions = self.decisions
        for d in decisions:
            if d.mode == "free":
                return tuple([d for d in decisions if d.mode != "free"])
        return decisions  # nothing free among them (most moments of most games)


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended.

    ``winners`` are seats (empty when nobody won, e.g. Rome beat everyone in PAX);
    ``ranking`` lists every seat best first; ``scores`` maps seat -> points where the game
    scores; ``detail`` holds the game's own explanation (categories, tie-breaks...).
    """

    winners: tuple[int, ...]
    ranking: tuple[int, ...] = ()
    scores: Mapping[int, int] = field(default_factory=dict)
    detail: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict:
        return {
            "winners": list(self.winners),
            "ranking": list(self.ranking),
            "scores": {str(k): v for k, v in self.scores.items()},
            "detail": dict(self.detail),
        }
