"""One test per rule for committed gold, support as negotiated and the rulebook's defaults
(issue 12, items 1, 3 and 5), each on a hand-built state."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.core.errors import RuleViolation
from engine.core.types import Command
from engine.spartacus.game import ledger, victory
from engine.spartacus.game.cards import CardSetError, validate_effects
from engine.spartacus.game.flow import start
from engine.spartacus.game.rules import RULES
from engine.spartacus.game.state import Market, Sealed
from engine.spartacus.game.tx import Tx
from tests.spartacus_game.helpers import assets, blocking, chance, everyone, new_game, play, types

PETE, SALLY, JOHN, LIZ = 0, 1, 2, 3


@pytest.fixture(scope="module")
def base():
    return new_game(4)


def auction(base, **players):
    s = replace(everyone(base, "market_open", **players), market=Market())
    s = replace(s, market_deck=("agron#1", "theokoles#1", "crixus#1", "gannicus#1") + s.market_deck)
    for seat in range(4):
        s, _ = play(s, seat, "hide_gold")
    return s


# ----------------------------------------------------------------------------- committed gold

def test_a_secret_bid_is_set_aside_and_only_the_rest_may_be_given(base):
    """'Every player takes his stake in his closed hand' (p. 10) -- while 'gold can change
    hands between two players at any time' (p. 3): the gold in the fist is not in the purse."""
    s = auction(base)
    s, _ = play(s, PETE, "place_bid", amount=4)
    assert (s.player(PETE).committed, s.player(PETE).free_gold) == (4, 1)
    (gift,) = [d for d in RULES.pending(s).decisions if d.seat == PETE and d.command_type == "give_gold"]
    assert gift.schema["properties"]["amount"]["maximum"] == 1
    with pytest.raises(RuleViolation):
        play(s, PETE, "give_gold", to=SALLY, amount=2)
    s, _ = play(s, PETE, "give_gold", to=SALLY, amount=1)
    for seat in (SALLY, JOHN, LIZ):
        s, ev = play(s, seat, "place_bid", amount=0)
    assert [e.data["price"] for e in ev if e.type == "AuctionWon"] == [4]
    assert (s.player(PETE).gold, s.player(PETE).committed) == (0, 0)


def test_the_closed_fist_hides_its_amount_from_the_others(base):
    """'Keep your gold hidden until the host's honour is awarded! Otherwise the others could
    guess the size of your stake' (p. 10)."""
    s = auction(base)
    s, ev = play(s, PETE, "place_bid", amount=3)
    answered = [e for e in ev if e.type == "SealedAnswered"]
    assert answered[0].data["commit"] == 3
    assert "commit" not in RULES.visible(answered[0], SALLY)["data"]
    assert RULES.visible(answered[0], PETE)["data"]["commit"] == 3
    assert RULES.view(s, PETE)["players"][PETE]["committed"] == 3
    assert "committed" not in RULES.view(s, SALLY)["players"][PETE]


def test_a_tied_stake_lies_on_the_table_and_bidding_0_stays_legal(base):
    """'Equal bids: those players put their gold on the table and bid again' (p. 10): the
    stake is public and set aside; with nothing else left, 0 (the default) may be bid."""
    s = auction(base)
    for seat, bid in enumerate([5, 5, 0, 0]):
        s, _ = play(s, seat, "place_bid", amount=bid)
    assert s.player(PETE).staked == 5 and RULES.view(s, JOHN)["players"][PETE]["staked"] == 5
    (gift,) = [d for d in RULES.pending(s).decisions if d.seat == PETE and d.command_type == "give_gold"]
    assert gift.options == () and gift.private, "all of it on the table: no gift to make, and only Pete knows"
    (bid,) = [d for d in blocking(s) if d.seat == PETE]
    assert bid.schema["properties"]["amount"]["maximum"] == 0
    s, _ = play(s, PETE, bid.default.type, **bid.default.args)
    s, ev = play(s, SALLY, "place_bid", amount=0)
    assert "AuctionFailed" in types(ev), "'if in any round nobody bids gold, the auction fails' (p. 10)"
    assert (s.player(PETE).gold, s.player(PETE).staked) == (5, 0)


