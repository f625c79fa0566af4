"""The one small API every game implements, and the kernel functions built on it.

A game package exposes an object satisfying :class:`Rules`.  The service only ever calls
these methods; it never reads a game's state directly.

The kernel guarantees, before a game's ``decide`` sees a command, that the command
answers an open decision of the acting seat (:func:`match_decision`): enumerated options
must match exactly, schema decisions must validate.  ``decide`` then does the rule work
and returns past-tense events; ``apply`` folds them and never raises.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping, Optional, Protocol, Sequence

from engine.core.schema import validate as validate_schema
from engine.core.chance import RESOLVE_CHANCE
from engine.core.errors import (
    GameOver,
    IllegalCommand,
    NoSuchDecision,
    NotYourDecision,
)
from engine.core.types import SYSTEM_SEAT, Command, Decision, Event, Outcome, Pending, Viewer


class Rules(Protocol):
    """What a game is, to the service.

    ``name``          -- registry key (``"pax"``); ``title`` a human name.
    ``rules_version`` -- changes whenever ``apply`` changes; snapshots of other versions
                         are discarded and the game is replayed from its events.
    """

    name: str
    title: str
    rules_version: str

    def options_schema(self) -> Mapping[str, Any]:
        """JSON schema (subset of :mod:`engine.core.schema`) of the creation options."""

    def seat_counts(self, options: Mapping[str, Any]) -> Sequence[int]:
        """The numbers of seats a game with these options may have."""

    def initial_state(self, seats: int, options: Mapping[str, Any]) -> Any:
        """A fresh game; usually its first pending step is a chance request (the shuffle)."""

    def pending(self, state: Any) -> Pending:
        """Open decisions (and/or the chance to resolve)."""

    def decide(self, state: Any, command: Command) -> list[Event]:
        """Validate ``command`` against the rules and return the events it causes."""

    def apply(self, state: Any, event: Event) -> Any:
        """Fold one event into the state; total, never validates."""

    def view(self, state: Any, viewer: Viewer) -> dict:
        """The state as ``viewer`` may see it, JSON-shaped."""

    def visible(self, event: Event, viewer: Viewer) -> Optional[dict]:
        """The event as ``viewer`` may see it (redacted), or ``None`` if it is invisible."""

    def outcome(self, state: Any) -> Optional[Outcome]:
        """``None`` while the game runs; the result once it has ended."""

    # Optional: ``decide_and_fold(state, command) -> (state, events)`` is ``decide`` for a
    # command :func:`step` has already matched to an open decision, also returning the
    # state the game's working transaction reached while deciding (the same state folding
    # the events with ``apply`` gives), so a step folds every event once.
    #
    # Optional: ``summarize(events, viewer) -> str`` tells a game (or its latest part, such
    # as an arena fight) as one readable paragraph from the events ``viewer`` may see; the
    # service offers it where a game defines it (emails, the summary endpoint).


def legal_commands(rules: Rules, state: Any, seat: int) -> list[Command]:
    """Every enumerated legal command of ``seat`` (schema decisions are not expanded)."""
    out: list[Command] = []
    for decision in rules.pending(state).for_seat(seat):
        if decision.options is not None:
            out.extend(decision.options)
    return out


def forced_answer(decision: Decision, open_decisions: Sequence[Decision] = ()) -> Optional[Command]:
    """The one legal answer of ``decision`` when it follows from public information, else ``None``.

    A decision that is not :attr:`~engine.core.types.Decision.private` and lists exactly one
    option may be answered at once by the service: anyone could have worked that answer out, so
    answering it tells nobody anything.  A private decision is always asked, even with a single
    option, because answering it for the seat would tell the table what the seat holds.
    Schema decisions are asked too: their range is the player's to choose; and a free action
    (give gold, withdraw a trade offer) is never owed, so it is never answered for anyone.

    While the same seat has a public free action open (``open_decisions``: a sale to the bank,
    a trade in the open market), its lone answer waits for the player: such a moment exists so
    that players may act before saying "done", and answering at once would take it from them.
    Only public free actions count, so whether the answer waits tells nobody anything either.
    """
    if decision.private or decision.mode == "free" or decision.options is None or len(decision.options) != 1:
        return None
    if any(o.seat == decision.seat and o.mode == "free" and not o.private and o.options for o in open_decisions):
        return None
    return decision.options[0]


def match_decision(pending: Pending, command: Command) -> Optional[Decision]:
    """The open decision ``command`` answers, or raise a named :class:`RuleViolation`.

    Chance resolutions (from ``SYSTEM_SEAT``) return ``None``: the game checks them
    against its own :class:`ChanceRequest`.
    """
    if command.seat == SYSTEM_SEAT:
        if command.type != RESOLVE_CHANCE or pending.chance is None:
            raise NoSuchDecision("no chance is waiting to be resolved")
        return None
    if pending.chance is not None:
        raise NotYourDecision("the game is waiting for chance to be resolved")
    seat, command_type = command.seat, command.type
    mine = [d for d in pending.decisions if d.seat == seat and _takes_type(d, command_type)]
    if not mine:
        if not any(_takes_type(d, command_type) for d in pending.decisions):
            raise NoSuchDecision(f"no open decision takes {command_type!r}")
        raise NotYourDecision(f"seat {seat} has no open decision taking {command_type!r}")
    args: Optional[dict] = None  # made only when an answer is compared by value
    first_error: Optional[Exception] = None
    for decision in mine:
        if decision.options is not None:
            # an answer picked from the listing (a bot's, a forced one) is one of the options themselves
            for opt in decision.options:
                if opt is command:
                    return decision
            if args is None:
                args = dict(command.args)
            if any(opt.type == command_type and dict(opt.args) == args for opt in decision.options):
                return decision
            first_error = first_error or IllegalCommand(
                f"{command_type} {args} is not among the legal options of {decision.id}"
            )
        else:
            if args is None:
                args = dict(command.args)
            try:
                validate_schema(decision.schema or {}, args)
            except Exception as err:  # BadArguments
                first_error = first_error or err
                continue
            return decision
    assert first_error is not None
    raise first_error


def _takes_type(decision: Decision, command_type: str) -> bool:
    options = decision.options
    if options is None:
        return decision.command_type == command_type
    for opt in options:
        if opt.type == command_type:
            return True
    return False


def step(rules: Rules, state: Any, command: Command) -> tuple[Any, list[Event]]:
    """Decide ``command`` and fold its events: the one way a game moves forward.

    A game that folds while it decides (``decide_and_fold``) hands over the state it
    reached; otherwise the events are folded here.  So are they when ``rules`` wraps a
    game and gives its own ``decide`` (a test putting an old mistake back, say): the
    wrapped game's ``decide_and_fold`` would pass that ``decide`` by.
    """
    if rules.outcome(state) is not None:
        raise GameOver("the game has ended")
    match_decision(rules.pending(state), command)
    decide_and_fold = getattr(rules, "decide_and_fold", None)
    if decide_and_fold is not None and _same_owner(decide_and_fold, rules.decide):
        return decide_and_fold(state, command)
    events = rules.decide(state, command)
    for event in events:
        state = rules.apply(state, event)
    return state, events


def _same_owner(method: Any, other: Any) -> bool:
    """Are both bound to the same object (not one to a wrapper, one to what it wraps)?"""
    return getattr(method, "__self__", None) is getattr(other, "__self__", None)


def replay(rules: Rules, state: Any, events: Iterable[Event]) -> Any:
    """Fold stored events onto ``state`` (an initial state or a snapshot)."""
    for event in events:
        state = rules.apply(state, event)
    return state
