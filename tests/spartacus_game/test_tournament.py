"""The tournament among dominūs who end a phase together at 12 influence (rulebook p. 17).

The fights themselves are the arena's (tested in ``tests/spartacus``); here their dice come
from a seeded generator and both fighters follow the default fight plan, and what is checked
is who meets whom: the ordering by the gold value of gladiators and equipment (slaves and
guards do not count), ties broken by dice, the pairings, and that the last winner wins.
"""

from __future__ import annotations

import random

import pytest

from engine.core.chance import draw_outcome
from engine.spartacus.game.flow import start
from engine.spartacus.game.rules import RULES
from engine.spartacus.game.state import WIN_INFLUENCE
from engine.spartacus.game.victory import wealth
from tests.spartacus_game.helpers import assets, blocking, chance, hand_built, new_game, play

PETE, SALLY, JOHN, LIZ = 0, 1, 2, 3


@pytest.fixture(scope="module")
def base():
    return new_game(4)


def at_end_of_intrigue(base, contenders, **players):
    """The last intrigue turn has just ended; ``contenders`` have 12 influence, the rest 8."""
    for seat in range(4):
        fields = players.setdefault(f"p{seat}", {})
        fields.setdefault("hand", ())
        fields.setdefault("assets", ())
        fields.setdefault("influence", WIN_INFLUENCE if seat in contenders else 8)
    s = hand_built(base, stage="intrigue_turns", **players)
    return start(s)


def fight_match(s, rng):
    """Choose the strongest fighter for both contenders, then fight it out; return (state, winner)."""
    t = s.tournament
    pair = list(t.current)
    for seat in pair:
        (d,) = blocking(s)
        assert d.seat == seat and d.prompt_key == "tournament_fighter"
        s, _ = play(s, seat, "choose_tournament_fighter", **dict(d.options[-1].args))
    while True:
        pending = RULES.pending(s)
        if pending.chance is not None:
            s, events = chance(s, **draw_outcome(pending.chance, rng.randrange))
        else:
            d = blocking(s)[0]
            s, events = play(s, d.seat, d.default.type, **dict(d.default.args))
        settled = [e.data for e in events if e.type == "FightSettled"]
        if settled:
            assert settled[0]["tournament"] is True
            winner = settled[0]["winner_seat"]
            assert {winner, settled[0]["loser_seat"]} == set(pair)
            return s, winner


def test_two_contenders_fight_once(base):
    """'Both choose a fighter with his equipment and fight by the normal rules; the winner of
    the fight wins the game.'"""
    s = at_end_of_intrigue(base, (SALLY, LIZ), p1=dict(assets=assets(("thraex#1", "gladiator"))),
                           p3=dict(assets=assets(("murmillo#1", "gladiator"), ("sword#1", "weapon"))))
    started = s.tournament
    assert s.stage == "tournament" and started.seats == (SALLY, LIZ) and started.current == (SALLY, LIZ)
    s, winner = fight_match(s, random.Random(1))
    assert RULES.outcome(s).winners == (winner,) and RULES.outcome(s).detail["how"] == "tournament"


def test_three_contenders_the_two_poorest_fight_first(base):
    """'The two with the lowest values fight; the winner fights the remaining player.'"""
    s = at_end_of_intrigue(
        base, (PETE, SALLY, JOHN),
        p0=dict(assets=assets(("hoplomachus#1", "gladiator"), ("gladius#1", "weapon"))),       # 4 + 3 = 7
        p1=dict(assets=assets(("thraex#1", "gladiator"), ("medicus#1", "slave"), ("guard#20", "guard"))),  # 2
        p2=dict(assets=assets(("murmillo#1", "gladiator"), ("helmet#1", "armour"))),          # 3 + 2 = 5
    )
    assert [wealth(s, x) for x in (PETE, SALLY, JOHN)] == [7, 2, 5]
    t = s.tournament
    assert t.order == (SALLY, JOHN, PETE) and t.current == (SALLY, JOHN)
    rng = random.Random(3)
    s, first = fight_match(s, rng)
    assert s.tournament.current == (first, PETE)
    s, final = fight_match(s, rng)
    assert RULES.outcome(s).winners == (final,)


def test_four_contenders_poorest_pair_and_richest_pair_then_the_winners(base):
    """'The two poorest fight each other, as do the two richest; the winners fight a third
    fight.'  John and Liz are tied at 4: the die decides (the lower roll counts as poorer)."""
    s = at_end_of_intrigue(
        base, (PETE, SALLY, JOHN, LIZ),
        p0=dict(assets=assets(("thraex#1", "gladiator"), ("ashur#1", "slave"))),                # 2
        p1=dict(assets=assets(("murmillo#1", "gladiator"), ("sword#1", "weapon"))),             # 5
        p2=dict(assets=assets(("hoplomachus#1", "gladiator"))),                                # 4
        p3=dict(assets=assets(("provocator#1", "gladiator"))),                                 # 4
    )
    request = RULES.pending(s).chance
    assert request is not None and request.draws["rolls"].count == 2  # only the tied roll
    s, _ = chance(s, rolls=[3, 3])  # tied again: roll again
    s, _ = chance(s, rolls=[5, 2])
    t = s.tournament
    assert t.order == (PETE, LIZ, JOHN, SALLY)
    assert t.current == (PETE, LIZ) and t.matches == ((JOHN, SALLY),)
    rng = random.Random(7)
    s, poor = fight_match(s, rng)
    assert s.tournament.current == (JOHN, SALLY)
    s, rich = fight_match(s, rng)
    assert s.tournament.current == (poor, rich)
    s, final = fight_match(s, rng)
    assert RULES.outcome(s).winners == (final,)


def test_a_contender_without_a_ready_fighter_forfeits(base):
    s = at_end_of_intrigue(base, (SALLY, LIZ),
                           p1=dict(assets=assets(("thraex#1", "gladiator", {"injured": True, "exhausted": True}))),
                           p3=dict(assets=assets(("murmillo#1", "gladiator"))))
    assert RULES.outcome(s).winners == (LIZ,)


def test_one_at_twelve_wins_without_a_tournament(base):
    s = at_end_of_intrigue(base, (JOHN,))
    assert RULES.outcome(s).winners == (JOHN,) and s.tournament is None
