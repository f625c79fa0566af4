"""One test per rule, on hand-built states: hand limit, gifts, the market, the arena, victory."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.core.errors import RuleViolation
from engine.spartacus.game.flow import start
from engine.spartacus.game.rules import RULES
from engine.spartacus.game.state import Arena, Entry, Market, freeze
from tests.spartacus_game.helpers import (
    assets,
    blocking,
    chance,
    everyone,
    interrupts,
    new_game,
    play,
    types,
)

PETE, SALLY, JOHN, LIZ = 0, 1, 2, 3


@pytest.fixture(scope="module")
def base():
    return new_game(4)


def free(s, seat, command_type):
    return [d for d in RULES.pending(s).decisions if d.seat == seat and d.mode == "free"
            and (d.command_type or d.default.type) == command_type]


# ----------------------------------------------------------------------------- hand limit

def test_hand_limit_is_checked_at_the_end_of_each_turn(base):
    """'After schemes and sales a player may hold no more cards than his influence allows ...
    he may be forced to sell' (p. 9): influence 5 -> 4 cards; ending with 6 means selling 2."""
    s = everyone(base, "intrigue_turns", turn=PETE, p0=dict(influence=5, gold=0, hand=tuple(
        f"hidden_coffers#{i}" for i in (1, 2, 3)) + ("guard#20", "guard#21", "guard#22")))
    s, ev = play(s, PETE, "end_turn")
    assert types(ev) == ["TurnStepTaken", "HandLimitEnforced"] and s.turn.ending
    (d,) = blocking(s)
    assert d.prompt_key == "hand_limit" and {o.type for o in d.options} == {"sell_intrigue_card", "place_guard"}
    with pytest.raises(RuleViolation):
        play(s, PETE, "play_scheme", card="hidden_coffers#1", target=PETE)
    s, ev = play(s, PETE, "sell_intrigue_card", card="guard#20")
    assert s.turn.seat == PETE
    s, ev = play(s, PETE, "sell_intrigue_card", card="hidden_coffers#1")
    assert "IntrigueTurnEnded" in types(ev) and len(s.player(PETE).hand) == 4
    assert s.player(PETE).gold == 2 and s.turn.seat == SALLY


def test_hand_limit_may_be_exceeded_during_the_turn(base):
    """'During the intrigue phase the limit may be exceeded' (p. 5): drawing 3 goes above it."""
    s = everyone(base, "intrigue_turns", turn=PETE,
                 p0=dict(influence=6, hand=("insider_information#1", "guard#20", "guard#21", "guard#22")))
    s, _ = play(s, PETE, "play_scheme", card="insider_information#1", target=PETE)
    assert len(s.player(PETE).hand) == 5 and not s.turn.ending  # limit 4 at influence 6: not yet


# ----------------------------------------------------------------------------- gold at any time

@pytest.mark.parametrize("stage", ["intrigue_turns", "market_open", "arena"])
def test_gold_may_be_given_at_any_time_as_a_free_decision(base, stage):
    """'Gold can change hands between two players at any time, without restriction' (p. 3)."""
    s = everyone(base, stage, turn=PETE if stage == "intrigue_turns" else None)
    if stage == "market_open":
        s = replace(s, market=Market())
    if stage == "arena":
        s = start(replace(s, host=PETE, arena=Arena()))
    (d,) = free(s, LIZ, "give_gold")
    assert d.mode == "free" and d.schema["properties"]["amount"]["maximum"] == 5
    assert LIZ not in d.schema["properties"]["to"]["enum"]
    before = [x.id for x in blocking(s)]
    s, ev = play(s, LIZ, "give_gold", to=SALLY, amount=3)
    assert types(ev)[0] == "GoldGiven" and s.player(LIZ).gold == 2 and s.player(SALLY).gold == 8
    assert [x.id for x in blocking(s)] == before  # nobody was kept waiting, nothing moved on
    with pytest.raises(RuleViolation):
        play(s, LIZ, "give_gold", to=SALLY, amount=3)


