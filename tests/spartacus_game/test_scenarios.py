"""The worked examples of the German rulebook, as scenarios with scripted dice."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.core.errors import RuleViolation
from engine.spartacus.game.flow import start
from engine.spartacus.game.rules import RULES
from engine.spartacus.game.state import Arena, Entry, Market, freeze
from tests.spartacus_game.helpers import (
    assets,
    chance,
    hand_built,
    interrupts,
    new_game,
    play,
    types,
)

PETE, SALLY, JOHN, LIZ = 0, 1, 2, 3


@pytest.fixture(scope="module")
def base():
    return new_game(4)


def test_upkeep_of_pete_sally_john_liz(base):
    """Upkeep (p. 4): Sally (1 ready gladiator, 1 injured, 4 slaves) gains 3; John (1 and 1)
    pays nothing; Liz (3 gladiators, no slaves, 2 gold) pays 2 and releases one gladiator.
    Pete's own example: 1 ready and 2 injured gladiators, 2 exhausted slaves; heal rolls 3
    (stays injured) and 5 (healed); the slaves are readied; 2 and 2: he pays nothing."""
    s = hand_built(
        base, stage="round_start",
        p0=dict(gold=5, hand=(), assets=assets(
            ("thraex#1", "gladiator"), ("murmillo#1", "gladiator", {"injured": True, "exhausted": True}),
            ("retiarius#1", "gladiator", {"injured": True, "exhausted": True}),
            ("house-slave#1", "slave", {"exhausted": True}), ("body-slave#1", "slave", {"exhausted": True}))),
        p1=dict(gold=0, hand=(), assets=assets(
            ("secutor#1", "gladiator"), ("hoplomachus#1", "gladiator", {"injured": True, "exhausted": True}),
            ("kitchen-slave#1", "slave"), ("field-slave#1", "slave"), ("stable-boy#1", "slave"),
            ("water-carrier#1", "slave"))),
        p2=dict(gold=4, hand=(), assets=assets(("dimachaerus#1", "gladiator"), ("scribe#1", "slave"))),
        p3=dict(gold=2, hand=(), assets=assets(("provocator#1", "gladiator"), ("gallus#1", "gladiator"),
                                                ("agron#1", "gladiator"))),
    )
    s = start(s)
    s, ev = chance(s, rolls=[3, 5, 2])
    assert s.player(PETE).asset("murmillo#1").injured
    assert s.player(PETE).asset("retiarius#1").ready
    assert all(a.ready for a in s.player(PETE).of_kind("slave"))
    assert s.player(SALLY).asset("hoplomachus#1").injured
    # Liz owes 3 with 2 gold: she must release at least one gladiator (her choice, in secret)
    (decision,) = [d for d in RULES.pending(s).decisions if d.mode == "simultaneous"]
    assert decision.seat == LIZ and decision.prompt_args == {"bill": 3}
    assert decision.schema["properties"]["release"]["minItems"] == 1
    with pytest.raises(RuleViolation):
        play(s, LIZ, "settle_accounts", release=[])
    s, ev = play(s, LIZ, "settle_accounts", release=["provocator#1"])
    paid = [e.data for e in ev if e.type == "GoldPaid"]
    assert paid == [{"seat": LIZ, "amount": 2, "reason": "upkeep"}]
    assert [p.gold for p in s.players] == [5, 3, 4, 0]
    assert sorted(a.id for a in s.player(LIZ).assets) == ["agron#1", "gallus#1"]
    assert "provocator#1" in s.market_discard


def test_upkeep_release_instead_of_paying(base):
    """'A player who cannot or will not pay discards one gladiator for every gold not paid'
    (p. 4): Liz may release all three and pay nothing, or release two and pay 1."""
    s = hand_built(base, stage="round_start",
                   p0=dict(hand=(), assets=()), p1=dict(hand=(), assets=()), p2=dict(hand=(), assets=()),
                   p3=dict(gold=2, hand=(), assets=assets(("provocator#1", "gladiator"), ("gallus#1", "gladiator"),
                                                          ("agron#1", "gladiator"))))
    s = start(s)
    s2, ev = play(s, LIZ, "settle_accounts", release=["provocator#1", "gallus#1"])
    assert [e.data["amount"] for e in ev if e.type == "GoldPaid"] == [1]
    assert s2.player(LIZ).gold == 1 and [a.id for a in s2.player(LIZ).assets] == ["agron#1"]
    s3, ev = play(s, LIZ, "settle_accounts", release=["provocator#1", "gallus#1", "agron#1"])
    assert not [e for e in ev if e.type == "GoldPaid"]
    assert s3.player(LIZ).gold == 2 and s3.player(LIZ).assets == ()
    s4, ev = play(s, LIZ, "settle_accounts", release=["agron#1"])  # pays the 2 she has
    assert s4.player(LIZ).gold == 0 and len(s4.player(LIZ).assets) == 2
    with pytest.raises(RuleViolation):  # 3 owed with 2 gold: one gladiator at least must go
        play(s, LIZ, "settle_accounts", release=[])


def test_medicus_rerolls_a_failed_healing_roll(base):
    """'Some cards, such as the Medicus, let you reroll a failed healing roll' (p. 4): Pete's
    injured gladiator rolls 2; his ready Medicus rerolls it: 6, healed.  Sally has no
    Medicus: her 1 kills her injured slave and she is not asked anything."""
    s = hand_built(
        base, stage="round_start",
        p0=dict(gold=3, hand=(), assets=assets(("murmillo#1", "gladiator", {"injured": True, "exhausted": True}),
                                                ("medicus#1", "slave"))),
        p1=dict(gold=3, hand=(), assets=assets(("house-slave#1", "slave", {"injured": True, "exhausted": True}))),
        p2=dict(hand=(), assets=()), p3=dict(hand=(), assets=()),
    )
    s = start(s)
    s, ev = chance(s, rolls=[2, 1])
    (decision,) = [d for d in RULES.pending(s).decisions if d.mode == "simultaneous"]
    assert decision.seat == PETE and decision.prompt_key == "heal_reroll"
    assert [o.args for o in decision.options] == [{"card": "", "by": ""}, {"card": "murmillo#1", "by": "medicus#1"}]
    assert s.player(SALLY).asset("house-slave#1") is not None  # nothing resolves before the rerolls
    s, ev = play(s, PETE, "reroll_healing", card="murmillo#1", by="medicus#1")
    assert RULES.pending(s).chance is not None and RULES.pending(s).chance.reason == "heal_reroll"
    s, ev = chance(s, rolls=[6])
    assert [e.data["roll"] for e in ev if e.type == "HealingRolled"] == [6]
    assert s.player(PETE).asset("murmillo#1").ready
    assert s.player(SALLY).asset("house-slave#1") is None  # Sally's 1: died of its wounds
    # the healed gladiator is ready, so it is paid for; the Medicus earns 1: Pete pays nothing
    assert s.player(PETE).gold == 3


def test_medicus_reroll_can_fail_again(base):
    s = hand_built(
        base, stage="round_start",
        p0=dict(gold=3, hand=(), assets=assets(("murmillo#1", "gladiator", {"injured": True, "exhausted": True}),
                                                ("medicus#1", "slave"))),
        p1=dict(hand=(), assets=()), p2=dict(hand=(), assets=()), p3=dict(hand=(), assets=()),
    )
    s = start(s)
    s, _ = chance(s, rolls=[3])
    s, _ = play(s, PETE, "reroll_healing", card="murmillo#1", by="medicus#1")
    s, _ = chance(s, rolls=[1])
    assert s.player(PETE).asset("murmillo#1") is None and "murmillo#1" in s.market_discard


def _intrigue(base, **players):
    turn = players.pop("turn", 0)
    for seat in range(4):
        players.setdefault(f"p{seat}", {})
        players[f"p{seat}"].setdefault("hand", ())
    return hand_built(base, turn=turn, **players)


def test_sallys_insider_information(base):
    """p. 6: influence 7 plays Insider Information (needs 6) on herself: draws 2."""
    s = _intrigue(base, turn=SALLY, p1=dict(influence=7, hand=("insider_information#1",)))
    deck_top = s.intrigue_deck[:2]
    s, ev = play(s, SALLY, "play_scheme", card="insider_information#1", target=SALLY)
    assert s.player(SALLY).hand == deck_top
    assert s.intrigue_deck == base.intrigue_deck[2:]
    assert "insider_information#1" in s.intrigue_discard


def test_johns_support_from_liz(base):
    """p. 7: John (6) asks Liz (4) to support a scheme needing 9: treated as 10, nothing changes."""
    s = _intrigue(base, turn=JOHN, p2=dict(influence=6, hand=("a_visitor_from_rome#1",)), p3=dict(influence=4))
    opts = [d for d in RULES.pending(s).decisions if d.seat == JOHN and d.mode == "turn"][0].options
    assert not any(o.type == "play_scheme" for o in opts)
    s, ev = play(s, JOHN, "request_support", card="a_visitor_from_rome#1", target=JOHN, **{"from": [LIZ]})
    other = RULES.visible(ev[-1], PETE)
    assert "card" not in other["data"] and "target" not in other["data"]
    s, ev = play(s, LIZ, "grant_support")
    assert not [e for e in ev if e.type == "SchemePlayed"], "the asker decides whether to play"
    s, ev = play(s, JOHN, "play_scheme", card="a_visitor_from_rome#1", target=JOHN)
    played = [e.data for e in ev if e.type == "SchemePlayed"]
    assert played == [{"seat": JOHN, "card": "a_visitor_from_rome#1", "target": JOHN, "supporters": [LIZ]}]
    assert s.player(JOHN).influence == 7 and s.player(LIZ).influence == 4


def test_petes_black_market_with_bought_support(base):
    """p. 7: Pete (4) + Liz (3) play Black Market Dealings (needs 7): Pete gains 5 gold."""
    s = _intrigue(base, turn=PETE, p0=dict(influence=4, gold=3, hand=("black_market_dealings#1",)),
                  p3=dict(influence=3, gold=0))
    s, _ = play(s, PETE, "give_gold", to=LIZ, amount=2)
    s, _ = play(s, PETE, "request_support", card="black_market_dealings#1", target=PETE, **{"from": [LIZ]})
    s, _ = play(s, LIZ, "grant_support")
    s, _ = play(s, PETE, "play_scheme", card="black_market_dealings#1", target=PETE)
    assert s.player(PETE).gold == 1 + 5 and s.player(LIZ).gold == 2


def test_destitute_in_upkeep(base):
    """p. 7: in upkeep Sally needs all her 2 gold for her accounts and is left without gold;
    John plays Destitute! at once: Sally loses 1 influence."""
    s = hand_built(base, stage="round_start",
                   p0=dict(hand=(), assets=()), p3=dict(hand=(), assets=()),
                   p1=dict(gold=2, influence=5, hand=(), assets=assets(("secutor#1", "gladiator"),
                                                                        ("thraex#1", "gladiator"))),
                   p2=dict(influence=4, hand=("destitute#1",), assets=()))
    s = start(s)
    s, ev = play(s, SALLY, "settle_accounts", release=[])
    at = types(ev).index("GoldPaid")
    assert types(ev)[at + 1] == "WindowOpened"  # at once, not at the next quiet moment
    assert ev[at + 1].data["moment"] == "gold_emptied" and ev[at + 1].data["about"] == SALLY
    (d,) = interrupts(s)
    assert d.seat == JOHN
    assert [o.args for o in d.options] == [{}, {"card": "destitute#1", "target": SALLY}]
    s, ev = play(s, JOHN, "play_reaction", card="destitute#1", target=SALLY)
    assert s.player(SALLY).influence == 4 and "destitute#1" in s.intrigue_discard
    assert s.stage == "intrigue_turns"  # the phase went on once the window closed


def test_destitute_after_a_gift(base):
    """Gold given away at any time: the window opens in the same command."""
    s = _intrigue(base, turn=SALLY, p1=dict(influence=5, gold=2), p2=dict(influence=4, hand=("destitute#1",)),
                  p0=dict(hand=("robbery#1",)), p3=dict(hand=("robbery#2",)))
    s, ev = play(s, SALLY, "give_gold", to=PETE, amount=2)
    assert types(ev) == ["GoldGiven", "WindowOpened"]
    assert ev[-1].data["order"] == [JOHN, LIZ, PETE]
    (d,) = interrupts(s)
    assert d.seat == JOHN
    s, ev = play(s, JOHN, "play_reaction", card="destitute#1", target=SALLY)
    assert s.player(SALLY).influence == 4 and "destitute#1" in s.intrigue_discard


def test_whispered_rumours_foils_a_visitor_from_rome(base):
    """p. 8: John (10) plays A Visitor from Rome, Liz foils it: both cards discarded, no effect."""
    s = _intrigue(base, turn=JOHN, p2=dict(influence=10, hand=("a_visitor_from_rome#1",)),
                  p3=dict(influence=4, hand=("whispered_rumours#1",)), p0=dict(hand=("robbery#1",)),
                  p1=dict(hand=("robbery#2",)))
    s, ev = play(s, JOHN, "play_scheme", card="a_visitor_from_rome#1", target=JOHN)
    assert types(ev) == ["TurnStepTaken", "SchemePlayed", "WindowOpened"]
    assert ev[-1].data["order"] == [LIZ, PETE, SALLY]
    (d,) = interrupts(s)
    assert d.seat == LIZ
    s, ev = play(s, LIZ, "play_reaction", card="whispered_rumours#1", target=-1)
    foiled = [e.data for e in ev if e.type == "SchemeFoiled"]
    assert foiled == [{"window": foiled[0]["window"], "card": "a_visitor_from_rome#1", "seat": JOHN, "by": LIZ}]
    assert "InfluenceGained" not in types(ev)
    assert s.player(JOHN).influence == 10
    assert {"a_visitor_from_rome#1", "whispered_rumours#1"} <= set(s.intrigue_discard)


def test_petes_two_guards(base):
    """p. 8: Sally plays Incite Rebellion on Pete; table guard rolls 2, hand guard rolls 5."""
    s = _intrigue(base, turn=SALLY, p1=dict(influence=5, hand=("incite_rebellion#1",)),
                  p0=dict(hand=("guard#9",), assets=assets(("thraex#1", "gladiator"), ("guard#8", "guard"))))
    s, _ = play(s, SALLY, "play_scheme", card="incite_rebellion#1", target=PETE)
    s, _ = play(s, PETE, "use_guard", card="guard#8")
    s, ev = chance(s, die=[2])
    assert [e.data["foiled"] for e in ev if e.type == "GuardRolled"] == [False]
    assert "SchemeFoiled" not in types(ev)
    s, _ = play(s, PETE, "use_guard", card="guard#9")
    s, ev = chance(s, die=[5])
    assert [e.data["foiled"] for e in ev if e.type == "GuardRolled"] == [True]
    assert "SchemeFoiled" in types(ev)
    assert s.player(PETE).asset("thraex#1") is not None
    assert {"guard#8", "guard#9", "incite_rebellion#1"} <= set(s.intrigue_discard)


def test_foiled_grand_feast_costs_nothing(base):
    """p. 8: John foils Liz's Grand Feast; Liz pays nobody."""
    s = _intrigue(base, turn=LIZ, p3=dict(influence=6, gold=6, hand=("grand_feast#1",)),
                  p2=dict(influence=4, hand=("whispered_rumours#1",)))
    golds = [p.gold for p in s.players]
    s, _ = play(s, LIZ, "play_scheme", card="grand_feast#1", target=LIZ)
    s, _ = play(s, JOHN, "play_reaction", card="whispered_rumours#1", target=-1)
    assert [p.gold for p in s.players] == golds and s.player(LIZ).influence == 6


