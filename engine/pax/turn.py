"""The active player's turn up to laying: draw or peek, place the drawn cards, buy.

Rulebook, Play: "The active player carries out 3 actions: he must draw cards, he may buy
cards, he may lay cards and take his income -- or instead he may look at the 3 hidden cards
[of Rome]; he gets 2 aurei and takes no other action."  Laying and income live in
:mod:`engine.pax.laying`.
"""

from __future__ import annotations

from typing import Optional

from engine.core.errors import BadArguments, RuleViolation
from engine.core.types import Command, Decision
from engine.pax import errors
from engine.pax.events import Recorder
from engine.pax.state import DESTINATIONS, ROMAN, PaxState, find, legion_value, require_step, symbols

PEEK_AUREI = 2
#: Rulebook, End of the game: "players who cannot draw a card get 2 aurei before their actions".
DECK_EXHAUSTED_AUREI = 2
CARDS_PER_DRAW = 3


def peek_allowed(state: PaxState) -> bool:
    """Rulebook, Solo game: "There is no looking at Rome's hidden cards"."""
    return not state.solo


# --- choose: draw or peek --------------------------------------------------------------

def choose_decision(state: PaxState) -> Decision:
    seat = state.active_seat
    draw = Command(seat, "draw_cards", {})
    peek = Command(seat, "peek_rome", {})
    return Decision(
        id=f"turn:{state.turn}", seat=seat, mode="turn",
        prompt="Draw three cards, or instead look at Rome's hidden cards and take 2 aurei.",
        prompt_key="pax.choose_action", prompt_args={"turn": state.turn, "round": state.round},
        options=(draw, peek), default=draw,
    )


def peek_rome(rec: Recorder, command: Command) -> None:
    """Rulebook, Play: "...look at the 3 hidden cards that stand for Rome's power [...] he gets
    2 aurei but takes no other action"."""
    state = rec.state
    require_step(state, command.seat, "choose")
    if not peek_allowed(state):
        raise errors.PeekNotAllowed("the solo game has no look at Rome's hidden cards")
    rec.record("RomePeeked", {"seat": command.seat, "cards": [c.to_json() for c in state.rome_hidden],
                              "aurei": PEEK_AUREI})
    rec.record("TurnEnded", {"seat": command.seat, "turn": state.turn})


# --- draw ------------------------------------------------------------------------------

def draw_batches(religion: int, available: int) -> tuple[int, ...]:
    """How the (up to) three cards are drawn (Religion).

    Rulebook, Religion: "With at least 3 religion symbols a player may draw two cards at once
    and look at them, then place one of them (under a legion or the deck), and only then draw
    the third [...] with at least 6 he may draw all 3 at once."  Seeing more never hurts, so
    the power is always used.  With fewer than three cards left, the player draws what there is."""
    n = min(CARDS_PER_DRAW, available)
    if n == 0:
        return ()
    if religion >= 6:
        return (n,)
    if religion >= 3:
        return (2, 1) if n == 3 else (n,)
    return (1,) * n


def begin_drawing(rec: Recorder) -> None:
    state = rec.state
    seat = state.active_seat
    plan = draw_batches(symbols(state.tableaux[seat], "religion"), len(state.deck))
    _draw_batch(rec, plan, first=True)


def _draw_batch(rec: Recorder, plan: tuple[int, ...], *, first: bool) -> None:
    state = rec.state
    rec.record("CardsDrawn", {
        "seat": state.active_seat, "cards": [c.to_json() for c in state.deck[: plan[0]]],
        "remaining_batches": list(plan[1:]), "first": first,
    })


def draw_cards(rec: Recorder, command: Command) -> None:
    """Rulebook, Drawing cards: "The player draws 3 cards from the deck one after another"."""
    require_step(rec.state, command.seat, "choose")
    begin_drawing(rec)


def hand_closed(state: PaxState) -> bool:
    """During the religion look-ahead (two cards seen, the third still to come) the first card
    placed must go to a legion or under the deck."""
    return bool(state.batches_left) and len(state.limbo[state.active_seat]) >= 2


def open_destinations(state: PaxState) -> list[str]:
    """Where the next drawn card may go now."""
    return [d for d in DESTINATIONS
            if d in state.dest_left and not (d == "hand" and hand_closed(state))]


def _assign_commands(state: PaxState, card_id: str, open_: list[str]) -> list[Command]:
    seat = state.active_seat
    out = []
    for dest in open_:
        if dest == "legion":
            out += [Command(seat, "assign_card", {"card": card_id, "to": "legion", "legion": n})
                    for n in range(1, len(state.legions) + 1)]
        else:
            out.append(Command(seat, "assign_card", {"card": card_id, "to": dest}))
    return out


