"""Gold, influence and property movements, with the side rules that ride on them.

- 'A dominus who gains a champion ... gains 1 influence; who loses one for any reason
  loses 1 influence' (rulebook p. 13).
- 'Reactions ... when a dominus is left without gold' (p. 7, Destitute!): a dominus whose
  public gold drops to 0 opens the ``gold_emptied`` reaction window at once.
- Influence never drops below 0 nor climbs above the track's end.
"""

from __future__ import annotations

from engine.spartacus.game.state import MAX_INFLUENCE, GameState
from engine.spartacus.game.tx import Tx


def _emptied(tx: Tx, seat: int, before: int) -> None:
    """Hidden gold (the auctions) is checked when it is revealed, not here."""
    from engine.spartacus.game import reactions  # reactions pay through the ledger

    p = tx.state.player(seat)
    if before > 0 and p.gold == 0 and not p.gold_hidden:
        reactions.left_without_gold(tx, seat)


def gain_gold(tx: Tx, seat: int, amount: int, reason: str) -> None:
    """Gold from the bank."""
    if amount > 0:
        tx.emit("GoldGained", seat=seat, amount=amount, reason=reason)


def pay_gold(tx: Tx, seat: int, amount: int, reason: str) -> int:
    """Pay up to ``amount`` to the bank; return what was paid."""
    before = tx.state.player(seat).gold
    paid = min(amount, before)
    if paid > 0:
        tx.emit("GoldPaid", seat=seat, amount=paid, reason=reason)
        _emptied(tx, seat, before)
    return paid


def give_gold(tx: Tx, frm: int, to: int, amount: int, reason: str) -> int:
    """'Gold can change hands between two players at any time' (p. 3)."""
    before = tx.state.player(frm).gold
    given = min(amount, before)
    if given > 0 and frm != to:
        tx.emit("GoldGiven", **{"from": frm, "to": to, "amount": given, "reason": reason})
        _emptied(tx, frm, before)
    return given


def gain_influence(tx: Tx, seat: int, amount: int, reason: str) -> None:
    """Influence up, never past the track's end."""
    now = tx.state.player(seat).influence
    real = min(amount, MAX_INFLUENCE - now)
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


def ready_count(state: GameState, seat: int, kind: str) -> int:
    """Ready cards of ``kind``; a ready slave that 'counts as two slaves' counts twice."""
    total = 0
    for a in state.player(seat).of_kind(kind, ready_only=True):
        weight = 1
        if a.kind == "slave" and kind == "slave":
            for ab in state.cards.market_card(a.id).abilities:
                if ab.op == "counts_as_slaves":
                    weight = max(weight, ab.amount or 2)
        total += weight
    return total
