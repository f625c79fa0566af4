"""Every intrigue card of the default set does exactly what its text says.

One case per card (``CASES``), run as one parametrized test; a further test checks that
every card of ``intrigue.json`` has its case, so a new card cannot ship untested.  Each
case builds the table by hand: Pete (seat 0) plays in his intrigue turn with influence 10
unless the case says otherwise, the others hold no cards unless they need them.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from engine.spartacus.game.rules import RULES
from engine.spartacus.game.state import Arena, Entry, freeze
from tests.spartacus_game.helpers import (
    assets,
    blocking,
    chance,
    hand_built,
    interrupts,
    new_game,
    passed_through,
    play,
    types,
)

PETE, SALLY, JOHN, LIZ = 0, 1, 2, 3
INTRIGUE_JSON = Path(__file__).resolve().parents[2] / "engine" / "spartacus" / "cards" / "intrigue.json"


@pytest.fixture(scope="module")
def base():
    return new_game(4)


def table(base, turn=PETE, **players):
    """An intrigue turn of ``turn``; every unnamed field: no cards, no property, 5 gold, influence 4."""
    for seat in range(4):
        fields = players.setdefault(f"p{seat}", {})
        fields.setdefault("hand", ())
        fields.setdefault("assets", ())
        fields.setdefault("gold", 5)
        fields.setdefault("influence", 10 if seat == turn else 4)
    return hand_built(base, turn=turn, **players)


def scheme(s, card, target, who=PETE):
    return play(s, who, "play_scheme", card=card, target=target)


def choose(s, seat, card):
    (d,) = blocking(s)
    assert d.seat == seat and d.command_type in ("", "choose_card")
    return play(s, seat, "choose_card", card=card)


def turn_options(s, seat=PETE):
    return [d for d in RULES.pending(s).decisions if d.seat == seat and d.mode == "turn"][0].options


# ----------------------------------------------------------------------------- schemes

def case_insider_information(base):
    """The target draws 2 intrigue cards."""
    s = table(base, p0=dict(hand=("insider_information#1",)))
    top = s.intrigue_deck[:2]
    s, _ = scheme(s, "insider_information#1", SALLY)
    assert s.player(SALLY).hand == top and s.player(PETE).hand == ()


def case_black_market_dealings(base):
    """The target gains 5 gold."""
    s = table(base, p0=dict(hand=("black_market_dealings#1",)))
    s, _ = scheme(s, "black_market_dealings#1", PETE)
    assert s.player(PETE).gold == 10


def case_a_visitor_from_rome(base):
    """The target gains 1 influence."""
    s = table(base, p0=dict(hand=("a_visitor_from_rome#1",)))
    s, _ = scheme(s, "a_visitor_from_rome#1", JOHN)
    assert s.player(JOHN).influence == 5 and s.player(PETE).influence == 10


def case_incite_rebellion(base):
    """The target discards a ready gladiator of their choice (exhausted ones cannot go)."""
    s = table(base, p0=dict(hand=("incite_rebellion#1",)),
              p1=dict(assets=assets(("thraex#1", "gladiator"), ("murmillo#1", "gladiator"),
                                    ("retiarius#1", "gladiator", {"exhausted": True}), ("scribe#1", "slave"))))
    s, _ = scheme(s, "incite_rebellion#1", SALLY)
    (d,) = blocking(s)
    assert d.seat == SALLY and sorted(o.args["card"] for o in d.options) == ["murmillo#1", "thraex#1"]
    s, _ = choose(s, SALLY, "thraex#1")
    assert sorted(a.id for a in s.player(SALLY).assets) == ["murmillo#1", "retiarius#1", "scribe#1"]
    assert "thraex#1" in s.market_discard


def case_unlocked_gate(base):
    """The target discards a ready slave of their choice; a single one goes without asking."""
    s = table(base, p0=dict(hand=("unlocked_gate#1",)),
              p1=dict(assets=assets(("scribe#1", "slave"), ("felix#1", "slave", {"exhausted": True}),
                                    ("thraex#1", "gladiator"))))
    s, _ = scheme(s, "unlocked_gate#1", SALLY)
    assert not blocking(s) or blocking(s)[0].seat == PETE
    assert sorted(a.id for a in s.player(SALLY).assets) == ["felix#1", "thraex#1"]


def case_grand_feast(base):
    """Pay 2 gold to every other dominus; the target gains 1 influence.  Unaffordable: not offered."""
    s = table(base, p0=dict(gold=5, hand=("grand_feast#1",)))
    assert not any(o.type == "play_scheme" for o in turn_options(s))
    s = table(base, p0=dict(gold=7, hand=("grand_feast#1",)))
    s, _ = scheme(s, "grand_feast#1", PETE)
    assert [p.gold for p in s.players] == [1, 7, 7, 7]
    assert s.player(PETE).influence == 11


def case_illicit_services(base):
    """The target gains 2 gold for each of their ready slaves (exhausted ones do not count)."""
    s = table(base, p0=dict(hand=("illicit_services#1",)),
              p1=dict(assets=assets(("scribe#1", "slave"), ("felix#1", "slave"),
                                    ("doorkeeper#1", "slave", {"exhausted": True}))))
    s, _ = scheme(s, "illicit_services#1", SALLY)
    assert s.player(SALLY).gold == 9


def case_poisoned_wine(base):
    """A ready gladiator or slave of the target (their choice) is injured."""
    s = table(base, p0=dict(hand=("poisoned_wine#1",)),
              p1=dict(assets=assets(("thraex#1", "gladiator"), ("scribe#1", "slave"), ("net#1", "special"))))
    s, _ = scheme(s, "poisoned_wine#1", SALLY)
    (d,) = blocking(s)
    assert sorted(o.args["card"] for o in d.options) == ["scribe#1", "thraex#1"]
    s, _ = choose(s, SALLY, "scribe#1")
    slave = s.player(SALLY).asset("scribe#1")
    assert slave.injured and slave.exhausted and s.player(SALLY).asset("thraex#1").ready


def case_robbery(base):
    """Take up to 3 gold from the target."""
    s = table(base, p0=dict(hand=("robbery#1",)), p1=dict(gold=2), p2=dict(gold=9))
    s, _ = scheme(s, "robbery#1", SALLY)
    assert s.player(PETE).gold == 7 and s.player(SALLY).gold == 0
    s = table(base, p0=dict(hand=("robbery#1",)), p2=dict(gold=9))
    s, _ = scheme(s, "robbery#1", JOHN)
    assert s.player(PETE).gold == 8 and s.player(JOHN).gold == 6


def case_conspiracy(base):
    """The target loses 2 influence."""
    s = table(base, p0=dict(hand=("conspiracy#1",)), p3=dict(influence=9))
    s, _ = scheme(s, "conspiracy#1", LIZ)
    assert s.player(LIZ).influence == 7


def case_blackmail(base):
    """The target loses 1 influence."""
    s = table(base, p0=dict(hand=("blackmail#1",)), p3=dict(influence=9))
    s, _ = scheme(s, "blackmail#1", LIZ)
    assert s.player(LIZ).influence == 8


def case_public_exhibition(base):
    """The target gains 1 gold for each of their ready gladiators."""
    s = table(base, p0=dict(hand=("public_exhibition#1",),
                            assets=assets(("thraex#1", "gladiator"), ("murmillo#1", "gladiator"),
                                          ("retiarius#1", "gladiator", {"injured": True, "exhausted": True}))))
    s, _ = scheme(s, "public_exhibition#1", PETE)
    assert s.player(PETE).gold == 7


def case_labor_contract(base):
    """The target exhausts a ready slave of their choice; you gain 2 gold."""
    s = table(base, p0=dict(hand=("labor_contract#1",)),
              p2=dict(assets=assets(("scribe#1", "slave"), ("felix#1", "slave"))))
    s, _ = scheme(s, "labor_contract#1", JOHN)
    s, _ = choose(s, JOHN, "felix#1")
    assert s.player(JOHN).asset("felix#1").exhausted and s.player(JOHN).asset("scribe#1").ready
    assert s.player(PETE).gold == 7 and s.player(JOHN).gold == 5


def case_word_to_the_tax_collector(base):
    """The target pays up to 3 gold to the bank."""
    s = table(base, p0=dict(hand=("word_to_the_tax_collector#1",)), p1=dict(gold=2))
    s, _ = scheme(s, "word_to_the_tax_collector#1", SALLY)
    assert s.player(SALLY).gold == 0 and s.player(PETE).gold == 5


def case_sate_roman_appetites(base):
    """The target exhausts a ready gladiator of their choice and gains 1 gold."""
    s = table(base, p0=dict(hand=("sate_roman_appetites#1",)), p1=dict(assets=assets(("thraex#1", "gladiator"))))
    s, _ = scheme(s, "sate_roman_appetites#1", SALLY)
    assert s.player(SALLY).asset("thraex#1").exhausted and s.player(SALLY).gold == 6


def case_caught_taking_bribes(base):
    """The target loses 1 influence and pays up to 2 gold to the bank."""
    s = table(base, p0=dict(hand=("caught_taking_bribes#1",)), p1=dict(influence=6, gold=1))
    s, _ = scheme(s, "caught_taking_bribes#1", SALLY)
    assert s.player(SALLY).influence == 5 and s.player(SALLY).gold == 0


def case_bribe_the_guards(base):
    """The target discards a ready guard from their table (their choice); hand guards are safe."""
    s = table(base, p0=dict(hand=("bribe_the_guards#1",)),
              p1=dict(hand=("guard#20",), assets=assets(("guard#21", "guard"), ("guard#22", "guard"))))
    s = replace(s, intrigue_deck=tuple(c for c in s.intrigue_deck if c not in ("guard#20", "guard#21", "guard#22")))
    s, _ = scheme(s, "bribe_the_guards#1", SALLY)
    (d,) = interrupts(s)  # Sally may guard against it first
    s, _ = play(s, SALLY, "pass_reaction")
    s, _ = choose(s, SALLY, "guard#22")
    assert [a.id for a in s.player(SALLY).assets] == ["guard#21"] and s.player(SALLY).hand == ("guard#20",)
    assert "guard#22" in s.intrigue_discard


def case_joint_venture(base):
    """You and the target each gain 2 gold (4 if you target yourself)."""
    s = table(base, p0=dict(hand=("joint_venture#1",)))
    s1, _ = scheme(s, "joint_venture#1", JOHN)
    assert s1.player(PETE).gold == 7 and s1.player(JOHN).gold == 7
    s2, _ = scheme(s, "joint_venture#1", PETE)
    assert s2.player(PETE).gold == 9


def case_collusion(base):
    """You and the target each draw 1 intrigue card."""
    s = table(base, p0=dict(hand=("collusion#1",)))
    top = s.intrigue_deck[:2]
    s, _ = scheme(s, "collusion#1", LIZ)
    assert s.player(PETE).hand == top[:1] and s.player(LIZ).hand == top[1:2]


def case_rumours_of_glory(base):
    """A ready gladiator of the target (their choice) gains a favour token."""
    s = table(base, p0=dict(hand=("rumours_of_glory#1",),
                            assets=assets(("thraex#1", "gladiator"), ("murmillo#1", "gladiator", {"favour": 2}))))
    s, _ = scheme(s, "rumours_of_glory#1", PETE)
    s, ev = choose(s, PETE, "murmillo#1")
    # the third favour token makes a champion: +1 influence (p. 13)
    champ = s.player(PETE).asset("murmillo#1")
    assert champ.champion and champ.favour == 0 and s.player(PETE).influence == 11
    assert "ChampionCrowned" in types(ev)


def case_hidden_coffers(base):
    """The target gains 2 gold."""
    s = table(base, p0=dict(hand=("hidden_coffers#1",), influence=1))
    s, _ = scheme(s, "hidden_coffers#1", PETE)
    assert s.player(PETE).gold == 7


def case_favour_of_the_magistrate(base):
    """The target gains 2 influence; it needs influence 10."""
    s = table(base, p0=dict(hand=("favour_of_the_magistrate#1",), influence=9))
    assert not any(o.type == "play_scheme" for o in turn_options(s))
    s = table(base, p0=dict(hand=("favour_of_the_magistrate#1",), influence=10))
    s, _ = scheme(s, "favour_of_the_magistrate#1", PETE)
    assert s.player(PETE).influence == 12


def case_spies_in_the_house(base):
    """The target discards 2 intrigue cards of their choice from their hand."""
    s = table(base, p0=dict(hand=("spies_in_the_house#1",)),
              p1=dict(hand=("hidden_coffers#2", "robbery#2", "collusion#2")))
    s, _ = scheme(s, "spies_in_the_house#1", SALLY)
    s, _ = choose(s, SALLY, "robbery#2")
    s, _ = choose(s, SALLY, "hidden_coffers#2")
    assert s.player(SALLY).hand == ("collusion#2",)
    assert {"robbery#2", "hidden_coffers#2"} <= set(s.intrigue_discard)


# ----------------------------------------------------------------------------- guards and foils

def case_guard(base):
    """Against a scheme that targets you: discard the guard and roll; 4-6 foils, 1-3 fails."""
    s = table(base, p0=dict(hand=("blackmail#1",)), p1=dict(hand=("guard#20",), assets=assets(("guard#21", "guard"))),
              p2=dict(hand=("guard#22",)))
    s, _ = scheme(s, "blackmail#1", SALLY)
    (d,) = interrupts(s)
    assert d.seat == SALLY  # John's hand guard cannot help Sally: he is passed silently
    assert sorted(o.args.get("card", "") for o in d.options) == ["", "guard#20", "guard#21"]
    s, _ = play(s, SALLY, "use_guard", card="guard#21")
    s, ev = chance(s, die=[3])
    assert "SchemeFoiled" not in types(ev) and "guard#21" in s.intrigue_discard
    s, _ = play(s, SALLY, "use_guard", card="guard#20")
    s, ev = chance(s, die=[4])
    assert "SchemeFoiled" in types(ev) and s.player(SALLY).influence == 4


def case_whispered_rumours(base):
    """Foil a scheme -- any scheme, not only one that targets you."""
    s = table(base, p0=dict(hand=("black_market_dealings#1",)), p3=dict(hand=("whispered_rumours#1",)))
    s, _ = scheme(s, "black_market_dealings#1", PETE)
    s, ev = play(s, LIZ, "play_reaction", card="whispered_rumours#1", target=-1)
    assert "SchemeFoiled" in types(ev) and s.player(PETE).gold == 5


def case_jupiters_cock(base):
    """Foil a scheme or a reaction: here the Whispered Rumours against Pete's scheme."""
    s = table(base, p0=dict(hand=("black_market_dealings#1",)), p1=dict(hand=("whispered_rumours#1",)),
              p2=dict(hand=("jupiters_cock#1",), influence=6))
    s, _ = scheme(s, "black_market_dealings#1", PETE)
    s, _ = play(s, SALLY, "play_reaction", card="whispered_rumours#1", target=-1)
    (d,) = interrupts(s)
    assert d.seat == JOHN and d.prompt_args["moment"] == "reaction"
    s, ev = play(s, JOHN, "play_reaction", card="jupiters_cock#1", target=-1)
    assert "ReactionFoiled" in types(ev) and "SchemeFoiled" not in types(ev)
    assert s.player(PETE).gold == 10
    # ... and a scheme outright
    s = table(base, p0=dict(hand=("black_market_dealings#1",)), p2=dict(hand=("jupiters_cock#1",), influence=6))
    s, _ = scheme(s, "black_market_dealings#1", PETE)
    s, ev = play(s, JOHN, "play_reaction", card="jupiters_cock#1", target=-1)
    assert "SchemeFoiled" in types(ev) and s.player(PETE).gold == 5


