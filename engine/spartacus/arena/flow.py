"""The course of a fight: what it waits for, and the events each answer causes.

Three kinds of step move a fight on:

* **chance** (``initiative_roll``, ``attack_roll``, ``reroll_roll``): :func:`chance_request`
  names the dice; the service resolves them and :func:`decide` records them;
* **decisions** of the players (:func:`open_decisions`): how to fight (a duel's first
  question), net, initiative order, the turn (one command: move-and-attack, attack-and-stay,
  move-and-end), rerolls, once-per-fight powers, wound allocation, and the free
  ``set_fight_plan``;
* **automatic steps** (:func:`advance`): everything that needs nobody -- the fight's and a
  round's start, revealing secret choices once all are in, settling a final roll, forced
  wound allocations, a turn's end once nothing is left to do in it, the end -- and every
  decision whose fighter has a fight plan that answers it (a plan's setting may say
  ``"ask"``), which is answered by the plan at once instead of being asked.

:func:`decide` first advances, then records the answer, then advances again, so the
events of one command run up to the next point where chance or a player without a plan
is needed; :func:`pending` shows that point.  A fight between two planned fighters thus
asks only for chance.  The events of planned answers carry ``"planned": true``.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Callable, Optional

from engine.core.chance import RESOLVE_CHANCE, ChanceRequest, Dice, check_outcome
from engine.core.errors import BadArguments, GameOver, NoSuchDecision
from engine.core.game import match_decision
from engine.core.lazy import LazyMapping
from engine.core.memo import once_per_state
from engine.core.types import SYSTEM_SEAT, Command, Decision, Event, Pending
from engine.spartacus.arena import choices, policy
from engine.spartacus.arena.board import distance
from engine.spartacus.arena.combat import (
    ATTRIBUTES,
    defeat_kind,
    initiative_winner,
    legal_allocations,
    outcome_is_settled,
    resolve_attack,
    zeros,
)
from engine.spartacus.arena.events import Recorder, side_json
from engine.spartacus.arena.fighters import Power
from engine.spartacus.arena.plan import DEFAULT_PLAN, PLAN_SCHEMA, FightPlan, answering, plan_from_args
from engine.spartacus.arena.state import FightState, SideState, WoundDue

#: A fight needs a few hundred automatic steps at most; more means a loop, a bug.
MAX_AUTOMATIC_STEPS = 10_000

_ROMAN = ("I", "II")


# --- what the fight waits for ------------------------------------------------------------------

@once_per_state
def pending(state: FightState) -> Pending:
    """Open decisions and/or the chance to resolve, after every automatic step."""
    return _pending_now(_advanced(state)[0])


def advanced(state: FightState) -> FightState:
    """The state after every automatic step (what the next command will meet)."""
    return _advanced(state)[0]


@once_per_state
def _advanced(state: FightState) -> tuple[FightState, tuple[Event, ...]]:
    """:func:`advanced`, with the events of those steps: taken once for :func:`pending`
    and for the command that answers it, which records them first."""
    rec = Recorder(state)
    advance(rec)
    return rec.state, tuple(rec.events)


@once_per_state
def _pending_now(state: FightState) -> Pending:
    if state.result is not None:
        return Pending()
    request = chance_request(state)
    if request is not None:
        return Pending(chance=request)
    return Pending(decisions=open_decisions(state))


def chance_request(state: FightState) -> Optional[ChanceRequest]:
    """The dice the fight waits for, if it waits for dice."""
    rid = f"{state.fight_id}:chance:{state.chances + 1}"
    if state.phase == "initiative_roll":
        counts = [choices.initiative_dice(s) for s in state.sides]
        return ChanceRequest(rid, {"I": Dice(counts[0]), "II": Dice(counts[1])},
                             reason=f"initiative, round {state.round}")
    roll = state.roll
    if state.phase == "attack_roll" and roll is not None:
        return ChanceRequest(rid, {"attack": Dice(roll.counts[roll.attacker]),
                                   "defence": Dice(roll.counts[roll.defender])},
                             reason=f"attack {state.attacks}")
    if state.phase == "reroll_roll" and roll is not None:
        draws = {_ROMAN[i]: Dice(len(roll.choices[i] or ())) for i in (0, 1) if roll.choices[i]}
        return ChanceRequest(rid, draws, reason=f"rerolls of roll {roll.number}")
    return None


def open_decisions(state: FightState) -> tuple[Decision, ...]:
    """The decisions open now (in an advanced state), plus the free fight-plan decisions."""
    if state.result is not None or chance_request(state) is not None:
        return ()
    out: list[Decision] = []
    phase = state.phase
    if phase == "start":
        out.extend(_ready_decision(state, i) for i in (0, 1) if not state.ready[i])
    elif phase == "nets":
        out.extend(_net_decision(state, i) for i in (0, 1)
                   if state.nets[i] is None and _plan(state, i, "net") is None)
    elif phase == "order" and _plan(state, state.initiative, "initiative") is None:
        out.append(_order_decision(state))
    elif phase == "turn" and _plan(state, state.active, "approach") is None:
        out.append(_turn_decision(state))
    elif phase == "reroll" and state.roll is not None:
        out.extend(_reroll_decision(state, i) for i in (0, 1)
                   if state.roll.allowance[i] and state.roll.choices[i] is None
                   and _plan(state, i, "reroll") is None)
    elif phase == "settle":
        question = power_question(state)
        if question is not None:
            out.append(_power_decision(state, *question))
    elif phase == "wounds":
        out.append(_wounds_decision(state))
    out.extend(_plan_decision(state, i) for i in (0, 1) if state.ready[i])
    return tuple(out)


def power_question(state: FightState) -> Optional[tuple[int, str, Power]]:
    """The once-per-fight power (side, role, power) whose player must choose, before this
    attack is resolved, whether to use it: "after the roll, but before attributes are lowered
    by wounds, an extra wound is caused" (Zusätzliche Wunden), then "once it is settled how
    many wounds are to be dealt, that number is lowered by one" (Wunden ignorieren)."""
    roll = state.roll
    if roll is None or roll.purpose != "attack":
        return None
    attacker, defender = state.sides[roll.attacker], state.sides[roll.defender]
    outcome = resolve_attack(attacker.fighter, defender.fighter, roll.dice[roll.attacker], roll.dice[roll.defender],
                             attacker.used, defender.used, dict(roll.powers))
    if outcome.undecided is None:
        return None
    role, power = outcome.undecided
    return (attacker.index if role == "attacker" else defender.index), role, power


