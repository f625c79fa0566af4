"""Carrying out card and ability effects, one primitive at a time.

'If the scheme is not foiled ... its effect takes place at once and any costs of the card
must be paid at once' (rulebook p. 7); 'a foiled scheme has none of its effects, and no
costs tied to the card are paid' (p. 8).  So costs (effects marked ``cost``) are checked
when a card is played and paid here, when it resolves; a card whose costs can no longer be
paid when it resolves fizzles and is discarded without effect (Capua's rule: gold may
change hands while a scheme waits for reactions).

Effects that need a choice ('the target discards a gladiator of their choice') open a
:class:`~engine.spartacus.game.state.Prompt` for the chooser; a choice with only one
possible answer is made automatically.
"""

from __future__ import annotations

from typing import Any, Optional

from engine.spartacus.game import ledger, windows
from engine.spartacus.game.state import GameState, Play, Resolution, matches_kind, ready_count
from engine.spartacus.game.tx import Tx


def effects_of(state: GameState, r: Resolution) -> tuple:
    """The effect list a resolution carries out: the card's, the house ability's or the market card's."""
    if r.source in ("scheme", "reaction"):
        return state.cards.intrigue_card(r.card).effects
    if r.source == "ability":
        house = state.cards.house(state.player(r.actor).house)
        for ab in house.abilities:
            if ab.id == r.card:
                return ab.effects
    if r.source == "market_ability":
        ab = state.cards.market_card(r.card).abilities[r.x]
        if ab.op == "replace_hand":
            return ({"op": "replace_hand", "who": "actor", "count": ab.amount or 1},)
    return ()


def _amount(eff: dict, r: Resolution) -> int:
    value = eff.get("amount", eff.get("count", 0))
    return r.x if value == "x" and r.source == "ability" else int(value)


def _who(eff: dict, r: Resolution) -> int:
    return r.actor if eff.get("who", "target") == "actor" else r.target


def candidates(state: GameState, seat: int, kind: str) -> tuple[str, ...]:
    """Ready property cards of ``kind`` (exhausted cards cannot be chosen, p. 17)."""
    if seat < 0:
        return ()
    p = state.player(seat)
    arena_cards = _in_arena(state)
    return tuple([a.id for a in p.assets if matches_kind(a.kind, kind) and a.ready and a.id not in arena_cards])


def _in_arena(state: GameState) -> set[str]:
    """Cards sent to this round's games (until the arena closes)."""
    if state.arena is None or state.arena.done:
        return set()
    out: set[str] = set()
    for e in state.arena.entries:
        out.update(e.cards())
    return out


def affordable(state: GameState, seat: int, effects: tuple, x: int = 0) -> bool:
    """Can ``seat`` pay every cost effect of a card now?"""
    p = state.player(seat)
    gold = p.free_gold
    need_kind: dict[str, int] = {}
    for eff in effects:
        if not eff.get("cost"):
            continue
        op = eff["op"]
        amount = x if eff.get("amount") == "x" else eff.get("amount", eff.get("count", 0))
        if op == "pay_gold":
            gold -= amount
        elif op == "pay_each":
            gold -= amount * (state.seats - 1)
        elif op in ("discard_property", "exhaust_property"):
            need_kind[eff["kind"]] = need_kind.get(eff["kind"], 0) + amount
        elif op == "injure":
            need_kind[eff["kind"]] = need_kind.get(eff["kind"], 0) + 1
    if gold < 0:
        return False
    for kind, n in need_kind.items():
        if len(candidates(state, seat, kind)) < n:
            return False
    return True


def start(tx: Tx, source: str, card: str, actor: int, target: int, *, x: int = 0, window: int = 0,
          play: Optional[Play] = None) -> None:
    """'The effect on the card takes place at once' (p. 7): push a resolution onto the stack."""
    data: dict[str, Any] = {"source": source, "card": card, "actor": actor, "target": target, "x": x, "window": window}
    if play is not None:
        data["play"] = windows.play_json(play)
    tx.emit("EffectsStarted", **data)


