"""Who acts next: the stage machine, ``pending`` and the command dispatch.

After every command ``advance`` carries the game forward through everything that needs
nobody's decision (automatic passes, effects, draws, phase changes) and stops at the next
decision or chance.  Priority, innermost first: chance, prompts, owed draws, the stack of
reaction windows and effects being resolved (the one opened last first), a fight, then
the stage.  A reaction window tied to a moment (a dominus left without gold, the bets
placed, a fighter dead) is pushed onto the stack the moment it happens.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Callable

from engine.core.chance import ChanceRequest, Dice, Pick, Shuffle, check_outcome
from engine.core.errors import NoSuchDecision
from engine.core.memo import once_per_state
from engine.core.types import SYSTEM_SEAT, Command, Decision, Event, Pending
from engine.spartacus.game import (
    arena_phase,
    effects,
    intrigue,
    ledger,
    market,
    reactions,
    setup,
    upkeep,
    victory,
)
from engine.spartacus.game.errors import NotEnoughGold
from engine.spartacus.game.state import GameState, active_fight
from engine.spartacus.game.tx import Tx

_MAX_AUTOMATIC_STEPS = 100_000


def advance(tx: Tx) -> None:
    """Carry the game on to the next decision or chance (see the module docstring for the order)."""
    for _ in range(_MAX_AUTOMATIC_STEPS):
        s = tx.state
        if s.stage == "market_open" and s.market is not None and s.market.offers and market.drop_stale(tx):
            continue
        if s.stage == "over" or s.chance is not None or s.prompts:
            return
        if s.draws_owed:
            intrigue.advance_draws_owed(tx)
            continue
        top = innermost(s)
        if top == "resolution":
            effects.step(tx)
            continue
        if top == "window":
            if reactions.advance(tx):
                continue
            return
        if active_fight(s) is not None:
            if arena_phase.advance_fight(tx):
                continue
            return
        if not _advance_stage(tx):
            return
    raise RuntimeError("the game did not settle")  # pragma: no cover - a bug, not a rule


def innermost(s: GameState) -> str:
    """``"window"``, ``"resolution"`` or ``""``: what the top of the interrupt stack is."""
    if not s.resolutions:
        return "window" if s.windows else ""
    if not s.windows:
        return "resolution"
    return "resolution" if s.resolutions[-1].opened > s.windows[-1].id else "window"


def _advance_stage(tx: Tx) -> bool:
    s = tx.state
    stage = s.stage
    if stage.startswith("setup"):
        return setup.advance(tx)
    if stage == "round_start" or stage.startswith("upkeep"):
        if stage == "upkeep_done":
            tx.emit("PhaseStarted", phase="intrigue", round=s.round)
            return True
        return upkeep.advance(tx)
    if stage == "intrigue_draw":
        intrigue.advance_draw(tx)
        return True
    if stage == "intrigue_turns":
        if intrigue.advance_turns(tx):
            return True
        if intrigue.turn_over(s):
            tx.emit("PhaseEnded", phase="intrigue", round=s.round)
            if not victory.end_of_phase(tx, "intrigue"):
                tx.emit("PhaseStarted", phase="market", round=s.round)
            return True
        return False
    if stage.startswith("market"):
        if market.advance(tx):
            return True
        if market.over(tx.state):
            tx.emit("PhaseEnded", phase="market", round=s.round)
            if not victory.end_of_phase(tx, "market"):
                tx.emit("PhaseStarted", phase="arena", round=s.round)
            return True
        return False
    if stage == "arena":
        if arena_phase.advance(tx):
            return True
        if arena_phase.over(tx.state):
            tx.emit("PhaseEnded", phase="arena", round=s.round)
            if not victory.end_of_phase(tx, "arena"):
                tx.emit("StageChanged", stage="round_start")
            return True
        return False
    if stage == "tournament":
        return victory.advance_tournament(tx)
    return False


# ----------------------------------------------------------------------------- pending

def chance_request(s: GameState) -> ChanceRequest:
    """The kernel's :class:`ChanceRequest` for the chance the state owes."""
    need = s.chance
    draws = {}
    for name, kind, n in need.draws:
        draws[name] = Dice(n) if kind == "dice" else Shuffle(n) if kind == "shuffle" else Pick(n)
    return ChanceRequest(id=need.id, draws=draws, reason=need.purpose)


def pending(s: GameState, *, free: bool = True) -> Pending:
    """Chance, or the open decisions; ``free=False`` leaves out the free actions (gifts,
    trades, fight plans) for bots that never take them."""
    return _pending_with_free(s) if free else _pending_blocking(s)


@once_per_state
def _pending_with_free(s: GameState) -> Pending:
    return _pending(s, True)


