"""Reaction windows: schemes foiled by reactions and guards, and reactions tied to moments.

- 'Reactions can be played outside your own turn ... they need a minimum influence, and
  unlike schemes a reaction cannot be supported' (rulebook p. 7).
- 'You can foil any scheme, not only those that target you; only schemes can be foiled,
  not reactions (exceptions are on the cards)' (p. 8).
- 'A guard can only foil a scheme that targets its owner: discard it and roll a die, on 4,
  5 or 6 the scheme is foiled ... use as many guards as you have, or another reaction from
  your hand' (p. 8).

A window lists every other dominus in clockwise order from the player who opened it; each
answers in turn (pass, play a reaction, use a guard).  A dominus with no legal answer is
passed automatically with the same ``ReactionPassed`` event a voluntary pass records, so
the window never shows who holds what.
"""

from __future__ import annotations

from typing import Optional

from engine.core.types import Command, Decision
from engine.spartacus.game import effects, ledger
from engine.spartacus.game.state import GameState, Play, Resolution, Window
from engine.spartacus.game.tx import Tx


def open_window(tx: Tx, moment: str, first: int, *, exclude: tuple[int, ...] = (), about: int = -1,
                subject: Optional[Play] = None, scheme: Optional[Play] = None) -> None:
    """Open a window on top of the stack: it is answered before anything opened earlier."""
    order = [s for s in tx.state.clockwise(first) if s not in exclude]
    data = {"window": tx.state.seq, "moment": moment, "order": order, "about": about}
    if subject is not None:
        data["subject"] = effects.play_json(subject)
    if scheme is not None:
        data["scheme"] = effects.play_json(scheme)
    tx.emit("WindowOpened", **data)


def open_scheme_window(tx: Tx, play: Play) -> None:
    """'Foiling reactions can be played in answer to a scheme another dominus plays' (p. 8)."""
    open_window(tx, "scheme", play.seat + 1, exclude=(play.seat,), subject=play)


def scheme_succeeded(tx: Tx, r: Resolution) -> None:
    """After a scheme succeeds, reactions tied to that moment may follow (Empty Brothel)."""
    if tx.state.cards.has_moment("scheme_succeeded") and r.play is not None:
        open_window(tx, "scheme_succeeded", r.actor + 1, scheme=r.play)


def left_without_gold(tx: Tx, seat: int) -> None:
    """'John can now play Destitute!, -1 influence for a player without gold' (p. 7): the
    moment a dominus is left without gold, the others may react -- at once, before the
    effect, payment or phase that emptied the purse goes on."""
    if tx.state.cards.has_moment("gold_emptied") and tx.state.stage != "over":
        open_window(tx, "gold_emptied", seat + 1, exclude=(seat,), about=seat)


# ----------------------------------------------------------------------------- legal answers

def _condition(state: GameState, requires: tuple[str, ...], target: int) -> bool:
    if target < 0:
        return not requires
    p = state.player(target)
    for req in requires:
        if req == "target_has_no_gold" and (p.gold != 0 or p.gold_hidden):
            return False
        if req == "target_has_no_ready_slaves" and ledger.ready_count(state, target, "slave"):
            return False
        if req == "target_has_no_ready_gladiators" and ledger.ready_count(state, target, "gladiator"):
            return False
    return True


def reaction_targets(state: GameState, w: Window, seat: int, card: str) -> list[int]:
    """The targets ``card`` may name when ``seat`` plays it in window ``w`` (-1: no target)."""
    c = state.cards.intrigue_card(card)
    if c.type != "reaction" or w.moment not in c.moments:
        return []
    if state.player(seat).influence < c.influence:
        return []
    if not effects.affordable(state, seat, c.effects):
        return []
    if w.moment in ("scheme", "reaction"):
        if w.subject is None:
            return []
        if c.scope == "targeting_you" and (w.moment != "scheme" or w.subject.target != seat):
            return []
        return [-1]
    if w.moment == "gold_emptied":
        return [w.about] if _condition(state, c.requires, w.about) else []
    if w.moment == "scheme_succeeded":
        sch = w.scheme
        if c.scope == "targeting_you":
            if sch is None or sch.target != seat or sch.seat == seat:
                return []
            return [sch.seat] if _condition(state, c.requires, sch.seat) else []
        return [t for t in range(state.seats) if _condition(state, c.requires, t)]
    if w.moment == "bets_placed":
        arena = state.arena
        if arena is None or arena.fight is not None:
            return []
        return [e.seat for e in arena.entries if effects.candidates(state, e.seat, "fighter")]
    if w.moment == "fighter_died":
        return [-1]
    return []


def guard_cards(state: GameState, w: Window, seat: int) -> list[tuple[str, str]]:
    """(card, 'table'|'hand') guards ``seat`` may use against the scheme of window ``w``."""
    if w.moment != "scheme" or w.subject is None or w.subject.target != seat:
        return []
    p = state.player(seat)
    out = [(a.id, "table") for a in p.assets if a.kind == "guard" and a.ready]
    out += [(c, "hand") for c in p.hand if state.cards.intrigue_card(c).type == "guard"]
    return out


