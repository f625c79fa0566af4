"""Upkeep: ready cards, heal the injured, settle accounts -- simultaneously for everyone.

- 'At the start of upkeep all uninjured exhausted property cards are readied' (p. 4).
- 'For every exhausted gladiator or slave with an injury marker roll a die: on 4, 5 or 6
  the marker is removed and the card readied; on 2 or 3 it stays injured this round; on 1
  it dies and is discarded' (p. 4).  'Some cards, such as the Medicus, let you reroll a
  failed healing roll' (p. 4).
- 'A player gains 1 gold for every ready slave and pays 1 gold for every ready gladiator.
  A player who cannot or will not pay discards one gladiator for every gold not paid'
  (p. 4).
"""

from __future__ import annotations

from engine.core.types import Command, Decision
from engine.spartacus.game import ledger
from engine.spartacus.game.errors import IllegalCommand, NotEnoughGold
from engine.spartacus.game.state import GameState, ready_count
from engine.spartacus.game.tx import Tx


def advance(tx: Tx) -> bool:
    """Ready cards, heal the injured, settle accounts (p. 4), each simultaneously for everyone."""
    s = tx.state
    if s.stage == "round_start":
        tx.emit("NewRoundStarted", round=s.round + 1)
        return True
    if s.stage == "upkeep_ready":
        for p in s.players:
            cards = [a.id for a in p.assets if a.exhausted and not a.injured]
            if cards:
                tx.emit("CardsReadied", seat=p.seat, cards=cards)
        tx.emit("StageChanged", stage="upkeep_heal")
        return True
    if s.stage == "upkeep_heal":
        injured = injured_cards(s)
        if injured:
            tx.request_chance("heal", [("rolls", "dice", len(injured))], cards=[c for _, c in injured])
        else:
            tx.emit("StageChanged", stage="upkeep_accounts")
        return True
    if s.stage == "upkeep_reroll":
        if s.sealed is None:
            seats = [seat for seat in range(s.seats) if reroll_options(s, seat)]
            if seats:
                tx.emit("SealedOpened", key=f"heal_reroll:{s.round}", seats=seats)
                return True
            _apply_healing(tx)
            return True
        if s.sealed.complete:
            answers = {seat: s.sealed.answer(seat) for seat in s.sealed.seats}
            tx.emit("SealedRevealed", key=s.sealed.key, answers={str(k): v for k, v in answers.items()})
            chosen = [(seat, a["card"], a["by"]) for seat, a in answers.items() if a.get("card")]
            for seat, _card, by in chosen:
                m = s.cards.market_card(by)
                if any(ab.op == "reroll_healing" and ab.exhaust for ab in m.abilities):
                    tx.emit("CardExhausted", seat=seat, card=by, reason="reroll_healing")
            if chosen:
                tx.request_chance("heal_reroll", [("rolls", "dice", len(chosen))], cards=[c for _, c, _ in chosen])
            else:
                _apply_healing(tx)
            return True
        return False
    if s.stage == "upkeep_accounts":
        if s.sealed is None:
            due = []
            for seat in s.clockwise(s.host):
                bill = account_bill(s, seat)
                if bill < 0:
                    ledger.gain_gold(tx, seat, -bill, "upkeep")
                elif bill > 0:
                    due.append(seat)
            if due:
                tx.emit("SealedOpened", key=f"accounts:{s.round}", seats=due)
            else:
                tx.emit("StageChanged", stage="upkeep_done")
            return True
        if s.sealed.complete:
            answers = {seat: s.sealed.answer(seat) for seat in s.sealed.seats}
            tx.emit("SealedRevealed", key=s.sealed.key, answers={str(k): v for k, v in answers.items()})
            for seat in s.sealed.seats:
                _settle(tx, seat, account_bill(s, seat), list(answers[seat].get("release", [])))
            tx.emit("StageChanged", stage="upkeep_done")
            return True
        return False
    return False


def _settle(tx: Tx, seat: int, bill: int, release: list[str]) -> None:
    """'For every gold not paid, one gladiator must be discarded' (p. 4): the gladiators
    chosen go, the rest of the bill is paid in full from the gold set aside for it; should
    the purse still fall short (a card took gold meanwhile), one more ready gladiator goes
    for each gold missing, the cheapest first."""
    released = [card for card in release if tx.state.player(seat).asset(card) is not None]
    for card in released:
        ledger.discard_property(tx, seat, card, "released")
    owed = max(0, bill - len(release))
    paid = min(owed, tx.state.player(seat).gold)
    if paid:
        ledger.pay_in_full(tx, seat, paid, "upkeep")
    unpaid = owed - paid
    if unpaid:
        s = tx.state
        glads = sorted(s.player(seat).of_kind("gladiator", ready_only=True),
                       key=lambda a: (s.cards.market_card(a.id).value, a.id))
        for a in glads[:unpaid]:
            ledger.discard_property(tx, seat, a.id, "released")