def test_grand_feast_pays_everyone(base):
    s = _intrigue(base, turn=LIZ, p3=dict(influence=6, gold=6, hand=("grand_feast#1",)),
                  p0=dict(influence=4, assets=()))
    golds = [p.gold for p in s.players]
    s, _ = play(s, LIZ, "play_scheme", card="grand_feast#1", target=PETE)
    assert [p.gold for p in s.players] == [golds[0] + 2, golds[1] + 2, golds[2] + 2, 0]
    assert s.player(PETE).influence == 5


def test_sallys_exhausted_slaves(base):
    """p. 17: Illicit Services counts 1 ready slave; Unlocked Gate takes it; Empty Brothel: -1."""
    s = _intrigue(base, turn=SALLY,
                  p1=dict(influence=5, gold=0, hand=("illicit_services#1",),
                          assets=assets(("house-slave#1", "slave"), ("body-slave#1", "slave", {"exhausted": True}),
                                        ("scribe#1", "slave", {"exhausted": True}))),
                  p0=dict(influence=5, hand=("unlocked_gate#1",), assets=assets(("kitchen-slave#1", "slave"))),
                  p2=dict(influence=5, hand=("empty_brothel#1",), assets=assets(("field-slave#1", "slave"))),
                  p3=dict(assets=assets(("stable-boy#1", "slave"))))
    s, ev = play(s, SALLY, "play_scheme", card="illicit_services#1", target=SALLY)
    # nobody can foil it, and every dominus still has a ready slave: nobody is asked anything
    assert not interrupts(s)
    assert s.player(SALLY).gold == 2
    s, _ = play(s, SALLY, "end_turn")
    s, _ = play(s, JOHN, "end_turn")
    s, _ = play(s, LIZ, "end_turn")
    assert s.turn.seat == PETE
    s, ev = play(s, PETE, "play_scheme", card="unlocked_gate#1", target=SALLY)
    assert s.player(SALLY).asset("house-slave#1") is None
    assert s.player(SALLY).asset("body-slave#1") is not None  # exhausted cards cannot be discarded
    assert s.player(SALLY).asset("scribe#1") is not None
    (d,) = interrupts(s)  # Empty Brothel is offered after the scheme succeeded
    assert d.seat == JOHN and d.prompt_args["moment"] == "scheme_succeeded"
    assert [o.args for o in d.options if o.type == "play_reaction"] == [{"card": "empty_brothel#1", "target": SALLY}]
    s, _ = play(s, JOHN, "play_reaction", card="empty_brothel#1", target=SALLY)
    assert s.player(SALLY).influence == 4


