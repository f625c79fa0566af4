"""Fight plans set when accepting the invitation to the games, and nets thrown in any fight.

"Sobald der erste Dominus eine Einladung annimmt, wählt er einen Kämpfer seines Hauses ...
zusammen mit allen Ausrüstungskarten, die der Kämpfer in diesem Kampf benutzen soll" (p. 11):
Capua lets the dominus say, with that choice, how his fighter fights (a fight plan), so the
fight needs no further mail; the plan is his alone and changeable until the fight begins.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engine.core.chance import draw_outcome
from engine.core.errors import RuleViolation
from engine.spartacus.game.flow import start
from engine.spartacus.game.rules import RULES
from engine.spartacus.game.state import Arena, WIN_INFLUENCE
from tests.spartacus_game.helpers import assets, blocking, chance, hand_built, new_game, play
from tests.spartacus_game.test_tournament import fight_match

PETE, SALLY, JOHN, LIZ = 0, 1, 2, 3


@pytest.fixture(scope="module")
def base():
    return new_game(4)


def _arena(base):
    players = {}
    for seat in range(4):
        players[f"p{seat}"] = dict(hand=(), gold=5, influence=4, assets=())
    players["p1"]["assets"] = assets(("murmillo#1", "gladiator"))
    players["p2"]["assets"] = assets(("thraex#1", "gladiator"), ("net#1", "special"))
    s = hand_built(base, stage="arena", **players)
    return start(replace(s, host=PETE, arena=Arena()))


def _plan_decision(state, seat):
    return [d for d in RULES.pending(state).decisions if d.seat == seat and d.command_type == "set_fight_plan"]


def _to_the_fight(s, rng):
    """Bets of nothing, then chance until the fight is open."""
    for _ in range(50):
        if s.arena.fight is not None:
            return s
        pending = RULES.pending(s)
        if pending.chance is not None:
            s, _ = chance(s, **draw_outcome(pending.chance, rng.randrange))
            continue
        d = blocking(s)[0]
        s, _ = play(s, d.seat, d.default.type, **dict(d.default.args))
    raise AssertionError("no fight")


def test_the_invited_dominus_sets_a_fight_plan_with_his_answer_and_the_fight_asks_him_nothing(base):
    s = _arena(base)
    s, _ = play(s, PETE, "invite", seat=SALLY)
    (plan,) = _plan_decision(s, SALLY)
    assert plan.mode == "free" and plan.schema["properties"]["approach"]["enum"][-1] == "ask"
    s, events = play(s, SALLY, "set_fight_plan", approach="close", net="never")
    s, _ = play(s, SALLY, "accept_invitation", fighter="murmillo#1", weapon="", armour="", special="")
    s, _ = play(s, PETE, "invite", seat=JOHN)
    s, _ = play(s, JOHN, "accept_invitation", fighter="thraex#1", weapon="", armour="", special="net#1")
    (chosen,) = [e for e in events if e.type == "FightPlanChosen"]
    # the plan is Sally's alone
    assert RULES.visible(chosen, SALLY)["data"]["plan"]["approach"] == "close"
    assert RULES.visible(chosen, JOHN) is None and RULES.visible(chosen, None) is None
    assert RULES.view(s, SALLY)["fight_plan"]["net"] == "never" and "fight_plan" not in RULES.view(s, JOHN)
    s = _to_the_fight(s, random.Random(4))
    fight = s.arena.fight
    assert fight.sides[0].plan is not None and fight.sides[0].plan.net == "never"
    assert fight.sides[1].plan is None  # John fights blow by blow
    while s.arena.fight is not None and s.arena.fight.result is None:
        pending = RULES.pending(s)
        if pending.chance is not None:
            s, _ = chance(s, **draw_outcome(pending.chance, random.Random(5).randrange))
            continue
        owed = [d for d in pending.decisions if d.mode != "free"]
        assert owed and all(d.seat == JOHN for d in owed)  # nothing is ever asked of Sally
        d = owed[0]
        s, _ = play(s, d.seat, d.context["suggested"]["type"], **d.context["suggested"]["args"])


def test_a_plan_can_be_changed_until_the_fight_begins_and_not_by_others(base):
    s = _arena(base)
    s, _ = play(s, PETE, "invite", seat=SALLY)
    s, _ = play(s, SALLY, "accept_invitation", fighter="murmillo#1", weapon="", armour="", special="")
    assert _plan_decision(s, SALLY) and not _plan_decision(s, LIZ)
    with pytest.raises(RuleViolation):
        play(s, LIZ, "set_fight_plan", approach="close")
    s, _ = play(s, SALLY, "set_fight_plan", approach="keep_distance")
    s, _ = play(s, SALLY, "set_fight_plan", active=False)  # blow by blow after all
    assert "fight_plan" not in RULES.view(s, SALLY)
    s, _ = play(s, SALLY, "set_fight_plan", approach="keep_distance")
    s, _ = play(s, PETE, "invite", seat=JOHN)
    s, _ = play(s, JOHN, "accept_invitation", fighter="thraex#1", weapon="", armour="", special="")
    s = _to_the_fight(s, random.Random(2))
    assert s.arena.fight.sides[0].plan.approach == "keep_distance"
    assert s.fight_plans == ()  # used up: the next games start afresh
    assert not [d for d in _plan_decision(s, SALLY) if d.id.startswith("fight_plan:")]


def _tournament(base):
    players = {}
    for seat in range(4):
        players[f"p{seat}"] = dict(hand=(), gold=5, influence=WIN_INFLUENCE if seat in (SALLY, LIZ) else 8,
                                   assets=())
    players["p1"]["assets"] = assets(("murmillo#1", "gladiator"), ("net#1", "special"))
    players["p3"]["assets"] = assets(("thraex#1", "gladiator"))
    return start(hand_built(base, stage="intrigue_turns", **players))


def test_a_net_thrown_in_a_tournament_fight_is_exhausted(base):
    # "Bevor die SCH gewürfelt wird, um die Initiative zu bestimmen, wird die Karte 'Netz' erschöpft"
    s = _tournament(base)
    assert s.stage == "tournament" and set(s.tournament.current) == {SALLY, LIZ}
    s, _ = play(s, SALLY, "set_fight_plan", net="first_round")
    s, _ = fight_match(s, random.Random(7))  # Sally sends her murmillo with the net, and throws it
    assert s.player(SALLY).asset("net#1").exhausted
