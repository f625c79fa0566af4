"""Folding fight events into the fight state: ``apply`` is total and never validates.

Every event is a past-tense fact decided once by :mod:`engine.spartacus.arena.flow`; its
data carries everything the fold needs (dice, chosen hexes, the powers spent), and the
``fight`` id, so a host game nesting several fights routes events by it.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Mapping

from engine.core.types import Event
from engine.core.upcast import Rewrite, at_version, rewriter
from engine.spartacus.arena.combat import sort_high, zeros
from engine.spartacus.arena.plan import plan_from_json
from engine.spartacus.arena.state import FightResult, FightState, Roll, SettledRoll, SideState, WoundDue, evolve

#: Every event type's schema version; bump one and add an upcaster when its data changes.
EVENT_VERSIONS: dict[str, int] = {}

_FOLDS: dict[str, Callable[[FightState, Mapping[str, Any]], FightState]] = {}

#: Events holding a player's secret choice: only that seat sees their content.
SECRET_EVENTS = ("NetDeclared", "RerollChosen")
#: Events only the player they concern sees at all.
PRIVATE_EVENTS = ("FightPlanSet",)


def _folds(event_type: str, version: int = 1):
    def register(fn):
        _FOLDS[event_type] = fn
        EVENT_VERSIONS[event_type] = version
        return fn
    return register


def apply_event(state: FightState, event: Event) -> FightState:
    """Fold one event; types that are not the fight's leave the state as it is."""
    fold = _FOLDS.get(event.type)
    return state if fold is None else fold(state, event.data)


def is_fight_event(event: Event) -> bool:
    return event.type in _FOLDS


class Recorder:
    """The events decided so far, folded into ``state`` as they are recorded (``events``:
    any recorded before, already folded into ``state``)."""

    def __init__(self, state: FightState, events: Iterable[Event] = ()) -> None:
        self.state = state
        self.events: list[Event] = list(events)

    def record(self, event_type: str, data: Mapping[str, Any]) -> None:
        event = Event(event_type, {"fight": self.state.fight_id, **data}, EVENT_VERSIONS[event_type])
        self.events.append(event)
        self.state = apply_event(self.state, event)

    def last(self) -> Event | None:
        return self.events[-1] if self.events else None

    def say_with_last(self, instead: str, data: Mapping[str, Any], **extra: Any) -> None:
        """Let the event recorded last also say what an ``instead`` event with ``data`` would
        (``extra`` added to it), so one event is recorded where two were; the state folds
        ``instead`` as if it had been recorded."""
        last = self.events[-1]
        self.events[-1] = Event(last.type, {**last.data, **extra}, last.version)
        self.state = apply_event(self.state, Event(instead, {"fight": self.state.fight_id, **data}))


def _side(state: FightState, index: int, **changes: Any) -> FightState:
    return state.with_side(evolve(state.sides[index], **changes))


def _spend(state: FightState, index: int, keys: Any) -> FightState:
    if not keys:
        return state
    side = state.sides[index]
    return _side(state, index, used=side.used + tuple(k for k in keys if k not in side.used))


def _pair(values: Any) -> tuple:
    return (tuple(values[0]), tuple(values[1]))


@_folds("FightBegan")
def _fight_began(state: FightState, data: Mapping[str, Any]) -> FightState:
    return evolve(state, phase="round_start")


@_folds("RoundStarted")
def _round_started(state: FightState, data: Mapping[str, Any]) -> FightState:
    nets = tuple(None if i in data["nets"] else False for i in (0, 1))
    return evolve(state, round=data["round"], attempt=0, initiative=-1, first=-1, active=-1, turn=0,
                   moved=False, attacked=False, staying=False, nets=nets, roll=None,
                   phase="nets" if data["nets"] else "initiative_roll")