def test_pietros(base):
    """p. 17: Liz exhausts Pietros in the intrigue phase for 1 gold."""
    s = _intrigue(base, turn=LIZ, p3=dict(gold=0, assets=assets(("pietros#1", "slave"))))
    s, _ = play(s, LIZ, "use_card_ability", card="pietros#1", ability=0, target=-1)
    assert s.player(LIZ).gold == 1 and s.player(LIZ).asset("pietros#1").exhausted
    d = [d for d in RULES.pending(s).decisions if d.seat == LIZ and d.mode == "turn"][0]
    assert not any(o.type == "use_card_ability" for o in d.options)  # exhausted: no second use


def test_solonius_hand_limit_example(base):
    """p. 5: 'Solonius has influence 5, which allows him at most 4 hand cards.'"""
    from engine.spartacus.game.intrigue import hand_limit

    s = _intrigue(base, turn=LIZ, p3=dict(influence=5))
    assert s.player(LIZ).house == "solonius" and hand_limit(s, LIZ) == 4


def _market(base, **players):
    s = hand_built(base, stage="market_open", **players)
    return replace(s, market=Market())


def test_market_sale_to_bank_and_trade(base):
    """p. 10: Sally sells a gladiator to the bank for its value; John sells Pete a guard for 3."""
    s = _market(base, p1=dict(gold=0, assets=assets(("secutor#1", "gladiator"))),
                p2=dict(gold=0, assets=assets(("guard#5", "guard"))), p0=dict(gold=3, assets=()))
    s, _ = play(s, SALLY, "sell_to_bank", card="secutor#1")
    assert s.player(SALLY).gold == 3 and "secutor#1" in s.market_discard
    s, _ = play(s, PETE, "propose_trade", to=JOHN, give=[], take=["guard#5"], gold=3)
    s, _ = play(s, JOHN, "accept_trade", offer=1)
    assert s.player(PETE).asset("guard#5") is not None and s.player(JOHN).asset("guard#5") is None
    assert s.player(JOHN).gold == 3 and s.player(PETE).gold == 0