# --- decisions ---------------------------------------------------------------------------------

def _default(side: SideState) -> Command:
    """Every fight decision's deadline default: fight on with the default plan.  The plan
    answers the decision at once and every later one, so an absent player costs the fight
    one deadline, never one per blow."""
    return _default_for(side.seat)


@lru_cache(maxsize=64)
def _default_for(seat: int) -> Command:
    return Command(seat, "set_fight_plan", DEFAULT_PLAN.to_json())


def _decision(state: FightState, side: SideState, kind: str, ident: str, prompt: str,
              options: tuple[Command, ...], suggested: Callable[[], Command], context: dict, *,
              mode: str = "turn", group: Optional[str] = None) -> Decision:
    """``suggested`` (the default plan's answer) is worked out only when the context is
    read: a player's page shows it, a bot answering from the options never asks."""
    fid = state.fight_id
    args = {"fighter": side.fighter.name, "side": _ROMAN[side.index], "round": state.round, **context}
    return Decision(
        id=f"{fid}:{ident}", seat=side.seat, mode=mode, prompt=prompt, default=_default(side),
        options=options, group=f"{fid}:{group}" if group else None,
        prompt_key=f"spartacus_arena.{kind}", prompt_args=args,
        context=LazyMapping(context, {"suggested": lambda: suggested().to_json(), "default_plan": DEFAULT_PLAN.to_json}),
    )


def _ready_decision(state: FightState, index: int) -> Decision:
    """A duel's first question: fight by a plan (set now, changeable until the end), or blow
    by blow (``"active": false``)."""
    side = state.sides[index]
    return Decision(
        id=f"{state.fight_id}:ready:{index}", seat=side.seat, mode="simultaneous", group=f"{state.fight_id}:ready",
        prompt=f"How does {side.fighter.name} fight? Set a fight plan, or choose to fight blow by blow.",
        default=_default(side), command_type="set_fight_plan", schema=PLAN_SCHEMA,
        prompt_key="spartacus_arena.prepare", prompt_args={"fighter": side.fighter.name, "side": _ROMAN[index]},
        context={"suggested": _default(side).to_json(), "default_plan": DEFAULT_PLAN.to_json(),
                 "blow_by_blow": {"type": "set_fight_plan", "args": {"active": False}}},
    )


