"""PAX (Bernd Eisenstein, Irongames 2011) as a Capua game: the :class:`Rules` object.

The modules each do one job: :mod:`~engine.pax.card_set` (cards as data), :mod:`~engine.pax.table`
(counts per number of seats), :mod:`~engine.pax.state`, :mod:`~engine.pax.setup`,
:mod:`~engine.pax.turn` (draw or peek, place, buy), :mod:`~engine.pax.laying` (lay, limits,
primus conspiratus, income), :mod:`~engine.pax.interrupt` (the senator window of 5-8 players),
:mod:`~engine.pax.flow` (between turns and rounds), :mod:`~engine.pax.scoring`,
:mod:`~engine.pax.views`, and :mod:`~engine.pax.events` (``apply``).
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Optional, Sequence

from engine.core import schema as schema_mod
from engine.core.chance import RESOLVE_CHANCE
from engine.core.errors import BadArguments, GameOver, NoSuchDecision
from engine.core.game import match_decision
from engine.core.memo import once_per_state
from engine.core.types import SYSTEM_SEAT, Command, Decision, Event, Outcome, Pending, Viewer
from engine.pax import flow, interrupt, laying, setup, turn, views
from engine.pax.card_set import CardSetError, load_card_set
from engine.pax.events import Recorder, apply_event
from engine.pax.scoring import score
from engine.pax.state import PaxState
from engine.pax.table import MAX_SEATS, SOLO_LEVELS

_OPTIONS_SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "solo_level": {
            "type": "integer", "minimum": min(SOLO_LEVELS), "maximum": max(SOLO_LEVELS), "default": 1,
            "description": "Solo game only: level 1-5 (default 1). Win with 3/4/5/6/7 categories "
                           "stronger than Rome; levels 1-4 also need all 7 categories laid.",
        },
        "card_set": {
            "type": "string", "default": "default",
            "description": "Card set file engine/pax/cards/<name>.json (default 'default').",
        },
    },
}


def _keep_card(rec: Recorder, command: Command) -> None:
    if setup.keep_card(rec, command):
        setup.reveal_start_cards(rec)
        flow.start_first_round(rec)


def _peek_rome(rec: Recorder, command: Command) -> None:
    turn.peek_rome(rec, command)
    flow.after_turn(rec, senator_laid=False)


def _lay_card(rec: Recorder, command: Command) -> None:
    if rec.state.phase == "interrupt":
        interrupt.respond_lay(rec, command)
        flow.after_interrupt(rec)
    else:
        laying.lay_card(rec, command)


def _take_income(rec: Recorder, command: Command) -> None:
    senator_laid = laying.take_income(rec, command)
    flow.after_turn(rec, senator_laid)


def _pass(rec: Recorder, command: Command) -> None:
    interrupt.respond_pass(rec, command)
    flow.after_interrupt(rec)


#: command type -> what it does.  Each handler raises a named RuleViolation before recording.
_HANDLERS: dict[str, Callable[[Recorder, Command], None]] = {
    "keep_card": _keep_card,
    "draw_cards": turn.draw_cards,
    "peek_rome": _peek_rome,
    "assign_card": turn.assign_card,
    "buy_legion": turn.buy_legion,
    "skip_buy": turn.skip_buy,
    "lay_card": _lay_card,
    "take_income": _take_income,
    "pass": _pass,
}


#: step of the turn -> the decision it asks.
_TURN_STEPS: dict[str, Callable[[PaxState], Decision]] = {
    "choose": turn.choose_decision,
    "draw": turn.assign_decision,
    "buy": turn.buy_decision,
    "lay": laying.lay_decision,
}


class PaxRules:
    """PAX for 1-8 seats (5-8 with two copies of the game; 1 is the solo game)."""

    name = "pax"
    title = "PAX"
    rules_version = "pax-2"

    # --- creation ----------------------------------------------------------------------

    def options_schema(self) -> Mapping[str, Any]:
        return _OPTIONS_SCHEMA

    def seat_counts(self, options: Mapping[str, Any]) -> Sequence[int]:
        """1-8 seats; a solo level above 1 asks for the solo game."""
        if (options or {}).get("solo_level", 1) != 1:
            return (1,)
        return tuple(range(1, MAX_SEATS + 1))

    def initial_state(self, seats: int, options: Mapping[str, Any]) -> PaxState:
        options = dict(options or {})
        schema_mod.validate(_OPTIONS_SCHEMA, options, "options")
        if type(seats) is not int or seats not in self.seat_counts(options):
            raise BadArguments(f"PAX with these options takes {list(self.seat_counts(options))} seats, not {seats!r}")
        try:
            card_set = load_card_set(options.get("card_set", "default"))
        except CardSetError as err:
            raise BadArguments(str(err)) from None
        return PaxState(seats=seats, solo_level=options.get("solo_level", 1), card_set=card_set)

    # --- play --------------------------------------------------------------------------

    @staticmethod
    @once_per_state
    def pending(state: PaxState) -> Pending:
        if state.phase == "shuffle":
            return Pending(chance=setup.setup_request(state))
        if state.phase == "setup":
            return Pending(decisions=setup.keep_decisions(state))
        if state.phase == "interrupt" and state.responders:
            return Pending(decisions=(interrupt.interrupt_decision(state),))
        if state.phase == "turn":
            build = _TURN_STEPS.get(state.step)
            if build is not None:
                return Pending(decisions=(build(state),))
        return Pending()

    def decide(self, state: PaxState, command: Command) -> list[Event]:
        rec = self._record(state, command)
        if command.seat != SYSTEM_SEAT:
            # the named rule checks passed; this also refuses stray or missing arguments
            match_decision(self.pending(state), command)
        return rec.events

    def decide_and_fold(self, state: PaxState, command: Command) -> tuple[PaxState, list[Event]]:
        """``decide`` for a command the kernel has matched, with the state its recorder folded."""
        rec = self._record(state, command)
        return rec.state, rec.events

    def _record(self, state: PaxState, command: Command) -> Recorder:
        """The rule work of ``command``: its events, folded into the recorder's state as they come."""
        if state.phase == "ended":
            raise GameOver("the game has ended")
        rec = Recorder(state)
        if command.seat == SYSTEM_SEAT:
            if command.type != RESOLVE_CHANCE:
                raise NoSuchDecision(f"the system seat only resolves chance, not {command.type!r}")
            setup.resolve_setup(rec, command)
            return rec
        handler = _HANDLERS.get(command.type)
        if handler is None:
            raise NoSuchDecision(f"PAX has no command {command.type!r}")
        handler(rec, command)
        return rec

    def apply(self, state: PaxState, event: Event) -> PaxState:
        return apply_event(state, event)

    # --- seeing and ending -------------------------------------------------------------

    def view(self, state: PaxState, viewer: Viewer) -> dict:
        return views.view(state, viewer)

    def visible(self, event: Event, viewer: Viewer) -> Optional[dict]:
        return views.visible(event, viewer)

    def outcome(self, state: PaxState) -> Optional[Outcome]:
        return score(state) if state.phase == "ended" else None


RULES = PaxRules()