def injured_cards(s: GameState) -> list[tuple[int, str]]:
    """'Every exhausted gladiator or slave with an injury marker' rolls to heal (p. 4)."""
    return [(p.seat, a.id) for p in s.players for a in p.assets if a.injured]


def healing_rolled(tx: Tx, cards: list[str], rolls: list[int], rerolled: bool) -> None:
    """'4, 5 or 6: healed and readied; 2 or 3: stays injured; 1: dies' (p. 4) -- after any rerolls."""
    for card, roll in zip(cards, rolls):
        tx.emit("HealingRolled", seat=tx.state.owner_of(card), card=card, roll=roll, rerolled=rerolled)
    if rerolled:
        _apply_healing(tx)
    else:
        tx.emit("StageChanged", stage="upkeep_reroll")


def _apply_healing(tx: Tx) -> None:
    for card, roll in tx.state.heal_rolls:
        seat = tx.state.owner_of(card)
        if seat < 0:
            continue
        if roll >= 4:
            tx.emit("CardHealed", seat=seat, card=card)
        elif roll == 1:
            ledger.discard_property(tx, seat, card, "died_of_wounds")
    tx.emit("StageChanged", stage="upkeep_accounts")


def reroll_options(s: GameState, seat: int) -> list[Command]:
    """One failed healing roll rerolled per ready card with a healing reroll (Medicus)."""
    p = s.player(seat)
    healers = [a.id for a in p.assets if a.ready and a.kind != "guard"
               and any(ab.op == "reroll_healing" for ab in s.cards.market_card(a.id).abilities)]
    failed = [c for c, r in s.heal_rolls if r < 4 and p.asset(c) is not None]
    if not healers or not failed:
        return []
    return [Command(seat, "reroll_healing", {"card": c, "by": healers[0]}) for c in failed]


def account_bill(s: GameState, seat: int) -> int:
    """Gold owed: ready gladiators minus ready slaves (negative: income)."""
    paying = [a for a in s.player(seat).of_kind("gladiator", ready_only=True)
              if not any(ab.op == "no_upkeep" for ab in s.cards.market_card(a.id).abilities)]
    return len(paying) - ready_count(s, seat, "slave")


def decisions(s: GameState) -> list[Decision]:
    """The secret simultaneous choices of upkeep: healing rerolls, and gladiators released instead of paid."""
    if s.sealed is None:
        return []
    out = []
    for seat in s.sealed.seats:
        if s.sealed.answered(seat):
            continue
        if s.stage == "upkeep_reroll":
            none = Command(seat, "reroll_healing", {"card": "", "by": ""})
            out.append(Decision(
                id=f"heal_reroll:{s.round}:{seat}", seat=seat, mode="simultaneous", group=s.sealed.key,
                prompt="Reroll a failed healing roll?", default=none,
                options=tuple([none] + reroll_options(s, seat)), prompt_key="heal_reroll",
                context={"rolls": {c: r for c, r in s.heal_rolls if s.player(seat).asset(c) is not None}},
            ))
        elif s.stage == "upkeep_accounts":
            bill = account_bill(s, seat)
            gold = s.player(seat).free_gold
            glads = sorted(a.id for a in s.player(seat).of_kind("gladiator", ready_only=True))
            minimum = max(0, bill - gold)
            cheapest = sorted(glads, key=lambda c: (s.cards.market_card(c).value, c))[:minimum]
            out.append(Decision(
                id=f"accounts:{s.round}:{seat}", seat=seat, mode="simultaneous", group=s.sealed.key,
                prompt=f"Upkeep: pay {bill} gold, or release one gladiator for each gold not paid.",
                command_type="settle_accounts", default=Command(seat, "settle_accounts", {"release": cheapest}),
                schema={
                    "type": "object", "additionalProperties": False, "required": ["release"],
                    "properties": {"release": {
                        "type": "array", "uniqueItems": True, "minItems": minimum, "maxItems": bill,
                        "items": {"type": "string", "enum": glads},
                    }},
                },
                prompt_key="accounts", prompt_args={"bill": bill},
            ))
    return out


def settle_accounts(tx: Tx, seat: int, release: list[str]) -> None:
    """'Pay 1 gold per ready gladiator ... or discard a gladiator for every gold not paid' (p. 4)."""
    s = tx.state
    bill = account_bill(s, seat)
    if len(release) > bill:
        raise IllegalCommand("release at most one gladiator per gold owed")
    if bill - len(release) > s.player(seat).free_gold:
        raise NotEnoughGold(f"pay {bill - len(release)} gold or release more gladiators")
    # 'I pay': the gold is set aside until everyone's choice is revealed
    tx.emit("SealedAnswered", seat=seat, answer={"release": list(release)}, commit=max(0, bill - len(release)))


def reroll_healing(tx: Tx, seat: int, card: str, by: str) -> None:
    """'The Medicus lets you reroll a failed healing roll' (p. 4): a secret choice, revealed with the others'."""
    tx.emit("SealedAnswered", seat=seat, answer={"card": card, "by": by})
