"""``spartacus_arena``: exhibition duels in the arena, one fighter per player.

The creation options pick each side's fighter and equipment by card id (any gladiator or
slave of the market deck; at most one weapon, armour and special each: "maximal eine Karte
jeden Typs").  An exhibition draws on the whole deck, so both sides may field the same card.
Seat 0 controls fighter I (start hex I), seat 1 fighter II.  Each player first says how it
fights, as a dominus does when accepting an invitation to the games: by a fight plan, or blow
by blow (both answers in secret, together).  Everything else is the fight
of :mod:`engine.spartacus.arena.fight`, the one the Spartacus game nests for every arena and
tournament fight.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping, Optional, Sequence

from engine.core import schema as schema_mod
from engine.core.types import Command, Event, Outcome, Pending, Viewer
from engine.spartacus.arena import events as fight_events
from engine.spartacus.arena import fight
from engine.spartacus.arena.fighters import Entrant
from engine.spartacus.arena.state import FightState
from engine.spartacus.cards.market import FIGHTER_TYPES, load_market

NO_CARD = "none"

#: The duel when nobody chooses: the rulebook's two most famous names, bare-handed.
DEFAULT_FIGHTERS = ("spartacus", "crixus")

_SIDES = ("i", "ii")
_SLOTS = ("weapon", "armour", "special")


def _ids(*types: str) -> list[str]:
    return [c.id for c in load_market().cards if c.type in types]


class ArenaDuelRules:
    """The :class:`engine.core.game.Rules` of an exhibition duel."""

    name = "spartacus_arena"
    title = "Spartacus: Arena duel"
    rules_version = "3"  # 2: one-command fight turns, fight plans with the invitation (new state fields);
    #                      3: fewer events (a move ending the turn, a roll settling the initiative: one event
    #                      each; no RoundEnded), older ones read through ``upcast``
    upcast = staticmethod(fight_events.upcast)

    def options_schema(self) -> Mapping[str, Any]:
        fighters = _ids(*FIGHTER_TYPES)
        properties: dict[str, Any] = {}
        for side, default in zip(_SIDES, DEFAULT_FIGHTERS):
            properties[f"fighter_{side}"] = {
                "type": "string", "enum": fighters, "default": default,
                "description": f"Fighter {side.upper()}'s card (a gladiator or slave); default {default}."}
            for slot in _SLOTS:
                properties[f"{slot}_{side}"] = {
                    "type": "string", "enum": [NO_CARD] + _ids(slot), "default": NO_CARD,
                    "description": f"Fighter {side.upper()}'s {slot} card, or '{NO_CARD}' (the default)."}
        return {"type": "object", "additionalProperties": False, "properties": properties}

    def seat_counts(self, options: Mapping[str, Any]) -> Sequence[int]:
        return [2]

    def initial_state(self, seats: int, options: Mapping[str, Any]) -> FightState:
        schema_mod.validate(self.options_schema(), dict(options), path="options")
        entrants = []
        for seat, (side, default) in enumerate(zip(_SIDES, DEFAULT_FIGHTERS)):
            kit = {slot: options.get(f"{slot}_{side}", NO_CARD) for slot in _SLOTS}
            entrants.append(Entrant(seat=seat, fighter=options.get(f"fighter_{side}", default),
                                    **{slot: "" if card == NO_CARD else card for slot, card in kit.items()}))
        return fight.start_fight(entrants[0], entrants[1], fight_id="duel", briefing=True)

    def pending(self, state: FightState) -> Pending:
        return fight.pending(state)

    def decide(self, state: FightState, command: Command) -> list[Event]:
        return fight.decide(state, command)

    def decide_and_fold(self, state: FightState, command: Command) -> tuple[FightState, list[Event]]:
        return fight.decide_and_fold(state, command)

    def apply(self, state: FightState, event: Event) -> FightState:
        return fight.apply(state, event)

    def view(self, state: FightState, viewer: Viewer) -> dict:
        # "game" names the board drawing of the pages, as every game's view does.
        return {"game": self.name, **fight.view(state, viewer)}

    def visible(self, event: Event, viewer: Viewer) -> Optional[dict]:
        return fight.visible(event, viewer)

    def summarize(self, events: Iterable[Event], viewer: Viewer) -> str:
        """The fight so far as one readable paragraph, from what ``viewer`` may see."""
        return fight.summary(events, viewer)

    def outcome(self, state: FightState) -> Optional[Outcome]:
        result = state.result
        if result is None:
            return None
        return Outcome(winners=(result.winner_seat,), ranking=(result.winner_seat, result.loser_seat),
                       detail=result.to_json())


RULES = ArenaDuelRules()