def case_support_from_rome(base):
    """Foil a scheme that targets you, then the top guard of the discard pile goes on your table."""
    s = table(base, p0=dict(hand=("blackmail#1",)), p1=dict(hand=("support_from_rome#1",), influence=5))
    s = replace(s, intrigue_discard=("guard#30", "robbery#2"))
    s, _ = scheme(s, "blackmail#1", JOHN)
    assert not interrupts(s) or interrupts(s)[0].seat != SALLY  # not her scheme to foil
    s = table(base, p0=dict(hand=("blackmail#1",)), p1=dict(hand=("support_from_rome#1",), influence=5))
    s = replace(s, intrigue_discard=("guard#30", "robbery#2"), intrigue_deck=tuple(
        c for c in s.intrigue_deck if c != "guard#30"))
    s, _ = scheme(s, "blackmail#1", SALLY)
    s, ev = play(s, SALLY, "play_reaction", card="support_from_rome#1", target=-1)
    assert "SchemeFoiled" in types(ev) and s.player(SALLY).influence == 5
    assert [a.id for a in s.player(SALLY).assets] == ["guard#30"] and "guard#30" not in s.intrigue_discard


def case_sacrifice_for_the_dominus(base):
    """Discard a ready slave of your choice: foil a scheme that targets you; no slave, no play."""
    s = table(base, p0=dict(hand=("blackmail#1",)), p1=dict(hand=("sacrifice_for_the_dominus#1",)))
    s, _ = scheme(s, "blackmail#1", SALLY)
    assert not interrupts(s) and s.player(SALLY).influence == 3
    s = table(base, p0=dict(hand=("blackmail#1",)),
              p1=dict(hand=("sacrifice_for_the_dominus#1",), assets=assets(("scribe#1", "slave"), ("felix#1", "slave"))))
    s, _ = scheme(s, "blackmail#1", SALLY)
    s, _ = play(s, SALLY, "play_reaction", card="sacrifice_for_the_dominus#1", target=-1)
    s, ev = choose(s, SALLY, "felix#1")
    assert "SchemeFoiled" in types(ev) and s.player(SALLY).influence == 4
    assert [a.id for a in s.player(SALLY).assets] == ["scribe#1"]


