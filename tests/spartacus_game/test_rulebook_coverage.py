"""Rules of the German Spartacus rulebook that no other test covered (docs/rules-coverage-spartacus.md).

One test per rule, on a hand-built state, with the rulebook sentence quoted (its line in
``shared/seeds/spartacus-rules-de.txt``).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.core.errors import RuleViolation
from engine.spartacus.game.flow import start
from engine.spartacus.game.rules import RULES
from engine.spartacus.game.state import Arena, Entry, Market
from tests.spartacus_game.helpers import (
    HOUSES,
    assets,
    blocking,
    chance,
    hand_built,
    new_game,
    play,
    types,
)
from tests.spartacus_game.test_rules import everyone

PETE, SALLY, JOHN, LIZ = 0, 1, 2, 3


@pytest.fixture(scope="module")
def base():
    return new_game(4)


def _dealt(options=None, rolls=(2, 5, 3, 1)):
    """A new game of four: the rolls decide the house order; returns the state and the deal's events."""
    s = RULES.initial_state(4, options or {})
    s, _ = chance(s, rolls=list(rolls))
    order = list(s.chooser_order)
    for seat, house in zip(order, HOUSES):
        s, _ = play(s, seat, "choose_house", house=house)
    request = RULES.pending(s).chance
    return chance(s, **{k: list(range(v.n)) for k, v in request.draws.items()})


# ----------------------------------------------------------------------------- setup (p. 3)


def test_the_highest_roll_chooses_a_house_first_and_takes_the_host_marker_then_clockwise():
    """L242-250: "Jeder Dominus würfelt mit einem Würfel. Der Spieler mit der höchsten Augenzahl
    wählt eine Hauskarte ... Außerdem erhält er die "Veranstalter"-Marke. Im Uhrzeigersinn
    wählen dann die verbleibenden Spieler ihr Haus." """
    s = RULES.initial_state(4, {})
    s, events = chance(s, rolls=[2, 5, 3, 1])
    assert s.host == SALLY and s.chooser_order == (SALLY, JOHN, LIZ, PETE)
    for seat, house in zip((SALLY, JOHN, LIZ, PETE), HOUSES):
        (d,) = blocking(s)
        assert d.seat == seat and d.command_type in ("", "choose_house")
        s, _ = play(s, seat, "choose_house", house=house)
    assert [p.house for p in s.players] == ["solonius", "batiatus", "glaber", "tullius"]


def test_a_tie_for_the_highest_roll_is_rolled_again_among_the_tied():
    """L242-246 names no tie: Capua lets the tied dominus roll again, as the host auction's
    dice do (L1033: "Bei Gleichstand wird so lange weiter gewürfelt bis einer gewonnen hat")."""
    s = RULES.initial_state(4, {})
    s, _ = chance(s, rolls=[6, 2, 6, 1])
    request = RULES.pending(s).chance
    assert request is not None and request.draws["rolls"].count == 2
    s, _ = chance(s, rolls=[3, 4])
    assert s.host == JOHN and s.chooser_order[0] == JOHN


def test_every_dominus_gets_the_assets_of_his_house_card_and_his_guards_lie_on_the_table():
    """L256-258: "Jeder Spieler erhält so viele Sklaven, Gladiatoren, Wachen und Gold, wie auf
    der Hauskarte angegeben." L274-279: "Zu Spielbeginn müssen Wachen offen auf dem Tisch ...
    platziert werden und dürfen nicht auf der Hand verbleiben." """
    s, events = _dealt()
    (setup,) = [e for e in events if e.type == "GameSetUp"]
    for seat, dealt in setup.data["players"].items():
        house = s.cards.house(s.player(int(seat)).house)
        kinds = [kind for _, kind in dealt["assets"]]
        assert dealt["gold"] == house.gold
        assert (kinds.count("gladiator"), kinds.count("slave"), kinds.count("guard")) == (
            house.gladiators, house.slaves, house.guards)
        assert s.player(int(seat)).hand == ()  # the guards are property on the table, not in the hand


def test_starting_gladiators_and_slaves_come_from_their_own_stacks_and_the_rest_joins_the_market_deck():
    """L261-269: "Sortiere die weiß-umrandeten "Startgladiatoren" und "Startsklaven" aus dem
    Marktdeck ... Überzählige Gladiatoren- und Sklavenkarten werden wieder in das
    Marktkartendeck gemischt." """
    s, events = _dealt()
    (setup,) = [e for e in events if e.type == "GameSetUp"]
    dealt = [card for p in setup.data["players"].values() for card, kind in p["assets"] if kind != "guard"]
    assert all(s.cards.market_card(card).starting for card in dealt)
    starting = [c for c in s.cards.market_instances() if s.cards.market_card(c).starting]
    left_over = set(starting) - set(dealt)
    assert left_over and left_over <= set(setup.data["market_deck"])


