"""PAX: nothing a player or a spectator observes depends on another player's hand or on the deck
order, until the rulebook shows it (a card drawn, laid, put under a legion; Rome's cards at the end).
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Iterator

from engine.pax.rules import RULES
from engine.pax.state import PaxState
from tests.noninterference.harness import (
    Checker,
    Fork,
    SkipsTheHelpless,
    Trajectory,
    check_forks,
    play,
    secret_answer_forks,
)

#: Events by which the rules show hidden cards: to the drawer (drawn, kept, peeked) or to all
#: (a card under a legion, laid, refilled into the legions; Rome's hidden cards at the end).
REVEALS = frozenset({
    "StartCardsDrawn", "StartCardChosen", "StartCardsKept", "CardsDrawn", "CardAssigned", "LegionsRefilled",
    "CardLaid", "RomePeeked", "GameEnded",
})

#: (seats, games): the senator window needs 5-8 players.
TABLES = ((5, 9), (6, 8), (7, 6), (8, 6), (4, 3), (3, 3), (2, 3))
STRIDE = 3


def trajectories(rules=RULES, tables=TABLES) -> Iterator[Trajectory]:
    seed = 0
    for seats, games in tables:
        for _ in range(games):
            seed += 1
            yield play(rules, seats, {}, seed)


def _pushed(trajectory: Trajectory, index: int) -> set[str]:
    """Cards some player pushed under the deck: that player knows where they lie."""
    out: set[str] = set()
    for event in trajectory.events_before(index):
        if event.type == "CardAssigned" and event.data["to"] == "deck":
            out.add(event.data["card"]["id"])
        elif event.type == "StartCardsKept":
            for entry in event.data["entries"]:
                out.update(entry["pushed"])
    return out


def _bought(trajectory: Trajectory, index: int, seat: int) -> set[str]:
    """Cards everyone saw ``seat`` take into the hand from a legion."""
    return {c["id"] for e in trajectory.events_before(index)
            if e.type == "LegionBought" and e.data["seat"] == seat for c in e.data["cards"]}


def _unseen(state: PaxState, pushed: set[str]) -> list[tuple[str, int]]:
    """Places of cards nobody has seen: the deck (but what was pushed under it), the cards set
    aside, and Rome's hidden cards while nobody has looked at them."""
    places = [("deck", i) for i, c in enumerate(state.deck) if c.id not in pushed]
    places += [("set_aside", i) for i in range(len(state.set_aside))]
    if not state.peeked and state.phase != "ended":
        places += [("rome_hidden", i) for i in range(len(state.rome_hidden))]
    return places


def _with_cards(state: PaxState, placed: dict[tuple[str, int], object]) -> PaxState:
    piles = {name: list(getattr(state, name)) for name in ("deck", "set_aside", "rome_hidden")}
    for (name, i), card in placed.items():
        piles[name][i] = card
    return replace(state, **{name: tuple(cards) for name, cards in piles.items()})


def redeal(trajectory: Trajectory, index: int, rng: random.Random) -> Fork | None:
    state = trajectory.states[index]
    places = _unseen(state, _pushed(trajectory, index))
    cards = [getattr(state, name)[i] for name, i in places]
    shuffled = cards[:]
    rng.shuffle(shuffled)
    if [c.id for c in shuffled] == [c.id for c in cards]:
        return None
    return Fork("redeal", index, frozenset(), state=_with_cards(state, dict(zip(places, shuffled))))


def _private_hand(trajectory: Trajectory, index: int, state: PaxState, seat: int) -> list[int]:
    known = _bought(trajectory, index, seat)
    return [i for i, c in enumerate(state.hands[seat]) if c.id not in known]


def swap_hands(trajectory: Trajectory, index: int, rng: random.Random) -> Fork | None:
    """Two players exchange as many hand cards as they can, none the table saw them buy (hand
    sizes stay: the table can count them along)."""
    state = trajectory.states[index]
    if state.seats < 2 or state.phase not in ("turn", "interrupt"):
        return None
    a, b = rng.sample(range(state.seats), 2)
    mine = _private_hand(trajectory, index, state, a)
    theirs = _private_hand(trajectory, index, state, b)
    count = min(len(mine), len(theirs))
    if not count:
        return None
    mine, theirs = rng.sample(mine, count), rng.sample(theirs, count)
    hand_a = tuple(c for i, c in enumerate(state.hands[a]) if i not in mine)
    hand_b = tuple(c for i, c in enumerate(state.hands[b]) if i not in theirs)
    hand_a += tuple(state.hands[b][i] for i in theirs)
    hand_b += tuple(state.hands[a][i] for i in mine)
    hands = list(state.hands)
    hands[a], hands[b] = hand_a, hand_b
    return Fork("hand swap", index, frozenset({a, b}), state=replace(state, hands=tuple(hands)))


def hand_for_deck(trajectory: Trajectory, index: int, rng: random.Random) -> Fork | None:
    """One card of a player's hand exchanged for a card nobody has seen."""
    state = trajectory.states[index]
    if state.phase not in ("turn", "interrupt"):
        return None
    seat = rng.randrange(state.seats)
    mine = _private_hand(trajectory, index, state, seat)
    places = _unseen(state, _pushed(trajectory, index))
    if not mine or not places:
        return None
    i, place = rng.choice(mine), rng.choice(places)
    held, unseen = state.hands[seat][i], getattr(state, place[0])[place[1]]
    hands = list(state.hands)
    hands[seat] = hands[seat][:i] + (unseen,) + hands[seat][i + 1:]
    changed = _with_cards(replace(state, hands=tuple(hands)), {place: held})
    return Fork("hand for deck", index, frozenset({seat}), state=changed)


def forks(trajectory: Trajectory, rng: random.Random) -> Iterator[Fork]:
    yield from secret_answer_forks(trajectory, rng)
    for index in range(0, len(trajectory.commands), STRIDE):
        for make in (redeal, swap_hands, hand_for_deck):
            fork = make(trajectory, index, rng)
            if fork is not None:
                yield fork


def test_nothing_observable_depends_on_another_players_hidden_cards():
    checker = Checker(RULES, REVEALS)
    tally = check_forks(checker, trajectories(), forks)
    assert not tally.interference, "\n".join(map(str, tally.interference[:5]))
    assert tally.positions >= 5000, tally
    assert {"redeal", "hand swap", "hand for deck", "secret answer"} <= set(tally.by_kind), tally.by_kind


class ShowsTheFirstHandCard:
    """PAX with a careless board: it shows the first card of every hand to everyone."""

    def __init__(self, inner) -> None:
        self.inner = inner

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def view(self, state, viewer):
        return {**self.inner.view(state, viewer), "first_cards": [h[0].id if h else None for h in state.hands]}


def test_the_check_catches_a_view_that_shows_a_hand():
    leaky = ShowsTheFirstHandCard(RULES)
    tally = check_forks(Checker(leaky, REVEALS), trajectories(leaky, ((5, 1),)), forks)
    assert any(i.what == "the view differs" for i in tally.interference), tally


def test_the_check_catches_a_window_that_skips_players_with_nothing_to_lay():
    skipping = SkipsTheHelpless(RULES)
    checker = Checker(skipping, REVEALS)
    tally = check_forks(checker, trajectories(skipping, ((5, 4), (6, 3))), forks)
    assert tally.interference, tally
    assert any(i.what.startswith(("event", "the command")) for i in tally.interference)
