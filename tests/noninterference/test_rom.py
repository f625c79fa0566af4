"""Rom: nothing a player or a spectator observes depends on another player's arena hand, a set laid
face down, or the order of a deck, until the rulebook shows it (cards laid out under the tracks, a
card bought from the deck shown to its buyer, the sets revealed together, the end of the game).
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Iterator, Optional

from engine.rom.rules import RULES
from engine.rom.state import State
from tests.noninterference.harness import Checker, Fork, Trajectory, check_forks, play, secret_answer_forks

#: Events by which the rules show hidden cards: laid out from a deck, bought from the arena deck
#: (to the buyer), a set submitted (to its player), the sets revealed, the game's end.
REVEALS = frozenset({"CardsLaidOut", "HiddenArenaCardBought", "ArenaSetSubmitted", "ArenaSetsRevealed",
                     "GameEnded"})

TABLES = ((2, 44), (3, 44), (4, 44))
STRIDE = 3


def trajectories(rules=RULES, tables=TABLES) -> Iterator[Trajectory]:
    seed = 0
    for seats, games in tables:
        for _ in range(games):
            seed += 1
            yield play(rules, seats, {}, seed)


def _bought_unseen(trajectory: Trajectory, index: int, seat: int) -> set[str]:
    """Arena cards ``seat`` bought from the top of the deck: nobody else saw them."""
    return {e.data["card"] for e in trajectory.events_before(index)
            if e.type == "HiddenArenaCardBought" and e.data["seat"] == seat}


def _private_cards(trajectory: Trajectory, index: int, state: State, seat: int) -> list[str]:
    unseen = _bought_unseen(trajectory, index, seat)
    return [c for c in state.player(seat).arena if c in unseen]


def _swap_in_hand(state: State, seat: int, old: str, new: str) -> State:
    player = state.player(seat)
    arena = tuple(new if c == old else c for c in player.arena)
    chosen = player.arena_set
    if chosen is not None:
        chosen = tuple(new if c == old else c for c in chosen)
    return state.with_player(seat, arena=arena, arena_set=chosen)


def redeal(trajectory: Trajectory, index: int, rng: random.Random) -> Optional[Fork]:
    """The decks' unseen order dealt again: the arena deck freely, the province and senate decks
    within each epoch (stacked by epoch at setup, as everyone knows)."""
    state = trajectory.states[index]
    if state.phase == "setup":
        return None
    cards = state.cards

    def within(deck: tuple[str, ...], group) -> tuple[str, ...]:
        by_group: dict = {}
        for card in deck:
            by_group.setdefault(group(card), []).append(card)
        for pile in by_group.values():
            rng.shuffle(pile)
        return tuple(by_group[group(card)].pop() for card in deck)

    arena = list(state.arena_deck)
    rng.shuffle(arena)
    changed = replace(
        state,
        arena_deck=tuple(arena),
        province_deck=within(state.province_deck, lambda p: cards.province(p).epoch),
        senate_deck=within(state.senate_deck,
                           lambda c: (cards.senate_card(c).epoch, cards.senate_card(c).is_scoring)),
    )
    if changed == state:
        return None
    return Fork("redeal", index, frozenset(), state=changed)


def hand_for_deck(trajectory: Trajectory, index: int, rng: random.Random) -> Optional[Fork]:
    """A card a player bought unseen exchanged for another card of the arena deck."""
    state = trajectory.states[index]
    seat = rng.randrange(state.seats)
    mine = _private_cards(trajectory, index, state, seat)
    if not mine or not state.arena_deck:
        return None
    old = rng.choice(mine)
    at = rng.randrange(len(state.arena_deck))
    new = state.arena_deck[at]
    deck = state.arena_deck[:at] + (old,) + state.arena_deck[at + 1:]
    changed = replace(_swap_in_hand(state, seat, old, new), arena_deck=deck)
    return Fork("hand for deck", index, frozenset({seat}), state=changed)


def swap_hands(trajectory: Trajectory, index: int, rng: random.Random) -> Optional[Fork]:
    """Two players exchange a card each that they bought unseen (hand sizes are open)."""
    state = trajectory.states[index]
    if state.seats < 2:
        return None
    a, b = rng.sample(range(state.seats), 2)
    mine, theirs = _private_cards(trajectory, index, state, a), _private_cards(trajectory, index, state, b)
    if not mine or not theirs:
        return None
    x, y = rng.choice(mine), rng.choice(theirs)
    changed = _swap_in_hand(_swap_in_hand(state, a, x, y), b, y, x)
    return Fork("hand swap", index, frozenset({a, b}), state=changed)


def forks(trajectory: Trajectory, rng: random.Random) -> Iterator[Fork]:
    yield from secret_answer_forks(trajectory, rng)
    for index in range(0, len(trajectory.commands), STRIDE):
        for make in (redeal, hand_for_deck, swap_hands):
            fork = make(trajectory, index, rng)
            if fork is not None:
                yield fork


def test_nothing_observable_depends_on_another_players_hidden_cards():
    checker = Checker(RULES, REVEALS)
    tally = check_forks(checker, trajectories(), forks)
    assert not tally.interference, "\n".join(map(str, tally.interference[:5]))
    assert tally.positions >= 5000, tally
    assert {"redeal", "hand for deck", "secret answer"} <= set(tally.by_kind), tally.by_kind