def test_gold_may_be_given_while_others_bid_in_secret(base):
    s = everyone(base, "round_start", p3=dict(assets=assets(("thraex#1", "gladiator")), gold=1))
    s = start(s)
    assert [d.seat for d in blocking(s)] == [LIZ]
    s, _ = play(s, PETE, "give_gold", to=LIZ, amount=2)  # Pete helps Liz with her upkeep
    s, ev = play(s, LIZ, "settle_accounts", release=[])
    assert s.player(LIZ).gold == 2 and s.player(LIZ).asset("thraex#1") is not None


# ----------------------------------------------------------------------------- market

def _market(base, **players):
    return replace(everyone(base, "market_open", **players), market=Market())


def test_trades_are_free_decisions_offer_counter_accept(base):
    """'All kinds of deals in property and gold are allowed' (p. 9), in no fixed order."""
    s = _market(base, p0=dict(assets=assets(("thraex#1", "gladiator"))),
                p1=dict(assets=assets(("scribe#1", "slave"), ("net#1", "special"))))
    (offer,) = free(s, PETE, "propose_trade")
    assert offer.schema["properties"]["take"]["items"]["enum"] == ["net#1", "scribe#1"]
    s, _ = play(s, PETE, "propose_trade", to=SALLY, give=["thraex#1"], take=["scribe#1", "net#1"], gold=0)
    assert [d.default.type for d in RULES.pending(s).decisions if d.seat == SALLY and d.mode == "free"
            and d.default.args.get("offer") == 1] == ["accept_trade", "reject_trade", "counter_trade"]
    s, ev = play(s, SALLY, "counter_trade", offer=1, give=["scribe#1"], take=["thraex#1"], gold=-2)
    assert types(ev) == ["TradeRejected", "TradeProposed"]
    assert [(o.id, o.frm, o.to, o.give, o.take, o.gold) for o in s.market.offers] == [
        (2, SALLY, PETE, ("scribe#1",), ("thraex#1",), -2)]
    s, ev = play(s, PETE, "accept_trade", offer=2)
    assert [a.id for a in s.player(PETE).assets] == ["scribe#1"]
    assert sorted(a.id for a in s.player(SALLY).assets) == ["net#1", "thraex#1"]
    assert s.player(PETE).gold == 3 and s.player(SALLY).gold == 7 and s.market.offers == ()


def test_trade_offers_can_be_withdrawn_or_rejected(base):
    s = _market(base, p0=dict(assets=assets(("thraex#1", "gladiator"))))
    s, _ = play(s, PETE, "propose_trade", to=JOHN, give=["thraex#1"], take=[], gold=-3)
    s, _ = play(s, PETE, "withdraw_trade", offer=1)
    assert s.market.offers == ()
    s, _ = play(s, PETE, "propose_trade", to=JOHN, give=["thraex#1"], take=[], gold=-3)
    with pytest.raises(RuleViolation):
        play(s, PETE, "accept_trade", offer=2)  # only John may accept
    s, _ = play(s, JOHN, "reject_trade", offer=2)
    assert s.market.offers == () and s.player(PETE).asset("thraex#1") is not None


def test_exhausted_cards_cannot_be_sold_or_traded(base):
    """'Exhausted cards ... cannot be bought, sold or traded' (p. 17)."""
    s = _market(base, p0=dict(assets=assets(("thraex#1", "gladiator", {"exhausted": True}),
                                            ("murmillo#1", "gladiator", {"injured": True, "exhausted": True}))))
    assert not free(s, PETE, "sell_to_bank")
    with pytest.raises(RuleViolation):
        play(s, PETE, "sell_to_bank", card="thraex#1")
    with pytest.raises(RuleViolation):
        play(s, PETE, "propose_trade", to=JOHN, give=["thraex#1"], take=[], gold=-1)


def test_intrigue_cards_are_never_sold_in_the_market(base):
    """'Intrigue cards may NOT be sold for gold in this phase' (p. 9)."""
    s = _market(base, p0=dict(hand=("hidden_coffers#1",)))
    with pytest.raises(RuleViolation):
        play(s, PETE, "sell_intrigue_card", card="hidden_coffers#1")