@pytest.mark.parametrize("length,influence", [("quick", 7), ("standard", 4), ("long", 1)])
def test_the_kind_of_game_sets_the_start_influence(length, influence):
    """L294-308: "Schnelles Spiel: Jeder Spieler startet mit 7 Einflusspunkten ... Standard
    Spiel: ... 4 Einflusspunkten ... Langes Spiel: ... nur 1 Einflusspunkt." """
    s, _ = _dealt({"game_length": length})
    assert [p.influence for p in s.players] == [influence] * 4


def test_the_discard_piles_lie_face_up_for_everyone():
    """L314-316: "Abgeworfene Karten werden jeweils mit der Textseite nach oben neben den
    Kartenstapeln abgelegt." """
    s = everyone(new_game(4), "intrigue_turns", turn=PETE, p0=dict(hand=("robbery#1",)))
    s, _ = play(s, PETE, "sell_intrigue_card", card="robbery#1")
    s = replace(s, market_discard=("agron#1",))
    for viewer in (PETE, SALLY, None):
        view = RULES.view(s, viewer)
        assert view["intrigue_discard"][-1] == "robbery#1" and view["market_discard"] == ["agron#1"]


# ----------------------------------------------------------------------------- upkeep (p. 4)


def test_upkeep_first_readies_every_uninjured_exhausted_card():
    """L347-351: "Zu Beginn der Unterhaltsphase werden alle unverletzten Eigentumskarten, welche
    den Status "erschöpft" aufweisen, wieder bereit gemacht." The injured stay exhausted."""
    s = hand_built(new_game(4), stage="round_start", p0=dict(gold=5, hand=(), assets=assets(
        ("thraex#1", "gladiator", {"exhausted": True}), ("house-slave#1", "slave", {"exhausted": True}),
        ("murmillo#1", "gladiator", {"exhausted": True, "injured": True}))))
    s = start(s)
    me = s.player(PETE)
    assert me.asset("thraex#1").ready and me.asset("house-slave#1").ready
    assert not me.asset("murmillo#1").ready and RULES.pending(s).chance is not None  # its healing roll


@pytest.mark.parametrize("roll,outcome", [(6, "healed"), (4, "healed"), (3, "injured"), (2, "injured"),
                                          (1, "dead")])
def test_a_healing_roll_heals_on_four_to_six_keeps_the_wound_on_two_or_three_and_kills_on_one(roll, outcome):
    """L358-370: "Bei einem Wurfergebnis von 4, 5 oder 6 wird der "Verletzt"-Marker entfernt und
    die Karte wieder bereit gemacht. Bei einem Wurf von 2 oder 3 bleibt der Gladiator/Sklave für
    die folgende Runde verletzt ... Bei einem Wurf von 1 ist der Gladiator/Sklave seinen
    Verletzungen erlegen und wird neben dem Marktkartenstapel abgelegt." """
    s = hand_built(new_game(4), stage="round_start", p0=dict(gold=5, hand=(), assets=assets(
        ("murmillo#1", "gladiator", {"exhausted": True, "injured": True}))))
    s, _ = chance(start(s), rolls=[roll])
    fighter = s.player(PETE).asset("murmillo#1")
    if outcome == "healed":
        assert fighter.ready and not fighter.injured
    elif outcome == "injured":
        assert fighter.injured and not fighter.ready
    else:
        assert fighter is None and "murmillo#1" in s.market_discard


# ----------------------------------------------------------------------------- intrigue phase (p. 5-8)


def test_every_dominus_draws_three_intrigue_cards_at_the_start_of_the_phase_the_host_first():
    """L468-471: "Zu Beginn der Intrigenphase zieht jeder Spieler 3 Karten vom Intrigendeck (dies
    kann dazu führen, dass die Handkarten über das Maximum an Handkarten steigen)." """
    s = start(replace(everyone(new_game(4), "upkeep_done"), host=JOHN))
    assert [len(p.hand) for p in s.players] == [3, 3, 3, 3]
    deck = new_game(4).intrigue_deck
    assert s.player(JOHN).hand == deck[:3] and s.player(LIZ).hand == deck[3:6]  # the host first, clockwise


