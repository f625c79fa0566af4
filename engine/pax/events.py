"""Folding events into the state: ``apply`` is total and never validates.

Each event is a past-tense fact decided once by ``decide``.  Cards travel in events as
JSON card objects; ``apply`` moves the card with that id.  Drawing takes from the top of
the deck, pushing under appends: both are deterministic once the setup shuffle is known.

:class:`Recorder` lets ``decide`` fold as it goes: every recorded event is applied to a
working state at once, so the next rule sees the table exactly as a replay will.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from engine.core.records import evolve
from engine.core.types import Event
from engine.pax.card_set import Card, second_copy
from engine.pax.state import DESTINATIONS, PaxState, SetupChoice, find, replace_at, without

#: Every event type's schema version; bump one and add an upcaster when its data changes.
EVENT_VERSIONS: dict[str, int] = {}

_APPLY: dict[str, Callable[[PaxState, Mapping[str, Any]], PaxState]] = {}


def _folds(event_type: str, version: int = 1):
    def register(fn):
        _APPLY[event_type] = fn
        EVENT_VERSIONS[event_type] = version
        return fn
    return register


def apply_event(state: PaxState, event: Event) -> PaxState:
    """Fold one event; unknown types leave the state as it is."""
    fold = _APPLY.get(event.type)
    return state if fold is None else fold(state, event.data)


class Recorder:
    """The events decided so far, folded into ``state`` as they are recorded."""

    def __init__(self, state: PaxState) -> None:
        self.state = state
        self.events: list[Event] = []

    def record(self, event_type: str, data: Mapping[str, Any]) -> None:
        """Record and fold one event.  ``data`` becomes the event's own: every rule builds
        it afresh for the event and never changes it afterwards, so it is not copied
        (a mapping that is not a plain dict still is)."""
        event = Event(event_type, data if data.__class__ is dict else dict(data), EVENT_VERSIONS.get(event_type, 1))
        self.events.append(event)
        fold = _APPLY.get(event_type)
        if fold is not None:
            self.state = fold(self.state, event.data)


def _add_gold(state: PaxState, seat: int, amount: int) -> tuple[int, ...]:
    return replace_at(state.gold, seat, state.gold[seat] + amount)


# --- setup -----------------------------------------------------------------------------

@_folds("GameSetUp")
def _game_set_up(state: PaxState, data: Mapping[str, Any]) -> PaxState:
    outcome = data["outcome"]
    base = state.card_set.cards
    cards = base
    if data["extra_cards"]:
        second = second_copy(base)
        cards = base + tuple(second[i] for i in outcome["second_deck"][: data["extra_cards"]])
    deck = tuple(cards[i] for i in outcome["deck"])
    aside, deck = deck[: data["set_aside"]], deck[data["set_aside"]:]
    n = state.seats
    return evolve(
        state, phase="setup", start_seat=data["start_seat"], active_seat=data["start_seat"],
        deck=deck, set_aside=aside,
        legions=((),) * data["legions"], hands=((),) * n, gold=(data["start_aurei"],) * n,
        tableaux=((),) * n, limbo=((),) * n, setup_choices=(None,) * n, total_cards=len(cards),
    )


@_folds("RomeDealt")
def _rome_dealt(state: PaxState, data: Mapping[str, Any]) -> PaxState:
    k, h = len(data["open"]), len(data["hidden"])
    return evolve(state, rome_open=state.deck[:k], rome_hidden=state.deck[k:k + h], deck=state.deck[k + h:])


@_folds("StartCardsDrawn")
def _start_cards_drawn(state: PaxState, data: Mapping[str, Any]) -> PaxState:
    k = len(data["cards"])
    seat = data["seat"]
    return evolve(state, deck=state.deck[k:],
                   limbo=replace_at(state.limbo, seat, state.limbo[seat] + state.deck[:k]))


@_folds("StartCardChosen")
def _start_card_chosen(state: PaxState, data: Mapping[str, Any]) -> PaxState:
    choice = SetupChoice(keep=data["card"], push=data.get("push"))
    return evolve(state, setup_choices=replace_at(state.setup_choices, data["seat"], choice))


@_folds("StartCardsKept")
def _start_cards_kept(state: PaxState, data: Mapping[str, Any]) -> PaxState:
    hands, limbo, deck = state.hands, state.limbo, state.deck
    for entry in data["entries"]:
        seat = entry["seat"]
        seen = limbo[seat]
        to_hand = tuple(find(seen, i) for i in [entry["kept"], *entry.get("to_lay", [])])
        hands = replace_at(hands, seat, hands[seat] + to_hand)
        deck = deck + tuple(find(seen, i) for i in entry["pushed"])
        limbo = replace_at(limbo, seat, ())
    return evolve(state, hands=hands, limbo=limbo, deck=deck,
                   setup_choices=(None,) * state.seats)


# --- rounds and turns ------------------------------------------------------------------

@_folds("LegionsRefilled")
def _legions_refilled(state: PaxState, data: Mapping[str, Any]) -> PaxState:
    legions, deck = state.legions, state.deck
    for entry in data["cards"]:
        index = entry["legion"] - 1
        legions = replace_at(legions, index, legions[index] + deck[:1])
        deck = deck[1:]
    return evolve(state, legions=legions, deck=deck)


@_folds("RoundStarted")
def _round_started(state: PaxState, data: Mapping[str, Any]) -> PaxState:
    return evolve(state, phase="turn", round=data["round"], start_seat=data["start_seat"])


@_folds("TurnStarted")
def _turn_started(state: PaxState, data: Mapping[str, Any]) -> PaxState:
    return evolve(state, phase="turn", step="choose", active_seat=data["seat"], turn=data["turn"],
                   laid_this_turn=(), dest_left=(), batches_left=(), assigned=0)


@_folds("DeckExhaustedAureiTaken")
def _deck_exhausted(state: PaxState, data: Mapping[str, Any]) -> PaxState:
    return evolve(state, gold=_add_gold(state, data["seat"], data["aurei"]), step="buy")


@_folds("RomePeeked")
def _rome_peeked(state: PaxState, data: Mapping[str, Any]) -> PaxState:
    peeked = tuple(sorted(set(state.peeked) | {data["seat"]}))
    return evolve(state, peeked=peeked, gold=_add_gold(state, data["seat"], data["aurei"]), step="")


@_folds("CardsDrawn")
def _cards_drawn(state: PaxState, data: Mapping[str, Any]) -> PaxState:
    seat, k = data["seat"], len(data["cards"])
    changes: dict[str, Any] = {"dest_left": DESTINATIONS, "assigned": 0} if data.get("first") else {}
    return evolve(state, deck=state.deck[k:], step="draw",
                  limbo=replace_at(state.limbo, seat, state.limbo[seat] + state.deck[:k]),
                  batches_left=tuple(data["remaining_batches"]), **changes)


@_folds("CardAssigned")
def _card_assigned(state: PaxState, data: Mapping[str, Any]) -> PaxState:
    seat, card_id, to = data["seat"], data["card"]["id"], data["to"]
    card = find(state.limbo[seat], card_id)
    limbo = replace_at(state.limbo, seat, without(state.limbo[seat], card_id))
    changes: dict[str, Any] = {}
    if to == "hand":
        changes["hands"] = replace_at(state.hands, seat, state.hands[seat] + (card,))
    elif to == "legion":
        index = data["legion"] - 1
        changes["legions"] = replace_at(state.legions, index, state.legions[index] + (card,))
    else:
        changes["deck"] = state.deck + (card,)
    if not limbo[seat] and not state.batches_left:
        changes["step"] = "buy"
    return evolve(state, limbo=limbo, dest_left=tuple(d for d in state.dest_left if d != to),
                  assigned=state.assigned + 1, **changes)


@_folds("LegionBought")
def _legion_bought(state: PaxState, data: Mapping[str, Any]) -> PaxState:
    seat, index = data["seat"], data["legion"] - 1
    bought = state.legions[index]
    return evolve(state, legions=replace_at(state.legions, index, ()),
                   hands=replace_at(state.hands, seat, state.hands[seat] + bought),
                   gold=_add_gold(state, seat, -data["price"]), step="lay")


@_folds("PurchaseSkipped")
def _purchase_skipped(state: PaxState, data: Mapping[str, Any]) -> PaxState:
    return evolve(state, step="lay")


@_folds("CardLaid")
def _card_laid(state: PaxState, data: Mapping[str, Any]) -> PaxState:
    seat, card_id = data["seat"], data["card"]["id"]
    card: Card = find(state.hands[seat], card_id)
    changes: dict[str, Any] = {}
    if data["during"] == "turn":
        changes["laid_this_turn"] = state.laid_this_turn + (card,)
    elif data["during"] == "interrupt":
        changes.update(responders=state.responders[1:], window_laid=state.window_laid + (seat,),
                       window_answers=state.window_answers + 1)
    return evolve(state, hands=replace_at(state.hands, seat, without(state.hands[seat], card_id)),
                  tableaux=replace_at(state.tableaux, seat, state.tableaux[seat] + (card,)),
                  gold=_add_gold(state, seat, -data["cost"]), **changes)


@_folds("PrimusConspiratusMoved")
def _primus_moved(state: PaxState, data: Mapping[str, Any]) -> PaxState:
    return evolve(state, primus=data["to"])


@_folds("IncomeTaken")
def _income_taken(state: PaxState, data: Mapping[str, Any]) -> PaxState:
    return evolve(state, gold=_add_gold(state, data["seat"], data["aurei"]), step="")


@_folds("TurnEnded")
def _turn_ended(state: PaxState, data: Mapping[str, Any]) -> PaxState:
    return evolve(state, step="", laid_this_turn=(), dest_left=(), batches_left=())


@_folds("InterruptOpened")
def _interrupt_opened(state: PaxState, data: Mapping[str, Any]) -> PaxState:
    return evolve(state, phase="interrupt", interrupt_by=data["seat"],
                   responders=tuple(data["responders"]))


@_folds("InterruptPassed")
def _interrupt_passed(state: PaxState, data: Mapping[str, Any]) -> PaxState:
    return evolve(state, responders=state.responders[1:], window_answers=state.window_answers + 1)


@_folds("InterruptReopened")
def _interrupt_reopened(state: PaxState, data: Mapping[str, Any]) -> PaxState:
    return evolve(state, responders=tuple(data["responders"]))


@_folds("InterruptClosed")
def _interrupt_closed(state: PaxState, data: Mapping[str, Any]) -> PaxState:
    return evolve(state, phase="turn", interrupt_by=None, responders=(), window_laid=(), window_answers=0)


@_folds("LegionCleared")
def _legion_cleared(state: PaxState, data: Mapping[str, Any]) -> PaxState:
    index = data["legion"] - 1
    return evolve(state, rome_open=state.rome_open + state.legions[index],
                   legions=replace_at(state.legions, index, ()))


@_folds("RoundEnded")
def _round_ended(state: PaxState, data: Mapping[str, Any]) -> PaxState:
    return evolve(state, step="")


@_folds("GameEnded")
def _game_ended(state: PaxState, data: Mapping[str, Any]) -> PaxState:
    return evolve(state, phase="ended", step="", end_reason=data["reason"])