def _to_auctions(s):
    for seat in range(4):
        s, _ = play(s, seat, "hide_gold")
    return s


def test_agron_auction_fails_and_host_by_dice(base):
    """p. 10-11: Agron: 0/2/3/3, then 1/1, then 0/0: failed, discarded, gold back.
    Host auction: 8/6/5/8, then 0/0: Pete and Liz roll, Liz wins."""
    s = _market(base, p0=dict(gold=8), p1=dict(gold=5), p2=dict(gold=6), p3=dict(gold=8))
    s = replace(s, market_deck=("agron#1", "theokoles#1", "crixus#1", "gannicus#1") + s.market_deck)
    s = _to_auctions(s)
    assert RULES.view(s, SALLY)["players"][PETE]["gold"] is None  # gold hidden during the auctions
    assert RULES.view(s, PETE)["players"][PETE]["gold"] == 8
    for seat, bid in enumerate([0, 2, 3, 3]):
        s, ev = play(s, seat, "place_bid", amount=bid)
    tied = [e.data for e in ev if e.type == "AuctionTied"]
    assert tied == [{"seats": [JOHN, LIZ], "stakes": {str(JOHN): 3, str(LIZ): 3}}]
    s, _ = play(s, JOHN, "place_bid", amount=1)
    s, ev = play(s, LIZ, "place_bid", amount=1)
    assert s.market.auction.stakes == ((JOHN, 4), (LIZ, 4))
    s, _ = play(s, JOHN, "place_bid", amount=0)
    s, ev = play(s, LIZ, "place_bid", amount=0)
    assert "AuctionFailed" in types(ev) and "agron#1" in s.market_discard
    assert s.player(JOHN).gold == 6 and s.player(LIZ).gold == 8
    for _lot in range(3):
        for seat in range(4):
            s, _ = play(s, seat, "place_bid", amount=0)
    for seat, bid in enumerate([8, 5, 6, 8]):
        s, _ = play(s, seat, "place_bid", amount=bid)
    s, _ = play(s, PETE, "place_bid", amount=0)
    s, ev = play(s, LIZ, "place_bid", amount=0)
    assert RULES.view(s, SALLY)["players"][PETE]["gold"] is None  # still hidden while the dice roll
    s, ev = chance(s, rolls=[2, 5])
    assert s.host == LIZ and s.player(LIZ).gold == 8 and s.player(PETE).gold == 8
    assert RULES.view(s, SALLY)["players"][PETE]["gold"] == 8  # revealed once the host is chosen


