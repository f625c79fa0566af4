"""The bots take the obviously right move in hand-built positions: one test per piece of
game knowledge (the *easy* level answers with that knowledge alone; the searching levels
roll out with it)."""

from __future__ import annotations

import random
from dataclasses import replace

from engine import registry
from engine.core import bots
from engine.core.game import step
from engine.core.types import Command, Decision
from engine.spartacus.game.state import Entry
from tests.engine import pax_builders as pax
from tests.rom import rom_support as rom
from tests.spartacus_game import helpers as sp


def rules_step(rules, state, command):
    return step(rules, state, command)[0]


def _answer(game: str, state, decision: Decision, level: str = "easy", seed: int = 0, **kw) -> Command:
    return bots.answer(registry.get(game), registry.bot_knowledge(game), state, decision, random.Random(seed),
                       level=level, **kw)


def _every_seed(game: str, state, decision: Decision, level: str = "easy", seeds: int = 5) -> set:
    return {repr(_answer(game, state, decision, level, seed)) for seed in range(seeds)}


# --- PAX ------------------------------------------------------------------------------

def test_pax_specialises_where_a_card_lifts_it_above_rome():
    """Rulebook, Winner: "3 per category where the player is stronger than Rome"."""
    fleet = pax.card("fleet", symbols=3, price=3)
    religion = pax.card("religion", symbols=1, price=1)
    state = pax.table(2, step="lay", hands=[(fleet, religion), ()], tableaux=[pax.cards("land", 3), ()],
                      rome_open=pax.cards("fleet", 2) + pax.cards("religion", 3, symbols=2))
    decision = pax.decision(state)
    for seed in range(5):
        assert _answer("pax", state, decision, seed=seed) == Command(0, "lay_card", {"card": fleet.id})


def test_pax_buys_the_legion_rome_would_take():
    """Rulebook, End of round: "the legion with the highest sum of aurei goes to Rome"."""
    rich = (pax.card("army", symbols=3, price=4), pax.card("army", symbols=2, price=3))
    # (the fillers are land, which seat 0 does not specialise in: a cheap card of its own
    # category would rightly be worth more to it than what Rome would take)
    state = pax.table(2, step="buy", legions=[pax.filler(1), rich, pax.filler(1)], gold=[12, 5],
                      tableaux=[pax.cards("wealth", 3), pax.cards("army", 2)])
    decision = pax.decision(state)
    assert _every_seed("pax", state, decision) == {repr(Command(0, "buy_legion", {"legion": 2}))}


def test_pax_chases_primus_conspiratus_when_rome_is_strong():
    """Rulebook, Winner: if Rome wins, "the player with primus conspiratus wins"."""
    intrigue = pax.card("intrigue", symbols=3, price=2)
    land = pax.card("land", symbols=1, price=1)
    rome = (pax.cards("wealth", 2, symbols=3) + pax.cards("religion", 2, symbols=3) + pax.cards("senator", 2, symbols=3)
            + pax.cards("land", 2, symbols=2) + pax.cards("intrigue", 2, symbols=3))
    state = pax.table(2, step="lay", hands=[(intrigue, land), ()], rome_open=rome, primus=1,
                      tableaux=[(), pax.cards("intrigue", 2)])
    decision = pax.decision(state)
    for seed in range(5):
        assert _answer("pax", state, decision, seed=seed) == Command(0, "lay_card", {"card": intrigue.id})


def _rome_set_to_win():
    return (pax.cards("wealth", 2, symbols=3) + pax.cards("religion", 2, symbols=3) + pax.cards("senator", 2, symbols=3)
            + pax.cards("land", 2, symbols=2))


def test_pax_keeps_a_drawn_intrigue_card_while_behind_in_the_race():
    """Rulebook, Winner: when Rome wins "the player with primus conspiratus wins": a seat behind
    in intrigue takes a drawn intrigue card into its hand rather than a card of its own category
    (the searching levels; the card sense alone, *easy*, may keep the other)."""
    intrigue = pax.card("intrigue", symbols=2, price=2)
    fleet = pax.card("fleet", symbols=2, price=2)
    state = pax.table(2, step="draw", limbo=[(fleet, intrigue), ()], dest_left=("hand", "legion", "deck"),
                      batches_left=(), rome_open=_rome_set_to_win(), primus=1,
                      tableaux=[pax.cards("army", 2), pax.cards("intrigue", 2)])
    decision = pax.decision(state)
    keep = repr(Command(0, "assign_card", {"card": intrigue.id, "to": "hand"}))
    assert _every_seed("pax", state, decision, "normal") == {keep}


