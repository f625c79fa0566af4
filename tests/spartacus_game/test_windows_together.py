"""Reaction windows with the option ``reactions: together`` (a house rule for games by mail).

The rulebook does not say in which order the domini answer a scheme: reactions are played
'nicht nur während des eigenen Zuges' (p. 7), and at a table anyone may speak up.  With
``together`` every addressed seat is asked at once, the answers stay sealed until the last
is in, the first answer clockwise from the floor that is not a pass takes effect, the
others are dropped unseen, and everybody is asked again.  The rulebook's examples still
play as written.
"""

from __future__ import annotations

import pytest

from engine.core.errors import BadArguments
from engine.spartacus.game.rules import RULES
from tests.spartacus_game.helpers import assets, blocking, chance, new_game, play, types
from tests.spartacus_game.test_windows import FILLER, failed_foil_scheme, table

PETE, SALLY, JOHN, LIZ = 0, 1, 2, 3
VIEWERS = (None, PETE, SALLY, JOHN, LIZ)


@pytest.fixture(scope="module")
def base():
    return new_game(4, {"reactions": "together"})


def asked(s):
    """The window's open questions: {seat: the types of its options}, all of one group."""
    ds = blocking(s)
    assert ds and all(d.id.startswith("react:") and d.mode == "interrupt" for d in ds)
    assert len({d.group for d in ds}) == 1 and len({d.id for d in ds}) == len(ds)
    return {d.seat: [o.type for o in d.options] for d in ds}


def answer(s, seat, type_="pass_reaction", **args):
    return play(s, seat, type_, settle=False, **args)


def test_the_option_is_offered_and_checked():
    schema = RULES.options_schema()["properties"]["reactions"]
    assert schema["enum"] == ["in_turn", "together"] and schema["default"] == "in_turn"
    assert "house rule" in schema["description"]
    with pytest.raises(BadArguments):
        RULES.initial_state(4, {"reactions": "whoever_shouts_first"})


def test_petes_two_guards_answered_together(base):
    """Pete's two guards (p. 8) with everyone asked at once: John and Liz pass while Pete uses
    the guard on his table; it fails, everybody is asked again, and his second guard holds."""
    s = table(base, SALLY, p1=dict(influence=5, hand=("incite_rebellion#1",)),
              p0=dict(hand=("guard#9",), assets=assets(("thraex#1", "gladiator"), ("guard#8", "guard"))))
    s, ev = answer(s, SALLY, "play_scheme", card="incite_rebellion#1", target=PETE)
    assert ev[-1].type == "WindowOpened" and ev[-1].data["order"] == [JOHN, LIZ, PETE]
    assert asked(s) == {JOHN: ["pass_reaction"], LIZ: ["pass_reaction"],
                        PETE: ["pass_reaction", "use_guard", "use_guard"]}
    s, _ = answer(s, PETE, "use_guard", card="guard#8")
    assert set(asked(s)) == {JOHN, LIZ}  # Pete has answered; what, only he knows
    s, _ = answer(s, JOHN)
    s, ev = answer(s, LIZ)
    assert types(ev)[-3:] == ["WindowRoundEnded", "GuardUsed", "ChanceRequested"]
    s, ev = chance(s, settle=False, die=[2])
    assert [e.data["foiled"] for e in ev if e.type == "GuardRolled"] == [False]
    assert asked(s) == {JOHN: ["pass_reaction"], LIZ: ["pass_reaction"], PETE: ["pass_reaction", "use_guard"]}
    assert [d.seat for d in sorted(blocking(s), key=lambda d: d.order)][0] == PETE  # the floor stays his
    s, _ = answer(s, JOHN)
    s, _ = answer(s, LIZ)
    s, _ = answer(s, PETE, "use_guard", card="guard#9")
    s, ev = chance(s, settle=False, die=[5])
    assert "SchemeFoiled" in types(ev) and not s.windows
    assert s.player(PETE).asset("thraex#1") is not None


def _two_foils(base):
    """John plays A Visitor from Rome on himself; Liz and Sally both hold Whispered Rumours."""
    s = table(base, JOHN, p2=dict(influence=10, hand=("a_visitor_from_rome#1", FILLER[2])),
              p3=dict(hand=("whispered_rumours#1",)), p1=dict(hand=("whispered_rumours#2",)))
    s, ev = answer(s, JOHN, "play_scheme", card="a_visitor_from_rome#1", target=JOHN)
    assert ev[-1].data["order"] == [LIZ, PETE, SALLY]
    return s