def answers(state: GameState, w: Window, seat: int) -> list[Command]:
    """Everything ``seat`` may do in window ``w``: reactions, guards, a guard reroll."""
    out: list[Command] = []
    for card in state.player(seat).hand:
        for target in reaction_targets(state, w, seat, card):
            out.append(Command(seat, "play_reaction", {"card": card, "target": target}))
    for card, _source in guard_cards(state, w, seat):
        out.append(Command(seat, "use_guard", {"card": card}))
    if w.rerollable == seat:
        for a in state.player(seat).assets:
            if a.ready and a.kind in ("gladiator", "slave") and any(
                    ab.op == "reroll_guard" for ab in state.cards.market_card(a.id).abilities):
                out.append(Command(seat, "reroll_guard", {"card": a.id}))
    return out


def decision(state: GameState) -> Optional[Decision]:
    """The interrupt decision of the window's current responder (none: passed automatically)."""
    w = state.windows[-1]
    if w.index >= len(w.order):
        return None
    seat = w.order[w.index]
    options = answers(state, w, seat)
    if not options:
        return None
    passing = Command(seat, "pass_reaction", {})
    return Decision(
        id=f"react:{w.id}:{w.index}:{state.seq}",
        seat=seat,
        mode="interrupt",
        prompt=_prompt(state, w),
        default=passing,
        options=tuple([passing] + options),
        order=w.index,
        prompt_key=f"react_{w.moment}",
        # the target is public (a scheme names it aloud); standing orders such as "pass
        # unless I am the target" match on it
        prompt_args={"window": w.id, "moment": w.moment,
                     "target": w.subject.target if w.subject is not None else None},
    )


def _prompt(state: GameState, w: Window) -> str:
    if w.moment == "scheme" and w.subject is not None:
        name = state.cards.intrigue_card(w.subject.card).name
        return f"Seat {w.subject.seat} plays {name} on seat {w.subject.target}: react or pass."
    if w.moment == "reaction" and w.subject is not None:
        return f"Seat {w.subject.seat} plays {state.cards.intrigue_card(w.subject.card).name}: react or pass."
    if w.moment == "gold_emptied":
        return f"Seat {w.about} is left without gold: react or pass."
    if w.moment == "scheme_succeeded":
        return "A scheme has succeeded: react or pass."
    if w.moment == "bets_placed":
        return "The bets are placed: react or pass."
    if w.moment == "fighter_died":
        return "A fighter died in the arena: react or pass."
    return "React or pass."


def advance(tx: Tx) -> bool:
    """Auto-pass or close the innermost window; False when a responder must decide."""
    w = tx.state.windows[-1]
    if w.index >= len(w.order):
        _close(tx, w)
        return True
    seat = w.order[w.index]
    if answers(tx.state, w, seat):
        return False
    tx.emit("ReactionPassed", window=w.id, seat=seat)
    return True


def _close(tx: Tx, w: Window) -> None:
    tx.emit("WindowClosed", window=w.id, moment=w.moment)
    if w.moment == "scheme" and w.subject is not None:
        effects.start(tx, "scheme", w.subject.card, w.subject.seat, w.subject.target, play=w.subject)
    elif w.moment == "reaction" and w.subject is not None:
        _resolve_reaction(tx, w.subject)


def _resolve_reaction(tx: Tx, play: Play) -> None:
    effects.start(tx, "reaction", play.card, play.seat, play.target, window=play.window, play=play)


# ----------------------------------------------------------------------------- commands

def pass_reaction(tx: Tx, seat: int) -> None:
    """The responder lets the moment go."""
    w = tx.state.windows[-1]
    tx.emit("ReactionPassed", window=w.id, seat=seat)


def play_reaction(tx: Tx, seat: int, card: str, target: int) -> None:
    """'A reaction card is shown when played and then discarded' (p. 7); it may itself be answered."""
    w = tx.state.windows[-1]
    tx.emit("ReactionPlayed", window=w.id, seat=seat, card=card, target=target)
    play = Play(card=card, seat=seat, target=target, kind="reaction", window=w.id)
    if tx.state.cards.has_moment("reaction"):
        open_window(tx, "reaction", seat + 1, exclude=(seat,), subject=play)
    else:
        _resolve_reaction(tx, play)


def use_guard(tx: Tx, seat: int, card: str) -> None:
    """'The guard card is discarded and the player rolls a die ... even a failed guard is discarded' (p. 8)."""
    w = tx.state.windows[-1]
    source = "table" if tx.state.player(seat).asset(card) is not None else "hand"
    tx.emit("GuardUsed", window=w.id, seat=seat, card=card, source=source)
    tx.request_chance("guard", [("die", "dice", 1)], window=w.id, seat=seat)


def reroll_guard(tx: Tx, seat: int, card: str) -> None:
    """A card that may 'reroll a failed guard roll' (Mira): exhaust it and roll again."""
    w = tx.state.windows[-1]
    tx.emit("GuardRerolled", window=w.id, seat=seat, card=card)
    tx.emit("CardExhausted", seat=seat, card=card, reason="reroll_guard")
    tx.request_chance("guard", [("die", "dice", 1)], window=w.id, seat=seat)


def guard_rolled(tx: Tx, seat: int, window: int, roll: int) -> None:
    """'On 4, 5 or 6 the guard foiled the scheme; on 1, 2 or 3 it failed' (p. 8)."""
    foiled = roll >= 4
    tx.emit("GuardRolled", window=window, seat=seat, roll=roll, foiled=foiled)
    if foiled:
        for w in tx.state.windows:
            if w.id == window and w.subject is not None:
                tx.emit("SchemeFoiled", window=w.id, card=w.subject.card, seat=w.subject.seat, by=seat)