def case_for_a_few_denarii(base):
    """Pay 3 gold: foil a scheme.  With less than 3 gold it cannot be played."""
    s = table(base, p0=dict(hand=("black_market_dealings#1",)), p3=dict(hand=("for_a_few_denarii#1",), gold=2))
    s, _ = scheme(s, "black_market_dealings#1", PETE)
    assert not interrupts(s) and s.player(PETE).gold == 10
    s = table(base, p0=dict(hand=("black_market_dealings#1",)), p3=dict(hand=("for_a_few_denarii#1",), gold=4))
    s, _ = scheme(s, "black_market_dealings#1", PETE)
    s, ev = play(s, LIZ, "play_reaction", card="for_a_few_denarii#1", target=-1)
    assert "SchemeFoiled" in types(ev) and s.player(LIZ).gold == 1 and s.player(PETE).gold == 5


# ----------------------------------------------------------------------------- moment reactions

def case_destitute(base):
    """When a dominus is left without gold: that dominus loses 1 influence.  Robbery takes
    Sally's last gold: the window opens at once, before the robbery is even finished."""
    s = table(base, p0=dict(hand=("robbery#1",)), p1=dict(gold=3, influence=6), p3=dict(hand=("destitute#1",)))
    s, ev = scheme(s, "robbery#1", SALLY)
    (d,) = interrupts(s)
    assert d.seat == LIZ and d.prompt_args["moment"] == "gold_emptied"
    assert [o.args for o in d.options] == [{}, {"card": "destitute#1", "target": SALLY}]
    s, _ = play(s, LIZ, "play_reaction", card="destitute#1", target=SALLY)
    assert s.player(SALLY).influence == 5 and s.player(PETE).gold == 8