def test_liz_declines_the_invitation(base):
    """p. 12: Liz declines (-1 influence); Pete accepts with trident, helmet, javelin; John
    invites himself with Theokoles.  Sally bets; John may not bet against his own fighter."""
    s = hand_built(base, stage="arena",
                   p3=dict(influence=4, assets=assets(("thraex#1", "gladiator"))),
                   p0=dict(assets=assets(("murmillo#1", "gladiator"), ("trident#1", "weapon"), ("helmet#1", "armour"),
                                         ("javelin#1", "special"))),
                   p1=dict(gold=6, assets=()),
                   p2=dict(influence=4, assets=assets(("theokoles#1", "gladiator"))))
    s = replace(s, host=JOHN, arena=Arena())
    s = start(s)
    assert s.player(JOHN).influence == 5  # honour to the host
    s, _ = play(s, JOHN, "invite", seat=LIZ)
    s, _ = play(s, LIZ, "decline_invitation")
    assert s.player(LIZ).influence == 3
    s, _ = play(s, JOHN, "invite", seat=PETE)
    s, _ = play(s, PETE, "accept_invitation", fighter="murmillo#1", weapon="trident#1", armour="helmet#1",
                special="javelin#1")
    s, _ = play(s, JOHN, "invite", seat=JOHN)
    s, _ = play(s, JOHN, "accept_invitation", fighter="theokoles#1", weapon="", armour="", special="")
    assert [(e.seat, e.fighter) for e in s.arena.entries] == [(PETE, "murmillo#1"), (JOHN, "theokoles#1")]
    with pytest.raises(RuleViolation):
        play(s, JOHN, "place_bets", winner_i=1)
    s, _ = play(s, SALLY, "place_bets", decapitation=3, winner_ii=3)
    assert s.player(SALLY).gold == 6  # secret until everyone has bet