def _net_decision(state: FightState, index: int) -> Decision:
    side = state.sides[index]
    options = tuple(Command(side.seat, "use_net", {"use": use}) for use in (True, False))
    suggested = lambda: Command(side.seat, "use_net", {"use": policy.net_answer(state, index, DEFAULT_PLAN)})
    return _decision(
        state, side, "use_net", f"net:{state.round}:{index}",
        f"Round {state.round}: does {side.fighter.name} throw the net to win the initiative?",
        options, suggested,
        {"distance": _gap(state), "opponent_has_net": choices.ready_net(state.other(index)) is not None},
        mode="simultaneous", group=f"net:{state.round}")


def _order_decision(state: FightState) -> Decision:
    """"The winner of the initiative may choose who attacks first" (Grundlagen des Kampfes):
    moving second, or moving first -- and then the turn itself is the answer (any turn
    command, or ``choose_order`` ``{"first": true}`` to be asked for the turn next)."""
    index = state.initiative
    side = state.sides[index]
    first = policy.as_first(state, index)
    options = tuple(Command(side.seat, "choose_order", {"first": f}) for f in (True, False)) \
        + choices.turn_commands(first)

    def suggested() -> Command:
        if policy.order_answer(state, index, DEFAULT_PLAN):
            return policy.turn_answer(first, DEFAULT_PLAN)
        return Command(side.seat, "choose_order", {"first": False})
    return _decision(
        state, side, "choose_order", f"order:{state.round}",
        f"Round {state.round}: {side.fighter.name} has the initiative. Move first or second?",
        options, suggested, {**_turn_context(first), "distance": _gap(state)})


def _turn_decision(state: FightState) -> Decision:
    side = state.sides[state.active]
    options = choices.turn_commands(state)
    suggested = lambda: policy.turn_answer(state, DEFAULT_PLAN)
    done = ("m" if state.moved else "") + ("a" if state.attacked else "")
    return _decision(
        state, side, "turn", f"turn:{state.round}:{state.active}:{done or '-'}",
        f"Round {state.round}: {side.fighter.name}'s turn. Move, attack or end the turn.",
        options, suggested, _turn_context(state))


def _turn_context(state: FightState) -> dict:
    side = state.sides[state.active]
    return {"position": list(side.position), "opponent_position": list(state.other(side.index).position),
            "distance": _gap(state), "speed": side.speed, "reach": choices.normal_reach(side),
            "moved": state.moved, "attacked": state.attacked}


def _power_decision(state: FightState, index: int, role: str, power: Power) -> Decision:
    roll = state.roll
    assert roll is not None
    side = state.sides[index]
    options = tuple(Command(side.seat, "use_power", {"use": use}) for use in (True, False))
    suggested = lambda: Command(side.seat, "use_power", {"use": policy.power_answer(state, role, power, DEFAULT_PLAN)})
    hurt = state.sides[roll.defender] if (power.kind == "extra_wound" or role == "defender") \
        else state.sides[roll.attacker]
    attacker, defender = state.sides[roll.attacker], state.sides[roll.defender]
    outcome = resolve_attack(attacker.fighter, defender.fighter, roll.dice[roll.attacker], roll.dice[roll.defender],
                             attacker.used, defender.used, {**dict(roll.powers), power.key: False})
    due = outcome.to_attacker if hurt.index == roll.attacker else outcome.to_defender
    verb = "add a wound to" if power.kind == "extra_wound" else "ignore a wound of"
    return _decision(
        state, side, "use_power", f"power:{roll.number}:{power.key}",
        f"{side.fighter.name} may use {power.name} ({power.source_name}) once per fight: {verb} this attack "
        f"({due} {'wound' if due == 1 else 'wounds'} to {hurt.fighter.name} so far). Use it now?",
        options, suggested,
        {"power": power.to_json(), "kind": power.kind, "wounds": due, "wounded": hurt.index,
         "wounded_dice": side_json(hurt), "attack": list(roll.dice[roll.attacker]),
         "defence": list(roll.dice[roll.defender])})