def test_hiding_gold_ends_trading(base):
    """'Taking up your gold is the sign that you are done trading' (p. 10)."""
    s = _market(base, p0=dict(assets=assets(("thraex#1", "gladiator"))))
    s, _ = play(s, SALLY, "propose_trade", to=PETE, give=[], take=["thraex#1"], gold=2)
    s, ev = play(s, PETE, "hide_gold")
    assert "TradeWithdrawn" in types(ev) and s.market.offers == ()
    assert not free(s, PETE, "propose_trade") and not free(s, PETE, "sell_to_bank")
    assert RULES.view(s, SALLY)["players"][PETE]["gold"] is None
    assert RULES.visible(ev[0], SALLY)["data"] == {"seat": PETE}
    with pytest.raises(RuleViolation):
        play(s, PETE, "sell_to_bank", card="thraex#1")


def test_auction_ties_bid_again_adding_to_the_stakes(base):
    """'Equal bids: those players put their gold on the table and bid again ... the gold is
    added to the bids already made' (p. 10): 3/3 then 2/1: Liz wins and pays 5."""
    s = _market(base, p2=dict(gold=6), p3=dict(gold=8))
    s = replace(s, market_deck=("agron#1", "theokoles#1", "crixus#1", "gannicus#1") + s.market_deck)
    for seat in range(4):
        s, _ = play(s, seat, "hide_gold")
    for seat, bid in enumerate([0, 2, 3, 3]):
        s, _ = play(s, seat, "place_bid", amount=bid)
    (d,) = [x for x in blocking(s) if x.seat == JOHN]
    assert d.schema["properties"]["amount"]["maximum"] == 3  # 6 gold, 3 already on the table
    s, _ = play(s, JOHN, "place_bid", amount=1)
    s, ev = play(s, LIZ, "place_bid", amount=2)
    won = [e.data for e in ev if e.type == "AuctionWon"]
    assert won == [{"seat": LIZ, "card": "agron#1", "price": 5, "kind": "gladiator"}]
    assert s.player(LIZ).gold == 3 and s.player(JOHN).gold == 6


def test_failed_host_auction_is_decided_by_dice_rerolling_ties(base):
    """'If the host auction fails, the remaining bidders roll a die; ties roll again' (p. 11)."""
    s = _market(base)
    s = replace(s, market=Market(lots_laid=True))
    for seat in range(4):
        s, _ = play(s, seat, "hide_gold")
    for seat in range(4):
        s, _ = play(s, seat, "place_bid", amount=0)
    request = RULES.pending(s).chance
    assert request.reason == "host_dice" and request.draws["rolls"].count == 4
    s, ev = chance(s, rolls=[5, 2, 5, 1])
    request = RULES.pending(s).chance
    assert request.draws["rolls"].count == 2  # Pete and John roll again
    s, ev = chance(s, rolls=[3, 6])
    assert s.host == JOHN and all(p.gold == 5 for p in s.players)


# ----------------------------------------------------------------------------- arena

def _arena(base, **players):
    s = everyone(base, "arena", **players)
    return start(replace(s, host=PETE, arena=Arena()))


def test_host_must_invite_himself_when_all_others_declined(base):
    """'If all players were invited and fighters are still missing, the host must invite
    himself' (p. 11); a refusal costs 1 influence."""
    glad = lambda c: assets((c, "gladiator"))  # noqa: E731
    s = _arena(base, p0=dict(assets=glad("thraex#1")), p1=dict(assets=glad("murmillo#1")),
               p2=dict(assets=glad("retiarius#1")), p3=dict(assets=glad("secutor#1")))
    assert s.player(PETE).influence == 5  # the host's honour
    (d,) = blocking(s)
    assert [o.args["seat"] for o in d.options] == [SALLY, JOHN, LIZ, PETE]
    s, _ = play(s, PETE, "invite", seat=SALLY)
    s, _ = play(s, SALLY, "accept_invitation", fighter="murmillo#1", weapon="", armour="", special="")
    for seat in (JOHN, LIZ):
        s, _ = play(s, PETE, "invite", seat=seat)
        s, _ = play(s, seat, "decline_invitation")
        assert s.player(seat).influence == 3
    (d,) = blocking(s)
    assert [o.args for o in d.options] == [{"seat": PETE}]


