"""What a Spartacus bot knows: hiding what its seat cannot see, and a dominus's sense.

Game sense the search's rollouts play with (rulebook p. 6-13), from the greedy heuristic
(:mod:`engine.spartacus.game.heuristic`), which is also the whole of the *easy* level:

- **bids**: up to about a lot's worth to the house, keeping its upkeep back; the search
  compares bidding nothing, half, most, all or more than that worth;
- **schemes**: boons on the bot's own house, banes on the dominus closest to 12 influence
  ("the first dominus with 12 influence wins"); reactions and guards against what hurts it;
- **support**: asked for support, a dominus declines a house near 12 influence (the
  scheme's target is hidden from it, and may be its own house); this is answered by rule;
- **bets**: a stake on the bot's own fighter, else on the stronger one, or none when gold
  is short; the search compares staking nothing, a little or more;
- **the fight plan**: fight decisions carry the engine's suggested move for the fighter's
  standing plan (:mod:`engine.spartacus.arena.policy`), which the bot follows.

A position is judged by influence (12 wins), gold, fighters and cards in hand.

Hidden from a seat (``views``): every other hand (its size is public), the intrigue deck,
the market deck and the face-down lots, other seats' sealed answers (bids, bets, upkeep),
gold hidden during the market (the amount shown when it was hidden stands in), another
turn's support card, target and peeks, and the other fighter's plan and secret choices.
The redaction pools the unseen cards, sorted, and withdraws the secret answers; a world
deals the pools out again at random.
"""

from __future__ import annotations

import math
from typing import Any, Callable, Optional

from engine.core.search import Budget
from engine.core.types import Command, Decision
from engine.spartacus.arena.bot import redact_fight
from engine.spartacus.game import flow
from engine.spartacus.game.heuristic import HeuristicBot
from engine.spartacus.game.state import GameState, evolve

#: Search budgets per level.  A Spartacus game is long (thousands of steps), so rollouts
#: stop after ``depth`` decisions and the position is evaluated.
BUDGETS = {
    "normal": Budget(iterations=16, depth=16),
    "hard": Budget(iterations=48, depth=24),
}

#: Decisions the bot answers by rule, without search: support (the scheme's target is
#: hidden from the asked dominus), and fight steps (the fighter's plan answers them).
_BY_RULE = ("support", "hide_gold")

WIN_INFLUENCE = 12


# --- hiding and dealing ---------------------------------------------------------------

Order = Callable[[list], list]


def _reshuffle(state: GameState, seat: int, order: Order) -> GameState:
    others = [p.seat for p in state.players if p.seat != seat]
    pool = list(state.intrigue_deck) + [c for o in others for c in state.player(o).hand]
    pool = order(pool)
    at = len(state.intrigue_deck)
    intrigue_deck = tuple(pool[:at])
    players = list(state.players)
    for o in others:
        size = len(players[o].hand)
        # another seat's secret answer is withdrawn below, and with it the gold it set aside
        changes: dict[str, Any] = {"hand": tuple(pool[at:at + size]), "committed": 0}
        at += size
        if players[o].gold_hidden and state.market is not None:
            shown = dict(state.market.hidden_at).get(o)
            if shown is not None:
                changes["gold"] = shown
        players[o] = evolve(players[o], **changes)
    out = evolve(state, intrigue_deck=intrigue_deck, players=tuple(players))
    out = _reshuffle_market(out, order)
    if state.sealed is not None:
        out = evolve(out, sealed=evolve(state.sealed, answers=tuple(a for a in state.sealed.answers if a[0] == seat)))
    if any(w.answers for w in state.windows):  # reactions together: another seat's sealed answer
        out = evolve(out, windows=tuple(evolve(w, answers=tuple(a for a in w.answers if a[0] == seat))
                                        for w in state.windows))
    if state.turn is not None and state.turn.seat != seat:
        support = state.turn.support
        if support is not None:
            support = evolve(support, card="", target=-1)
        out = evolve(out, turn=evolve(state.turn, peeks=(), asked_with=(), support=support))
    if state.prompts:
        out = evolve(out, prompts=tuple(_prompt_for(out, p, seat) for p in state.prompts))
    return _redact_fights(out, seat)


def _reshuffle_market(state: GameState, order: Order) -> GameState:
    m = state.market
    if m is None or not m.lots:
        return evolve(state, market_deck=tuple(order(list(state.market_deck))))
    face_up = m.auction.lot if m.auction is not None else ""
    hidden_lots = [i for i, c in enumerate(m.lots) if c != face_up]
    pool = order(list(state.market_deck) + [m.lots[i] for i in hidden_lots])
    lots = list(m.lots)
    for i, card in zip(hidden_lots, pool[len(state.market_deck):]):
        lots[i] = card
    return evolve(state, market_deck=tuple(pool[:len(state.market_deck)]), market=evolve(m, lots=tuple(lots)))


def _prompt_for(state: GameState, prompt: Any, seat: int) -> Any:
    """Another dominus's prompt over their own hand lists the hand as redacted."""
    if prompt.seat == seat or prompt.kind not in ("discard_hand", "replace_hand"):
        return prompt
    hand = state.player(prompt.seat).hand
    return evolve(prompt, options=tuple(hand))


def _redact_fights(state: GameState, seat: int) -> GameState:
    if state.arena is not None and state.arena.fight is not None:
        state = evolve(state, arena=evolve(state.arena, fight=redact_fight(state.arena.fight, seat)))
    if state.tournament is not None and state.tournament.fight is not None:
        state = evolve(state, tournament=evolve(state.tournament, fight=redact_fight(state.tournament.fight, seat)))
    return state