def _reroll_decision(state: FightState, index: int) -> Decision:
    roll = state.roll
    assert roll is not None
    side = state.sides[index]
    subsets = choices.reroll_subsets(roll.dice[index], roll.allowance[index])
    options = tuple(Command(side.seat, "reroll", {"dice": list(s)}) for s in subsets)
    suggested = lambda: Command(side.seat, "reroll", {"dice": list(policy.reroll_answer(state, index, DEFAULT_PLAN))})
    role = choices.roll_role(state, index)
    return _decision(
        state, side, "reroll", f"reroll:{roll.number}:{index}",
        f"{side.fighter.name} may reroll up to {roll.allowance[index]} of its {role} dice "
        f"{_dice_text(roll.dice[index])} against {_dice_text(roll.dice[1 - index])}. Which?",
        options, suggested,
        {"role": role, "dice": list(roll.dice[index]), "opponent_dice": list(roll.dice[1 - index]),
         "allowance": roll.allowance[index]},
        mode="simultaneous", group=f"reroll:{roll.number}")


def _wounds_decision(state: FightState) -> Decision:
    due = state.wounds[0]
    side = state.sides[due.side]
    options = tuple(_allocation_command(side, alloc) for alloc in legal_allocations(side.dice, due.count))
    suggested = lambda: _allocation_command(side, policy.wounds_answer(side.dice, due.count, DEFAULT_PLAN))
    noun = "wound" if due.count == 1 else "wounds"
    cause = "fatigue" if due.reason == "fatigue" else noun
    return _decision(
        state, side, "allocate_wounds", f"wounds:{state.wound_steps + 1}",
        f"{side.fighter.name} ({_dice_line(side.dice)}) loses {due.count} "
        f"{'die' if due.count == 1 else 'dice'} to {cause}. Which?",
        options, suggested, {"count": due.count, "reason": due.reason, "dice": side_json(side)})


def _plan_decision(state: FightState, index: int) -> Decision:
    side = state.sides[index]
    return _plan_decision_for(state.fight_id, index, side.seat, side.fighter.name, side.plan)


@lru_cache(maxsize=256)
def _plan_decision_for(fight_id: str, index: int, seat: int, fighter: str, plan: Optional[FightPlan]) -> Decision:
    """The fight-plan decision stays the same while the plan does: built once, not per step."""
    return Decision(
        id=f"{fight_id}:plan:{index}", seat=seat, mode="free",
        prompt=f"Set {fighter}'s fight plan: it answers every decision of the fight for you.",
        default=_default_for(seat), command_type="set_fight_plan", schema=PLAN_SCHEMA,
        prompt_key="spartacus_arena.set_fight_plan",
        prompt_args={"fighter": fighter, "side": _ROMAN[index]},
        context=LazyMapping({}, {"plan": lambda: plan.to_json() if plan else None,
                                 "default_plan": DEFAULT_PLAN.to_json}),
    )


def _allocation_command(side: SideState, alloc: tuple[int, int, int]) -> Command:
    return Command(side.seat, "allocate_wounds", dict(zip(ATTRIBUTES, alloc)))


def _gap(state: FightState) -> int:
    return distance(state.sides[0].position, state.sides[1].position)


def _dice_text(dice) -> str:
    return "-".join(str(d) for d in dice) or "none"


def _dice_line(dice) -> str:
    return f"{dice[0]}/{dice[1]}/{dice[2]}"


# --- deciding -----------------------------------------------------------------------------------

def decide(state: FightState, command: Command) -> list[Event]:
    """The events ``command`` causes, through to the next chance or unplanned decision."""
    now = advanced(state)
    if now.result is None and command.seat != SYSTEM_SEAT:
        match_decision(_pending_now(now), command)
    return decide_and_fold(state, command)[1]


def decide_and_fold(state: FightState, command: Command) -> tuple[FightState, list[Event]]:
    """``decide`` for a command already matched to an open decision of the fight (as the
    kernel and the host game match every command), also returning the state its recorder
    folded the events into."""
    now, automatic = _advanced(state)
    rec = Recorder(now, automatic)
    if now.result is not None:
        raise GameOver("the fight is over")
    if command.seat == SYSTEM_SEAT:
        request = chance_request(now)
        if command.type != RESOLVE_CHANCE or request is None:
            raise NoSuchDecision("the fight is not waiting for chance")
        if command.args.get("id") != request.id:
            raise BadArguments(f"chance {command.args.get('id')!r} is not the pending {request.id!r}")
        _resolve_chance(rec, check_outcome(request, command.args.get("outcome")), request.id)
    else:
        _answer(rec, command)
    advance(rec)
    return rec.state, rec.events