def case_empty_brothel(base):
    """After a scheme succeeds: a dominus of your choice with no ready slaves loses 1 influence."""
    s = table(base, p0=dict(hand=("hidden_coffers#1",), assets=assets(("scribe#1", "slave"))),
              p1=dict(assets=assets(("felix#1", "slave", {"exhausted": True}))),
              p2=dict(hand=("empty_brothel#1",), assets=assets(("doorkeeper#1", "slave"))),
              p3=dict(assets=assets(("stable-boy#1", "slave"))))
    s, _ = scheme(s, "hidden_coffers#1", PETE)
    (d,) = interrupts(s)
    assert d.seat == JOHN
    assert [o.args["target"] for o in d.options if o.type == "play_reaction"] == [SALLY]
    s, _ = play(s, JOHN, "play_reaction", card="empty_brothel#1", target=SALLY)
    assert s.player(SALLY).influence == 3


def case_a_shameful_ludus(base):
    """After a scheme succeeds: a dominus of your choice with no ready gladiators loses 1 influence."""
    glad = ("thraex#1", "murmillo#1", "retiarius#1", "secutor#1")
    s = table(base, p0=dict(hand=("hidden_coffers#1",), assets=assets((glad[0], "gladiator"))),
              p1=dict(assets=assets((glad[1], "gladiator"))),
              p2=dict(hand=("a_shameful_ludus#1",), assets=assets((glad[2], "gladiator"))),
              p3=dict(influence=7, assets=assets((glad[3], "gladiator", {"injured": True, "exhausted": True}))))
    s, _ = scheme(s, "hidden_coffers#1", PETE)
    (d,) = interrupts(s)
    assert [o.args["target"] for o in d.options if o.type == "play_reaction"] == [LIZ]
    s, _ = play(s, JOHN, "play_reaction", card="a_shameful_ludus#1", target=LIZ)
    assert s.player(LIZ).influence == 6


