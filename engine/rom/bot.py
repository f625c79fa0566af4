"""What a Rom bot knows: hiding what its seat cannot see, placing dice, building arena sets.

Game sense the search's rollouts play with:

- **dice placement value**: "the players are resolved section by section, section I first"
  (Phase 3), so a die that lands in an early section, or pushes others' groups right, is
  worth more; a high die on the military track buys conquests ("legion strength"), a die
  on the senate track a card, on the black market an arena budget;
- **arena sets**: "each player may form one set of three or more arena cards" scored by
  rank after rounds 3 and 5, so the bot buys cards that raise its best set and weighs
  showing a set now against keeping the cards for a better set later;
- the table is judged by victory points plus what provinces, forum markers, senate cards
  and arena cards will still bring.

Hidden from a seat (rulebook p. 2, 6; ``views``): the order of every deck (each shuffled per
epoch, so the epoch layering is public) and the other seats' arena hands and face-down
sets.  The redaction pools each epoch's unseen cards, and the arena deck with the other
hands, sorted; a world deals them out again at random.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

from engine.core.search import Budget
from engine.core.types import Command, Decision
from engine.rom import scoring
from engine.rom.state import State

#: Search budgets per level (rollouts of ``depth`` decisions, then the evaluation).
BUDGETS = {
    "normal": Budget(iterations=32, depth=10),
    "hard": Budget(iterations=128, depth=16),
}


# --- hiding and dealing ---------------------------------------------------------------

def _deck_groups(state: State) -> dict[str, list[tuple[Any, int]]]:
    """Positions of each deck grouped by what is public about the card lying there."""
    groups: dict[str, list[tuple[Any, int]]] = {}
    cards = state.cards
    for i, pid in enumerate(state.province_deck):
        groups.setdefault(f"p{cards.province(pid).epoch}", []).append(("province_deck", i))
    for i, cid in enumerate(state.senate_deck):
        card = cards.senate_card(cid)
        groups.setdefault(f"s{card.epoch}{card.is_scoring}", []).append(("senate_deck", i))
    return groups


def _reshuffle(state: State, seat: int, order: Any) -> State:
    """``state`` with the unseen cards of each group put into ``order(pool)``'s order."""
    decks = {"province_deck": list(state.province_deck), "senate_deck": list(state.senate_deck)}
    for positions in _deck_groups(state).values():
        pool = order([decks[name][i] for name, i in positions])
        for (name, i), card in zip(positions, pool):
            decks[name][i] = card
    hands = [list(p.arena) for p in state.players]
    slots = [("deck", len(state.arena_deck))] + [(s, len(h)) for s, h in enumerate(hands) if s != seat]
    pool = list(state.arena_deck) + [c for s, h in enumerate(hands) if s != seat for c in h]
    pool = order(pool)
    at = 0
    arena_deck: tuple[str, ...] = ()
    for slot, size in slots:
        part = tuple(pool[at:at + size])
        at += size
        if slot == "deck":
            arena_deck = part
        else:
            hands[slot] = list(part)
    players = tuple(
        p if s == seat else replace(p, arena=tuple(hands[s]), arena_set=None)
        for s, p in enumerate(state.players)
    )
    return replace(state, province_deck=tuple(decks["province_deck"]), senate_deck=tuple(decks["senate_deck"]),
                   arena_deck=arena_deck, players=players)


def redact(state: State, seat: int) -> State:
    """``state`` as ``seat`` knows it: every unseen pool sorted, other arena sets withdrawn."""
    return _reshuffle(state, seat, sorted)


def determinize(redacted: State, seat: int, rng: Any) -> State:
    def shuffled(pool: list) -> list:
        pool = list(pool)
        rng.shuffle(pool)
        return pool
    return _reshuffle(redacted, seat, shuffled)


# --- valuing --------------------------------------------------------------------------