def _answer(rec: Recorder, command: Command) -> None:
    state = rec.state
    index = state.side_of_seat(command.seat)
    assert index is not None
    kind, args = command.type, command.args
    if kind == "set_fight_plan":
        plan = plan_from_args(args)
        rec.record("FightPlanSet", {"side": index, "seat": command.seat,
                                    "plan": plan.to_json() if plan else None})
    elif kind == "use_net":
        _declare_net(rec, index, bool(args["use"]), planned=False)
    elif kind == "choose_order":
        _choose_order(rec, index, bool(args["first"]), planned=False)
    elif kind in ("move", "attack", "end_turn"):
        if state.phase == "order":
            _choose_order(rec, index, True, planned=False)
        _turn_step(rec, command, planned=False)
    elif kind == "use_power":
        question = power_question(state)
        assert question is not None
        _choose_power(rec, question[0], question[2], bool(args["use"]), planned=False)
    elif kind == "reroll":
        _choose_reroll(rec, index, tuple(args["dice"]), planned=False)
    elif kind == "allocate_wounds":
        _take_wounds(rec, tuple(args[a] for a in ATTRIBUTES), "chosen")


def _resolve_chance(rec: Recorder, outcome: dict, chance_id: str) -> None:
    state = rec.state
    roll = state.roll
    if state.phase == "initiative_roll":
        dice = [outcome["I"], outcome["II"]]
        allowance = [choices.reroll_allowance(s, "initiative", len(d)) for s, d in zip(state.sides, dice)]
        rec.record("InitiativeRolled", {"round": state.round, "attempt": state.attempt + 1,
                                        "chance": chance_id, "dice": dice, "rerolls": allowance})
    elif state.phase == "attack_roll" and roll is not None:
        allowance = [0, 0]
        allowance[roll.attacker] = choices.reroll_allowance(state.sides[roll.attacker], "attack",
                                                            len(outcome["attack"]))
        allowance[roll.defender] = choices.reroll_allowance(state.sides[roll.defender], "defence",
                                                            len(outcome["defence"]))
        rec.record("AttackRolled", {"round": state.round, "roll": roll.number, "chance": chance_id,
                                    "attacker": roll.attacker, "attack": outcome["attack"],
                                    "defence": outcome["defence"], "rerolls": allowance})
    elif state.phase == "reroll_roll" and roll is not None:
        new = [list(outcome.get(_ROMAN[i], [])) for i in (0, 1)]
        final = []
        for i in (0, 1):
            dice = list(roll.dice[i])
            for position, value in zip(roll.choices[i] or (), new[i]):
                dice[position] = value
            final.append(sorted(dice, reverse=True))
        rec.record("DiceRerolled", {"round": state.round, "roll": roll.number, "chance": chance_id,
                                    "purpose": roll.purpose, "before": [list(roll.dice[0]), list(roll.dice[1])],
                                    "rerolled": [list(c or ()) for c in roll.choices], "new": new,
                                    "dice": final})


# --- the steps, shared by players' answers and plans ---------------------------------------------

def _declare_net(rec: Recorder, index: int, use: bool, *, planned: bool) -> None:
    """"Before the speed dice are rolled for the initiative, the Net card is exhausted and
    the fighter wins the initiative automatically" (Netz): declared in secret, revealed
    together."""
    side = rec.state.sides[index]
    rec.record("NetDeclared", {"round": rec.state.round, "side": index, "seat": side.seat,
                               "use": use, "planned": planned})


def _reveal_nets(rec: Recorder) -> None:
    """"In the round the net is used there is no initiative roll. EXCEPTION: if both fighters
    use their net at the same time, both nets are exhausted and the initiative is rolled
    normally" (Netz)."""
    state = rec.state
    used = [i for i in (0, 1) if state.nets[i]]
    spent = []
    exhausted = []
    for i in used:
        net = choices.ready_net(state.sides[i])
        if net is not None:
            spent.append([i, net.key])
            exhausted.extend(e.copy for e in state.sides[i].fighter.equipment if e.card == net.source)
    rec.record("NetsRevealed", {"round": state.round, "used": used,
                                "winner": used[0] if len(used) == 1 else -1,
                                "spent": spent, "exhausted": exhausted})


def _choose_order(rec: Recorder, index: int, first: bool, *, planned: bool) -> None:
    """"The winner of the initiative may choose who attacks first" (Grundlagen des Kampfes)."""
    state = rec.state
    rec.record("OrderChosen", {"round": state.round, "side": index, "first": first,
                               "first_side": index if first else 1 - index, "planned": planned})