def test_bets_are_set_aside_and_staked_in_full(base):
    """'A bet of 1 to 3 gold is placed in its corner of the board' (p. 12)."""
    from engine.spartacus.game.state import Arena, Entry

    s = everyone(base, "arena", p0=dict(assets=assets(("thraex#1", "gladiator"))),
                 p1=dict(assets=assets(("secutor#1", "gladiator"))))
    arena = Arena(honoured=True, invited=(PETE, SALLY), tribute_paid=True,
                  entries=(Entry(seat=PETE, fighter="thraex#1"), Entry(seat=SALLY, fighter="secutor#1")))
    s = start(replace(s, arena=arena, host=PETE))
    s, _ = play(s, JOHN, "place_bets", injury=3)
    assert s.player(JOHN).free_gold == 2
    with pytest.raises(RuleViolation):
        play(s, JOHN, "give_gold", to=LIZ, amount=3)
    s, _ = play(s, JOHN, "give_gold", to=LIZ, amount=2)
    for seat in (PETE, SALLY, LIZ):
        s, ev = play(s, seat, "place_bets")
    assert [e.data["amount"] for e in ev if e.type == "GoldPaid" and e.data["seat"] == JOHN] == [3]


def test_the_upkeep_payment_is_set_aside_until_every_choice_is_revealed(base):
    """'A player gains 1 gold for every ready slave and pays 1 gold for every ready gladiator'
    (p. 4): Pete answers that he pays 2, then tries to give that gold to Liz."""
    glads = assets(("thraex#1", "gladiator"), ("secutor#1", "gladiator"))
    s = start(everyone(base, "round_start", p0=dict(assets=glads, gold=3), p3=dict(assets=assets(("murmillo#1",
                                                                                               "gladiator")))))
    s, _ = play(s, PETE, "settle_accounts", release=[])
    assert s.player(PETE).committed == 2
    with pytest.raises(RuleViolation):
        play(s, PETE, "give_gold", to=LIZ, amount=2)
    s, ev = play(s, LIZ, "settle_accounts", release=[])
    assert [e.data["amount"] for e in ev if e.type == "GoldPaid" and e.data["seat"] == PETE] == [2]
    assert len(s.player(PETE).of_kind("gladiator")) == 2


def test_gold_not_paid_at_the_upkeep_reveal_releases_a_gladiator_each(base):
    """'For every gold not paid one gladiator must be discarded' (p. 4): a game recorded
    before gold was set aside may reach the reveal with less gold than it chose to pay."""
    glads = assets(("thraex#1", "gladiator"), ("secutor#1", "gladiator"), ("murmillo#1", "gladiator"))
    s = everyone(base, "upkeep_accounts", p0=dict(assets=glads, gold=1))
    s = replace(s, sealed=Sealed(key="accounts:1", seats=(PETE,), answers=((PETE, (("release", ("__list__",)),)),)))
    s = start(s)
    assert s.player(PETE).gold == 0 and len(s.player(PETE).of_kind("gladiator")) == 1


def test_a_card_takes_only_gold_not_set_aside(base):
    """Capua's reading (docs/spartacus.md, house rules): 'pays up to 3 gold' takes what is in
    the purse, not what lies in a closed fist."""
    s = replace(everyone(base, "market_auction"), players=tuple(
        replace(p, committed=4) if p.seat == PETE else p for p in everyone(base, "market_auction").players))
    tx = Tx(s)
    assert ledger.pay_gold(tx, PETE, 3, "word_to_the_tax_collector") == 1
    assert ledger.give_gold(tx, PETE, SALLY, 3, "robbery") == 0
    assert tx.state.player(PETE).gold == 4


def test_a_gold_cost_comes_before_every_other_effect_in_the_card_data():
    """'Any costs of the card must be paid at once' (p. 7): a gold cost is checked and paid in
    the step the effects begin, so card data may not put one after an effect that could wait
    for a player (meanwhile the gold could be given away)."""
    draw = {"op": "draw", "who": "actor", "count": 1}
    pay = {"op": "pay_gold", "who": "actor", "amount": 2, "cost": True}
    assert validate_effects([pay, draw], "card") == (pay, draw)
    with pytest.raises(CardSetError, match="gold cost must come before"):
        validate_effects([draw, pay], "card")