def test_the_first_answer_clockwise_takes_effect_and_the_other_stays_in_hand(base):
    """Sally answers first in time, but Liz sits first from the floor (the schemer's left):
    her foil takes effect; Sally's card never leaves her hand, and nobody else learns of it."""
    s = _two_foils(base)
    s, ev = answer(s, SALLY, "play_reaction", card="whispered_rumours#2", target=-1)
    assert [RULES.visible(e, v)["data"] for e in ev for v in (None, PETE, JOHN, LIZ)] == \
        [{"window": s.windows[-1].id, "seat": SALLY}] * 4
    assert RULES.visible(ev[-1], SALLY)["data"]["answer"]["args"]["card"] == "whispered_rumours#2"
    assert RULES.view(s, SALLY)["windows"][-1]["my_answer"]["type"] == "play_reaction"
    assert "my_answer" not in RULES.view(s, LIZ)["windows"][-1]
    assert RULES.view(s, None)["windows"][-1]["waiting_for"] == [LIZ, PETE]
    s, _ = answer(s, PETE)
    s, ev = answer(s, LIZ, "play_reaction", card="whispered_rumours#1", target=-1)
    played = [e.data for e in ev if e.type == "ReactionPlayed"]
    assert played == [{"window": played[0]["window"], "seat": LIZ, "card": "whispered_rumours#1", "target": -1}]
    assert "whispered_rumours#2" not in str([RULES.visible(e, JOHN) for e in ev])
    assert ev[-1].type == "WindowOpened" and ev[-1].data["moment"] == "reaction" and ev[-1].data["order"] == [JOHN]
    s, ev = answer(s, JOHN)
    assert [e.data["by"] for e in ev if e.type == "SchemeFoiled"] == [LIZ]
    assert s.player(SALLY).hand == ("whispered_rumours#2",) and s.player(JOHN).influence == 10


def test_a_dropped_answer_is_invisible_to_everyone_else(base):
    """Differential: whether Sally answered with her foil or passed, when Liz's foil comes
    first, every other seat and a spectator see exactly the same events and boards."""
    seen = {}
    for sally in ("pass", "foil"):
        s = _two_foils(base)
        log = []
        if sally == "foil":
            s, ev = answer(s, SALLY, "play_reaction", card="whispered_rumours#2", target=-1)
        else:
            s, ev = answer(s, SALLY)
        log += ev
        for seat, kind, args in ((PETE, "pass_reaction", {}),
                                 (LIZ, "play_reaction", {"card": "whispered_rumours#1", "target": -1}),
                                 (JOHN, "pass_reaction", {})):
            s, ev = answer(s, seat, kind, **args)
            log += ev
        seen[sally] = ([RULES.visible(e, v) for e in log for v in (None, PETE, JOHN, LIZ)],
                       [RULES.view(s, v) for v in (None, PETE, JOHN, LIZ)])
    assert seen["pass"] == seen["foil"]


def test_a_round_of_passes_closes_the_window_and_the_scheme_takes_effect(base):
    s = _two_foils(base)
    for seat in (PETE, SALLY, LIZ):
        s, ev = answer(s, seat)
    ended = [e.data for e in ev if e.type == "WindowRoundEnded"]
    # the round of passes closes the window: the one event says so, no WindowClosed follows
    assert [d["seat"] for d in ended] == [-1] and ended[0]["closed"] is True and "WindowClosed" not in types(ev)
    assert s.player(JOHN).influence == 11


def test_a_target_uses_a_guard_after_a_failed_foil_answered_together(base):
    """The rulebook's guard after a failed foil (p. 8), everyone asked at once: Pete passes,
    counting on John's foil; Liz foils the foil; Pete is asked again and his guard holds."""
    s = failed_foil_scheme(base)
    s, _ = answer(s, PETE)
    s, _ = answer(s, SALLY)
    s, ev = answer(s, JOHN, "play_reaction", card="whispered_rumours#1", target=-1)
    assert asked(s) == {LIZ: ["pass_reaction", "play_reaction"]}  # the foil's own window
    s, ev = answer(s, LIZ, "play_reaction", card="jupiters_cock#1", target=-1)
    assert "ReactionFoiled" in types(ev)  # nobody could answer the cock: it takes effect at once
    assert asked(s) == {PETE: ["pass_reaction", "use_guard"], SALLY: ["pass_reaction"], JOHN: ["pass_reaction"]}
    s, _ = answer(s, SALLY)
    s, _ = answer(s, JOHN)
    s, _ = answer(s, PETE, "use_guard", card="guard#9")
    s, ev = chance(s, settle=False, die=[4])
    assert "SchemeFoiled" in types(ev) and s.player(PETE).asset("thraex#1") is not None