def step(tx: Tx) -> None:
    """Carry out the next effect of the innermost resolution (or finish it)."""
    state = tx.state
    r = state.resolutions[-1]
    effects = effects_of(state, r)
    if r.step == 0 and r.progress == 0 and not affordable(state, r.actor, effects, r.x):
        _finish(tx, r, fizzled=True)
        return
    if r.step >= len(effects):
        _finish(tx, r)
        return
    eff = effects[r.step]
    op = eff["op"]
    runner = _RUNNERS[op]
    runner(tx, r, eff)


def _next(tx: Tx) -> None:
    tx.emit("EffectStepped", next=True)


def _finish(tx: Tx, r: Resolution, *, fizzled: bool = False) -> None:
    discard = r.source in ("scheme", "reaction")
    tx.emit("EffectsFinished", source=r.source, card=r.card, seat=r.actor, target=r.target, discard=discard,
            fizzled=fizzled)
    if r.source == "scheme" and not fizzled:
        windows.scheme_succeeded(tx, r)


# ----------------------------------------------------------------------------- immediate ops

def _gain_gold(tx: Tx, r: Resolution, eff: dict) -> None:
    ledger.gain_gold(tx, _who(eff, r), _amount(eff, r), r.card)
    _next(tx)


def _lose_gold(tx: Tx, r: Resolution, eff: dict) -> None:
    """'The target pays up to 3 gold' takes what there is; a cost is paid in full (it was
    checked in this same step: see :func:`step` and the card data's order of effects)."""
    if eff.get("cost"):
        ledger.pay_in_full(tx, _who(eff, r), _amount(eff, r), r.card)
    else:
        ledger.pay_gold(tx, _who(eff, r), _amount(eff, r), r.card)
    _next(tx)


def _pay_each(tx: Tx, r: Resolution, eff: dict) -> None:
    payer = _who(eff, r)
    others = tx.state.clockwise(payer)[1:]
    if eff.get("cost"):
        ledger.check_free(tx.state, payer, _amount(eff, r) * len(others), r.card)
    for seat in others:
        ledger.give_gold(tx, payer, seat, _amount(eff, r), r.card)
    _next(tx)


def _take_gold(tx: Tx, r: Resolution, eff: dict) -> None:
    if r.target != r.actor and r.target >= 0:
        ledger.give_gold(tx, r.target, r.actor, _amount(eff, r), r.card)
    _next(tx)


def _gold_per_ready(tx: Tx, r: Resolution, eff: dict) -> None:
    seat = _who(eff, r)
    n = ready_count(tx.state, seat, eff["kind"])
    ledger.gain_gold(tx, seat, n * _amount(eff, r), r.card)
    _next(tx)


def _gain_influence(tx: Tx, r: Resolution, eff: dict) -> None:
    ledger.gain_influence(tx, _who(eff, r), _amount(eff, r), r.card)
    _next(tx)


def _lose_influence(tx: Tx, r: Resolution, eff: dict) -> None:
    ledger.lose_influence(tx, _who(eff, r), _amount(eff, r), r.card)
    _next(tx)


def _draw(tx: Tx, r: Resolution, eff: dict) -> None:
    tx.emit("DrawsOwed", draws=[[_who(eff, r), _amount(eff, r)]])
    _next(tx)


def _scheme_discount(tx: Tx, r: Resolution, eff: dict) -> None:
    tx.emit("SchemeDiscountGranted", seat=r.actor, amount=_amount(eff, r))
    _next(tx)


def _foil(tx: Tx, r: Resolution, eff: dict) -> None:
    for w in tx.state.windows:
        if w.id == r.window and w.subject is not None:
            if w.moment == "scheme":
                tx.emit("SchemeFoiled", window=w.id, card=w.subject.card, seat=w.subject.seat, by=r.actor)
            elif w.subject.kind == "guard":
                tx.emit("GuardFoiled", window=w.id, card=w.subject.card, seat=w.subject.seat, by=r.actor)
            else:
                tx.emit("ReactionFoiled", window=w.id, card=w.subject.card, seat=w.subject.seat, by=r.actor)
            break
    _next(tx)