@_folds("NetDeclared")
def _net_declared(state: FightState, data: Mapping[str, Any]) -> FightState:
    nets = list(state.nets)
    nets[data["side"]] = bool(data["use"])
    return evolve(state, nets=(nets[0], nets[1]))


@_folds("NetsRevealed")
def _nets_revealed(state: FightState, data: Mapping[str, Any]) -> FightState:
    for index, key in data["spent"]:
        state = _spend(state, index, [key])
    if data["winner"] >= 0:
        return evolve(state, initiative=data["winner"], phase="order")
    return evolve(state, phase="initiative_roll")


@_folds("InitiativeRolled", version=2)  # 2: a roll that settles at once says how (``winner`` or ``tied``)
def _initiative_rolled(state: FightState, data: Mapping[str, Any]) -> FightState:
    dice = _pair(data["dice"])
    allowance = tuple(data["rerolls"])
    roll = Roll(purpose="initiative", number=state.rolls + 1, pools=("speed", "speed"),
                counts=(len(dice[0]), len(dice[1])), dice=(sort_high(dice[0]), sort_high(dice[1])),
                allowance=(allowance[0], allowance[1]))
    state = evolve(state, roll=roll, rolls=state.rolls + 1, chances=state.chances + 1,
                   phase="reroll" if any(allowance) else "settle")
    if "winner" in data:
        return _initiative_decided(state, data)
    return _initiative_tied(state, data) if data.get("tied") else state


@_folds("RerollChosen")
def _reroll_chosen(state: FightState, data: Mapping[str, Any]) -> FightState:
    roll = state.roll
    if roll is None:
        return state
    choices = list(roll.choices)
    choices[data["side"]] = tuple(data["dice"])
    return evolve(state, roll=evolve(roll, choices=(choices[0], choices[1])))


@_folds("RerollsRevealed")
def _rerolls_revealed(state: FightState, data: Mapping[str, Any]) -> FightState:
    roll = state.roll
    if roll is None:
        return state
    for index in (0, 1):
        state = _spend(state, index, data["spent"][index])
    choices = _pair(data["choices"])
    state = evolve(state, roll=evolve(roll, choices=choices))
    return evolve(state, phase="reroll_roll" if any(choices) else "settle")


@_folds("DiceRerolled")
def _dice_rerolled(state: FightState, data: Mapping[str, Any]) -> FightState:
    roll = state.roll
    if roll is None:
        return state
    dice = _pair(data["dice"])
    return evolve(state, roll=evolve(roll, dice=(sort_high(dice[0]), sort_high(dice[1]))),
                   chances=state.chances + 1, phase="settle")


@_folds("InitiativeDecided")
def _initiative_decided(state: FightState, data: Mapping[str, Any]) -> FightState:
    return evolve(state, initiative=data["winner"], roll=None, phase="order",
                  last_roll=_initiative_roll(state, data, data["winner"]))


@_folds("InitiativeTied")
def _initiative_tied(state: FightState, data: Mapping[str, Any]) -> FightState:
    return evolve(state, attempt=state.attempt + 1, roll=None, phase="initiative_roll",
                  last_roll=_initiative_roll(state, data, -1))


def _initiative_roll(state: FightState, data: Mapping[str, Any], winner: int) -> SettledRoll:
    dice = _pair(data["dice"])
    return SettledRoll(purpose="initiative", round=data["round"], dice=(sort_high(dice[0]), sort_high(dice[1])),
                       winner=winner)


@_folds("OrderChosen")
def _order_chosen(state: FightState, data: Mapping[str, Any]) -> FightState:
    first = data["first_side"]
    return evolve(state, first=first, active=first, turn=0, moved=False, attacked=False, staying=False,
                  phase="turn")


@_folds("FighterMoved", version=2)  # 2: ``ends_turn`` says the move ended the turn (no TurnEnded follows)
def _fighter_moved(state: FightState, data: Mapping[str, Any]) -> FightState:
    state = _side(state, data["side"], position=tuple(data["to"]))
    state = evolve(state, moved=True)
    return _turn_ended(state, data) if data.get("ends_turn") else state


