"""Positions for the bot tests: games driven by random bots to a chosen step, and the same
positions with other seats' hidden information changed (hands swapped, decks redealt)."""

from __future__ import annotations

import functools
import random
from dataclasses import replace
from typing import Any

from engine import registry
from engine.core import bots
from engine.core.errors import RuleViolation
from engine.core.game import step
from engine.core.playout import resolve_chance_command
from engine.core.types import Command, Decision
from engine.spartacus.game.state import evolve


@functools.lru_cache(maxsize=64)
def advance_randomly(game: str, seats: int, seed: int, steps: int) -> Any:
    """The game after ``steps`` random moves (chance included), stopped where a seat decides
    (states are immutable, so the tests of every level share one)."""
    rules = registry.get(game)
    state = rules.initial_state(seats, {})
    rng = random.Random(seed)
    taken = 0
    while rules.outcome(state) is None:
        command = resolve_chance_command(rules, state, rng.randrange)
        if command is None:
            if taken >= steps:
                return state
            decision = bots.pick_decision(rules.pending(state), None, rng)
            command = bots.choose(decision, rng)
            if decision.prompt_key == "spartacus_arena.prepare":
                # a duel's first question: blow by blow, so the fight asks its players (a random plan
                # would fight the whole duel on chance alone)
                command = Command(decision.seat, "set_fight_plan", {"active": False})
            try:
                state = step(rules, state, command)[0]
            except RuleViolation:
                state = step(rules, state, decision.default)[0]
            taken += 1
        else:
            state = step(rules, state, command)[0]
    return None


def first_decision(game: str, state: Any) -> Decision:
    pending = registry.get(game).pending(state)
    return min(pending.blocking, key=lambda d: (d.order, d.seat))


def _redeal(pool: list, sizes: list[int], rng: random.Random) -> list[tuple]:
    pool = list(pool)
    rng.shuffle(pool)
    out, at = [], 0
    for size in sizes:
        out.append(tuple(pool[at:at + size]))
        at += size
    return out


def pax_other_secrets(state: Any, seat: int, rng: random.Random) -> Any:
    """Redeal the deck, the set-aside cards, Rome's hidden cards (unless ``seat`` peeked) and
    the other hands and draws; give the others other purses and start-hand choices."""
    slots: list[tuple[str, int]] = [("deck", -1), ("set_aside", -1)]
    if seat not in state.peeked:
        slots.append(("rome_hidden", -1))
    others = [s for s in range(state.seats) if s != seat]
    slots += [(name, o) for o in others for name in ("hands", "limbo")]
    piles = [getattr(state, n)[o] if o >= 0 else getattr(state, n) for n, o in slots]
    dealt = _redeal([c for p in piles for c in p], [len(p) for p in piles], rng)
    changes: dict[str, Any] = {"hands": list(state.hands), "limbo": list(state.limbo)}
    for (name, other), cards in zip(slots, dealt):
        if other < 0:
            changes[name] = cards
        else:
            changes[name][other] = cards
    changes["hands"], changes["limbo"] = tuple(changes["hands"]), tuple(changes["limbo"])
    changes["gold"] = tuple(g if s == seat else g + 3 + s for s, g in enumerate(state.gold))
    choices = []
    for s, choice in enumerate(state.setup_choices):
        if s != seat and choice is not None and len(state.limbo[s]) > 1:
            choice = None
        choices.append(choice)
    changes["setup_choices"] = tuple(choices)
    return replace(state, **changes)


def rom_other_secrets(state: Any, seat: int, rng: random.Random) -> Any:
    """Reshuffle each epoch of the province and senate decks; redeal the arena deck with
    the other hands; withdraw the others' face-down sets."""
    def within(deck: tuple, key) -> tuple:
        groups: dict[Any, list[int]] = {}
        for i, card in enumerate(deck):
            groups.setdefault(key(card), []).append(i)
        out = list(deck)
        for positions in groups.values():
            cards = [deck[i] for i in positions]
            rng.shuffle(cards)
            for i, card in zip(positions, cards):
                out[i] = card
        return tuple(out)
    cards = state.cards
    provinces = within(state.province_deck, lambda c: cards.province(c).epoch)
    senate = within(state.senate_deck, lambda c: (cards.senate_card(c).epoch, cards.senate_card(c).is_scoring))
    others = [s for s in range(state.seats) if s != seat]
    piles = [state.arena_deck] + [state.players[o].arena for o in others]
    dealt = _redeal([c for p in piles for c in p], [len(p) for p in piles], rng)
    players = list(state.players)
    for o, hand in zip(others, dealt[1:]):
        players[o] = replace(players[o], arena=hand, arena_set=None)
    return replace(state, province_deck=provinces, senate_deck=senate, arena_deck=dealt[0], players=tuple(players))


def spartacus_other_secrets(state: Any, seat: int, rng: random.Random) -> Any:
    """Redeal the intrigue deck with the other hands, reshuffle the market deck, and change
    the others' sealed answers (withdrawn)."""
    others = [p.seat for p in state.players if p.seat != seat]
    piles = [state.intrigue_deck] + [state.player(o).hand for o in others]
    dealt = _redeal([c for p in piles for c in p], [len(p) for p in piles], rng)
    players = list(state.players)
    for o, hand in zip(others, dealt[1:]):
        players[o] = evolve(players[o], hand=hand)
    market_deck = list(state.market_deck)
    rng.shuffle(market_deck)
    out = evolve(state, intrigue_deck=dealt[0], players=tuple(players), market_deck=tuple(market_deck))
    if state.sealed is not None:
        out = evolve(out, sealed=evolve(state.sealed, answers=tuple(a for a in state.sealed.answers if a[0] == seat)))
    return out


OTHER_SECRETS = {"pax": pax_other_secrets, "rom": rom_other_secrets, "spartacus": spartacus_other_secrets}


def arena_other_secrets(fight: Any, seat: int, rng: random.Random) -> Any:
    """Give the other fighter a standing plan of its own (secret from ``seat``)."""
    from engine.spartacus.arena.plan import FightPlan

    plan = FightPlan(approach=rng.choice(("close", "keep_distance")), initiative="second", net="never",
                     reroll=rng.choice(("never", "lowest")))
    sides = tuple(s if s.seat == seat else evolve(s, plan=plan) for s in fight.sides)
    return evolve(fight, sides=sides)


OTHER_SECRETS["spartacus_arena"] = arena_other_secrets