def redact(state: GameState, seat: int) -> GameState:
    """``state`` as ``seat`` knows it (see the module docstring)."""
    if not state.players:
        return state
    return _reshuffle(state, seat, sorted)


def determinize(redacted: GameState, seat: int, rng: Any) -> GameState:
    if not redacted.players:
        return redacted

    def shuffled(pool: list) -> list:
        pool = list(pool)
        rng.shuffle(pool)
        return pool
    return _reshuffle(redacted, seat, shuffled)


# --- judging --------------------------------------------------------------------------

def _strength(state: GameState, seat: int) -> float:
    p = state.player(seat)
    fighters = sum(1.0 if a.kind == "gladiator" else 0.35 for a in p.assets if a.kind in ("gladiator", "slave"))
    reached = 2.0 if p.influence >= WIN_INFLUENCE else 0.0  # the win is checked at the phase's end
    return p.influence + reached + 0.12 * p.gold + 0.4 * fighters + 0.1 * len(p.hand)


def evaluate(state: GameState, seat: int) -> float:
    values = [_strength(state, p.seat) for p in state.players]
    best_other = max(v for s, v in enumerate(values) if s != seat)
    return 1 / (1 + math.exp(-(values[seat] - best_other) / 1.5))


# --- the policy -----------------------------------------------------------------------

def _lot_value(state: GameState) -> int:
    m = state.market
    if m is None or m.auction is None:
        return 0
    if m.auction.host:
        return 2
    card = state.cards.market_card(m.auction.lot)
    return card.value + (2 if card.kind == "gladiator" else 0)


def bid_amount(state: GameState, decision: Decision, share: float) -> int:
    top = int((decision.schema or {}).get("properties", {}).get("amount", {}).get("maximum", 0))
    return max(0, min(top, int(round(_lot_value(state) * share))))


def _bets(state: GameState, decision: Decision, amount: int) -> dict[str, int]:
    props = (decision.schema or {}).get("properties", {})
    arena = state.arena
    mine = ""
    if arena is not None:
        for index, entry in enumerate(arena.entries):
            if entry.seat == decision.seat:
                mine = ("winner_i", "winner_ii")[index] if index < 2 else ""
    if not mine or mine not in props:
        return {}
    stake = min(amount, int(props[mine].get("maximum", 0)))
    return {mine: stake} if stake > 0 else {}


def _rank(state: GameState, decision: Decision, command: Command, bot: HeuristicBot) -> float:
    """How promising an option looks before searching: schemes by the heuristic's value of
    the scheme on its target, the rest in the order the decision lists them."""
    if command.type in ("play_scheme", "request_support"):
        return bot.scheme_value(state, decision.seat, command.args["card"], int(command.args["target"]))
    return 0.0


def policy(state: GameState, decision: Decision, rng: Any) -> Command:
    """A quick answer with a dominus's sense: the greedy heuristic
    (:mod:`engine.spartacus.game.heuristic`); fight steps follow the fighter's plan."""
    suggested = decision.context.get("suggested") if decision.context else None
    if suggested is not None:
        return Command(decision.seat, suggested["type"], dict(suggested["args"]))
    return HeuristicBot(rng).answer(state, decision)


#: The most answers of one decision the search compares.
MAX_CANDIDATES = 8


def candidates(state: GameState, decision: Decision, rng: Any) -> list[Command]:
    """A handful of sensible answers; decisions answered by rule get exactly one."""
    kind = decision.id.split(":")[0]
    suggested = decision.context.get("suggested") if decision.context else None
    first = policy(state, decision, rng)
    if suggested is not None or kind in _BY_RULE:
        return [first]
    if decision.options is None:
        if decision.command_type == "place_bid":
            amounts = sorted({bid_amount(state, decision, share) for share in (0.0, 0.5, 0.8, 1.0, 1.3)})
            return [first] + [Command(decision.seat, "place_bid", {"amount": a}) for a in amounts]
        if decision.command_type == "place_bets":
            return [first] + [Command(decision.seat, "place_bets", bets)
                              for bets in ({}, _bets(state, decision, 1), _bets(state, decision, 3))]
        return [first]
    bot = HeuristicBot(rng)
    scored = sorted((c for c in decision.options if c != first), key=lambda c: -_rank(state, decision, c, bot))
    return [first] + scored[:MAX_CANDIDATES - 1]


class SpartacusKnowledge:
    """The :class:`engine.core.search.Knowledge` of Spartacus."""

    budgets = BUDGETS

    def redact(self, state: GameState, seat: int) -> GameState:
        return redact(state, seat)

    def determinize(self, redacted: GameState, seat: int, rng: Any) -> GameState:
        return determinize(redacted, seat, rng)

    def candidates(self, state: GameState, decision: Decision, rng: Any) -> list[Command]:
        return candidates(state, decision, rng)

    def policy(self, state: GameState, decision: Decision, rng: Any) -> Command:
        return policy(state, decision, rng)

    def evaluate(self, state: GameState, seat: int) -> float:
        return evaluate(state, seat)

    def blocking(self, state: GameState) -> Any:
        return flow.pending(state, free=False)

    def fold(self, state: GameState, command: Command) -> GameState:
        return flow.decide_and_fold(state, command)[0]

    def free_answer(self, state: GameState, decision: Decision) -> Optional[Command]:
        return free_answer(state, decision)


def free_answer(state: GameState, decision: Decision) -> Optional[Command]:
    """The free action a bot takes of its own accord: it turns down every trade offered
    to it ("bots negotiate nothing": it makes no offer, accepts none and counters none), so
    an offer never waits on a bot.  Whatever it holds, it answers every offer alike."""
    if decision.id.startswith("reject_trade:") and decision.options:
        return decision.options[0]
    return None


KNOWLEDGE = SpartacusKnowledge()