@_folds("AttackDeclared")
def _attack_declared(state: FightState, data: Mapping[str, Any]) -> FightState:
    state = _spend(state, data["side"], data["spent"])
    attacker = data["side"]
    pools = ["", ""]
    counts = [0, 0]
    pools[attacker], pools[1 - attacker] = data["pools"]
    counts[attacker], counts[1 - attacker] = data["dice"]
    roll = Roll(purpose="attack", number=state.rolls + 1, pools=(pools[0], pools[1]),
                counts=(counts[0], counts[1]), attacker=attacker, style=data["style"],
                source=data.get("source", ""))
    return evolve(state, attacked=True, staying=data.get("then") == "stay", attacks=state.attacks + 1,
                  rolls=state.rolls + 1, roll=roll, phase="attack_roll")


@_folds("AttackRolled")
def _attack_rolled(state: FightState, data: Mapping[str, Any]) -> FightState:
    roll = state.roll
    if roll is None:
        return state
    dice = [(), ()]
    dice[roll.attacker] = sort_high(data["attack"])
    dice[roll.defender] = sort_high(data["defence"])
    allowance = tuple(data["rerolls"])
    roll = evolve(roll, dice=(dice[0], dice[1]), allowance=(allowance[0], allowance[1]))
    return evolve(state, roll=roll, chances=state.chances + 1,
                   phase="reroll" if any(allowance) else "settle")


@_folds("PowerChosen")
def _power_chosen(state: FightState, data: Mapping[str, Any]) -> FightState:
    roll = state.roll
    if roll is None:
        return state
    return evolve(state, roll=evolve(roll, powers=roll.powers + ((data["power"], bool(data["use"])),)))


@_folds("AttackResolved")
def _attack_resolved(state: FightState, data: Mapping[str, Any]) -> FightState:
    attacker, defender = data["attacker"], data["defender"]
    state = _spend(state, attacker, data["spent"]["attacker"])
    state = _spend(state, defender, data["spent"]["defender"])
    due = []
    if data["to_defender"] > 0:
        due.append(WoundDue(defender, data["to_defender"], "attack"))
    if data["to_attacker"] > 0:
        due.append(WoundDue(attacker, data["to_attacker"], "counter"))
    dice = [(), ()]
    dice[attacker], dice[defender] = sort_high(data["attack"]), sort_high(data["defence"])
    wounds = [0, 0]
    wounds[defender], wounds[attacker] = data["to_defender"], data["to_attacker"]
    last = SettledRoll(purpose="attack", round=data["round"], dice=(dice[0], dice[1]), attacker=attacker,
                       style=data["style"], source=data.get("source", ""), wounds=(wounds[0], wounds[1]))
    return evolve(state, roll=None, wounds=tuple(due), after_wounds="turn", last_roll=last,
                   phase="wounds" if due else "turn")


@_folds("WoundsTaken")
def _wounds_taken(state: FightState, data: Mapping[str, Any]) -> FightState:
    index = data["side"]
    after = (data["dice"]["attack"], data["dice"]["defence"], data["dice"]["speed"])
    state = _side(state, index, dice=after)
    rest = state.wounds[1:]
    state = evolve(state, wounds=rest, wound_steps=state.wound_steps + 1)
    if zeros(after):
        return evolve(state, phase="ended", ended_by=data["reason"])
    if rest:
        return evolve(state, phase="wounds")
    return evolve(state, phase="turn" if state.after_wounds == "turn" else "round_over")


@_folds("TurnEnded")
def _turn_ended(state: FightState, data: Mapping[str, Any]) -> FightState:
    if state.turn == 0:
        return evolve(state, active=1 - state.active, turn=1, moved=False, attacked=False, staying=False,
                      phase="turn")
    return evolve(state, active=-1, phase="round_end")


