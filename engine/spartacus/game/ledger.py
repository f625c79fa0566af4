"""Gold, influence and property movements, with the side rules that ride on them.

- 'A dominus who gains a champion ... gains 1 influence; who loses one for any reason
  loses 1 influence' (rulebook p. 13).
- 'Reactions ... when a dominus is left without gold' (p. 7, Destitute!): a dominus whose
  public gold drops to 0 opens the ``gold_emptied`` reaction window at once.
- Influence never drops below 0; it climbs above a cap only where a group chose one
  (the ``influence_cap`` house rule).
"""

from __future__ import annotations

from engine.spartacus.game import windows
from engine.spartacus.game.state import GameState
from engine.spartacus.game.tx import Tx


def _emptied(tx: Tx, seat: int, before: int) -> None:
    """Hidden gold (the auctions) is checked when it is revealed, not here."""
    p = tx.state.player(seat)
    if before > 0 and p.gold == 0 and not p.gold_hidden:
        windows.left_without_gold(tx, seat)


def gain_gold(tx: Tx, seat: int, amount: int, reason: str) -> None:
    """Gold from the bank."""
    if amount > 0:
        tx.emit("GoldGained", seat=seat, amount=amount, reason=reason)


class PaymentShort(RuntimeError):
    """A payment the rules guarantee found less gold than it needs: a bug, never a rule."""


def pay_gold(tx: Tx, seat: int, amount: int, reason: str) -> int:
    """A card's loss of gold: up to ``amount`` of the gold not set aside goes to the bank;
    return what was paid ('the target pays up to 3 gold' takes what there is; a cost is
    paid with :func:`pay_in_full`)."""
    p = tx.state.player(seat)
    paid = min(amount, p.free_gold)
    if paid > 0:
        tx.emit("GoldPaid", seat=seat, amount=paid, reason=reason)
        _emptied(tx, seat, p.gold)
    return paid


def pay_in_full(tx: Tx, seat: int, amount: int, reason: str) -> None:
    """A payment the dominus committed to (the bets, the upkeep, a card's cost): made in
    full, from gold that was set aside for it until the reveal."""
    check_free(tx.state, seat, amount, reason)
    if amount > 0:
        before = tx.state.player(seat).gold
        tx.emit("GoldPaid", seat=seat, amount=amount, reason=reason)
        _emptied(tx, seat, before)


def check_free(state: GameState, seat: int, amount: int, reason: str) -> None:
    """Raise :class:`PaymentShort` unless ``seat`` holds ``amount`` gold not set aside."""
    free = state.player(seat).free_gold
    if amount > free:
        raise PaymentShort(f"seat {seat} owes {amount} gold ({reason}) and holds {free} not set aside")


def check_covered(state: GameState, seat: int, amount: int, reason: str) -> None:
    """Raise :class:`PaymentShort` unless ``seat`` holds ``amount`` gold (set aside or not)."""
    if amount > state.player(seat).gold:
        raise PaymentShort(f"seat {seat} owes {amount} gold ({reason}) and holds {state.player(seat).gold}")


def give_gold(tx: Tx, frm: int, to: int, amount: int, reason: str) -> int:
    """'Gold can change hands between two players at any time' (p. 3) -- only gold not set
    aside: a bid in the closed fist, a stake on the table or a bet is not in the purse."""
    before = tx.state.player(frm).gold
    given = min(amount, tx.state.player(frm).free_gold)
    if given > 0 and frm != to:
        tx.emit("GoldGiven", **{"from": frm, "to": to, "amount": given, "reason": reason})
        _emptied(tx, frm, before)
    return given


def gain_influence(tx: Tx, seat: int, amount: int, reason: str) -> None:
    """Influence up; with the ``influence_cap`` house rule, never past the cap (the
    rulebook sets none)."""
    now = tx.state.player(seat).influence
    cap = int(tx.state.option("influence_cap", 0) or 0)
    real = min(amount, cap - now) if cap else amount
    if real > 0:
        tx.emit("InfluenceGained", seat=seat, amount=real, reason=reason)


def lose_influence(tx: Tx, seat: int, amount: int, reason: str) -> None:
    """Influence down, never below 0."""
    now = tx.state.player(seat).influence
    real = min(amount, now)
    if real > 0:
        tx.emit("InfluenceLost", seat=seat, amount=real, reason=reason)


def discard_property(tx: Tx, seat: int, card: str, reason: str) -> None:
    """A property card leaves its owner for the discard pile (a champion costs influence)."""
    asset = tx.state.player(seat).asset(card)
    if asset is None:
        return
    tx.emit("PropertyDiscarded", seat=seat, card=card, reason=reason)
    if asset.champion:
        lose_influence(tx, seat, 1, "champion_lost")


def transfer_property(tx: Tx, frm: int, to: int, card: str, reason: str) -> None:
    """A property card changes owner (market trades only, p. 9); a champion moves 1 influence with it (p. 13)."""
    asset = tx.state.player(frm).asset(card)
    if asset is None:
        return
    tx.emit("PropertyTransferred", **{"from": frm, "to": to, "card": card, "reason": reason})
    if asset.champion:
        lose_influence(tx, frm, 1, "champion_lost")
        gain_influence(tx, to, 1, "champion_gained")


def add_favour(tx: Tx, seat: int, card: str, reason: str) -> None:
    """'A fighter's third favour token makes it champion ... its dominus gains 1 influence' (p. 13)."""
    asset = tx.state.player(seat).asset(card)
    if asset is None or asset.champion:
        return
    tx.emit("FavourGained", seat=seat, card=card, reason=reason)
    if asset.favour + 1 >= 3:
        tx.emit("ChampionCrowned", seat=seat, card=card)
        gain_influence(tx, seat, 1, "champion_gained")

