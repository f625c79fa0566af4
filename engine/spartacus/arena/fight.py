"""The arena fight as a sub-game: the interface the Spartacus game nests in its own state.

::

    state = start_fight(Entrant(seat=2, fighter="spartacus", weapon="sword#1"),
                        Entrant(seat=0, fighter="crixus", special="net#2"),
                        fight_id="r3")
    pending(state)            # Pending: open decisions (ids "r3:...") or a ChanceRequest
    events = decide(state, command)       # raises a RuleViolation, or returns past-tense events
    for e in events: state = apply(state, e)
    view(state, viewer); visible(event, viewer)
    result(state)             # None while fighting, then a FightResult (winner, loser, kind ...)
    summary(events)           # one English paragraph for the email

Seats are the host game's seats; decision and chance ids start with ``fight_id`` so they are
unique in the host game; every event carries ``"fight": fight_id``.  The host forwards a
command to :func:`decide` when it answers one of the fight's decisions or its chance, and
folds the fight's events (:func:`is_fight_event`) with :func:`apply`.
"""

from __future__ import annotations

from typing import Any, Iterable, Optional, Sequence

from engine.core.types import Command, Event, Pending, Viewer
from engine.spartacus.arena import flow
from engine.spartacus.arena.board import ARENA, Board
from engine.spartacus.arena.choices import normal_reach, ready_net
from engine.spartacus.arena.combat import available
from engine.spartacus.arena.events import PRIVATE_EVENTS, SECRET_EVENTS, apply_event, is_fight_event
from engine.spartacus.arena.fighters import Entrant, FightSetupError, build_fighters
from engine.spartacus.arena.plan import FightPlan
from engine.spartacus.arena.state import FATIGUE_ROUND, FightResult, FightState, SideState
from engine.spartacus.arena.summary import summarize
from engine.spartacus.cards.market import MarketDeck, load_market

__all__ = [
    "Entrant", "FightPlan", "FightResult", "FightSetupError", "FightState", "start_fight", "pending",
    "decide", "apply", "view", "visible", "result", "summary", "is_fight_event",
]


def start_fight(
    first: Any,
    second: Any,
    *,
    plans: Sequence[Optional[FightPlan]] = (None, None),
    deck: Optional[MarketDeck] = None,
    fight_id: str = "fight",
    board: Board = ARENA,
    fatigue_round: int = FATIGUE_ROUND,
    briefing: bool = False,
) -> FightState:
    """A fight about to begin: ``first`` stands on start hex I, ``second`` on II.

    The entrants are :class:`Entrant` (or anything with ``seat``, ``fighter``, ``weapon``,
    ``armour``, ``special``: card ids or copies like ``"net#2"``, empty for no card) and
    must be controlled by two different seats.  ``plans`` are the fighters' fight plans, if
    their players set them in advance.  With ``briefing`` the fight first asks each player
    without a plan how to fight: by a plan, or blow by blow (a duel, where no invitation was
    accepted with a plan).  Pure and deterministic: a host records its own event with the
    entrants and calls this from its ``apply``.
    """
    deck = deck or load_market()
    if first.seat == second.seat:
        raise FightSetupError("the two fighters must belong to two different seats")
    fighters = build_fighters(first, second, deck)
    sides = tuple(
        SideState(index=i, seat=e.seat, fighter=f, dice=f.printed, position=board.starts[i], plan=plans[i])
        for i, (e, f) in enumerate(zip((first, second), fighters))
    )
    ready = tuple(not briefing or plan is not None for plan in plans)
    return FightState(fight_id=fight_id, sides=(sides[0], sides[1]), board=board, fatigue_round=fatigue_round,
                      ready=(ready[0], ready[1]))


def pending(state: FightState) -> Pending:
    """What the fight waits for: decisions of its seats, or a chance request."""
    return flow.pending(state)


def decide(state: FightState, command: Command) -> list[Event]:
    """Validate ``command`` and return the events it causes (through every automatic and
    planned step up to the next chance or unplanned decision)."""
    return flow.decide(state, command)


def decide_and_fold(state: FightState, command: Command) -> tuple[FightState, list[Event]]:
    """:func:`decide` for a command already matched to one of the fight's open decisions (a
    host game's or the kernel's match), also returning the fight state the events fold to
    (folded once)."""
    return flow.decide_and_fold(state, command)