def case_revenge(base):
    """After another dominus's scheme that targeted you succeeds: that dominus loses 1 influence."""
    s = table(base, p0=dict(hand=("blackmail#1", "hidden_coffers#1")), p1=dict(hand=("revenge#1",), influence=5))
    s, _ = scheme(s, "hidden_coffers#1", PETE)
    assert not interrupts(s)  # Pete's scheme on himself: Sally was not its target
    s, _ = scheme(s, "blackmail#1", SALLY)
    (d,) = interrupts(s)
    assert d.seat == SALLY and [o.args for o in d.options if o.type == "play_reaction"] == [
        {"card": "revenge#1", "target": PETE}]
    s, _ = play(s, SALLY, "play_reaction", card="revenge#1", target=PETE)
    assert s.player(PETE).influence == 9 and s.player(SALLY).influence == 4


def _arena_after_bets(base, **players):
    for seat in range(4):
        fields = players.setdefault(f"p{seat}", {})
        fields.setdefault("hand", ())
        fields.setdefault("gold", 5)
    s = hand_built(base, stage="arena", **players)
    arena = Arena(honoured=True, invited=(PETE, SALLY), entries=(Entry(PETE, "thraex#1", weapon="sword#1"),
                                                                  Entry(SALLY, "murmillo#1")), tribute_paid=True)
    return replace(s, host=PETE, arena=arena)