def assign_decision(state: PaxState) -> Decision:
    """Rulebook, Drawing cards: "...and decides for each at once: one card into his hand, one
    under any legion card, one back under the deck, in any order".

    On a deadline the first drawn card goes to the hand, else under the deck, else under legion I.
    Not private: how many answers there are follows from how many cards were drawn and which
    destinations are used, which the table sees."""
    seat = state.active_seat
    drawn = state.limbo[seat]
    open_ = open_destinations(state)
    options = tuple([cmd for card in drawn for cmd in _assign_commands(state, card.id, open_)])
    fallback = next((d for d in ("hand", "deck") if d in open_), "legion")
    default_args = {"card": drawn[0].id, "to": fallback}
    if fallback == "legion":
        default_args["legion"] = 1
    closed = hand_closed(state)
    return Decision(
        id=f"draw:{state.turn}:{state.assigned}", seat=seat, mode="turn",
        prompt=("Place a drawn card: one goes to your hand, one under a legion, one under the deck"
                + (" (the hand only once you have seen the third card)." if closed else ".")),
        prompt_key="pax.assign_card",
        prompt_args={"destinations": open_, "hand_closed": closed},
        options=options, default=Command(seat, "assign_card", default_args),
        context={"drawn": [c.to_json() for c in drawn], "destinations": open_,
                 "still_to_draw": sum(state.batches_left)},
    )


def assign_problem(state: PaxState, args) -> Optional[RuleViolation]:
    seat = state.active_seat
    if find(state.limbo[seat], args.get("card")) is None:
        return errors.CardNotAvailable(f"{args.get('card')!r} is not among the cards you drew")
    to = args.get("to")
    if to not in DESTINATIONS:
        return BadArguments(f"'to' must be one of {', '.join(DESTINATIONS)}")
    if to not in state.dest_left:
        return errors.DestinationUsed(f"a drawn card already went to the {to} this turn")
    if to == "hand" and hand_closed(state):
        return errors.HandNotYetAllowed("religion look-ahead: place one of the two cards under a "
                                        "legion or the deck before you draw the third")
    if to == "legion":
        legion = args.get("legion")
        if type(legion) is not int or not 1 <= legion <= len(state.legions):
            return errors.NoSuchLegion(f"legion must be 1..{len(state.legions)}")
    return None


def assign_card(rec: Recorder, command: Command) -> None:
    """Place one drawn card; draw the next batch as soon as one card of this batch is placed."""
    state = rec.state
    require_step(state, command.seat, "draw")
    problem = assign_problem(state, command.args)
    if problem:
        raise problem
    card = find(state.limbo[command.seat], command.args["card"])
    data = {"seat": command.seat, "card": card.to_json(), "to": command.args["to"]}
    if data["to"] == "legion":
        data["legion"] = command.args["legion"]
    rec.record("CardAssigned", data)
    if rec.state.batches_left:
        _draw_batch(rec, rec.state.batches_left, first=False)


# --- buy -------------------------------------------------------------------------------

def buy_price(state: PaxState, seat: int, legion: int) -> int:
    """Rulebook, Buying cards: "He pays the price of these cards (the sum of all printed aurei)";
    Wealth: "with at least 3 wealth symbols he saves one aureus when buying a group of cards,
    with 6 two, and so on" -- never below zero."""
    discount = symbols(state.tableaux[seat], "wealth") // 3
    return max(0, legion_value(state.legions[legion - 1]) - discount)


def buy_problem(state: PaxState, seat: int, legion: object) -> Optional[RuleViolation]:
    if type(legion) is not int or not 1 <= legion <= len(state.legions):
        return errors.NoSuchLegion(f"legion must be 1..{len(state.legions)}")
    if not state.legions[legion - 1]:
        return errors.EmptyLegion(f"no cards lie under legion {ROMAN[legion - 1]}")
    price = buy_price(state, seat, legion)
    if state.gold[seat] < price:
        return errors.NotEnoughAurei(f"the cards under legion {ROMAN[legion - 1]} cost {price} "
                                      f"{'aureus' if price == 1 else 'aurei'}")
    return None


def buy_decision(state: PaxState) -> Decision:
    """Rulebook, Buying cards: "A player who buys always buys all the cards under one of the
    legion cards" -- one legion's cards per turn, or none.

    Private: which legions are affordable follows from the player's hidden aurei."""
    seat = state.active_seat
    skip = Command(seat, "skip_buy", {})
    # each legion with cards, priced once: those the player can pay for are the ones buy_problem allows
    prices = {n: buy_price(state, seat, n) for n in range(1, len(state.legions) + 1) if state.legions[n - 1]}
    options = tuple(
        Command(seat, "buy_legion", {"legion": n}) for n, price in prices.items() if price <= state.gold[seat]
    ) + (skip,)
    return Decision(
        id=f"buy:{state.turn}", seat=seat, mode="turn",
        prompt="Buy all the cards under one legion, or buy nothing.",
        prompt_key="pax.buy", prompt_args={},
        options=options, default=skip, private=True,
        context={"prices": {str(n): price for n, price in prices.items()}},
    )


def buy_legion(rec: Recorder, command: Command) -> None:
    state, seat = rec.state, command.seat
    require_step(state, seat, "buy")
    legion = command.args.get("legion")
    problem = buy_problem(state, seat, legion)
    if problem:
        raise problem
    rec.record("LegionBought", {
        "seat": seat, "legion": legion, "cards": [c.to_json() for c in state.legions[legion - 1]],
        "price": buy_price(state, seat, legion),
    })


def skip_buy(rec: Recorder, command: Command) -> None:
    require_step(rec.state, command.seat, "buy")
    rec.record("PurchaseSkipped", {"seat": command.seat})