def test_an_empty_intrigue_deck_is_refilled_from_its_shuffled_discard_pile():
    """L472-476: "Wenn während des Spiels die Karten des Intrigendecks aufgebraucht sind, wird der
    entsprechende Ablagestapel wieder gemischt und als neuer Kartenstapel genutzt." """
    s = everyone(new_game(4), "upkeep_done")
    pile = s.intrigue_deck[:12]
    s = start(replace(s, host=PETE, intrigue_deck=s.intrigue_deck[12:15], intrigue_discard=pile))
    request = RULES.pending(s).chance
    assert request is not None and request.draws["order"].n == 12
    s, events = chance(s, order=list(range(11, -1, -1)))
    assert "IntrigueDeckShuffled" in types(events)
    assert s.player(SALLY).hand == (pile[11], pile[10], pile[9])
    assert [len(p.hand) for p in s.players] == [3, 3, 3, 3] and s.intrigue_discard == ()


def test_the_host_plays_the_first_intrigue_turn_then_the_others_clockwise():
    """L498-503: "Hat jeder Spieler 3 Karten gezogen, beginnt der Dominus mit dem
    "Veranstalter"-Marker mit der Intrigenphase ... die übrigen Spieler ... im Uhrzeigersinn." """
    s = start(replace(everyone(new_game(4), "upkeep_done"), host=LIZ))
    order = []
    for _ in range(4):
        (d,) = blocking(s)
        order.append(d.seat)
        while len(s.player(d.seat).hand) > 0:  # sell down so that ending the turn is final
            s, _ = play(s, d.seat, "sell_intrigue_card", card=s.player(d.seat).hand[0])
        s, _ = play(s, d.seat, "end_turn")
    assert order == [LIZ, PETE, SALLY, JOHN]


def test_an_intrigue_card_sells_for_the_gold_value_printed_on_it():
    """L535-542: "Intrigenkarten können für den Wert am unteren Rand der Karte verkauft werden.
    Die Karte wird aufgedeckt auf den Ablagestapel gelegt und der Spieler erhält den
    entsprechenden Goldwert." """
    s = everyone(new_game(4), "intrigue_turns", turn=PETE, p0=dict(hand=("insider_information#1",), gold=2))
    value = s.cards.intrigue_card("insider_information#1").gold
    s, events = play(s, PETE, "sell_intrigue_card", card="insider_information#1")
    assert s.player(PETE).gold == 2 + value and value > 0
    assert s.player(PETE).hand == () and "insider_information#1" in s.intrigue_discard
    assert any(e.type == "IntrigueCardSold" for e in events)


def test_indus_looks_at_a_random_hand_card_of_an_opponent_and_only_his_dominus_sees_it():
    """L521-524: "Die Sonderfähigkeit von Indus erlaubt es einen Blick auf eine zufällige
    Handkarte eines Gegners zu werfen." The card looked at is drawn by chance and shown to
    Indus's dominus alone."""
    s = everyone(new_game(4), "intrigue_turns", turn=PETE, p0=dict(assets=assets(("indus#1", "slave"))),
                 p2=dict(hand=("robbery#1", "destitute#1", "guard#7")))
    s, _ = play(s, PETE, "use_card_ability", card="indus#1", ability=0, target=JOHN)
    assert not s.player(PETE).asset("indus#1").ready
    request = RULES.pending(s).chance
    assert request is not None and request.draws["card"].n == 3
    s, events = chance(s, card=1)
    (seen,) = [e for e in events if e.type == "HandCardPeeked"]
    assert seen.data == {"seat": PETE, "at": JOHN, "card": "destitute#1"}
    assert "destitute#1" in str(RULES.view(s, PETE)["turn"])
    for viewer in (SALLY, LIZ, None):
        assert "destitute#1" not in str(RULES.visible(seen, viewer))


def test_a_guard_kept_in_the_hand_counts_against_the_hand_limit():
    """L757-761: "Auf der Hand ist eine Wache nützlich, um die Mitspieler über die eigene
    Verteidigung im Unklaren zu lassen (Allerdings zählen sie dann auch gegen das
    Handkartenlimit)." Influence 4 allows Batiatus 4 cards: four guards and a fifth card are one
    too many; a guard laid on the table is not."""
    hand = ("guard#7", "guard#8", "guard#9", "guard#10", "robbery#1")
    s = everyone(new_game(4), "intrigue_turns", turn=PETE, p0=dict(hand=hand))
    s2, events = play(s, PETE, "end_turn")
    assert "HandLimitEnforced" in types(events)
    s3, _ = play(s, PETE, "place_guard", card="guard#7")
    s3, events = play(s3, PETE, "end_turn")
    assert "IntrigueTurnEnded" in types(events) and len(s3.player(PETE).hand) == 4