def _turn_step(rec: Recorder, command: Command, *, planned: bool) -> None:
    """A turn, as one command: "each fighter performs one movement and one attack in a combat
    round. The order is free" (Kampfrunde) -- see :func:`choices.turn_commands`."""
    state = rec.state
    index = state.active
    side = state.sides[index]
    if command.type == "move":
        dest = tuple(command.args["to"])
        attack = command.args.get("attack")
        # a move without an attack ends the turn: before an attack there is none left to make, after
        # one the turn is over; one event says both (the fighter moved, its turn ended)
        rec.record("FighterMoved", {"round": state.round, "side": index, "from": list(side.position),
                                    "to": list(dest), "path": [list(h) for h in command.args["path"]],
                                    "planned": planned, "ends_turn": attack is None})
        if attack is not None:
            _declare_attack(rec, index, {**attack, "then": "stay"}, planned=planned)
    elif command.type == "attack":
        _declare_attack(rec, index, command.args, planned=planned)
    else:
        rec.record("TurnEnded", {"round": state.round, "side": index, "planned": planned})


def _declare_attack(rec: Recorder, index: int, args, *, planned: bool) -> None:
    """"The attacking player rolls as many dice as his fighter's attack, the defender as
    many as his defence" (Angreifen); "for some attacks (such as with the javelin) the
    fighter's speed dice are used instead of its attack dice" (Schnelle Attacken)."""
    state = rec.state
    side, other = state.sides[index], state.other(index)
    style = args["style"]
    spent: list[str] = []
    source = ""
    if style == "speed":
        power = choices.speed_attack_power(side, args["source"])
        assert power is not None
        source = power.source
        if power.p("uses") == "once_per_fight":
            spent.append(power.key)
        attack_pool, attack_dice = "speed", side.speed
    else:
        attack_pool, attack_dice = "attack", side.attack
    defence_pool, defence_dice = choices.defence_pool(other)
    rec.record("AttackDeclared", {
        "round": state.round, "side": index, "target": other.index, "style": style, "source": source,
        "distance": distance(side.position, other.position), "pools": [attack_pool, defence_pool],
        "dice": [attack_dice, defence_dice], "spent": spent, "then": args.get("then", "stay"),
        "planned": planned})


def _choose_power(rec: Recorder, index: int, power: Power, use: bool, *, planned: bool) -> None:
    """A once-per-fight power the card says the fighter *may* use: its player's choice, made
    with the final roll on the table ("Some items can be used ... only once per fight",
    Fähigkeiten von Ausrüstung)."""
    state = rec.state
    assert state.roll is not None
    rec.record("PowerChosen", {"round": state.round, "roll": state.roll.number, "side": index,
                               "seat": state.sides[index].seat, "power": power.key, "name": power.name,
                               "source": power.source, "use": use, "planned": planned})


def _choose_reroll(rec: Recorder, index: int, dice: tuple[int, ...], *, planned: bool,
                   settled: bool = False) -> None:
    """"The player may freely choose which roll to repeat; the final result counts"
    (Wiederholungswürfe), chosen after seeing both rolls, in secret.  ``settled``: no reroll
    could end better than keeping (:func:`policy.reroll_can_help`), so nobody was asked."""
    state = rec.state
    assert state.roll is not None
    rec.record("RerollChosen", {"roll": state.roll.number, "side": index, "seat": state.sides[index].seat,
                                "dice": list(dice), "planned": planned, "settled": settled})


def _reveal_rerolls(rec: Recorder) -> None:
    """"If both players have rerolls, these should be made at the same time"
    (Wiederholungswürfe): the choices are revealed together, then rolled together."""
    state = rec.state
    roll = state.roll
    assert roll is not None
    chosen = [list(roll.choices[i] or ()) for i in (0, 1)]
    spent = [list(choices.spend_rerolls(state.sides[i], choices.roll_role(state, i), len(chosen[i])))
             for i in (0, 1)]
    rec.record("RerollsRevealed", {"roll": roll.number, "choices": chosen, "spent": spent})