def _retrieve_guard(tx: Tx, r: Resolution, eff: dict) -> None:
    state = tx.state
    for card in reversed(state.intrigue_discard):
        if state.cards.intrigue_card(card).type == "guard":
            tx.emit("PropertyGained", seat=_who(eff, r), card=card, kind="guard", source="intrigue_discard")
            break
    _next(tx)


# ----------------------------------------------------------------------------- choices

_CHOICE_OPS = ("discard_property", "exhaust_property", "injure", "favour", "discard_hand", "replace_hand",
               "replace_fighter")


def _choice(tx: Tx, r: Resolution, eff: dict) -> None:
    state = tx.state
    op = eff["op"]
    seat = _who(eff, r)
    count = 1 if op in ("injure", "favour", "replace_fighter") else _amount(eff, r)
    if op in ("discard_hand", "replace_hand"):
        options = state.player(seat).hand if seat >= 0 else ()
    elif op == "favour":
        options = candidates(state, seat, "gladiator")
    elif op == "replace_fighter":
        options = _replacement_fighters(state, seat)
    else:
        options = candidates(state, seat, eff["kind"])
    count -= r.progress if op != "replace_hand" else 0
    if op == "replace_hand":
        if not options:
            _draw_replacements(tx, r, seat)
            return
        tx.emit("PromptOpened", seat=seat, kind=op, options=list(options), remaining=min(count, len(options)),
                optional=True, reason=r.card)
        return
    if count <= 0 or not options:
        _next(tx)
        return
    if len(options) <= count:
        for card in options:
            _do_choice(tx, op, seat, card, r)
        _next(tx)
        return
    tx.emit("PromptOpened", seat=seat, kind=op, options=list(options), remaining=count, reason=r.card)


def _replacement_fighters(state: GameState, seat: int) -> tuple[str, ...]:
    if state.arena is None or seat < 0:
        return ()
    return candidates(state, seat, "fighter")


def _draw_replacements(tx: Tx, r: Resolution, seat: int) -> None:
    if r.progress > 0:
        tx.emit("DrawsOwed", draws=[[seat, r.progress]])
    _next(tx)


def _do_choice(tx: Tx, op: str, seat: int, card: str, r: Optional[Resolution]) -> None:
    reason = r.card if r is not None else op
    if op == "discard_property":
        ledger.discard_property(tx, seat, card, reason)
    elif op == "exhaust_property":
        tx.emit("CardExhausted", seat=seat, card=card, reason=reason)
    elif op == "injure":
        tx.emit("CardInjured", seat=seat, card=card, reason=reason)
    elif op == "favour":
        ledger.add_favour(tx, seat, card, reason)
    elif op in ("discard_hand", "replace_hand"):
        tx.emit("IntrigueCardDiscarded", seat=seat, card=card, reason=reason)
    elif op == "replace_fighter":
        tx.emit("FighterReplaced", seat=seat, card=card)


def answer_prompt(tx: Tx, seat: int, choice: str) -> None:
    """The chooser picked ``choice`` ('' = done, for optional prompts)."""
    pr = tx.state.prompts[-1]
    r = tx.state.resolutions[-1] if tx.state.resolutions else None
    if choice:
        _do_choice(tx, pr.kind, seat, choice, r)
        if pr.kind == "replace_hand":
            tx.emit("EffectStepped", next=False)
    depth = len(tx.state.prompts)
    tx.emit("PromptAnswered", seat=seat, choice=choice, kind=pr.kind)
    if len(tx.state.prompts) < depth and r is not None:
        r = tx.state.resolutions[-1]
        if pr.kind == "replace_hand":
            _draw_replacements(tx, r, seat)
        else:
            _next(tx)


_RUNNERS = {
    "gain_gold": _gain_gold,
    "lose_gold": _lose_gold,
    "pay_gold": _lose_gold,
    "pay_each": _pay_each,
    "take_gold": _take_gold,
    "gold_per_ready": _gold_per_ready,
    "gain_influence": _gain_influence,
    "lose_influence": _lose_influence,
    "draw": _draw,
    "scheme_discount": _scheme_discount,
    "foil": _foil,
    "retrieve_guard": _retrieve_guard,
}
for _op in _CHOICE_OPS:
    _RUNNERS[_op] = _choice
