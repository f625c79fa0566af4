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
  the host token's price, the bets' stakes, the upkeep gold chosen),
- every gold cost of a card or a house ability that takes effect is paid in full ('any
  costs of the card must be paid at once', p. 7), never a part of it, and
- the game waits for someone (or for chance), and every blocking decision's default --
  the answer the server gives when a deadline passes -- is legal.

What it costs, measured on the project's 2-core machine (Python 3.11, one core; see
bench/RESULTS.md "Committed gold"): 0.16 to 0.25 ms a step, checks included, the more the
busier the machine.  A whole game takes about 2,150 steps (0.4 s; 8 to 27 rounds): 2,000
whole games took 845 CPU-s (4.3 million steps, no failure) -- far beyond the minute this
test may cost in the suite.  Every moment gold is committed (secret bids, ties and their stakes, the
host auction, bets, the upkeep choice) comes up in the first round, and so do card costs,
so the suite plays

- :data:`GAMES` (2,000) games cut after round :data:`ROUNDS` (1): about 137 steps each,
  45 to 60 CPU-s (the file took 62 CPU-s under a load average of 14), and
- :data:`WHOLE_GAMES` (6) games to their end (a winner at 12 influence or the
  tournament), some 3 CPU-s: what only later rounds bring (a tournament, champions,
  deeper decks and discard piles) is checked too.

``python -m bench.committed_gold`` (or ``GOLD_ROUNDS=0`` here) plays 2,000 whole games: the
sweep recorded in bench/RESULTS.md.
"""

from __future__ import annotations

import os
import random
from typing import Any, Optional

from engine.core import bots
from engine.core.errors import RuleViolation
from engine.core.game import match_decision
from engine.core.chance import RESOLVE_CHANCE, draw_outcome
from engine.core.types import SYSTEM_SEAT, Command, Decision, Pending
from engine.spartacus.game import arena_phase, effects, flow
from engine.spartacus.game.rules import RULES
from engine.spartacus.game.tx import Tx

GAMES = int(os.environ.get("GOLD_GAMES", 2_000))
ROUNDS = int(os.environ.get("GOLD_ROUNDS", 1))  # 0: every game to its end
WHOLE_GAMES = int(os.environ.get("GOLD_WHOLE_GAMES", 6))
FREE_ACTION_CHANCE = 0.35
MAX_WINDOWS = 3


#: the events :class:`Ledger` reads (and gifts while a card's cost is owed); a step without
#: one of them is not folded a second time
WATCHED = frozenset({"SealedAnswered", "SealedOpened", "AuctionWon", "HostChosen", "GoldPaid",
                     "EffectsStarted", "EffectsFinished"})


class Ledger:
    """What each seat committed, to compare with what it pays: the secret answers' gold, and
    the gold costs of the card or ability effects under way ('any costs of the card must be
    paid at once', p. 7 -- in full, or the card fizzles before anything is paid)."""

    def __init__(self) -> None:
        self.commits: dict[int, int] = {}
        self.costs: dict[tuple[int, str], tuple[str, int]] = {}
        self.checked = 0
        self.costs_checked = 0

    def watch(self, before: Any, events: list) -> None:
        """Fold ``events`` one at a time and check each committed payment as it is made."""
        if not any(event.type in WATCHED or (self.costs and event.type == "GoldGiven") for event in events):
            return
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
            elif event.type in ("GoldPaid", "GoldGiven") and self._cost_of(data) is not None:
                op, amount = self._cost_of(data)
                assert (op == "pay_gold") == (event.type == "GoldPaid"), f"a cost paid the wrong way: {data}"
                assert data["amount"] == amount, f"a card's cost paid short: {data}, owed {amount}"
                self.costs_checked += 1
            elif event.type == "EffectsFinished":
                self.costs.pop((data["seat"], data["card"]), None)
            elif event.type == "SealedOpened":
                self.commits = {}
            state = RULES.apply(state, event)
            if event.type == "EffectsStarted":
                self._owe_costs(state, state.resolutions[-1])

    def _owe_costs(self, state: Any, r: Any) -> None:
        for eff in effects.effects_of(state, r):
            if eff.get("cost") and eff["op"] in ("pay_gold", "pay_each"):
                amount = r.x if eff.get("amount") == "x" and r.source == "ability" else int(eff["amount"])
                self.costs[(r.actor, r.card)] = (eff["op"], amount)

    def _cost_of(self, data: dict) -> Optional[tuple[str, int]]:
        payer = data.get("seat", data.get("from"))
        return self.costs.get((payer, data["reason"]))


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
    for decision in pending.blocking:
        # only what blocks the game has a deadline whose default the server applies: a free
        # action (a gift, a trade, a guard laid out) is never owed, so it is never defaulted
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


def _decided(state: Any, pending: Pending, command: Command) -> Optional[tuple[Any, list]]:
    """``(state, events)`` after ``command``, or ``None`` if the game refuses it."""
    try:
        if command.seat != SYSTEM_SEAT:
            match_decision(pending, command)
        return flow.decide_and_fold(state, command)
    except RuleViolation:
        return None


def play_one(seed: int, ledger: Ledger, rounds: int = 0) -> tuple[int, int]:
    """One game, played to its end or cut after ``rounds`` rounds; returns (steps, free
    actions taken)."""
    rng = random.Random(seed)
    seats = 3 + seed % 2
    state = flow.start(RULES.initial_state(seats, {"game_length": ("quick", "standard", "long")[seed % 3]}))
    steps = free = 0
    pending = RULES.pending(state)
    while RULES.outcome(state) is None and not (rounds and state.round > rounds):
        _check(state, pending)
        if pending.chance is not None:
            command = Command(SYSTEM_SEAT, RESOLVE_CHANCE,
                              {"id": pending.chance.id, "outcome": draw_outcome(pending.chance, rng.randrange)})
            decided = _decided(state, pending, command)
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
            decided = _decided(state, pending, _answer(rng, decision))
            if decided is None:
                if decision.mode == "free":
                    continue
                decided = _decided(state, pending, decision.default)
        assert decided is not None, "a chance outcome or a default the game refuses"
        before = state
        state, events = decided
        ledger.watch(before, events)
        pending = RULES.pending(state)
        steps += 1
        assert steps < 20_000, "a game that does not move on"
    _check(state, pending)
    return steps, free


def test_no_payment_falls_short_and_no_decision_is_stuck_in_random_games():
    ledger = Ledger()
    steps = free = 0
    for seed in range(GAMES):
        s, f = play_one(seed, ledger, ROUNDS)
        steps += s
        free += f
    assert free > GAMES * 5, "the bot really gave, traded and asked"
    assert ledger.checked > GAMES, "committed payments were made and checked"
    assert ledger.costs_checked > GAMES // 20, "cards' gold costs were paid and checked"


def test_no_payment_falls_short_and_no_decision_is_stuck_in_whole_random_games():
    ledger = Ledger()
    ended = 0
    for seed in range(GAMES, GAMES + WHOLE_GAMES):
        steps, free = play_one(seed, ledger)
        assert free > steps // 10, "the bot really gave, traded and asked"
        ended += 1
    assert ended == WHOLE_GAMES
    assert ledger.checked > WHOLE_GAMES * 20 and ledger.costs_checked > WHOLE_GAMES