def test_pax_lays_held_intrigue_as_the_deck_runs_out():
    """Rulebook, End of the game: the game may end before the seat's next turn, and intrigue
    in hand takes no title: the searching bot lays it at once."""
    intrigue = pax.card("intrigue", symbols=1, price=1)
    fleet = pax.card("fleet", symbols=2, price=2)
    state = pax.table(2, step="lay", hands=[(fleet, intrigue), ()], deck=pax.filler(4),
                      tableaux=[pax.cards("land", 2), pax.cards("intrigue", 1)], primus=1)
    decision = pax.decision(state)
    assert _every_seed("pax", state, decision, "normal") == {repr(Command(0, "lay_card", {"card": intrigue.id}))}


def test_pax_feeds_rome_nothing_it_needs():
    """A drawn card that would tip a category to Rome does not go under the legion Rome takes."""
    drawn = pax.card("army", symbols=3, price=4)
    legions = [(pax.card("land", price=4), pax.card("land", price=4)), pax.filler(1), pax.filler(1)]
    state = pax.table(2, step="draw", limbo=[(drawn,), ()], dest_left=("legion", "deck"), batches_left=(),
                      legions=legions, rome_open=pax.cards("army", 2), tableaux=[(), pax.cards("army", 3)])
    decision = pax.decision(state)
    for seed in range(5):
        answer = _answer("pax", state, decision, seed=seed)
        assert answer.args.get("legion") != 1


# --- Rom ------------------------------------------------------------------------------

def test_rom_places_a_high_die_first_in_line():
    """Phase 3: "section I first" -- a die resolved first is worth more than one behind."""
    state = rom.placement_state(2, dice={0: (1, 2, 3, 6), 1: (4, 4, 4, 4)}, tracks={"military": [(1, [4])]}, turn=0)
    decision = rom.decision(state, 0)
    for seed in range(5):
        answer = _answer("rom", state, decision, seed=seed)
        assert answer.type == "place_die" and answer.args["value"] == 6 and answer.args["track"] != "military"


def test_rom_buys_the_arena_card_that_makes_the_best_set():
    """Arena ranks (p. 6): three different beasts (7 VP) beat three different cards (3 VP)."""
    state = rom.with_player(rom.new_game(2), 0, arena=("wolf_1", "bear_1"))
    leave = Command(0, "leave_black_market", {})
    decision = Decision(id="market:1:0", seat=0, mode="turn", prompt="buy", default=leave, options=(
        Command(0, "buy_arena_card", {"card": "gladiator_1"}), Command(0, "buy_arena_card", {"card": "lion_1"}), leave))
    for seed in range(5):
        assert _answer("rom", state, decision, seed=seed) == Command(0, "buy_arena_card", {"card": "lion_1"})


# --- Spartacus ------------------------------------------------------------------------

def _intrigue(hand: tuple[str, ...], influences: tuple[int, int, int]):
    state = sp.new_game(3)
    state = sp.hand_built(state, turn=0, p0=dict(influence=influences[0], gold=6, hand=hand, assets=()),
                          p1=dict(influence=influences[1]), p2=dict(influence=influences[2]))
    return state, sp.blocking(state)[0]


def test_spartacus_aims_a_bane_at_the_leader():
    """"The first dominus with 12 influence wins": Conspiracy (-2 influence) goes to the leader."""
    state, decision = _intrigue(("conspiracy#1",), (8, 10, 4))
    for seed in range(5):
        answer = _answer("spartacus", state, decision, seed=seed)
        assert answer == Command(0, "play_scheme", {"card": "conspiracy#1", "target": 1})


def test_spartacus_keeps_a_boon_for_its_own_house():
    state, decision = _intrigue(("favour_of_the_magistrate#1",), (10, 9, 4))
    for seed in range(5):
        answer = _answer("spartacus", state, decision, seed=seed)
        assert answer == Command(0, "play_scheme", {"card": "favour_of_the_magistrate#1", "target": 0})