def _settle(rec: Recorder) -> None:
    """The roll is final: "the player with the higher total may decide to begin or to move
    second in this round; on a tie the dice are rolled again" (Initiative im Kampf), or the
    attack is resolved (:func:`engine.spartacus.arena.combat.resolve_attack`)."""
    state = rec.state
    roll = state.roll
    assert roll is not None
    if roll.purpose == "initiative":
        sums = [sum(roll.dice[0]), sum(roll.dice[1])]
        winner = initiative_winner(sums)
        data = {"round": state.round, "attempt": state.attempt + 1, "dice": [list(d) for d in roll.dice],
                "sums": sums}
        last = rec.last()
        if last is not None and last.type == "InitiativeRolled" and last.data["round"] == state.round \
                and last.data["attempt"] == state.attempt + 1:
            # nobody may reroll: the roll settles at once, and its own event says how
            if winner is None:
                rec.say_with_last("InitiativeTied", data, sums=sums, tied=True)
            else:
                rec.say_with_last("InitiativeDecided", {**data, "winner": winner}, sums=sums, winner=winner)
            return
        if winner is None:
            rec.record("InitiativeTied", data)
        else:
            rec.record("InitiativeDecided", {**data, "winner": winner})
        return
    attacker, defender = state.sides[roll.attacker], state.sides[roll.defender]
    attack, defence = roll.dice[roll.attacker], roll.dice[roll.defender]
    outcome = resolve_attack(attacker.fighter, defender.fighter, attack, defence, attacker.used, defender.used,
                             dict(roll.powers))
    c = outcome.comparison
    rec.record("AttackResolved", {
        "round": state.round, "roll": roll.number, "attacker": attacker.index, "defender": defender.index,
        "style": roll.style, "source": roll.source, "attack": list(attack), "defence": list(defence),
        "pairs": [[a, d, hit] for a, d, hit in c.pairs], "unblocked": [[a, hit] for a, hit in c.unblocked],
        "unused": list(c.unused), "hits": c.hits, "powers": [u.to_json() for u in outcome.uses],
        "to_defender": outcome.to_defender, "to_attacker": outcome.to_attacker,
        "spent": {"attacker": list(outcome.spent_attacker), "defender": list(outcome.spent_defender)}})


def _take_wounds(rec: Recorder, alloc: tuple[int, ...], how: str) -> None:
    """"For every wound the fighter loses one die of any attribute; the player chooses"
    (Wunden erhalten), within the rule of one."""
    state = rec.state
    due: WoundDue = state.wounds[0]
    side = state.sides[due.side]
    after = tuple(v - r for v, r in zip(side.dice, alloc))
    rec.record("WoundsTaken", {
        "round": state.round, "side": due.side, "seat": side.seat, "count": due.count, "reason": due.reason,
        "removed": dict(zip(ATTRIBUTES, alloc)), "dice": dict(zip(ATTRIBUTES, after)),
        "planned": how == "planned", "forced": how == "forced"})


def _end_fight(rec: Recorder) -> None:
    """"If at least one attribute of a fighter is lowered to 0, he loses the fight" (Besiegt)."""
    state = rec.state
    loser = next(s for s in state.sides if zeros(s.dice))
    winner = state.other(loser.index)
    kind = defeat_kind(loser.dice) or "defeated"
    cause = "fatigue" if state.ended_by == "fatigue" else "wounds"
    if kind == "defeated" and cause == "wounds" and winner.fighter.has("brutal"):
        kind = "injured"
    exhausted = []
    for side in state.sides:
        for power in side.fighter.having("net"):
            if power.key in side.used:
                exhausted.extend(e.copy for e in side.fighter.equipment if e.card == power.source)
    rec.record("FightEnded", {
        "round": state.round, "winner": winner.index, "loser": loser.index, "winner_seat": winner.seat,
        "loser_seat": loser.seat, "winner_card": winner.fighter.copy, "loser_card": loser.fighter.copy,
        "kind": kind, "zeros": list(zeros(loser.dice)), "cause": cause, "exhausted": exhausted,
        "dice": [side_json(s) for s in state.sides]})


def _fatigue_order(state: FightState) -> list[int]:
    """Fatigue (Capua's rule, see the docs): from the fatigue round on, each fighter loses one
    die at the end of every round; the one with fewer dice tires first (on equal dice, the one
    that moved first this round), and if that ends the fight the other is spared."""
    return sorted((0, 1), key=lambda i: (state.sides[i].total, 0 if i == state.first else 1))


# --- automatic steps -------------------------------------------------------------------------------