def test_a_schemes_gold_cost_given_away_while_it_waits_leaves_it_without_effect(base):
    """'If the scheme is not foiled ... any costs of the card must be paid at once' (p. 7): Pete
    plays Grand Feast (pay 2 gold to every other dominus), then gives his gold to Liz while the
    table is asked about the scheme; it can no longer be paid in full, so it comes to nothing
    (Capua's reading, docs/spartacus.md) -- never a feast paid short."""
    s = everyone(base, "intrigue_turns", turn=PETE, p0=dict(gold=6, influence=10, hand=("grand_feast#1",)),
                 p1=dict(hand=("labor_contract#1",)), p2=dict(hand=("conspiracy#1",)), p3=dict(hand=("conspiracy#2",)))
    s, _ = play(s, PETE, "play_scheme", card="grand_feast#1", target=PETE, settle=False)
    assert s.windows
    s, _ = play(s, PETE, "give_gold", to=LIZ, amount=1, settle=False)
    for seat in (SALLY, JOHN, LIZ):
        s, ev = play(s, seat, "pass_reaction", settle=False)
    finished = [e.data for e in ev if e.type == "EffectsFinished"]
    assert finished and finished[0]["fizzled"] is True
    assert not [e for e in ev if e.type == "GoldGiven" and e.data["reason"] == "grand_feast#1"]
    assert s.player(PETE).gold == 5 and s.player(SALLY).influence == 4


def test_a_cost_found_short_when_paid_is_a_bug_never_a_smaller_payment(base):
    """The card's cost is checked in the step that pays it; should anything ever reach the
    payment without the gold, the engine refuses to pay less (:class:`ledger.PaymentShort`)."""
    s = everyone(base, "market_auction", p0=dict(gold=1))
    with pytest.raises(ledger.PaymentShort):
        ledger.pay_in_full(Tx(s), PETE, 3, "for_a_few_denarii#1")


# ----------------------------------------------------------------------------- support

def _turn(base, **players):
    return everyone(base, "intrigue_turns", turn=JOHN, **players)


def test_support_may_be_asked_of_a_group_that_could_not_cover_the_card(base):
    """'It is not necessary to show the scheme to ask for support, nor must one tell the
    truth' (p. 6): asking reveals nothing, so any group may be asked -- a bluff is a move."""
    s = _turn(base, p2=dict(influence=1, hand=("conspiracy#1",)), p0=dict(influence=1))
    (ask,) = [d for d in RULES.pending(s).decisions if d.command_type == "request_support"]
    assert ask.mode == "free" and ask.seat == JOHN and ask.private
    s, ev = play(s, JOHN, "request_support", card="conspiracy#1", target=LIZ, **{"from": [PETE]})
    assert "card" not in RULES.visible(ev[-1], PETE)["data"]
    s, _ = play(s, PETE, "grant_support")
    (choice,) = blocking(s)
    assert [o.type for o in choice.options] == ["keep_scheme"], "1 + 1 influence cannot play it"
    s, ev = play(s, JOHN, "keep_scheme")
    assert types(ev)[0] == "SupportedSchemeKept" and "conspiracy#1" in s.player(JOHN).hand


def test_the_asker_may_say_which_scheme_it_is_true_or_not(base):
    """'nor must one tell the truth about one's plans' (p. 6): the asker may name a scheme
    -- any scheme of the set -- and the asked read that name; the card stays hidden."""
    s = _turn(base, p2=dict(influence=1, hand=("conspiracy#1",)), p0=dict(influence=1))
    (ask,) = [d for d in RULES.pending(s).decisions if d.command_type == "request_support"]
    assert "conspiracy" in ask.schema["properties"]["claim"]["enum"]
    with pytest.raises(RuleViolation):
        RULES.decide(s, Command(JOHN, "request_support", {"card": "conspiracy#1", "target": LIZ, "from": [PETE],
                                                          "claim": "no_such_scheme"}))
    s, ev = play(s, JOHN, "request_support", card="conspiracy#1", target=LIZ, claim="robbery", **{"from": [PETE]})
    seen = RULES.visible(ev[-1], PETE)["data"]
    assert seen["claim"] == "robbery" and "card" not in seen and "target" not in seen
    (support,) = [d for d in RULES.pending(s).decisions if d.seat == PETE and d.prompt_key == "support"]
    assert support.prompt_args["claim"] == "robbery" and "Robbery" in support.prompt


