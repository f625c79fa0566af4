"""Opening reaction windows: the moments other domini may answer, and who is asked.

- 'Reactions can be played outside your own turn ... they need a minimum influence'
  (rulebook p. 7): a scheme played, a scheme that succeeded, a dominus left without gold,
  the bets placed, a fighter dead -- and a reaction or a guard played, for the cards that
  may foil one ('Guards are a special kind of reaction', p. 8).
- A window is pushed on top of the stack and answered before anything opened earlier;
  :mod:`engine.spartacus.game.reactions` says what each responder may answer and when the
  window closes.

Who is asked is decided from public information only: every seat that could answer *in
principle* -- it holds cards (a hand's size is public), its influence reaches a reaction of
the card set tied to the moment of which not every copy lies face up, the card's condition
holds for someone; or it is the target of a scheme (a guard may be in its hand, or lies on
its table).  What a seat holds never decides whether it is asked: a seat with nothing playable
is asked all the same, and its only answer is to pass.
"""

from __future__ import annotations

from typing import Optional

from engine.core.memo import once_per_state
from engine.spartacus.game.cards import card_key
from engine.spartacus.game.state import GameState, Play, Resolution, ready_count, thaw
from engine.spartacus.game.tx import Tx


def play_json(play: Play) -> dict:
    """A played card as event data."""
    return {
        "card": play.card, "seat": play.seat, "target": play.target, "kind": play.kind, "window": play.window,
        "supporters": list(play.supporters), "extra": thaw(play.extra) if play.extra else {},
    }


def target_qualifies(state: GameState, requires: tuple[str, ...], target: int) -> bool:
    """Does ``target`` meet a reaction's condition ('a dominus without gold', 'with no ready
    slaves')?  Public information only: hidden gold (the market) never qualifies."""
    if target < 0:
        return not requires
    p = state.player(target)
    for req in requires:
        if req == "target_has_no_gold" and (p.gold != 0 or p.gold_hidden):
            return False
        if req == "target_has_no_ready_slaves" and ready_count(state, target, "slave"):
            return False
        if req == "target_has_no_ready_gladiators" and ready_count(state, target, "gladiator"):
            return False
    return True


def could_answer(state: GameState, moment: str, seat: int, *, about: int = -1, subject: Optional[Play] = None,
                 scheme: Optional[Play] = None) -> bool:
    """May ``seat`` answer the moment *in principle*, judged from what the whole table sees?

    Its hand is never looked at: a seat that could hold a fitting card is asked."""
    target = moment == "scheme" and subject is not None and subject.target == seat
    p = state.player(seat)
    if not p.hand:  # the hand's size is public: an empty hand holds no reaction, at most guards on the table
        return target and any(a.kind == "guard" and a.ready for a in p.assets)
    influence = p.influence
    for c in state.cards.intrigue:
        if c.type == "guard" and target:
            return True  # 'a guard can only foil a scheme that targets its owner' (p. 8); it may be in the hand
        if c.type != "reaction" or moment not in c.moments or influence < c.influence:
            continue
        if _all_copies_face_up(state, c.id, c.count):
            continue
        if moment == "scheme":
            if c.scope == "targeting_you" and not target:
                continue
            return True
        if moment == "reaction":
            return True
        if moment == "gold_emptied":
            if target_qualifies(state, c.requires, about):
                return True
            continue
        if moment == "scheme_succeeded":
            if c.scope == "targeting_you":
                if scheme is not None and scheme.target == seat and scheme.seat != seat \
                        and target_qualifies(state, c.requires, scheme.seat):
                    return True
                continue
            if any(target_qualifies(state, c.requires, t) for t in range(state.seats)):
                return True
            continue
        return True  # bets placed, a fighter dead: the card names who, at the moment it is played
    return False


def _all_copies_face_up(state: GameState, card: str, count: int) -> bool:
    """Every copy of ``card`` lies face up (the discard pile, cards on their way to it): nobody
    can hold one, as the whole table can count."""
    return _face_up(state).get(card, 0) >= count


@once_per_state
def _face_up(state: GameState) -> dict[str, int]:
    """The copies of each intrigue card lying face up, counted once for every seat and card a
    window asks about."""
    seen: dict[str, int] = {}
    for c in state.intrigue_discard:
        key = card_key(c)
        seen[key] = seen.get(key, 0) + 1
    for w in state.windows:
        if w.subject is not None and w.subject.kind == "reaction":
            key = card_key(w.subject.card)
            seen[key] = seen.get(key, 0) + 1
    for r in state.resolutions:
        if r.source == "reaction":
            key = card_key(r.card)
            seen[key] = seen.get(key, 0) + 1
    return seen


def open_window(tx: Tx, moment: str, first: int, *, exclude: tuple[int, ...] = (), about: int = -1,
                subject: Optional[Play] = None, scheme: Optional[Play] = None) -> bool:
    """Open a window on top of the stack, addressed clockwise from ``first`` to every seat
    that could answer in principle; it is answered before anything opened earlier.  No
    window opens when nobody could answer (False)."""
    state = tx.state
    order = [s for s in state.clockwise(first) if s not in exclude
             and could_answer(state, moment, s, about=about, subject=subject, scheme=scheme)]
    if not order:
        return False
    data = {"window": state.seq, "moment": moment, "order": order, "about": about}
    if subject is not None:
        data["subject"] = play_json(subject)
    if scheme is not None:
        data["scheme"] = play_json(scheme)
    tx.emit("WindowOpened", **data)
    return True


def open_scheme_window(tx: Tx, play: Play) -> bool:
    """'Foiling reactions can be played in answer to a scheme another dominus plays' (p. 8);
    the first to answer sits left of the schemer."""
    return open_window(tx, "scheme", play.seat + 1, exclude=(play.seat,), subject=play)


def open_reaction_window(tx: Tx, play: Play) -> bool:
    """'Only schemes can be foiled, not reactions (exceptions are on the cards)' (p. 8): a
    reaction or a guard put to use may itself be answered by such a card (Jupiter's Cock)."""
    if not tx.state.cards.has_moment("reaction"):
        return False
    return open_window(tx, "reaction", play.seat + 1, exclude=(play.seat,), subject=play)


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