def test_a_scheme_needs_influence_equal_to_or_above_its_requirement():
    """L562-570: "Jede Machenschaft erfordert einen bestimmten Einflusswert ... Ist der
    gegenwärtige Wert an Einfluss gleich oder größer als dieser Wert, kann die Machenschaft
    gespielt werden." Insider Information needs 6."""
    card = "insider_information#1"
    for influence, allowed in ((6, True), (5, False)):
        s = everyone(new_game(4), "intrigue_turns", turn=PETE, p0=dict(hand=(card,), influence=influence),
                     p1=dict(influence=0), p2=dict(influence=0), p3=dict(influence=0))
        offered = [c for d in blocking(s) for c in d.options if c.type == "play_scheme"]
        assert bool(offered) is allowed
        if not allowed:
            with pytest.raises(RuleViolation):
                play(s, PETE, "play_scheme", card=card, target=PETE)


def test_house_abilities_are_used_only_in_the_intrigue_phase():
    """L545-547: "Jedes Haus besitzt Sonderregeln, welche nur während der Intrigenphase genutzt
    werden dürfen." Batiatus may exhaust two gladiators for 2 gold in his intrigue turn, not
    in the market."""
    glads = assets(("thraex#1", "gladiator"), ("murmillo#1", "gladiator"))
    s = everyone(new_game(4), "intrigue_turns", turn=PETE, p0=dict(assets=glads))
    assert s.player(PETE).house == "batiatus"
    s2, _ = play(s, PETE, "use_house_ability", ability="batiatus_training", x=0)
    assert s2.player(PETE).gold == 7
    market = start(replace(everyone(new_game(4), "market_open", p0=dict(assets=glads)), market=Market()))
    assert not [c for d in RULES.pending(market).decisions if d.seat == PETE for c in (d.options or ())
                if c.type == "use_house_ability"]
    with pytest.raises(RuleViolation):
        play(market, PETE, "use_house_ability", ability="batiatus_training", x=0)


def test_property_does_not_change_hands_in_the_intrigue_phase():
    """L510-511: "Eigentumskarten dürfen in der Phase nicht den Besitzer wechseln." """
    s = everyone(new_game(4), "intrigue_turns", turn=PETE, p0=dict(assets=assets(("thraex#1", "gladiator"))))
    offered = {c.type for d in RULES.pending(s).decisions for c in (d.options or ())}
    kinds = {d.command_type for d in RULES.pending(s).decisions}
    assert "propose_trade" not in offered | kinds
    with pytest.raises(RuleViolation):
        play(s, PETE, "propose_trade", to=SALLY, give=["thraex#1"], take=[], gold=-3)


# ----------------------------------------------------------------------------- market phase (p. 9-11)


def _to_the_lots(base, **players):
    s = everyone(base, "market_open", **players)
    s = start(replace(s, market=Market()))
    for seat in range(4):
        s, _ = play(s, seat, "hide_gold")
    return s


def test_an_auction_lays_out_one_card_per_player_face_down_and_reveals_them_one_at_a_time():
    """L920-931: "Zu Beginn der Auktion wird eine Anzahl Karten (entsprechend der Anzahl der
    Mitspieler) vom Marktkartenstapel verdeckt auf dem Spielbrett aufgereiht. Die erste Karte
    wird offen hingelegt ... Dann wird die nächste Karte der Reihe aufgedeckt." """
    s = _to_the_lots(new_game(4))
    lots = s.market.lots
    assert len(lots) == 4
    view = RULES.view(s, None)
    assert lots[1] not in str(view) and lots[2] not in str(view)  # the rest lie face down
    assert s.market.auction.lot == lots[0]
    for seat in range(4):
        s, events = play(s, seat, "place_bid", amount=0)
    assert "LotRevealed" in types(events) and s.market.auction.lot == lots[1]