def advance(rec: Recorder) -> None:
    """Take every step that needs no player and no chance (see the module docstring)."""
    for _ in range(MAX_AUTOMATIC_STEPS):
        if not _automatic_step(rec):
            return
    raise RuntimeError(f"fight {rec.state.fight_id}: automatic steps do not end (phase {rec.state.phase})")


def _plan(state: FightState, index: int, setting: str) -> Optional[FightPlan]:
    """Fighter ``index``'s plan if it answers the decisions of ``setting``."""
    return answering(state.sides[index].plan, setting)


def _automatic_step(rec: Recorder) -> bool:
    state = rec.state
    if state.result is not None:
        return False
    phase = state.phase
    if phase == "start":
        if not all(state.ready):
            return False
        rec.record("FightBegan", _began(state))
    elif phase == "round_start":
        _start_round(rec)
    elif phase == "nets":
        for i in (0, 1):
            plan = _plan(state, i, "net")
            if state.nets[i] is None and plan is not None:
                _declare_net(rec, i, policy.net_answer(state, i, plan), planned=True)
                return True
        if any(n is None for n in state.nets):
            return False
        _reveal_nets(rec)
    elif phase == "order":
        plan = _plan(state, state.initiative, "initiative")
        if plan is None:
            return False
        _choose_order(rec, state.initiative, policy.order_answer(state, state.initiative, plan), planned=True)
    elif phase == "turn":
        if choices.turn_is_over(state):
            rec.record("TurnEnded", {"round": state.round, "side": state.active, "planned": False})
            return True
        plan = _plan(state, state.active, "approach")
        if plan is None:
            return False
        _turn_step(rec, policy.turn_answer(state, plan), planned=True)
    elif phase == "reroll":
        roll = state.roll
        assert roll is not None
        for i in (0, 1):
            if roll.allowance[i] and roll.choices[i] is None and not policy.reroll_can_help(state, i):
                _choose_reroll(rec, i, (), planned=False, settled=True)
                return True
            plan = _plan(state, i, "reroll")
            if roll.allowance[i] and roll.choices[i] is None and plan is not None:
                _choose_reroll(rec, i, policy.reroll_answer(state, i, plan), planned=True)
                return True
        if any(roll.allowance[i] and roll.choices[i] is None for i in (0, 1)):
            return False
        _reveal_rerolls(rec)
    elif phase == "settle":
        question = power_question(state)
        if question is None:
            _settle(rec)
            return True
        index, role, power = question
        plan = _plan(state, index, "extra_wound" if power.kind == "extra_wound" else "ignore_wound")
        if plan is None:
            return False
        _choose_power(rec, index, power, policy.power_answer(state, role, power, plan), planned=True)
    elif phase == "wounds":
        due = state.wounds[0]
        side = state.sides[due.side]
        plan = side.plan
        if len(legal_allocations(side.dice, due.count)) == 1 or outcome_is_settled(side.dice, due.count):
            _take_wounds(rec, policy.wounds_answer(side.dice, due.count, plan or DEFAULT_PLAN), "forced")
        elif answering(plan, "wounds") is not None:
            _take_wounds(rec, policy.wounds_answer(side.dice, due.count, plan), "planned")
        else:
            return False
    elif phase == "ended":
        _end_fight(rec)
    elif phase == "round_end":
        if state.round >= state.fatigue_round:
            rec.record("FatigueStruck", {"round": state.round, "order": _fatigue_order(state)})
        else:
            _start_round(rec)
    elif phase == "round_over":
        _start_round(rec)
    else:
        return False
    return True


def _start_round(rec: Recorder) -> None:
    """The next round begins; its ``RoundStarted`` also says that the round before has ended
    (earlier rules recorded a ``RoundEnded`` first: :func:`engine.spartacus.arena.events.upcast`)."""
    state = rec.state
    nets = [i for i in (0, 1) if choices.ready_net(state.sides[i]) is not None]
    rec.record("RoundStarted", {"round": state.round + 1, "nets": nets,
                                "dice": [side_json(s) for s in state.sides],
                                "positions": [list(s.position) for s in state.sides]})


def _began(state: FightState) -> dict:
    return {
        "board": state.board.name,
        "starts": [list(h) for h in state.board.starts],
        "fatigue_round": state.fatigue_round,
        "sides": [{"side": s.index, "seat": s.seat, "position": list(s.position), **s.fighter.to_json()}
                  for s in state.sides],
    }
