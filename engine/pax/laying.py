"""Laying cards from hand, the army/fleet limit, primus conspiratus, and income."""

from __future__ import annotations

from typing import Mapping, Optional

from engine.core.errors import RuleViolation
from engine.core.types import Command, Decision
from engine.pax import errors
from engine.pax.card_set import Card
from engine.pax.events import Recorder
from engine.pax.state import PaxState, find, require_step, row_length, symbol_counts, symbols

#: Rulebook, Laying cards + income: "A player who laid no new cards gets 2 aurei base income".
BASE_INCOME = 2
#: Rulebook, 5-8 players: the others lay "for a fixed price of one aureus".
INTERRUPT_LAY_COST = 1


def lay_cost(already_laid: int) -> int:
    """Rulebook, Laying cards + income: "The first card is free, the second costs 1 aureus,
    the third 2, the fourth 3 and so on"."""
    return already_laid


def limit_problem(counts: Mapping[str, int], card: Card) -> Optional[RuleViolation]:
    """Rulebook, Land / Intrigue: "Land and intrigue are not added: only the row with the most
    symbols sets the number of armies and fleets allowed."  After laying, army symbols and fleet
    symbols must each stay within max(land, intrigue) symbols.  Bonus armies/fleets count only
    at scoring, never here.  ``counts``: the symbols of the tableau the card joins, per category
    (:func:`~engine.pax.state.symbol_counts`)."""
    if not over_limit(counts, card):
        return None
    cap = max(counts["land"], counts["intrigue"])
    after = counts[card.category] + card.symbols
    error = errors.ArmyLimitExceeded if card.category == "army" else errors.FleetLimitExceeded
    return error(f"{after} {card.category} symbols would exceed your limit of {cap} "
                 f"(the larger of your land and intrigue symbols)")


def over_limit(counts: Mapping[str, int], card: Card) -> bool:
    """Whether laying ``card`` breaks the army or fleet limit (:func:`limit_problem`)."""
    category = card.category
    if category != "army" and category != "fleet":
        return False
    return counts[category] + card.symbols > max(counts["land"], counts["intrigue"])


def layable(state: PaxState, seat: int, cost: int) -> tuple[list[Card], int, int]:
    """The cards of ``seat``'s hand it may lay for ``cost`` aurei now, and how many of the
    others are refused for want of aurei and for the army or fleet limit: what
    :func:`lay_problems` tells, without making the refusals (asked for every decision to
    lay, where only the legal cards and the numbers are wanted)."""
    hand = state.hands[seat]
    if state.gold[seat] < cost:
        return [], len(hand), 0
    counts = symbol_counts(state.tableaux[seat])
    legal = [c for c in hand if not over_limit(counts, c)]
    return legal, 0, len(hand) - len(legal)


def lay_problem(state: PaxState, seat: int, card_id: object, cost: int) -> Optional[RuleViolation]:
    """Why ``seat`` may not lay ``card_id`` for ``cost`` aurei now, or ``None``."""
    card = find(state.hands[seat], card_id)
    if card is None:
        return errors.CardNotAvailable(f"{card_id!r} is not in your hand")
    return _held_card_problem(state, seat, card, cost, symbol_counts(state.tableaux[seat]))


def lay_problems(state: PaxState, seat: int, cost: int) -> dict[str, Optional[RuleViolation]]:
    """:func:`lay_problem` of every card in ``seat``'s hand, the tableau's symbols counted once."""
    counts = symbol_counts(state.tableaux[seat])
    return {c.id: _held_card_problem(state, seat, c, cost, counts) for c in state.hands[seat]}


def _held_card_problem(state: PaxState, seat: int, card: Card, cost: int,
                       counts: Mapping[str, int]) -> Optional[RuleViolation]:
    if state.gold[seat] < cost:
        return errors.NotEnoughAurei(f"laying this card costs {cost} {'aureus' if cost == 1 else 'aurei'}")
    return limit_problem(counts, card)