def test_the_highest_secret_bid_takes_the_card_and_pays_the_bank_the_others_keep_their_gold():
    """L938-943: "Der Spieler mit dem höchsten Gebot gewinnt die Auktion, zahlt das Gold an die
    Bank und nimmt sich die Eigentumskarte. Die übrigen Bieter behalten ihr Gold." """
    s = _to_the_lots(new_game(4))
    lot = s.market.auction.lot
    for seat, bid in enumerate([1, 4, 2, 0]):
        s, events = play(s, seat, "place_bid", amount=bid)
    assert [e.data for e in events if e.type == "AuctionWon"][0]["seat"] == SALLY
    assert [p.gold for p in s.players] == [5, 1, 5, 5]
    assert s.player(SALLY).asset(lot) is not None


def test_the_host_auction_winner_pays_takes_the_marker_and_opens_the_next_intrigue_phase():
    """L1012-1025: "der Sieger zahlt das eingesetzte Gold an die Bank. Dafür erhält er den
    "Veranstalter"-Marker ... Der Spieler mit dem höchsten Gebot ist der Veranstalter der Spiele
    und handelt in der nächsten Intrigenphase zuerst." """
    s = everyone(new_game(4), "market_open")
    s = start(replace(s, host=PETE, market=Market(lots_laid=True)))
    for seat in range(4):
        s, _ = play(s, seat, "hide_gold")
    for seat, bid in enumerate([2, 0, 3, 1]):
        s, events = play(s, seat, "place_bid", amount=bid)
    assert [e.data for e in events if e.type == "HostChosen"] == [{"seat": JOHN, "price": 3, "how": "auction"}]
    assert s.host == JOHN and s.player(JOHN).gold == 2 and s.player(PETE).gold == 5
    s = start(everyone(s, "upkeep_done", p0=dict(gold=s.player(PETE).gold), p2=dict(gold=2)))
    (d,) = blocking(s)
    assert d.seat == JOHN and d.id.startswith("intrigue_turn:")


def test_gold_is_hidden_only_from_the_end_of_trading_until_the_host_is_chosen():
    """L896-902: "nimmt jeder Spieler sein Gold und verbirgt es ... Dies ist der einzige Moment im
    Spiel, in dem die Spieler ihren Goldvorrat verbergen dürfen." L1057-1060: once the host is
    chosen, "platzieren die Spieler ihr Gold in den Schatztruhen ihrer jeweiligen Hauskarten"."""
    s = everyone(new_game(4), "market_open")
    assert RULES.view(s, SALLY)["players"][PETE]["gold"] == 5  # open while trading
    s = start(replace(s, host=PETE, market=Market(lots_laid=True)))
    for seat in range(4):
        s, _ = play(s, seat, "hide_gold")
    assert RULES.view(s, SALLY)["players"][PETE]["gold"] is None
    assert RULES.view(s, PETE)["players"][PETE]["gold"] == 5
    for seat, bid in enumerate([2, 0, 0, 0]):
        s, events = play(s, seat, "place_bid", amount=bid)
    assert "GoldRevealed" in types(events)
    assert RULES.view(s, SALLY)["players"][PETE]["gold"] == 3


# ----------------------------------------------------------------------------- arena phase (p. 11-13)


def test_all_bets_are_placed_at_once_and_stay_secret_until_everyone_has_bet():
    """L1228-1233: "Die Wetten aller Spieler werden gleichzeitig platziert." Capua asks everyone
    at once, in secret; nobody sees another's bet before all are in."""
    s = start(replace(everyone(new_game(4), "arena", p0=dict(assets=assets(("thraex#1", "gladiator"))),
                               p1=dict(assets=assets(("murmillo#1", "gladiator")))),
                      host=JOHN, arena=Arena(honoured=True, invited=(PETE, SALLY), entries=(
                          Entry(PETE, "thraex#1"), Entry(SALLY, "murmillo#1")))))
    bets = [d for d in blocking(s) if d.command_type == "place_bets"]
    assert sorted(d.seat for d in bets) == [PETE, SALLY, JOHN, LIZ] and {d.mode for d in bets} == {"simultaneous"}
    s, events = play(s, LIZ, "place_bets", decapitation=3)
    (answered,) = [e for e in events if e.type == "SealedAnswered"]
    for viewer in (PETE, SALLY, JOHN, None):
        assert "decapitation" not in str(RULES.visible(answered, viewer))
        assert "decapitation" not in str(RULES.view(s, viewer).get("sealed", {}))


