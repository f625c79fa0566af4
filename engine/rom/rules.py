"""Rom: Rise to Power (Elad Goldsteen, GEG) as a Capua game: the :data:`RULES` object.

The rules live in the modules beside this one: :mod:`~engine.rom.flow` (the course of a
round, decisions and commands), :mod:`~engine.rom.placement` (the power-dice tracks),
:mod:`~engine.rom.effects` (senate cards), :mod:`~engine.rom.scoring`,
:mod:`~engine.rom.events` (``apply``) and :mod:`~engine.rom.views` (what each viewer
sees).  Cards are data in ``cards/*.json``; ``docs/rom.md`` lists them and every
interpretation made.
"""

from __future__ import annotations

from typing import Any, Mapping, Optional, Sequence

from engine.core.game import legal_commands as _legal_commands
from engine.core.types import Command, Event, Outcome, Pending, Viewer
from engine.rom import flow, views
from engine.rom.carddata import CardSetError, available_card_sets, check_senate_deck, load_card_set
from engine.rom.events import apply as _apply
from engine.rom.state import State, thaw


class RomRules:
    name = "rom"
    title = "Rom: Rise to Power"
    rules_version = "1"

    def options_schema(self) -> Mapping[str, Any]:
        sets = available_card_sets()
        return {
            "type": "object",
            "properties": {
                "card_set": {"type": "string", "enum": sets, "default": "default",
                             "description": "the card data to play with (engine/rom/cards/<name>.json)"},
                "variant_intrigue": {"type": "boolean", "default": False,
                                     "description": "replace the 5 base senate cards by the intrigue cards "
                                                    "of the same name"},
                "custom_deck": {"type": "array", "items": {"type": "string"}, "uniqueItems": True,
                                "minItems": 0, "maxItems": 25, "default": [],
                                "description": "ids of the senate cards in play: 20 for 3-4 players, 15 for 2, "
                                               "with 4 (3) epoch-III scoring cards"},
            },
            "additionalProperties": False,
        }

    def seat_counts(self, options: Mapping[str, Any]) -> Sequence[int]:
        """2 to 4 players; a custom senate deck fits only the seat counts it was built for."""
        custom = list(options.get("custom_deck") or [])
        if not custom:
            return (2, 3, 4)
        try:
            cards = load_card_set(str(options.get("card_set") or "default"))
        except CardSetError:
            return ()
        return tuple(n for n in (2, 3, 4) if check_senate_deck(cards, n, custom) is None)

    def initial_state(self, seats: int, options: Mapping[str, Any]) -> State:
        return flow.initial_state(seats, dict(options))

    def pending(self, state: State) -> Pending:
        return flow.pending(state)

    def legal_commands(self, state: State, seat: int) -> list[Command]:
        return _legal_commands(self, state, seat)

    def decide(self, state: State, command: Command) -> list[Event]:
        return flow.decide(state, command)

    def decide_and_fold(self, state: State, command: Command) -> tuple[State, list[Event]]:
        return flow.decide_and_fold(state, command)

    def apply(self, state: State, event: Event) -> State:
        return _apply(state, event)

    def view(self, state: State, viewer: Viewer) -> dict:
        return views.view(state, viewer)

    def visible(self, event: Event, viewer: Viewer) -> Optional[dict]:
        return views.visible(event, viewer)

    def outcome(self, state: State) -> Optional[Outcome]:
        if state.phase != "over":
            return None
        winners, ranking, tiebreak = state.result
        scores = {s: p.vp for s, p in enumerate(state.players)}
        detail = {
            "tiebreak": thaw(tiebreak),
            "tiebreak_order": ["vp", "provinces", "arena_cost_in_hand"],
            "scoring": views.scoring(state),
        }
        return Outcome(winners=tuple(winners), ranking=tuple(ranking), scores=scores, detail=detail)


RULES = RomRules()
