"""Spartacus: nothing a dominus or a spectator observes depends on another dominus's intrigue
hand, a sealed bid, bet or upkeep choice, or the order of a deck, until the rulebook shows it (a card
played, sold, discarded or drawn by its owner; the bids or bets revealed together; a lot laid out).
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Iterator, Optional

from engine.spartacus.game.rules import RULES
from tests.noninterference.harness import (
    Checker,
    Fork,
    SkipsTheHelpless,
    Trajectory,
    check_forks,
    play,
    secret_answer_forks,
)

#: Events by which the rules show hidden cards or answers: a card drawn or looked at (to that
#: dominus), a card played, placed, sold or discarded from a hand (to all), an answer sealed (to
#: its dominus) and the sealed answers revealed together, a card of a deck coming into play.
REVEALS = frozenset({
    "IntrigueCardsDrawn", "HandCardPeeked", "SupportRequested", "SealedAnswered", "SealedRevealed",
    "SchemePlayed", "ReactionPlayed", "GuardPlaced", "IntrigueCardSold", "IntrigueCardDiscarded",
    "HandLimitEnforced", "PhaseHandLimitEnforced", "PromptOpened", "PromptAnswered",
    "LotRevealed", "NetDeclared", "NetsRevealed", "RerollChosen", "RerollsRevealed",
    "WindowRoundEnded",  # reactions together: the sealed round shows whose answer takes effect
})

TABLES = ((3, 8), (4, 6), (2, 1))  # bots ask no support (a free action): fifteen games for ~5,800 positions
STRIDE = 6


def trajectories(rules=RULES, tables=TABLES, **extra) -> Iterator[Trajectory]:
    seed = 0
    for seats, games in tables:
        for _ in range(games):
            seed += 1
            options = {"game_length": "quick", "two_player_variant": seats == 2, **extra}
            yield play(rules, seats, options, seed)


def redeal(trajectory: Trajectory, index: int, rng: random.Random) -> Optional[Fork]:
    """The unseen order of the intrigue and market decks dealt again."""
    state = trajectory.states[index]
    intrigue, market = list(state.intrigue_deck), list(state.market_deck)
    rng.shuffle(intrigue)
    rng.shuffle(market)
    changed = replace(state, intrigue_deck=tuple(intrigue), market_deck=tuple(market))
    if changed == state:
        return None
    return Fork("redeal", index, frozenset(), state=changed)


def _hands_free(state) -> bool:
    """No card of a hand is committed: a support request names the card it asks gold for."""
    return state.turn is None or state.turn.support is None


def swap_hands(trajectory: Trajectory, index: int, rng: random.Random) -> Optional[Fork]:
    """Two dominus of equal hand size (hand sizes are open) hold each other's intrigue cards."""
    state = trajectory.states[index]
    if not _hands_free(state):
        return None
    pairs = [(a, b) for a in range(state.seats) for b in range(a + 1, state.seats)
             if state.player(a).hand and len(state.player(a).hand) == len(state.player(b).hand)
             and state.player(a).hand != state.player(b).hand]
    if not pairs:
        return None
    a, b = rng.choice(pairs)
    hand_a, hand_b = state.player(a).hand, state.player(b).hand
    changed = state.with_player(a, hand=hand_b).with_player(b, hand=hand_a)
    return Fork("hand swap", index, frozenset({a, b}), state=changed)


def hand_for_deck(trajectory: Trajectory, index: int, rng: random.Random) -> Optional[Fork]:
    """One intrigue card of a hand exchanged for one of the intrigue deck."""
    state = trajectory.states[index]
    holders = [p.seat for p in state.players if p.hand]
    if not _hands_free(state) or not holders or not state.intrigue_deck:
        return None
    seat = rng.choice(holders)
    hand = state.player(seat).hand
    i, j = rng.randrange(len(hand)), rng.randrange(len(state.intrigue_deck))
    deck = state.intrigue_deck
    changed = replace(state.with_player(seat, hand=hand[:i] + (deck[j],) + hand[i + 1:]),
                      intrigue_deck=deck[:j] + (hand[i],) + deck[j + 1:])
    if changed == state:
        return None
    return Fork("hand for deck", index, frozenset({seat}), state=changed)


def forks(trajectory: Trajectory, rng: random.Random) -> Iterator[Fork]:
    yield from secret_answer_forks(trajectory, rng)
    for index in range(0, len(trajectory.commands), STRIDE):
        for make in (redeal, swap_hands, hand_for_deck):
            fork = make(trajectory, index, rng)
            if fork is not None:
                yield fork


def test_nothing_observable_depends_on_another_dominus_hidden_cards_or_answers():
    checker = Checker(RULES, REVEALS)
    tally = check_forks(checker, trajectories(), forks)
    assert not tally.interference, "\n".join(map(str, tally.interference[:5]))
    assert tally.positions >= 5000, tally
    assert {"redeal", "hand swap", "hand for deck", "secret answer"} <= set(tally.by_kind), tally.by_kind


def test_windows_answered_together_show_nobody_another_dominus_hidden_cards_or_answers():
    """The option ``reactions: together``: every addressed seat answers at once and the
    answers stay sealed; what a seat answered, and what it holds, shows in nothing the others
    observe until a card is played."""
    checker = Checker(RULES, REVEALS)
    tally = check_forks(checker, trajectories(tables=((3, 3), (4, 3)), reactions="together"), forks)
    assert not tally.interference, "\n".join(map(str, tally.interference[:5]))
    assert tally.positions >= 1500, tally
    assert {"redeal", "hand swap", "hand for deck", "secret answer"} <= set(tally.by_kind), tally.by_kind


def test_the_check_catches_a_window_that_skips_dominus_with_nothing_to_play():
    """With the old mistake put back (a dominus asked in a reaction window who can only pass is
    passed inside the command that opened it), the check sees the hand through the window."""
    skipping = SkipsTheHelpless(RULES)
    tally = check_forks(Checker(skipping, REVEALS), trajectories(skipping, ((3, 1), (4, 1))), forks)
    assert any(i.what.startswith(("event", "the command", "the open decisions")) for i in tally.interference), tally