def test_the_host_gains_one_influence_for_presiding_over_the_games():
    """L1093-1097: "Der Dominus, der die Spiele veranstaltet ... erhält 1 Einflusspunkt für den
    Vorsitz über die Spiele." """
    s = start(replace(everyone(new_game(4), "arena"), host=LIZ, arena=Arena()))
    assert [p.influence for p in s.players] == [4, 4, 4, 5]


def test_the_first_fighter_stands_on_hex_one_the_second_on_hex_two_each_with_one_card_of_each_kind():
    """L1113-1132: "wählt er einen Kämpfer seines Hauses und platziert seine Gladiatorenfigur auf
    dem Feld "I" ... (maximal eine Karte jeden Typs: Waffe, Rüstung und Spezialausrüstung) ...
    Der eingeladene Dominus ... stellt seine Gladiatorenfigur auf das Feld "II"." """
    kit = assets(("thraex#1", "gladiator"), ("trident#1", "weapon"), ("sword#1", "weapon"),
                 ("helmet#1", "armour"), ("javelin#1", "special"))
    s = start(replace(everyone(new_game(4), "arena", p1=dict(assets=kit),
                               p2=dict(assets=assets(("murmillo#1", "gladiator")))), host=PETE, arena=Arena()))
    s, _ = play(s, PETE, "invite", seat=SALLY)
    (d,) = blocking(s)
    accepts = [c.args for c in d.options if c.type == "accept_invitation"]
    assert {"fighter": "thraex#1", "weapon": "trident#1", "armour": "helmet#1", "special": "javelin#1"} in accepts
    assert all(set(a) == {"fighter", "weapon", "armour", "special"} for a in accepts)  # one card per kind
    s, events = play(s, SALLY, "accept_invitation", fighter="thraex#1", weapon="trident#1", armour="helmet#1",
                     special="javelin#1")
    assert [e.data["position"] for e in events if e.type == "InvitationAccepted"] == ["I"]
    s, _ = play(s, PETE, "invite", seat=JOHN)
    s, events = play(s, JOHN, "accept_invitation", fighter="murmillo#1", weapon="", armour="", special="")
    assert [e.data["position"] for e in events if e.type == "InvitationAccepted"] == ["II"]
    assert [e.seat for e in s.arena.entries] == [SALLY, JOHN]


def test_a_slave_may_be_sent_to_the_games_as_a_fighter():
    """L1107-1110: "In den Regeln steht "Kämpfer" sowohl für Gladiatoren, wie auch für Sklaven.
    Alle Regeln gelten somit für die Gladiatoren und die Sklaven." """
    s = start(replace(everyone(new_game(4), "arena", p1=dict(assets=assets(("house-slave#1", "slave")))),
                      host=PETE, arena=Arena()))
    s, _ = play(s, PETE, "invite", seat=SALLY)
    (d,) = blocking(s)
    assert [c.args["fighter"] for c in d.options if c.type == "accept_invitation"] == ["house-slave#1"]
    s, _ = play(s, SALLY, "accept_invitation", fighter="house-slave#1", weapon="", armour="", special="")
    assert s.arena.entries[0].fighter == "house-slave#1"


def test_property_does_not_change_hands_in_the_arena_phase_but_gold_does():
    """L1134-1137: "Zwar kann Gold zu jeder Zeit den Besitzer wechseln, Eigentumskarten können
    jedoch nicht in der Arena Phase gehandelt werden." """
    s = start(replace(everyone(new_game(4), "arena", p1=dict(assets=assets(("thraex#1", "gladiator")))),
                      host=PETE, arena=Arena()))
    with pytest.raises(RuleViolation):
        play(s, SALLY, "propose_trade", to=JOHN, give=["thraex#1"], take=[], gold=-3)
    s, _ = play(s, SALLY, "give_gold", to=JOHN, amount=2)
    assert s.player(JOHN).gold == 7


# ----------------------------------------------------------------------------- what Capua adds


def test_two_players_only_with_the_two_player_variant():
    """The rulebook is for 3-4 players (L242-250: the rolls, the four houses); a game of two is
    Capua's option ``two_player_variant``, off unless the group chooses it."""
    assert tuple(RULES.seat_counts({})) == (3, 4)
    assert tuple(RULES.seat_counts({"two_player_variant": True})) == (2, 3, 4)
    with pytest.raises(RuleViolation):
        RULES.initial_state(2, {})
    s = RULES.initial_state(2, {"two_player_variant": True})
    s, _ = chance(s, rolls=[3, 5])
    assert s.host == 1 and s.chooser_order == (1, 0)
