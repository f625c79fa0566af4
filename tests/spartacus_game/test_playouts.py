"""Random playouts of 3 and 4 players to the end, checking invariants at every step."""

from __future__ import annotations

import json
import random

import pytest

from engine.core import bots
from engine.core.errors import RuleViolation
from engine.core.game import replay, step
from engine.core.playout import resolve_chance_command
from engine.spartacus.game.intrigue import hand_limit
from engine.spartacus.game.rules import RULES


def _intrigue_cards(s) -> list[str]:
    cards = list(s.intrigue_deck) + list(s.intrigue_discard)
    for p in s.players:
        cards += list(p.hand) + [a.id for a in p.assets if a.kind == "guard"]
    for w in s.windows:
        if w.subject is not None and w.subject.kind != "guard":  # a guard is discarded as it is used
            cards.append(w.subject.card)
    for r in s.resolutions:
        if r.source in ("scheme", "reaction"):
            cards.append(r.card)
    return cards


def _check(s, events) -> None:
    if s.stage.startswith("setup"):
        return
    for p in s.players:
        assert p.gold >= 0 and p.influence >= 0
    cards = _intrigue_cards(s)
    assert sorted(cards) == sorted(s.cards.intrigue_instances()), "intrigue cards conserved"
    market = list(s.market_deck) + list(s.market_discard) + [a.id for p in s.players for a in p.assets if a.kind != "guard"]
    if s.market is not None:
        market += [c for c in s.market.lots]
    assert sorted(market) == sorted(s.cards.market_instances()), "market cards conserved"
    for e in events:
        if e.type == "IntrigueTurnEnded":
            assert len(s.player(e.data["seat"]).hand) <= hand_limit(s, e.data["seat"])
    for viewer in [None] + list(range(s.seats)):
        text = json.dumps(RULES.view(s, viewer))
        for p in s.players:
            if p.seat != viewer:
                for c in p.hand:
                    assert f'"{c}"' not in text or _peeked(s, viewer, c), "another's hand card in a view"
            if p.gold_hidden and p.seat != viewer:
                assert RULES.view(s, viewer)["players"][p.seat]["gold"] is None
        for e in events:
            shown = RULES.visible(e, viewer)
            if shown is None:
                continue
            if e.type == "IntrigueCardsDrawn" and viewer != e.data["seat"]:
                assert "cards" not in shown["data"]


def _peeked(s, viewer, c) -> bool:
    """An informant (Indus) showed the turn's dominus this card: it is theirs to see."""
    return s.turn is not None and s.turn.seat == viewer and any(card == c for _, card in s.turn.peeks)


def _hand_leak(s, viewer) -> bool:
    view = RULES.view(s, viewer)
    for p in view["players"]:
        if p["seat"] != viewer and "hand" in p:
            return True
    return False


@pytest.mark.parametrize("seats,seed,reactions", [(3, 11, "in_turn"), (4, 5, "in_turn"), (4, 8, "in_turn"),
                                                   (3, 12, "together"), (4, 6, "together")])
def test_random_playout_to_the_end(seats, seed, reactions):
    rng = random.Random(seed)
    s0 = RULES.initial_state(seats, {"max_rounds": 25, "reactions": reactions})
    s = s0
    log = []
    for _ in range(60_000):
        if RULES.outcome(s) is not None:
            break
        command = resolve_chance_command(RULES, s, rng.randrange)
        if command is None:
            decision = bots.pick_decision(RULES.pending(s), None, rng)
            assert decision is not None, f"stuck at {s.stage}"
            command = bots.choose(decision, rng)
            try:
                s, events = step(RULES, s, command)
            except RuleViolation:
                s, events = step(RULES, s, decision.default)
        else:
            s, events = step(RULES, s, command)
        log.extend(events)
        for viewer in [None] + list(range(seats)):
            assert not _hand_leak(s, viewer)
        if len(log) % 7 == 0 or RULES.outcome(s) is not None:
            _check(s, events)
    outcome = RULES.outcome(s)
    assert outcome is not None and len(outcome.winners) == 1
    assert replay(RULES, s0, log) == s