def test_sallys_bets_are_paid(base):
    """p. 13: Theokoles is decapitated: Sally loses 3 on him and gets 6 + 3 back: +3."""
    s = hand_built(base, stage="arena", p1=dict(gold=6, assets=()),
                   p0=dict(assets=assets(("murmillo#1", "gladiator"))), p2=dict(assets=assets(("theokoles#1", "gladiator"))))
    s = replace(s, host=JOHN, arena=Arena(honoured=True, invited=(PETE, JOHN), entries=(
        Entry(PETE, "murmillo#1"), Entry(JOHN, "theokoles#1")), tribute_paid=True, bets_done=True, bets_window=True,
        bets=((SALLY, (("decapitation", 3), ("winner_ii", 3))),),
        result=freeze({"winner": 0, "loser": 1, "winner_seat": PETE, "loser_seat": JOHN,
                       "winner_card": "murmillo#1", "loser_card": "theokoles#1", "kind": "decapitated"})))
    s = s.with_player(SALLY, gold=0)  # the 6 staked gold lies on the board
    s, ev = _settle(s)
    settled = [e for e in ev if e.type == "BetsSettled"][0]
    assert settled.data["net"] == {str(SALLY): 9}  # 6 from the decapitation bet plus its 3 stake
    assert s.player(SALLY).gold == 9  # 3 more than the 6 she staked
    assert s.player(JOHN).asset("theokoles#1") is None
    assert s.player(PETE).asset("murmillo#1").favour == 1