def settle_primus(rec: Recorder, seat: int) -> None:
    """Rulebook, Intrigue: "The player with the most intrigue takes primus conspiratus. It stays
    until another player has more intrigue; then it changes hands at once" -- counted in
    symbols, checked after every card ``seat`` lays."""
    state = rec.state
    mine = symbols(state.tableaux[seat], "intrigue")
    holder = state.primus
    if mine == 0 or holder == seat:
        return
    if holder is None or mine > symbols(state.tableaux[holder], "intrigue"):
        rec.record("PrimusConspiratusMoved", {"from": holder, "to": seat})


def income(tableau: tuple[Card, ...], laid: tuple[Card, ...]) -> tuple[int, str]:
    """Income after laying, and why.

    Rulebook, Laying cards + income: "as many aurei as there are cards in the longest category
    row he has just extended (exception: senator and intrigue)" -- so the senator and intrigue
    rows never count as the extended row.  Senator: "at least one senator laid this round raises
    the income by one aureus, however many".  Intrigue: "no income if he laid at least one
    intrigue".  No card laid: 2 aurei base income."""
    if not laid:
        return BASE_INCOME, "base"
    if any(c.category == "intrigue" for c in laid):
        return 0, "intrigue"
    rows = {c.category for c in laid} - {"senator", "intrigue"}
    longest = max((row_length(tableau, category) for category in rows), default=0)
    senator = 1 if any(c.category == "senator" for c in laid) else 0
    return longest + senator, "laid"


def lay_decision(state: PaxState) -> Decision:
    """The laying step: lay one more card, or stop and take income.

    Private: which cards may be laid follows from the hand and aurei, so stopping is asked
    even when it is the only answer -- and then the player is told why (``blocked``: how
    many cards of the hand cost more than the seat's aurei, how many would break the army or
    fleet limit), which only the seat itself reads."""
    seat = state.active_seat
    laid = len(state.laid_this_turn)
    cost = lay_cost(laid)
    stop = Command(seat, "take_income", {})
    legal, short_of_aurei, over = layable(state, seat, cost)
    options = tuple([Command(seat, "lay_card", {"card": c.id}) for c in legal])
    options += (stop,)
    blocked = {"hand": len(state.hands[seat]), "aurei": short_of_aurei, "limit": over}
    price = "is free" if cost == 0 else f"costs {cost} {'aureus' if cost == 1 else 'aurei'}"
    prompt = (f"Lay a card from your hand (this one {price}), or stop laying and take your income."
              if len(options) > 1 else
              "You have no card to lay: stop laying and take your income." if not state.hands[seat] else
              f"None of your cards can be laid now (the next one {price}): stop laying and take your income.")
    return Decision(
        id=f"lay:{state.turn}:{laid}", seat=seat, mode="turn",
        prompt=prompt,
        prompt_key="pax.lay", prompt_args={"cost": cost, "laid": laid, "can_lay": len(options) > 1, **blocked},
        options=options, default=stop, private=True,
        context={"cost": cost, "income_now": income(state.tableaux[seat], state.laid_this_turn)[0]},
    )


def lay_card(rec: Recorder, command: Command) -> None:
    """Lay one card from hand in the active turn, paying for it, then settle primus conspiratus."""
    state, seat = rec.state, command.seat
    require_step(state, seat, "lay")
    cost = lay_cost(len(state.laid_this_turn))
    problem = lay_problem(state, seat, command.args.get("card"), cost)
    if problem:
        raise problem
    card = find(state.hands[seat], command.args["card"])
    rec.record("CardLaid", {"seat": seat, "card": card.to_json(), "cost": cost, "during": "turn"})
    settle_primus(rec, seat)


def take_income(rec: Recorder, command: Command) -> bool:
    """Stop laying and take income; the turn ends.  Returns whether a senator was laid."""
    state, seat = rec.state, command.seat
    require_step(state, seat, "lay")
    aurei, basis = income(state.tableaux[seat], state.laid_this_turn)
    senator_laid = any(c.category == "senator" for c in state.laid_this_turn)
    rec.record("IncomeTaken", {"seat": seat, "aurei": aurei, "basis": basis})
    rec.record("TurnEnded", {"seat": seat, "turn": state.turn})
    return senator_laid