def test_a_dominus_without_a_ready_fighter_declines(base):
    s = _arena(base, p1=dict(assets=assets(("murmillo#1", "gladiator", {"exhausted": True}))),
               p2=dict(assets=assets(("thraex#1", "gladiator"))))
    s, ev = play(s, PETE, "invite", seat=SALLY)
    assert "InvitationDeclined" in types(ev) and s.player(SALLY).influence == 3


def test_no_games_when_only_one_accepts(base):
    """'In the shameful case that only one dominus accepts, there is no fight' (p. 11)."""
    s = _arena(base, p1=dict(assets=assets(("murmillo#1", "gladiator"))))
    s, _ = play(s, PETE, "invite", seat=SALLY)
    s, _ = play(s, SALLY, "accept_invitation", fighter="murmillo#1", weapon="", armour="", special="")
    for seat in (JOHN, LIZ, PETE):
        s, ev = play(s, PETE, "invite", seat=seat)
    assert "ArenaCancelled" in types(ev) and "FightOpened" not in types(ev)


def _entered(base, p0_fighter, p1_fighter, **players):
    s = everyone(base, "arena", **players)
    arena = Arena(honoured=True, invited=(PETE, SALLY), entries=(Entry(PETE, p0_fighter), Entry(SALLY, p1_fighter)))
    return start(replace(s, host=JOHN, arena=arena))


def test_tribute_two_gold_per_favour_six_for_a_champion(base):
    """'2 gold for each favour token or 6 gold for the champion token' (p. 12)."""
    s = _entered(base, "thraex#1", "murmillo#1",
                 p0=dict(gold=0, assets=assets(("thraex#1", "gladiator", {"favour": 2}))),
                 p1=dict(gold=0, assets=assets(("murmillo#1", "gladiator", {"champion": True}))))
    assert s.player(PETE).gold == 4 and s.player(SALLY).gold == 6
    assert s.sealed is not None and s.sealed.key.startswith("bets")  # tribute before the bets


def test_bets_one_to_three_never_against_your_own_fighter(base):
    """'A bet is 1 to 3 gold ... you may never bet against your own fighter' (p. 12)."""
    s = _entered(base, "thraex#1", "murmillo#1", p0=dict(assets=assets(("thraex#1", "gladiator"))),
                 p1=dict(assets=assets(("murmillo#1", "gladiator"))), p3=dict(gold=2))
    (d,) = [x for x in blocking(s) if x.seat == PETE]
    assert d.schema["properties"]["winner_ii"]["maximum"] == 0
    with pytest.raises(RuleViolation):
        play(s, PETE, "place_bets", winner_ii=1)
    with pytest.raises(RuleViolation):
        play(s, JOHN, "place_bets", injury=4)
    with pytest.raises(RuleViolation):
        play(s, LIZ, "place_bets", injury=2, decapitation=1)  # more than her 2 gold
    s, _ = play(s, PETE, "place_bets", winner_i=3)
    s, _ = play(s, SALLY, "place_bets", winner_ii=1, injury=1)
    s, _ = play(s, JOHN, "place_bets", decapitation=2)
    assert s.player(PETE).gold == 5  # secret, and nothing paid, until all have bet
    s, ev = play(s, LIZ, "place_bets")
    assert [s.player(x).gold for x in range(4)] == [2, 3, 3, 2]
    assert dict(s.arena.bets)[SALLY] == (("injury", 1), ("winner_ii", 1))