def set_points(state: State, cards: list[str]) -> int:
    """VP the best set within ``cards`` would score (rank VP, p. 6)."""
    arena = [state.cards.arena_card(c) for c in cards]
    best = scoring.best_set(arena, state.cards.ranks)
    rank = scoring.arena_rank(best, state.cards.ranks) if best else None
    return rank.vp if rank is not None else 0


def _holding(state: State, seat: int) -> float:
    """Victory points, plus what the seat's cards and markers should still bring."""
    p = state.player(seat)
    rounds_left = max(0, state.cards.rounds - state.round)
    future = 0.6 * len(p.provinces) + 0.5 * sum(p.forum) + 0.6 * len(p.senate)
    future += 0.7 * set_points(state, list(p.arena)) if state.phase != "over" else 0.0
    return p.vp + future * (0.4 + 0.12 * rounds_left)


def evaluate(state: State, seat: int) -> float:
    """A share of a win from the lead in :func:`_holding` over the best other seat."""
    values = [_holding(state, s) for s in range(state.seats)]
    best_other = max(v for s, v in enumerate(values) if s != seat)
    return 1 / (1 + math.exp(-(values[seat] - best_other) / 3.0))


def _option_score(state: State, decision: Decision, index: int, command: Command) -> float:
    seat = decision.seat
    kind = command.type
    args = command.args
    if kind == "place_die":
        previews = decision.context.get("placements") or []
        preview = previews[index] if index < len(previews) else {}
        score = 0.25 * int(args["value"])
        score += 1.2 / max(1, int(preview.get("section", 1)))
        score += 0.4 * len(preview.get("pushes", ()))
        if args["track"] == "military" and not state.province_row:
            score -= 2
        if args["track"] == "senate" and not state.senate_row:
            score -= 2
        if "card" in args:
            score -= 0.8
        return score
    if kind == "activate_card":
        return 0.9
    if kind in ("end_turn", "finish_order_cards", "keep_dice", "pass_placement"):
        return 0.5
    if kind == "reroll_again":
        return 0.2
    if kind == "conquer_provinces":
        return sum(state.province(p).strength for p in args["provinces"]) + 0.5 * len(args["provinces"])
    if kind == "take_senate_cards":
        return 0.5
    if kind == "buy_arena_card":
        hand = list(state.player(seat).arena)
        return 1.0 + set_points(state, hand + [args["card"]]) - set_points(state, hand)
    if kind == "buy_hidden_arena_card":
        return 0.9
    if kind == "leave_black_market":
        return 0.8
    return 0.0


def policy(state: State, decision: Decision, rng: Any) -> Command:
    """A quick answer: the option scored best (ties broken at random); an arena set is the
    best set the hand can show."""
    if decision.options is None:
        return decision.default
    best, best_score = decision.default, -1e9
    for index, command in enumerate(decision.options):
        score = _option_score(state, decision, index, command) + rng.random() * 0.4
        if score > best_score:
            best, best_score = command, score
    return best


def candidates(state: State, decision: Decision, rng: Any) -> list[Command]:
    """Every option; for an arena set, the best set or keeping the cards (rounds 3 and 5)."""
    if decision.options is None:
        keep = Command(decision.seat, decision.command_type, {"cards": []})
        return [decision.default, keep]
    scored = sorted(enumerate(decision.options), key=lambda ic: -_option_score(state, decision, ic[0], ic[1]))
    return [c for _, c in scored]


class RomKnowledge:
    """The :class:`engine.core.search.Knowledge` of Rom."""

    budgets = BUDGETS

    def redact(self, state: State, seat: int) -> State:
        return redact(state, seat)

    def determinize(self, redacted: State, seat: int, rng: Any) -> State:
        return determinize(redacted, seat, rng)

    def candidates(self, state: State, decision: Decision, rng: Any) -> list[Command]:
        return candidates(state, decision, rng)

    def policy(self, state: State, decision: Decision, rng: Any) -> Command:
        return policy(state, decision, rng)

    def evaluate(self, state: State, seat: int) -> float:
        return evaluate(state, seat)


KNOWLEDGE = RomKnowledge()