def case_rigging_the_match(base):
    """After the bets: the dominus of the invited fighter of your choice must send another
    ready fighter of theirs (their choice, same equipment) if they have one."""
    s = _arena_after_bets(
        base,
        p0=dict(assets=assets(("thraex#1", "gladiator"), ("retiarius#1", "gladiator"), ("scribe#1", "slave"),
                              ("sword#1", "weapon"))),
        p1=dict(assets=assets(("murmillo#1", "gladiator"))),
        p2=dict(influence=5, hand=("rigging_the_match#1",)),
    )
    from engine.spartacus.game.flow import start

    s = start(s)
    for seat in range(4):
        s, _ = play(s, seat, "place_bets", **({"winner_i": 2} if seat == JOHN else {}))
    (d,) = interrupts(s)
    assert d.seat == JOHN and d.prompt_args["moment"] == "bets_placed"
    # Sally has no other ready fighter: only Pete's fighter can be changed
    assert [o.args for o in d.options if o.type == "play_reaction"] == [{"card": "rigging_the_match#1", "target": PETE}]
    s, _ = play(s, JOHN, "play_reaction", card="rigging_the_match#1", target=PETE)
    (d,) = blocking(s)
    assert d.seat == PETE and sorted(o.args["card"] for o in d.options) == ["retiarius#1", "scribe#1"]
    s, ev = choose(s, PETE, "scribe#1")
    assert s.arena.entries[0] == Entry(PETE, "scribe#1", weapon="sword#1")
    opened = [e.data for e in ev if e.type == "FightOpened"]
    assert opened and opened[0]["entries"][0]["fighter"] == "scribe#1"
    assert dict(s.arena.bets)[JOHN] == (("winner_i", 2),)  # the bets stand as placed


def case_rigging_the_match_needs_a_ready_spare(base):
    s = _arena_after_bets(base, p0=dict(assets=assets(("thraex#1", "gladiator"), ("sword#1", "weapon"))),
                          p1=dict(assets=assets(("murmillo#1", "gladiator"), ("scribe#1", "slave", {"exhausted": True}))),
                          p2=dict(influence=5, hand=("rigging_the_match#1",)))
    from engine.spartacus.game.flow import start

    s = start(s)
    for seat in range(4):
        s, ev = play(s, seat, "place_bets")
    assert not interrupts(s) and "FightOpened" in types(ev)