def _fought(base, kind, winner_assets, loser_assets, bets=(), host_influence=4, **players):
    s = everyone(base, "arena", p0=dict(assets=winner_assets), p1=dict(assets=loser_assets),
                 p2=dict(influence=host_influence), **players)
    arena = Arena(honoured=True, invited=(PETE, SALLY), entries=(Entry(PETE, winner_assets[0].id),
                                                                 Entry(SALLY, loser_assets[0].id)),
                  tribute_paid=True, bets_done=True, bets_window=True, bets=tuple(bets),
                  result=freeze({"winner": 0, "loser": 1, "winner_seat": PETE, "loser_seat": SALLY,
                                 "winner_card": winner_assets[0].id, "loser_card": loser_assets[0].id,
                                 "kind": kind}))
    return start(replace(s, host=JOHN, arena=arena))


def test_victory_gives_influence_and_a_favour_token_third_makes_champion(base):
    """'The winning dominus gains 1 influence, the fighter a favour token'; 'the third favour
    token makes him champion ... whoever gains a champion gains 1 influence' (p. 13)."""
    s = _fought(base, "yielded", assets(("thraex#1", "gladiator", {"favour": 2})), assets(("murmillo#1", "gladiator")))
    champ = s.player(PETE).asset("thraex#1")
    assert champ.champion and champ.favour == 0
    assert s.player(PETE).influence == 6


def test_bets_are_paid_by_the_odds(base):
    """Winner 1:1, injury 2:1, decapitation 2:1 (option: 3:1); lost stakes go to the bank."""
    bets = ((PETE, (("winner_i", 3),)), (LIZ, (("injury", 2), ("winner_ii", 1))), (JOHN, (("decapitation", 1),)))
    s = _fought(base, "injured", assets(("thraex#1", "gladiator")), assets(("murmillo#1", "gladiator")), bets=bets)
    assert s.player(PETE).gold == 5 + 6 and s.player(LIZ).gold == 5 + 6 and s.player(JOHN).gold == 5
    loser = s.player(SALLY).asset("murmillo#1")
    assert loser.injured and loser.exhausted


def test_decapitation_odds_option(base):
    s0 = replace(base, options=freeze({**dict(base.options), "decapitation_odds": 3}))
    bets = ((LIZ, (("decapitation", 2),)),)
    s = _fought(s0, "decapitated", assets(("thraex#1", "gladiator")), assets(("murmillo#1", "gladiator")), bets=bets)
    assert s.player(LIZ).gold == 5 + 8


def test_thumbs_down_on_a_favoured_fighter_costs_the_host(base):
    """'Thumbs down on a fighter with favour tokens costs the host 1 influence per token' (p. 13)."""
    s = _fought(base, "yielded", assets(("thraex#1", "gladiator")), assets(("murmillo#1", "gladiator", {"favour": 2})))
    (d,) = blocking(s)
    assert d.seat == JOHN and [o.args["thumb"] for o in d.options] == ["up", "down"]
    s2, _ = play(s, JOHN, "show_thumb", thumb="up")
    assert s2.player(SALLY).asset("murmillo#1") is not None and s2.player(JOHN).influence == 4
    s3, ev = play(s, JOHN, "show_thumb", thumb="down")
    assert s3.player(SALLY).asset("murmillo#1") is None and "murmillo#1" in s3.market_discard
    assert s3.player(JOHN).influence == 2


def test_a_champion_may_not_be_executed(base):
    """'Executing a champion is forbidden altogether' (p. 13); losing one costs 1 influence."""
    s = _fought(base, "yielded", assets(("thraex#1", "gladiator")),
                assets(("murmillo#1", "gladiator", {"champion": True}), ("net#1", "special")))
    (d,) = blocking(s)
    assert [o.args["thumb"] for o in d.options] == ["up"]
    with pytest.raises(RuleViolation):
        play(s, JOHN, "show_thumb", thumb="down")
    s = _fought(base, "decapitated", assets(("thraex#1", "gladiator")),
                assets(("murmillo#1", "gladiator", {"champion": True}), ("net#1", "special")))
    assert s.player(SALLY).influence == 3  # a champion lost in the sand
    assert [a.id for a in s.player(SALLY).assets] == ["net#1"]  # the equipment goes home


