"""A fight fits into an email or two: what it asks of its players, counted (not timed).

``bench/spartacus_arena_asked.py`` counts the same over 1,000 fights per population and
records the figures in ``bench/RESULTS.md``; this runs a smaller seeded sample of the
population the Spartacus game sends into the arena most (gladiators with equipment).
"""

from __future__ import annotations

from bench.spartacus_arena_asked import figures, measure, populations

FIGHTS = 150
GLADIATORS = "gladiators with random equipment"


def test_with_plans_set_at_acceptance_a_fight_asks_nobody_anything():
    asked = measure(populations()[GLADIATORS], FIGHTS, mode="planned")
    assert max(n for a in asked for n in a.decisions) == 0
    assert sum(a.handoffs for a in asked) == 0


def test_a_duel_asks_each_player_once_how_it_fights_and_nothing_more():
    asked = measure(populations()[GLADIATORS], FIGHTS, mode="duel")
    assert {tuple(a.decisions) for a in asked} == {(1, 1)}  # at most 2 per player, as promised
    assert sum(a.handoffs for a in asked) == 0


def test_blow_by_blow_a_player_answers_at_most_eight_questions_a_fight_on_average():
    asked = measure(populations()[GLADIATORS], FIGHTS, mode="blow_by_blow")
    again = measure(populations()[GLADIATORS], FIGHTS, mode="blow_by_blow")
    assert asked == again  # a count, reproducible under the seed
    f = figures(asked)
    print(f"blow by blow, {FIGHTS} fights: {f['mean']:.2f} decisions per player (p90 {f['p90']}), "
          f"{f['handoffs']:.2f} hand-offs per fight")
    assert f["mean"] <= 8
    mirror = figures(measure(populations()["3/3/3 against 3/3/3, no equipment"], FIGHTS, mode="blow_by_blow"))
    assert mirror["mean"] <= 8
