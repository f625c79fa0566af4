"""Random Spartacus games with gifts, trades, withdrawals and support requests at every
legal moment: no payment falls short of its commitment, and no decision is left without a
legal answer.

'Gold can change hands between two players at any time' (rulebook p. 3), yet 'every player
takes his stake in his closed hand' (p. 10), 'equal bids: those players put their gold on
the table' (p. 10) and 'the bet is placed in its corner of the board' (p. 12): gold once
committed is set aside until the reveal.  The bot here is random and greedy for free
actions: at every step, before answering what blocks the game, it may give gold away,
propose, counter, accept, reject or withdraw a trade, or ask for support, whatever the
moment.  After every step it checks that

- every dominus holds at least the gold set aside (``committed`` + ``staked`` <= ``gold``),
- every payment that a secret answer committed to is made in full (the winning bid and
  the host token's price, the bets' stakes, the upkeep gold chosen), and
- the game waits for someone (or for chance), and every open decision's default -- the
  answer the server gives when a deadline passes -- is legal.

Games are cut after ``ROUNDS`` rounds (the test's own bound, not a game option): 2,000
whole games of random play would take far longer than the few minutes this test may
cost; every phase, and so every moment gold is committed, comes up in each round.
"""

from __future__ import annotations

import os
import random
from typing import Any

from engine.core import bots
from engine.core.errors import RuleViolation
from engine.core.game import match_decision
from engine.core.chance import RESOLVE_CHANCE, draw_outcome
from engine.core.types import SYSTEM_SEAT, Command, Decision, Pending
from engine.spartacus.game import arena_phase, flow
from engine.spartacus.game.rules import RULES
from engine.spartacus.game.tx import Tx

GAMES = int(os.environ.get('GOLD_GAMES', 2_000))
ROUNDS = 2
FREE_ACTION_CHANCE = 0.35
MAX_WINDOWS = 3


class Ledger:
    """What each seat committed with its secret answer, to compare with what it pays."""

    def __init__(self) -> None:
        self.commits: dict[int, int] = {}
        self.checked = 0

    def watch(self, before: Any, events: list) -> None:
        """Fold ``events`` one at a time and check each committed payment as it is made."""
        state = before
        for event in events:
            data = event.data
            if event.type == "SealedAnswered" and "commit" in data:
                self.commits[data["seat"]] = data["commit"]
            elif event.type == "AuctionWon":
                assert state.player(data["seat"]).gold >= data["price"], f"auction price short: {data}"
                self.checked += 1
            elif event.type == "HostChosen" and data.get("price"):
                assert state.player(data["seat"]).gold >= data["price"], f"host price short: {data}"
                self.checked += 1
            elif event.type == "GoldPaid" and data["reason"] in ("bet_stake", "upkeep"):
                assert data["amount"] == self.commits.get(data["seat"]), f"{data['reason']} short of its commitment"
                self.checked += 1
            elif event.type == "SealedOpened":
                self.commits = {}
            state = RULES.apply(state, event)


def _fighting(state: Any) -> bool:
    """A fight's own decisions are open (their legality is the arena's tests' business)."""
    return arena_phase.active_fight(state) is not None and not (state.prompts or state.windows or state.resolutions)


def _legal(state: Any, pending: Pending, command: Command, fighting: bool = False) -> bool:
    """Would the game take ``command`` now?  Its handler validates without the rest of the step."""
    try:
        match_decision(pending, command)
        if not (fighting and arena_phase.is_fight_command(state, command)):
            flow.HANDLERS[command.type](Tx(state), command)
    except RuleViolation:
        return False
    return True


def _check(state: Any, pending: Pending) -> None:
    for p in state.players:
        assert 0 <= p.committed + p.staked <= p.gold, f"seat {p.seat}: gold set aside exceeds the purse"
        assert p.free_gold == p.gold - p.committed - p.staked
    if RULES.outcome(state) is not None:
        return
    assert pending.chance is not None or pending.blocking, f"nobody owes an answer at {state.stage}"
    fighting = _fighting(state)
    for decision in pending.decisions:
        if decision.options == ():
            continue  # a free action offered to every hand (a guard to lay out) that may hold no answer
        assert _legal(state, pending, decision.default, fighting), f"the default of {decision.id} is refused"


def _answer(rng: random.Random, decision: Decision) -> Command:
    if decision.command_type == "request_support":
        # ask a random group, as a bluffer would: the schema's array is sampled too sparsely
        asked = decision.schema["properties"]["from"]["items"]["enum"]
        group = rng.sample(asked, rng.randint(1, len(asked)))
        card = rng.choice(decision.schema["properties"]["card"]["enum"])
        target = rng.choice(decision.schema["properties"]["target"]["enum"])
        return Command(decision.seat, "request_support", {"card": card, "target": target, "from": group})
    if decision.command_type == "give_gold":
        top = decision.schema["properties"]["amount"]["maximum"]
        to = rng.choice(decision.schema["properties"]["to"]["enum"])
        return Command(decision.seat, "give_gold", {"to": to, "amount": rng.randint(1, top)})
    return bots.choose(decision, rng)


def play_one(seed: int, ledger: Ledger) -> tuple[int, int]:
    """One game cut after :data:`ROUNDS` rounds; returns (steps, free actions taken)."""
    rng = random.Random(seed)
    seats = 3 + seed % 2
    state = flow.start(RULES.initial_state(seats, {"game_length": ("quick", "standard", "long")[seed % 3]}))
    steps = free = 0
    while RULES.outcome(state) is None and state.round <= ROUNDS:
        pending = RULES.pending(state)
        _check(state, pending)
        command = None
        if pending.chance is not None:
            command = Command(SYSTEM_SEAT, RESOLVE_CHANCE,
                              {"id": pending.chance.id, "outcome": draw_outcome(pending.chance, rng.randrange)})
        else:
            frees = [d for d in pending.decisions if d.mode == "free" and d.options != ()]
            # a gift that empties a purse opens a window on top of the others: the bot lets
            # a deep stack be answered before it gives again, or two domini passing one coin
            # back and forth would stack windows for ever
            if frees and len(state.windows) < MAX_WINDOWS and rng.random() < FREE_ACTION_CHANCE:
                decision = rng.choice(frees)
                free += 1
            else:
                decision = rng.choice(list(pending.blocking))
            command = _answer(rng, decision)
            if not _legal(state, pending, command, _fighting(state)):
                if decision.mode == "free":
                    continue
                command = decision.default
        if command.seat != SYSTEM_SEAT:
            match_decision(pending, command)
        before = state
        state, events = flow.decide_and_fold(state, command)
        ledger.watch(before, events)
        steps += 1
        assert steps < 20_000, "a game that does not move on"
    _check(state, RULES.pending(state))
    return steps, free


def test_no_payment_falls_short_and_no_decision_is_stuck_in_random_games():
    ledger = Ledger()
    steps = free = 0
    for seed in range(GAMES):
        s, f = play_one(seed, ledger)
        steps += s
        free += f
    assert free > GAMES * 10, "the bot really gave, traded and asked"
    assert ledger.checked > GAMES, "committed payments were made and checked"