def apply(state: FightState, event: Event) -> FightState:
    """Fold one event; never raises, ignores events that are not the fight's."""
    return apply_event(state, event)


def replay(state: FightState, events: Iterable[Event]) -> FightState:
    for event in events:
        state = apply_event(state, event)
    return state


def result(state: FightState) -> Optional[FightResult]:
    """``None`` while the fight goes on; then who won, who lost, and how."""
    return state.result


def summary(events: Iterable[Event], viewer: Viewer = None) -> str:
    """The finished (or running) fight as one readable English paragraph, from its events."""
    return summarize(e for e in events if visible(e, viewer) is not None)


def visible(event: Event, viewer: Viewer) -> Optional[dict]:
    """The event as ``viewer`` may see it: a secret net or reroll choice shows only who chose
    until it is revealed; a fight plan is seen by its own seat alone."""
    data = event.data
    if event.type in PRIVATE_EVENTS:
        return event.to_json() if viewer == data.get("seat") else None
    if event.type in SECRET_EVENTS and viewer != data.get("seat"):
        keep = ("fight", "round", "roll", "side", "seat")
        return {"type": event.type, "version": event.version,
                "data": {k: v for k, v in data.items() if k in keep}}
    return event.to_json()


def view(state: FightState, viewer: Viewer) -> dict:
    """The fight as ``viewer`` sees it: the board, both fighters, the roll on the table,
    the wounds owed, the result; a player also sees its own plan and secret choices."""
    state = flow.advanced(state)
    roll = state.roll
    out: dict[str, Any] = {
        "fight": state.fight_id,
        "board": {"name": state.board.name, "hexes": [list(h) for h in state.board.ordered],
                  "starts": [list(h) for h in state.board.starts]},
        "round": state.round,
        "phase": state.phase,
        "fatigue_round": state.fatigue_round,
        "fighters": [_side_view(state, s, viewer) for s in state.sides],
        "initiative": state.initiative if state.initiative >= 0 else None,
        "first": state.first if state.first >= 0 else None,
        "active": state.active if state.active >= 0 else None,
        "moved": state.moved,
        "attacked": state.attacked,
        "staying": state.staying,
        "ready": list(state.ready),
        "roll": None,
        "last_roll": state.last_roll.to_json() if state.last_roll else None,
        "wounds_due": [{"side": w.side, "count": w.count, "reason": w.reason} for w in state.wounds],
        "result": state.result.to_json() if state.result else None,
    }
    if roll is not None:
        out["roll"] = {
            "purpose": roll.purpose, "number": roll.number, "attacker": roll.attacker if roll.attacker >= 0 else None,
            "style": roll.style, "source": roll.source, "pools": list(roll.pools),
            "dice": [list(d) for d in roll.dice], "allowance": list(roll.allowance),
            "chosen": [(list(c) if c is not None else None) if viewer == state.sides[i].seat
                       else (c is not None) for i, c in enumerate(roll.choices)],
        }
    return out


def _side_view(state: FightState, side: SideState, viewer: Viewer) -> dict:
    fighter = side.fighter
    own = viewer == side.seat
    out = {
        "side": side.index,
        "seat": side.seat,
        "card": fighter.card,
        "copy": fighter.copy,
        "name": fighter.name,
        "type": fighter.type,
        "printed": {"attack": fighter.attack, "defence": fighter.defence, "speed": fighter.speed},
        "dice": {"attack": side.dice[0], "defence": side.dice[1], "speed": side.dice[2]},
        "position": list(side.position),
        "reach": normal_reach(side),
        "equipment": [{"slot": e.slot, "card": e.card, "copy": e.copy, "name": e.name} for e in fighter.equipment],
        "ability": fighter.ability,
        "ability_negated": fighter.negated,
        "powers": [{**p.to_json(), "available": available(p, side.used) and (p.kind != "net" or p.key not in side.used)}
                   for p in fighter.powers],
        "net_ready": ready_net(side) is not None,
    }
    if state.phase == "nets":
        declared = state.nets[side.index]
        out["net_declared"] = declared if own else declared is not None
    if own:
        out["plan"] = side.plan.to_json() if side.plan else None
    return out
