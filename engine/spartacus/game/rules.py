"""Spartacus: A Game of Blood and Treachery, as a :class:`engine.core.game.Rules` object.

Rounds of upkeep, intrigue, market and arena until one dominus ends a phase with 12
influence (rulebook p. 17).  See ``docs/spartacus.md`` for the rules as Capua plays them.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping, Optional, Sequence

from engine.core.errors import BadArguments
from engine.core.game import match_decision
from engine.core.types import Command, Event, Outcome, Pending, Viewer
from engine.spartacus.arena import fight
from engine.spartacus.arena.events import is_fight_event
from engine.spartacus.game import events as game_events
from engine.spartacus.game import flow, views
from engine.spartacus.game.cards import available_sets, set_from_options
from engine.spartacus.game.events import apply_any
from engine.spartacus.game.state import ChanceNeed, GameState, Player, freeze

GAME_LENGTHS = ("quick", "standard", "long")
REACTION_ORDERS = ("in_turn", "together")  # option ``reactions``: see engine.spartacus.game.reactions


class SpartacusRules:
    name = "spartacus"
    title = "Spartacus"
    rules_version = "5"  # 3: one-command fight turns, fight plans with the invitation; 4: windows answered together;
    #                      5: fewer events (a closing pass, a move ending the turn, a roll settling the initiative:
    #                      one event each; no RoundEnded), older ones read through ``upcast``
    upcast = staticmethod(game_events.upcast)

    def options_schema(self) -> Mapping[str, Any]:
        return {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "game_length": {"type": "string", "enum": list(GAME_LENGTHS), "default": "standard",
                                "description": "start influence 7 (quick), 4 (standard) or 1 (long)"},
                "decapitation_odds": {"type": "integer", "enum": [2, 3], "default": 2,
                                      "description": "payout of a decapitation bet (German text 2:1, Russian 3:1)"},
                "card_set": {"type": "string", "enum": available_sets(), "default": "default"},
                "custom_cards": {"type": "object",
                                 "description": "houses/intrigue/market documents replacing the set's decks"},
                "two_player_variant": {"type": "boolean", "default": False, "description": "allow a game of two"},
                "max_rounds": {"type": "integer", "minimum": 0, "maximum": 200, "default": 0,
                               "description": "house rule, not in the rulebook: 0 (the default) plays until a "
                                              "dominus wins as printed; N ends the game after round N's arena, "
                                              "the most influential dominus winning (ties: the tournament)"},
                "reactions": {"type": "string", "enum": list(REACTION_ORDERS), "default": "in_turn",
                              "description": "house rule where the rulebook is silent: in_turn (the default) "
                                             "asks a window's domini one at a time, clockwise; together asks "
                                             "them all at once, sealed, and the first answer clockwise that "
                                             "is not a pass takes effect (faster by mail; nobody sees whether "
                                             "the one before him will answer)"},
                "influence_cap": {"type": "integer", "minimum": 0, "maximum": 99, "default": 0,
                                  "description": "house rule, not in the rulebook: 0 (the default) leaves "
                                                 "influence unbounded as printed; N stops every house's "
                                                 "influence at N"},
            },
        }

    def seat_counts(self, options: Mapping[str, Any]) -> Sequence[int]:
        return (2, 3, 4) if options.get("two_player_variant") else (3, 4)

    def initial_state(self, seats: int, options: Mapping[str, Any]) -> GameState:
        # the rulebook's game: no round limit and no influence cap unless a group chooses one
        opts = {"game_length": "standard", "decapitation_odds": 2, "card_set": "default",
                "two_player_variant": False, "max_rounds": 0, "influence_cap": 0}
        opts.update(options or {})
        if seats not in self.seat_counts(opts):
            raise BadArguments(f"Spartacus is played by {list(self.seat_counts(opts))} players")
        if opts["game_length"] not in GAME_LENGTHS:
            raise BadArguments(f"game_length must be one of {GAME_LENGTHS}")
        if opts.get("reactions", "in_turn") not in REACTION_ORDERS:
            raise BadArguments(f"reactions must be one of {REACTION_ORDERS}")
        cards = set_from_options(opts)
        if len(cards.houses) < seats:
            raise BadArguments("the card set has fewer houses than players")
        frozen = freeze({k: v for k, v in opts.items() if k != "custom_cards"})
        return GameState(
            cards=cards, seats=seats, options=frozen, stage="setup_roll",
            players=tuple(Player(seat=i) for i in range(seats)),
            chance=ChanceNeed(id="c0", purpose="house_order", draws=(("rolls", "dice", seats),),
                              data=freeze({"seats": list(range(seats))})),
            seq=1,
        )

    def pending(self, state: GameState) -> Pending:
        return flow.pending(state)

    def decide(self, state: GameState, command: Command) -> list[Event]:
        match_decision(flow.pending(state), command)
        return flow.decide(state, command)

    def decide_and_fold(self, state: GameState, command: Command) -> tuple[GameState, list[Event]]:
        return flow.decide_and_fold(state, command)

    def apply(self, state: GameState, event: Event) -> GameState:
        try:
            return apply_any(state, event)
        except Exception:  # apply is total: a malformed or foreign event changes nothing
            return state

    def view(self, state: GameState, viewer: Viewer) -> dict:
        return views.view(state, viewer)

    def visible(self, event: Event, viewer: Viewer) -> Optional[dict]:
        return views.visible(None, event, viewer)

    def summarize(self, events: Iterable[Event], viewer: Viewer) -> str:
        """The latest arena fight in ``events`` as one readable paragraph ("" if none)."""
        fight_events: list[Event] = []
        for event in events:
            if event.type == "FightBegan":
                fight_events = []
            if is_fight_event(event):
                fight_events.append(event)
        return fight.summary(fight_events, viewer) if fight_events else ""

    def outcome(self, state: GameState) -> Optional[Outcome]:
        if state.stage != "over":
            return None
        ranking = sorted(range(state.seats), key=lambda s: (s not in state.winners, -state.player(s).influence, s))
        return Outcome(
            winners=tuple(state.winners), ranking=tuple(ranking),
            scores={p.seat: p.influence for p in state.players},
            detail={"how": state.finish, "round": state.round,
                    "houses": {str(p.seat): p.house for p in state.players}},
        )


RULES = SpartacusRules()
