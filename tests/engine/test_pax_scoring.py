"""Final scoring: Rome against the players, points, ties, and the solo levels."""

from __future__ import annotations

import pytest

from engine.pax.card_set import CATEGORIES
from engine.pax.rules import RULES
from engine.pax.scoring import strength
from pax_builders import card, cards, table


def ended(seats=2, **more):
    return table(seats, phase="ended", step="", **more)


def symbols_of(**per_category):
    """Cards giving exactly these symbols (as 3-, 2- and 1-symbol cards)."""
    out = []
    for category, n in per_category.items():
        while n:
            s = min(3, n)
            out.append(card(category, s))
            n -= s
    return tuple(out)


# Rulebook example: Rome has 2 senators, 5 fleets (one a bonus from its armies) and 4 armies
# (one a bonus from its fleets), and one symbol in each other category.
ROME_OPEN = symbols_of(senator=2, fleet=4, army=3, wealth=1)
ROME_HIDDEN = symbols_of(religion=1, land=1, intrigue=1)
# Livinia: 5 categories; 3 fleets; 2 armies with the bonus army; beats Rome in religion, wealth, land
LIVINIA = symbols_of(wealth=2, fleet=3, army=1, religion=2, land=3)
# Decimus: 5 categories; 1 fleet (the bonus fleet); 3 armies; beats Rome in intrigue; primus conspiratus
DECIMUS = symbols_of(army=3, intrigue=3, senator=1, wealth=1, religion=1)


def example(rome_hidden=ROME_HIDDEN):
    return ended(2, rome_open=ROME_OPEN, rome_hidden=rome_hidden, tableaux=[LIVINIA, DECIMUS], primus=1,
                 gold=(3, 9), hands=[(), ()])


def test_rulebook_scoring_example():
    outcome = RULES.outcome(example())
    detail = outcome.detail
    assert detail["rome"]["symbols"]["fleet"] == 5 and detail["rome"]["symbols"]["army"] == 4
    assert sorted(detail["rome"]["holds"]) == ["army", "fleet", "senator"]
    assert detail["rome_won"] is False
    livinia, decimus = detail["players"]
    assert livinia["points"] == {"categories_laid": 10, "stronger_than_rome": 9, "fleet_and_army": 5,
                                 "primus_conspiratus": 0, "richest": 0}
    assert sorted(livinia["stronger_than_rome"]) == ["land", "religion", "wealth"]
    assert decimus["points"] == {"categories_laid": 10, "stronger_than_rome": 3, "fleet_and_army": 4,
                                 "primus_conspiratus": 1, "richest": 4}
    assert outcome.scores == {0: 24, 1: 22}
    assert outcome.winners == (0,) and outcome.ranking == (0, 1)


def test_had_rome_won_decimus_would_have_won_with_primus_conspiratus():
    # one more intrigue symbol for Rome: it now ties Decimus, and ties go to Rome
    outcome = RULES.outcome(example(rome_hidden=symbols_of(religion=1, land=1, intrigue=3)))
    assert outcome.detail["rome_won"] is True
    assert sorted(outcome.detail["rome"]["holds"]) == ["army", "fleet", "intrigue", "senator"]
    assert outcome.winners == (1,) and outcome.ranking[0] == 1


def test_rome_wins_and_nobody_holds_primus_conspiratus_then_nobody_wins():
    state = ended(2, rome_open=symbols_of(**{c: 3 for c in CATEGORIES}), tableaux=[symbols_of(wealth=1), ()])
    outcome = RULES.outcome(state)
    assert outcome.detail["rome_won"] is True and outcome.winners == ()


def test_rome_holds_a_category_only_against_every_player():
    rome = symbols_of(wealth=2, fleet=2, army=2, religion=2)
    state = ended(3, rome_open=rome, rome_hidden=(), tableaux=[symbols_of(wealth=2), symbols_of(fleet=3), ()])
    detail = RULES.outcome(state).detail
    assert "wealth" in detail["rome"]["holds"]  # a tie is Rome's
    assert "fleet" not in detail["rome"]["holds"]  # one player has more
    assert "senator" in detail["rome"]["holds"]  # 0 against 0


def test_bonus_fleets_and_armies_per_three_symbols():
    assert strength(symbols_of(fleet=6, army=2)) == {**strength(()), "fleet": 6, "army": 4}
    assert strength(symbols_of(fleet=2, army=5))["fleet"] == 3
    assert strength(symbols_of(fleet=2, army=2))["army"] == 2


def test_richest_in_aurei_plus_hand_cards_ties_all_get_four():
    state = ended(3, gold=(3, 1, 0), hands=[(), cards("land", 2), cards("land", 1)])
    detail = RULES.outcome(state).detail
    assert detail["richest"] == [0, 1]
    assert [p["points"]["richest"] for p in detail["players"]] == [4, 4, 0]
    assert [p["riches"] for p in detail["players"]] == [3, 3, 1]


def test_equal_points_share_the_victory():
    tableau = symbols_of(wealth=2, religion=2, land=2, senator=1)
    state = ended(3, rome_open=symbols_of(fleet=1), rome_hidden=(),
                  tableaux=[tableau, symbols_of(wealth=2, religion=2, land=2, senator=1), ()],
                  gold=(2, 2, 0))
    outcome = RULES.outcome(state)
    assert outcome.scores[0] == outcome.scores[1] > outcome.scores[2]
    assert outcome.winners == (0, 1) and outcome.detail["shared_victory"] is True
    assert outcome.ranking == (0, 1, 2)


@pytest.mark.parametrize("level, stronger, all_laid, won", [
    (1, 3, True, True), (1, 3, False, False), (1, 2, True, False),
    (2, 4, True, True), (2, 3, True, False),
    (3, 5, True, True), (3, 5, False, False),
    (4, 6, True, True), (4, 5, True, False),
    (5, 7, True, True), (5, 6, True, False),
])
def test_solo_levels_win_conditions(level, stronger, all_laid, won):
    rome = symbols_of(**{c: 2 for c in CATEGORIES})
    mine = {c: (3 if i < stronger else 1) for i, c in enumerate(CATEGORIES)}
    if not all_laid:
        mine[CATEGORIES[-1]] = 0
    state = ended(1, solo_level=level, rome_open=(), rome_hidden=rome,
                  tableaux=[symbols_of(**{c: n for c, n in mine.items() if n})])
    outcome = RULES.outcome(state)
    assert outcome.winners == ((0,) if won else ())
    assert outcome.detail["needed"] == level + 2
    assert outcome.scores == {0: len(outcome.detail["players"][0]["stronger_than_rome"])}


def test_the_outcome_is_in_every_view_once_the_game_has_ended():
    view = RULES.view(example(), None)
    assert view["outcome"]["winners"] == [0]
    assert view["outcome"]["scores"] == {"0": 24, "1": 22}
    assert RULES.view(table(), None)["outcome"] is None