def test_champion_changing_hands_moves_influence(base):
    """'Gaining a champion, by victory or from another player: +1; losing one for any reason: -1' (p. 13)."""
    s = _market(base, p0=dict(assets=assets(("thraex#1", "gladiator", {"champion": True}))))
    s, _ = play(s, PETE, "propose_trade", to=SALLY, give=["thraex#1"], take=[], gold=-5)
    s, _ = play(s, SALLY, "accept_trade", offer=1)
    assert s.player(PETE).influence == 3 and s.player(SALLY).influence == 5
    s, _ = play(s, SALLY, "sell_to_bank", card="thraex#1")
    assert s.player(SALLY).influence == 4


# ----------------------------------------------------------------------------- exhausted cards

def test_exhausted_and_injured_cards_count_for_nothing(base):
    """'Exhausted cards do not count for a scheme, for the accounts, cannot fight in the arena
    ... and cannot be discarded for any reason' (p. 17)."""
    tired = assets(("thraex#1", "gladiator", {"exhausted": True}),
                   ("murmillo#1", "gladiator", {"injured": True, "exhausted": True}),
                   ("scribe#1", "slave", {"exhausted": True}))
    # accounts: nothing to pay, nothing earned
    s = start(everyone(base, "upkeep_accounts", p0=dict(assets=tired)))
    assert s.player(PETE).gold == 5
    # schemes: no ready gladiator to discard, no ready slave to count
    s = everyone(base, "intrigue_turns", turn=SALLY, p0=dict(assets=tired),
                 p1=dict(influence=6, hand=("incite_rebellion#1",)))
    s, _ = play(s, SALLY, "play_scheme", card="incite_rebellion#1", target=PETE)
    assert [a.id for a in s.player(PETE).assets] == ["thraex#1", "murmillo#1", "scribe#1"]
    # the arena: no fighter to send
    s = _arena(base, p1=dict(assets=tired))
    s, ev = play(s, PETE, "invite", seat=SALLY)
    assert "InvitationDeclined" in types(ev)


# ----------------------------------------------------------------------------- victory

def test_victory_at_the_end_of_the_intrigue_phase(base):
    """'If at the end of any phase exactly one dominus has 12 influence, he wins' (p. 17)."""
    s = everyone(base, "intrigue_turns", turn=LIZ, p3=dict(influence=10, hand=("favour_of_the_magistrate#1",)))
    s = replace(s, turn_order=(LIZ,))
    s, ev = play(s, LIZ, "play_scheme", card="favour_of_the_magistrate#1", target=LIZ)
    assert s.stage == "intrigue_turns" and s.player(LIZ).influence == 12  # not yet: the phase goes on
    s, ev = play(s, LIZ, "end_turn")
    ended = [e.data for e in ev if e.type == "GameEnded"]
    assert ended == [{"winners": [LIZ], "how": "influence", "phase": "intrigue"}]
    assert RULES.outcome(s).winners == (LIZ,)


def test_twelve_during_a_phase_is_not_yet_victory(base):
    """'Reaching 12 during the game does not mean winning: the others may still lower it' (p. 17)."""
    s = everyone(base, "intrigue_turns", turn=LIZ, p3=dict(influence=10, hand=("favour_of_the_magistrate#1",)),
                 p0=dict(influence=8, hand=("blackmail#1",)))
    s = replace(s, turn_order=(LIZ, PETE))
    s, _ = play(s, LIZ, "play_scheme", card="favour_of_the_magistrate#1", target=LIZ)
    s, _ = play(s, LIZ, "end_turn")
    s, _ = play(s, PETE, "play_scheme", card="blackmail#1", target=LIZ)
    s, ev = play(s, PETE, "end_turn")
    assert "GameEnded" not in types(ev) and s.stage.startswith("market")


def test_victory_at_the_end_of_the_market_phase(base):
    s = _market(base, p3=dict(influence=12))
    s = replace(s, market=Market(lots_laid=True))
    for seat in range(4):
        s, _ = play(s, seat, "hide_gold")
    for seat in range(4):
        s, ev = play(s, seat, "place_bid", amount=1 if seat == PETE else 0)
    assert [e.data for e in ev if e.type == "GameEnded"] == [{"winners": [LIZ], "how": "influence", "phase": "market"}]