def test_spartacus_search_plays_the_winning_scheme():
    """At 10 influence, +2 to its own house wins: over its turn the search plays it."""
    state, _ = _intrigue(("favour_of_the_magistrate#1", "hidden_coffers#1"), (10, 9, 4))
    rules = registry.get("spartacus")
    for _ in range(12):
        if state.turn is None or state.turn.seat != 0:
            break
        decision = sp.blocking(state)[0]
        if decision.seat == 0:
            command = _answer("spartacus", state, decision, level="normal", iterations=30)
        else:
            command = decision.default
        state = rules_step(rules, state, command)
    assert state.player(0).influence >= 12


def test_spartacus_bids_what_a_lot_is_worth_within_its_purse():
    """Market (p. 9): a bid is paid in gold; the bot keeps back its upkeep and bids up to
    about the lot's worth, never more than it has."""
    state = sp.new_game(3)
    state = sp.hand_built(state, stage="market", p0=dict(gold=9))
    from engine.spartacus.game.state import Auction, Market
    lot = "thraex#1"
    state = replace(state, market=Market(lots=(lot,), auction=Auction(host=False, lot=lot, bidders=(0, 1, 2))))
    schema = {"type": "object", "required": ["amount"], "additionalProperties": False,
              "properties": {"amount": {"type": "integer", "minimum": 0, "maximum": 9}}}
    decision = Decision(id="bid:1:thraex#1:1:0", seat=0, mode="simultaneous", prompt="bid", schema=schema,
                        command_type="place_bid", default=Command(0, "place_bid", {"amount": 0}), prompt_key="bid")
    value = state.cards.market_card(lot).value
    amounts = {_answer("spartacus", state, decision, seed=seed).args["amount"] for seed in range(8)}
    assert all(0 < a <= min(9, round(value * 1.2)) for a in amounts), amounts


def test_spartacus_bets_on_its_own_fighter():
    """Bets (p. 12): a dominus with a fighter in the games backs it."""
    state = sp.new_game(3)
    state = sp.hand_built(state, stage="arena", p1=dict(gold=10))
    from engine.spartacus.game.state import Arena
    state = replace(state, arena=Arena(entries=(Entry(0, "thraex#1"), Entry(1, "murmillo#1"))))
    props = {k: {"type": "integer", "minimum": 0, "maximum": 3} for k in ("winner_i", "winner_ii", "injury", "decapitation")}
    decision = Decision(id="bets:1:1", seat=1, mode="simultaneous", prompt="bets", prompt_key="bets",
                        schema={"type": "object", "additionalProperties": False, "properties": props},
                        command_type="place_bets", default=Command(1, "place_bets", {}))
    for seed in range(5):
        answer = _answer("spartacus", state, decision, seed=seed)
        assert set(answer.args) == {"winner_ii"} and answer.args["winner_ii"] > 0


def test_spartacus_declines_support_to_the_leader():
    """Support (p. 8): the asked dominus does not help a house about to win."""
    state = sp.new_game(3)
    state = sp.hand_built(state, turn=1, p0=dict(influence=4), p1=dict(influence=9, hand=("favour_of_the_magistrate#1",)))
    state, _ = sp.play(state, 1, "request_support", card="favour_of_the_magistrate#1", target=1, **{"from": [0]})
    decision = next(d for d in sp.interrupts(state) if d.seat == 0)
    for level in ("easy", "normal", "hard"):
        assert _answer("spartacus", state, decision, level=level, iterations=4).type == "refuse_support"


def test_spartacus_fights_by_its_plan():
    """A fight step is answered as the fighter's standing plan suggests."""
    suggested = {"seat": 0, "type": "attack", "args": {"style": "normal"}}
    end = Command(0, "end_turn", {})
    decision = Decision(id="f1:turn:1:0:-", seat=0, mode="turn", prompt="fight", default=end,
                        options=(end, Command(0, "attack", {"style": "normal"})), context={"suggested": suggested})
    state = sp.new_game(3)
    assert _answer("spartacus", state, decision) == Command(0, "attack", {"style": "normal"})