@once_per_state
def _pending_blocking(s: GameState) -> Pending:
    return _pending(s, False)


def _pending(s: GameState, free: bool) -> Pending:
    if s.stage == "over":
        return Pending()
    if s.chance is not None:
        return Pending(chance=chance_request(s))
    fight = None if s.prompts or innermost(s) else arena_phase.fight_pending(s)
    if fight is not None:
        if fight.chance is not None:
            return Pending(chance=fight.chance)
        decisions = tuple(fight.decisions)
    else:
        decisions = tuple(blocking_decisions(s))
    if not free:
        return Pending(decisions=tuple(d for d in decisions if d.mode != "free"))
    return Pending(decisions=decisions + tuple(free_decisions(s)))


def blocking_decisions(s: GameState) -> list[Decision]:
    """The decisions someone must answer before the game can go on."""
    if s.prompts:
        return [prompt_decision(s)]
    if innermost(s) == "window":
        return reactions.decisions(s)
    stage = s.stage
    if stage.startswith("setup"):
        return setup.decisions(s)
    if stage.startswith("upkeep"):
        return upkeep.decisions(s)
    if stage == "intrigue_turns":
        return intrigue.decisions(s)
    if stage.startswith("market"):
        return market.decisions(s)
    if stage == "arena":
        return arena_phase.decisions(s)
    if stage == "tournament":
        return victory.decisions(s)
    return []


def prompt_decision(s: GameState) -> Decision:
    """The choice a dominus owes to finish an effect ('their choice' on the card)."""
    pr = s.prompts[-1]
    options = [Command(pr.seat, "choose_card", {"card": c}) for c in pr.options]
    if pr.optional:
        options.insert(0, Command(pr.seat, "choose_card", {"card": ""}))
    return Decision(
        id=f"choose:{pr.seq}:{pr.remaining}", seat=pr.seat, mode="turn",
        prompt=_PROMPTS.get(pr.kind, "Choose a card.") + f" ({pr.remaining} to choose)",
        default=options[0], options=tuple(options), prompt_key=f"choose_{pr.kind}",
        prompt_args={"reason": pr.reason, "remaining": pr.remaining},
    )


_PROMPTS = {
    "discard_property": "Choose a ready card to discard.",
    "exhaust_property": "Choose a ready card to exhaust.",
    "injure": "Choose a ready fighter to be injured.",
    "favour": "Choose a ready gladiator to gain a favour token.",
    "discard_hand": "Choose an intrigue card to discard.",
    "replace_hand": "Choose an intrigue card to replace, or stop.",
    "replace_fighter": "Choose the fighter you send instead.",
}


def free_decisions(s: GameState) -> list[Decision]:
    """'Gold may change hands between players at any time, without restriction' (p. 3):
    the gold in the purse, not what is set aside in a closed fist, on the table or on a bet.
    Whoever holds gold has the decision; how much of it is free follows from their secret
    answers, so the amount is theirs to see (``private``), and with all of it set aside the
    decision lists no answer."""
    out = []
    if s.stage.startswith("setup"):
        return out
    for p in s.players:
        if p.gold <= 0 or s.seats < 2:
            continue
        out.append(_gift_decision(p.seat, p.free_gold, s.seats))
    out.extend(intrigue.support_decisions(s))
    out.extend(market.free_decisions(s))
    out.extend(intrigue.free_decisions(s))
    out.extend(arena_phase.plan_decisions(s))
    return out


@lru_cache(maxsize=512)
def _gift_decision(seat: int, free_gold: int, seats: int) -> Decision:
    """The gift decision of ``seat`` with ``free_gold`` in the purse: the same few recur all
    game, so each is built once."""
    others = [x for x in range(seats) if x != seat]
    schema = None if free_gold <= 0 else {
        "type": "object", "additionalProperties": False, "required": ["to", "amount"],
        "properties": {
            "to": {"type": "integer", "enum": others},
            "amount": {"type": "integer", "minimum": 1, "maximum": free_gold},
        },
    }
    return Decision(
        id=f"give_gold:{seat}", seat=seat, mode="free", prompt="Give gold to another dominus.",
        command_type="give_gold", default=Command(seat, "give_gold", {"to": others[0], "amount": 1}),
        schema=schema, options=() if schema is None else None, prompt_key="give_gold", private=True,
    )


# ----------------------------------------------------------------------------- decide