def _settle(s):
    from engine.spartacus.game.flow import advance
    from engine.spartacus.game.tx import Tx

    tx = Tx(s)
    advance(tx)
    return tx.state, tx.events


def test_destitute_opens_in_the_middle_of_an_effect(base):
    """Liz spends her last gold on Grand Feast: John's Destitute! window opens the moment her
    purse is empty, before the feast's second effect (+1 influence) is carried out."""
    s = _intrigue(base, turn=LIZ, p3=dict(influence=5, gold=6, hand=("grand_feast#1",)),
                  p2=dict(influence=4, hand=("destitute#1",)))
    s, ev = play(s, LIZ, "play_scheme", card="grand_feast#1", target=LIZ)
    (d,) = interrupts(s)  # nobody could foil the feast; the purse window is the first question
    assert d.seat == JOHN and d.prompt_args["moment"] == "gold_emptied"
    assert s.player(LIZ).gold == 0 and s.player(LIZ).influence == 5  # the feast is half done
    assert s.resolutions and s.resolutions[-1].card == "grand_feast#1"
    s, ev = play(s, JOHN, "play_reaction", card="destitute#1", target=LIZ)
    order = [e.type for e in ev if e.type in ("InfluenceLost", "InfluenceGained")]
    assert order == ["InfluenceLost", "InfluenceGained"]
    assert s.player(LIZ).influence == 5 and not s.resolutions