def _arena_death(base, **players):
    for seat in range(4):
        fields = players.setdefault(f"p{seat}", {})
        fields.setdefault("hand", ())
        fields.setdefault("gold", 5)
        fields.setdefault("influence", 4)
    s = hand_built(base, stage="arena", p0=players.pop("p0"), **players)
    s = s.with_player(PETE, assets=assets(("thraex#1", "gladiator")))
    s = s.with_player(SALLY, assets=assets(("murmillo#1", "gladiator")))
    arena = Arena(honoured=True, invited=(PETE, SALLY), entries=(Entry(PETE, "thraex#1"), Entry(SALLY, "murmillo#1")),
                  tribute_paid=True, bets_done=True, bets_window=True,
                  result=freeze({"winner": 0, "loser": 1, "winner_seat": PETE, "loser_seat": SALLY,
                                 "winner_card": "thraex#1", "loser_card": "murmillo#1", "kind": "decapitated"}))
    return replace(s, host=JOHN, arena=arena)


def _fighter_dies(s):
    from engine.spartacus.game.flow import advance
    from engine.spartacus.game.tx import Tx

    tx = Tx(s)
    advance(tx)
    return passed_through(tx.state, tx.events)


def case_blood_on_the_sand(base):
    """After a fighter dies in the arena: you gain 1 influence."""
    s = _arena_death(base, p0=dict(), p3=dict(hand=("blood_on_the_sand#1",)))
    s, ev = _fighter_dies(s)
    assert types(ev).index("FighterDied") < types(ev).index("WindowOpened")
    (d,) = interrupts(s)
    assert d.seat == LIZ and d.prompt_args["moment"] == "fighter_died"
    s, _ = play(s, LIZ, "play_reaction", card="blood_on_the_sand#1", target=-1)
    assert s.player(LIZ).influence == 5


def case_looting_the_dead(base):
    """After a fighter dies in the arena: you gain 3 gold."""
    s = _arena_death(base, p0=dict(), p1=dict(hand=("looting_the_dead#1",)))
    s, _ = _fighter_dies(s)
    (d,) = interrupts(s)
    assert d.seat == SALLY  # even the dead fighter's own dominus may loot
    s, _ = play(s, SALLY, "play_reaction", card="looting_the_dead#1", target=-1)
    assert s.player(SALLY).gold == 8


CASES = {name[len("case_"):]: fn for name, fn in dict(globals()).items() if name.startswith("case_")}


@pytest.mark.parametrize("case", sorted(CASES))
def test_card_does_what_its_text_says(base, case):
    CASES[case](base)


def test_every_card_has_a_case():
    cards = {c["id"] for c in json.loads(INTRIGUE_JSON.read_text(encoding="utf-8"))["cards"]}
    covered = {name for name in CASES if name in cards}
    assert covered == cards


def test_deck_has_80_cards():
    """'Intrigue cards (80 cards)' (German edition, p. 2)."""
    cards = json.loads(INTRIGUE_JSON.read_text(encoding="utf-8"))["cards"]
    assert sum(c["count"] for c in cards) == 80


def test_reactions_need_their_influence_and_take_no_support(base):
    """'Reactions need a minimum influence ... unlike schemes a reaction cannot be supported' (p. 7)."""
    s = table(base, p0=dict(hand=("black_market_dealings#1",)), p3=dict(hand=("whispered_rumours#1",), influence=2))
    s, _ = scheme(s, "black_market_dealings#1", PETE)
    assert not interrupts(s) and s.player(PETE).gold == 10


def test_a_card_that_foils_reactions_foils_a_guards_use(base):
    """'Guards are a special kind of reaction' (p. 8): Jupiter's Cock ('foil a scheme or a
    reaction') foils a guard's use before its die is rolled; the guard is spent all the same."""
    s = table(base, p0=dict(hand=("blackmail#1",)), p1=dict(hand=("guard#20",)),
              p2=dict(hand=("jupiters_cock#1",), influence=6))
    s, _ = scheme(s, "blackmail#1", SALLY)
    s, ev = play(s, SALLY, "use_guard", card="guard#20")
    assert RULES.pending(s).chance is None
    (d,) = interrupts(s)
    assert d.seat == JOHN and d.prompt_args["subject"] == "guard"
    s, ev = play(s, JOHN, "play_reaction", card="jupiters_cock#1", target=-1)
    assert "GuardFoiled" in types(ev) and "GuardRolled" not in types(ev)
    assert "guard#20" in s.intrigue_discard and "jupiters_cock#1" in s.intrigue_discard
    # the scheme window asks everyone again; nobody has anything left, so the scheme succeeds
    assert s.player(SALLY).influence == 3 and "blackmail#1" in s.intrigue_discard