def _chance(tx: Tx, command: Command) -> None:
    need = tx.state.chance
    args = command.args
    if args.get("id") != need.id:
        raise NoSuchDecision(f"chance {args.get('id')!r} is not the one pending ({need.id})")
    outcome = check_outcome(chance_request(tx.state), args.get("outcome"))
    tx.emit("ChanceResolved", id=need.id, purpose=need.purpose)
    purpose = need.purpose
    if purpose == "house_order":
        setup.house_order_rolled(tx, need.get("seats"), outcome["rolls"])
    elif purpose == "deal":
        setup.dealt(tx, outcome)
    elif purpose == "shuffle_intrigue":
        intrigue.shuffled(tx, outcome["order"])
    elif purpose == "shuffle_market":
        market.shuffled(tx, outcome["order"])
    elif purpose in ("heal", "heal_reroll"):
        upkeep.healing_rolled(tx, need.get("cards"), outcome["rolls"], purpose == "heal_reroll")
    elif purpose == "guard":
        reactions.guard_rolled(tx, need.get("seat"), need.get("window"), outcome["die"][0])
    elif purpose == "peek":
        intrigue.peeked(tx, need.get("seat"), need.get("target"), outcome["card"])
    elif purpose == "host_dice":
        market.host_dice_rolled(tx, need.get("seats"), outcome["rolls"])
    elif purpose == "tournament_dice":
        victory.ranking_dice_rolled(tx, need.get("seats"), outcome["rolls"])
    else:  # pragma: no cover
        raise NoSuchDecision(f"unknown chance {purpose}")


def _give_gold(tx: Tx, c: Command) -> None:
    amount = c.args["amount"]
    if amount > tx.state.player(c.seat).free_gold:
        raise NotEnoughGold("you cannot give gold you have set aside or do not have")
    ledger.give_gold(tx, c.seat, c.args["to"], amount, "gift")


def _choose_card(tx: Tx, c: Command) -> None:
    effects.answer_prompt(tx, c.seat, c.args["card"])


HANDLERS: dict[str, Callable[[Tx, Command], None]] = {
    "choose_house": lambda tx, c: setup.choose_house(tx, c.seat, c.args["house"]),
    "settle_accounts": lambda tx, c: upkeep.settle_accounts(tx, c.seat, list(c.args["release"])),
    "reroll_healing": lambda tx, c: upkeep.reroll_healing(tx, c.seat, c.args["card"], c.args["by"]),
    "end_turn": lambda tx, c: intrigue.end_turn(tx, c.seat),
    "sell_intrigue_card": lambda tx, c: intrigue.sell(tx, c.seat, c.args["card"]),
    "place_guard": lambda tx, c: intrigue.place_guard(tx, c.seat, c.args["card"]),
    "play_scheme": lambda tx, c: intrigue.play_scheme_command(tx, c.seat, c.args["card"], c.args["target"]),
    "keep_scheme": lambda tx, c: intrigue.keep_scheme(tx, c.seat),
    "request_support": lambda tx, c: intrigue.request_support(tx, c.seat, c.args["card"], c.args["target"],
                                                              list(c.args["from"]), c.args.get("claim")),
    "grant_support": lambda tx, c: intrigue.answer_support(tx, c.seat, True),
    "refuse_support": lambda tx, c: intrigue.answer_support(tx, c.seat, False),
    "use_house_ability": lambda tx, c: intrigue.use_house_ability(tx, c.seat, c.args["ability"], c.args["x"]),
    "use_card_ability": lambda tx, c: intrigue.use_card_ability(tx, c.seat, c.args["card"], c.args["ability"],
                                                                c.args["target"]),
    "pass_reaction": reactions.answer,
    "play_reaction": reactions.answer,
    "use_guard": reactions.answer,
    "reroll_guard": reactions.answer,
    "choose_card": _choose_card,
    "give_gold": _give_gold,
}
HANDLERS.update(market.HANDLERS)
HANDLERS.update(arena_phase.HANDLERS)
HANDLERS.update(victory.HANDLERS)


def decide(state: GameState, command: Command) -> list[Event]:
    """The events ``command`` causes, up to the next decision or chance."""
    return decide_and_fold(state, command)[1]


def decide_and_fold(state: GameState, command: Command) -> tuple[GameState, list[Event]]:
    """``decide``, also returning the state its transaction folded (the same as applying
    the events): bots and simulations that answer from the listed options save the fold."""
    tx = Tx(state)
    if arena_phase.is_fight_command(state, command):
        arena_phase.fight_command(tx, command)
    elif command.seat == SYSTEM_SEAT:
        _chance(tx, command)
    else:
        handler = HANDLERS.get(command.type)
        if handler is None:
            raise NoSuchDecision(f"no command {command.type!r} in Spartacus")
        handler(tx, command)
    advance(tx)
    return tx.state, tx.events


def start(state: GameState) -> GameState:
    """Advance a fresh game to its first chance (the house-order roll)."""
    tx = Tx(state)
    advance(tx)
    return tx.state