def test_victory_at_the_end_of_the_arena_phase(base):
    """The fight brings Pete to 12; he wins when the arena phase ends, after the verdict."""
    s = everyone(base, "arena", p0=dict(influence=11, assets=assets(("thraex#1", "gladiator"))),
                 p1=dict(assets=assets(("murmillo#1", "gladiator"))))
    arena = Arena(honoured=True, invited=(PETE, SALLY), entries=(Entry(PETE, "thraex#1"), Entry(SALLY, "murmillo#1")),
                  tribute_paid=True, bets_done=True, bets_window=True,
                  result=freeze({"winner": 0, "loser": 1, "winner_seat": PETE, "loser_seat": SALLY,
                                 "winner_card": "thraex#1", "loser_card": "murmillo#1", "kind": "yielded"}))
    s = start(replace(s, host=JOHN, arena=arena))
    assert s.player(PETE).influence == 12 and s.stage == "arena"  # the verdict is still owed
    s, ev = play(s, JOHN, "show_thumb", thumb="up")
    assert [e.data for e in ev if e.type == "GameEnded"] == [{"winners": [PETE], "how": "influence", "phase": "arena"}]
    assert interrupts(s) == []


def test_a_window_opened_during_a_fight_is_answered_before_the_fight_goes_on(base):
    """Gold may change hands during a fight too; a purse emptied there opens its window at
    once, and the fight waits for it."""
    s = _entered(base, "thraex#1", "murmillo#1", p0=dict(assets=assets(("thraex#1", "gladiator"))),
                 p1=dict(assets=assets(("murmillo#1", "gladiator"))), p2=dict(hand=("destitute#1",)))
    for seat in range(4):
        s, ev = play(s, seat, "place_bets")
    assert s.arena.fight is not None
    s, _ = chance(s, I=[6, 6, 6], II=[1, 1, 1])  # initiative to Pete's thraex: he chooses the order
    (fight_decision,) = blocking(s)
    assert fight_decision.seat == PETE
    s, ev = play(s, LIZ, "give_gold", to=PETE, amount=5)
    (d,) = interrupts(s)
    assert d.seat == JOHN and d.prompt_args["moment"] == "gold_emptied"
    with pytest.raises(RuleViolation):  # the fight waits for the window
        play(s, PETE, fight_decision.options[0].type, **dict(fight_decision.options[0].args))
    s, _ = play(s, JOHN, "play_reaction", card="destitute#1", target=LIZ)
    assert s.player(LIZ).influence == 3
    assert [d.id for d in blocking(s)] == [fight_decision.id]  # and then goes on where it stood
    s, _ = play(s, PETE, fight_decision.options[0].type, **dict(fight_decision.options[0].args))


def test_hand_limit_is_checked_again_at_the_end_of_the_phase(base):
    """'At the end of the phase every player may hold only as many cards as his influence
    allows; excess cards must be sold' (p. 5): Pete's turn is over when Liz's Blackmail
    lowers his influence to 3 (limit 3): he sells down before the market begins."""
    s = everyone(base, "intrigue_turns", turn=LIZ,
                 p0=dict(influence=4, hand=("guard#20", "guard#21", "hidden_coffers#1", "robbery#2")),
                 p3=dict(influence=6, hand=("blackmail#1",)))
    s = replace(s, turn_order=(LIZ,))
    s, _ = play(s, LIZ, "play_scheme", card="blackmail#1", target=PETE)
    s, _ = play(s, PETE, "pass_reaction")  # he keeps his guards
    assert s.player(PETE).influence == 3
    s, ev = play(s, LIZ, "end_turn")
    assert "PhaseHandLimitEnforced" in types(ev) and s.stage == "intrigue_turns"
    (d,) = blocking(s)
    assert d.seat == PETE and d.prompt_key == "hand_limit" and d.prompt_args == {"limit": 3}
    s, ev = play(s, PETE, "sell_intrigue_card", card="robbery#2")
    assert len(s.player(PETE).hand) == 3 and s.stage == "market_open"
