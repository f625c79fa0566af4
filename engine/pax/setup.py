"""Setting the table: the shuffle (the game's only chance), Rome, aurei, and the start hands.

Choosing the card to keep is a simultaneous secret decision of all seats: each choice is
recorded as it comes, and the cards are pushed under the deck together once every seat has
chosen, in order from the start player clockwise.
"""

from __future__ import annotations

from itertools import permutations
from typing import Optional

from engine.core.chance import ChanceRequest, Pick, Shuffle, check_outcome
from engine.core.errors import BadArguments
from engine.core.types import Command, Decision
from engine.pax import errors
from engine.pax.events import Recorder
from engine.pax.laying import settle_primus
from engine.pax.state import PaxState, clockwise_from, find
from engine.pax.table import START_AUREI, table_config

SETUP_CHANCE_ID = "setup"


def setup_request(state: PaxState) -> ChanceRequest:
    """Rulebook, Preparation: "The 74 property cards are shuffled well [...] The player most
    ready for a revolt becomes start player" -- read as a random pick.  5-8 players: "one full
    deck + 15/30/45/60 more cards drawn at random from the second deck; all cards are shuffled
    together": a shuffle of the second deck picks the extra cards (its first ones), a shuffle
    of the combined deck orders them."""
    config = table_config(state.seats, state.solo_level)
    base = len(state.card_set.cards)
    draws: dict = {"deck": Shuffle(base + config.extra_cards)}
    if config.extra_cards:
        draws["second_deck"] = Shuffle(base)
    if state.seats > 1:
        draws["start"] = Pick(state.seats)
    return ChanceRequest(SETUP_CHANCE_ID, draws, reason="shuffle the property cards and choose the start player")


def resolve_setup(rec: Recorder, command: Command) -> None:
    """Record the shuffle, then deal.  Rulebook, Preparation: "3 cards are drawn and laid face
    down above the legions [...] each player gets 5 aurei [...] the start player draws 2 cards,
    each following player clockwise one more"."""
    state = rec.state
    if state.phase != "shuffle":
        raise errors.WrongStep("the cards have already been shuffled")
    request = setup_request(state)
    if command.args.get("id") != request.id:
        raise BadArguments(f"no chance {command.args.get('id')!r} is waiting; expected {request.id!r}")
    outcome = check_outcome(request, command.args.get("outcome"))
    config = table_config(state.seats, state.solo_level)
    start = outcome.get("start", 0)
    rec.record("GameSetUp", {
        "chance": request.id, "outcome": outcome, "start_seat": start, "start_aurei": START_AUREI,
        "legions": config.legions, "set_aside": config.set_aside, "extra_cards": config.extra_cards,
    })
    deck = rec.state.deck
    rec.record("RomeDealt", {
        "open": [c.to_json() for c in deck[: config.rome_open]],
        "hidden": [c.to_json() for c in deck[config.rome_open: config.rome_open + config.rome_hidden]],
    })
    for position, seat in enumerate(clockwise_from(rec.state, start)):
        count = config.start_draws[position]
        rec.record("StartCardsDrawn", {"seat": seat, "cards": [c.to_json() for c in rec.state.deck[:count]]})


def _lays_at_start(state: PaxState) -> int:
    return table_config(state.seats, state.solo_level).start_lays


def keep_options(state: PaxState, seat: int) -> tuple[Command, ...]:
    """Every legal start-hand choice of ``seat``: a card to keep, and for solo levels 3-5 also
    the card to push under (the rest is laid at once)."""
    cards = state.limbo[seat]
    if _lays_at_start(state):
        return tuple(Command(seat, "keep_card", {"card": k.id, "push": p.id})
                     for k, p in permutations(cards, 2))
    return tuple(Command(seat, "keep_card", {"card": c.id}) for c in cards)


def keep_decisions(state: PaxState) -> tuple[Decision, ...]:
    """One secret decision per seat that has not chosen yet (group ``setup-keep``)."""
    out = []
    lays = _lays_at_start(state)
    for seat in range(state.seats):
        if state.setup_choices[seat] is not None or not state.limbo[seat]:
            continue
        options = keep_options(state, seat)
        count = len(state.limbo[seat])
        if lays:
            prompt = (f"You were dealt {count} cards: keep one, push one under the deck, "
                      f"and lay the other {lays} at once.")
        else:
            prompt = f"You drew {count} cards: keep one; the rest go back under the deck."
        out.append(Decision(
            id=f"keep:{seat}", seat=seat, mode="simultaneous", group="setup-keep",
            prompt=prompt, prompt_key="pax.setup_keep",
            prompt_args={"count": count, "lay": lays},
            options=options, default=options[0], private=True,
            context={"cards": [c.to_json() for c in state.limbo[seat]]},
        ))
    return tuple(out)


def keep_card(rec: Recorder, command: Command) -> bool:
    """Record one seat's secret choice.  Rulebook, Preparation: "The players look at the cards
    drawn, each keeps one and pushes the rest back under the deck".  Returns True when every
    seat has now chosen."""
    state, seat = rec.state, command.seat
    if state.phase != "setup":
        raise errors.WrongStep("start hands are only chosen at the start of the game")
    if not 0 <= seat < state.seats or not state.limbo[seat]:
        raise errors.NotYourTurn(f"seat {seat} has no start cards to choose from")
    if state.setup_choices[seat] is not None:
        raise errors.AlreadyChosen("you have already chosen your start card")
    cards = state.limbo[seat]
    keep = find(cards, command.args.get("card"))
    if keep is None:
        raise errors.CardNotAvailable(f"{command.args.get('card')!r} is not among your start cards")
    push: Optional[str] = None
    if _lays_at_start(state):
        pushed = find(cards, command.args.get("push"))
        if pushed is None or pushed.id == keep.id:
            raise errors.BadSetupChoice("name a second, different start card to push under the deck")
        push = pushed.id
    elif "push" in command.args:
        raise errors.BadSetupChoice("only the solo levels 3-5 name a card to push under")
    data = {"seat": seat, "card": keep.id}
    if push is not None:
        data["push"] = push
    rec.record("StartCardChosen", data)
    return all(c is not None for s, c in enumerate(rec.state.setup_choices) if rec.state.limbo[s])


def reveal_start_cards(rec: Recorder) -> None:
    """Carry out every seat's choice together, from the start player clockwise.

    Rulebook, Solo game, levels 3-5: "of which he lays one (two, three) at once and pushes one
    under the deck. Note: the fleet/army limit is ignored when laying at once" -- laid free of
    charge."""
    state = rec.state
    entries = []
    for seat in clockwise_from(state, state.start_seat):
        choice = state.setup_choices[seat]
        cards = state.limbo[seat]
        if choice is None:
            continue
        if choice.push is None:
            pushed = [c.id for c in cards if c.id != choice.keep]
            to_lay: list[str] = []
        else:
            pushed = [choice.push]
            to_lay = [c.id for c in cards if c.id not in (choice.keep, choice.push)]
        entry = {"seat": seat, "kept": choice.keep, "pushed": pushed}
        if to_lay:
            entry["to_lay"] = to_lay
        entries.append(entry)
    rec.record("StartCardsKept", {"entries": entries})
    for entry in entries:
        for card_id in entry.get("to_lay", []):
            card = find(rec.state.hands[entry["seat"]], card_id)
            rec.record("CardLaid", {"seat": entry["seat"], "card": card.to_json(), "cost": 0, "during": "setup"})
            settle_primus(rec, entry["seat"])