def test_support_may_be_asked_again_after_a_refusal(base):
    """'A scheme may be supported by any number of other players' (p. 6): a refusal ends
    nothing; the dominus asks again, the same or others."""
    s = _turn(base, p2=dict(influence=4, hand=("black_market_dealings#1",)), p3=dict(influence=3))
    for answer in ("refuse_support", "grant_support"):
        s, _ = play(s, JOHN, "request_support", card="black_market_dealings#1", target=JOHN, **{"from": [LIZ]})
        s, _ = play(s, LIZ, answer)
        if answer == "refuse_support":
            s, _ = play(s, JOHN, "keep_scheme")
    s, ev = play(s, JOHN, "play_scheme", card="black_market_dealings#1", target=JOHN)
    assert [e.data["supporters"] for e in ev if e.type == "SchemePlayed"] == [[LIZ]]
    assert s.player(JOHN).gold == 10


def test_the_asker_plays_only_the_card_asked_for(base):
    """'When support is granted, both influences are added and compared to the need' (p. 6)."""
    s = _turn(base, p2=dict(influence=4, hand=("black_market_dealings#1", "a_visitor_from_rome#1")),
              p3=dict(influence=3))
    s, _ = play(s, JOHN, "request_support", card="black_market_dealings#1", target=JOHN, **{"from": [LIZ]})
    s, _ = play(s, LIZ, "grant_support")
    with pytest.raises(RuleViolation):
        play(s, JOHN, "play_scheme", card="a_visitor_from_rome#1", target=JOHN)


# ----------------------------------------------------------------------------- the rulebook's defaults

def test_no_round_limit_unless_a_group_chooses_one(base):
    """'The goal is to raise your influence to 12' (p. 3): the game ends when a dominus wins."""
    assert RULES.initial_state(4, {}).option("max_rounds") == 0
    s = replace(everyone(base, "arena_ended"), round=60)
    tx = Tx(s)
    assert not victory.end_of_phase(tx, "arena") and not tx.events
    chosen = replace(s, round=3, options=tuple((k, 3 if k == "max_rounds" else v) for k, v in s.options))
    chosen = chosen.with_player(LIZ, influence=9)
    tx = Tx(chosen)
    assert victory.end_of_phase(tx, "arena")
    assert [(e.type, e.data["winners"], e.data["how"]) for e in tx.events] == [("GameEnded", [LIZ], "round_limit")]


def test_influence_is_unbounded_unless_a_group_chooses_a_cap(base):
    """The rulebook sets no upper bound to influence; ``influence_cap`` is a house rule."""
    s = everyone(base, "intrigue_turns", p0=dict(influence=20))
    tx = Tx(s)
    ledger.gain_influence(tx, PETE, 2, "test")
    assert tx.state.player(PETE).influence == 22
    capped = replace(s, options=s.options + (("influence_cap", 20),))
    tx = Tx(capped)
    ledger.gain_influence(tx, PETE, 2, "test")
    assert tx.state.player(PETE).influence == 20 and not tx.events


def test_the_market_deck_is_refilled_from_its_discard_pile_when_the_lots_run_out(base):
    """Capua's house rule (the rulebook says so of the intrigue deck only, p. 5)."""
    s = everyone(base, "market_lots")
    s = replace(s, market=Market(), market_deck=("agron#1",), market_discard=("crixus#1", "gannicus#1", "spartacus#1"))
    s = start(s)
    assert [d for d in RULES.pending(s).decisions] == [] and RULES.pending(s).chance is not None
    s, ev = chance(s, order=[2, 0, 1])
    assert "MarketDeckShuffled" in types(ev)
    assert s.market.lots[:2] == ("agron#1", "spartacus#1")