@_folds("FatigueStruck")
def _fatigue_struck(state: FightState, data: Mapping[str, Any]) -> FightState:
    due = tuple(WoundDue(index, 1, "fatigue") for index in data["order"])
    return evolve(state, wounds=due, after_wounds="round", phase="wounds")


@_folds("RoundEnded")  # recorded by earlier rules; ``RoundStarted`` of the next round says the same
def _round_ended(state: FightState, data: Mapping[str, Any]) -> FightState:
    return evolve(state, phase="round_start")


@_folds("FightEnded")
def _fight_ended(state: FightState, data: Mapping[str, Any]) -> FightState:
    result = FightResult(
        winner=data["winner"], loser=data["loser"], winner_seat=data["winner_seat"],
        loser_seat=data["loser_seat"], winner_card=data["winner_card"], loser_card=data["loser_card"],
        kind=data["kind"], zeros=tuple(data["zeros"]), rounds=data["round"], cause=data["cause"],
        exhausted=tuple(data["exhausted"]))
    return evolve(state, result=result, wounds=(), roll=None, phase="over")


@_folds("FightPlanSet")
def _fight_plan_set(state: FightState, data: Mapping[str, Any]) -> FightState:
    state = _side(state, data["side"], plan=plan_from_json(data["plan"]))
    if state.phase == "start" and not state.ready[data["side"]]:
        ready = list(state.ready)
        ready[data["side"]] = True
        state = evolve(state, ready=(ready[0], ready[1]))
    return state


def side_json(side: SideState) -> dict:
    return {"attack": side.dice[0], "defence": side.dice[1], "speed": side.dice[2]}


# ----------------------------------------------------------------------------- earlier rules

def _same_turn(event: Event, other: Event) -> bool:
    return all(other.data.get(k) == event.data.get(k) for k in ("fight", "round", "side"))


def _moved_v1(event: Event, following: Event | None) -> tuple[tuple[Event, ...], bool] | None:
    """``FighterMoved`` 1 and the ``TurnEnded`` right after it (a move without an attack ends
    the turn) are one ``FighterMoved`` 2 with ``ends_turn``."""
    if event.version >= 2:
        return None
    ends = following is not None and following.type == "TurnEnded" and _same_turn(event, following)
    return (at_version(event, 2, ends_turn=ends),), ends


def _round_ended(event: Event, following: Event | None) -> tuple[tuple[Event, ...], bool] | None:
    """A ``RoundEnded`` right before the next ``RoundStarted`` says nothing that one does not."""
    if following is not None and following.type == "RoundStarted" and following.data.get("fight") == \
            event.data.get("fight"):
        return (), False
    return None


def _initiative_rolled_v1(event: Event, following: Event | None) -> tuple[tuple[Event, ...], bool] | None:
    """``InitiativeRolled`` 1 and the ``InitiativeDecided`` or ``InitiativeTied`` right after it (a
    roll nobody may reroll settles at once) are one ``InitiativeRolled`` 2 saying how it settled."""
    if event.version >= 2:
        return None
    if following is not None and following.type in ("InitiativeDecided", "InitiativeTied") and \
            all(following.data.get(k) == event.data.get(k) for k in ("fight", "round", "attempt")):
        settled = {"sums": following.data.get("sums")}
        settled.update({"winner": following.data["winner"]} if following.type == "InitiativeDecided" else {"tied": True})
        return (at_version(event, 2, **settled),), True
    return (at_version(event, 2),), False


#: The fight's rewrites of events recorded by earlier rules (type -> rewrite).
REWRITES: dict[str, Rewrite] = {"FighterMoved": _moved_v1, "RoundEnded": _round_ended,
                                "InitiativeRolled": _initiative_rolled_v1}
#: Stored fight events in the current vocabulary (:mod:`engine.core.upcast`).
upcast = rewriter(REWRITES)
