"""The balance tool's heuristic bot plays legal moves, and its fast path folds like ``step``."""

from __future__ import annotations

import random

from engine.core.game import match_decision, replay, step
from engine.spartacus.game import flow
from engine.spartacus.game.rules import RULES
from tools.spartacus_balance import play_game, report, seating, wilson
from tools.spartacus_bot import HeuristicBot, next_command


def test_heuristic_bot_game_is_legal_and_replays():
    rng = random.Random(42)
    bot = HeuristicBot(rng)
    s0 = RULES.initial_state(4, {"max_rounds": 30})
    s, log = s0, []
    houses = seating(4, 1)
    for _ in range(50_000):
        if RULES.outcome(s) is not None:
            break
        command = next_command(s, bot, rng)
        if command.type == "choose_house":
            command = type(command)(command.seat, "choose_house", {"house": houses[command.seat]})
        match_decision(RULES.pending(s), command)  # every answer is a listed, legal one
        fast, _ = flow.decide_and_fold(s, command)
        s, events = step(RULES, s, command)
        assert fast == s
        log.extend(events)
    outcome = RULES.outcome(s)
    assert outcome is not None and len(outcome.winners) == 1
    assert [p.house for p in s.players] == houses
    assert replay(RULES, s0, log) == s


def test_play_game_is_reproducible():
    first = play_game(4, seating(4, 2), random.Random("x"), {"max_rounds": 30})
    again = play_game(4, seating(4, 2), random.Random("x"), {"max_rounds": 30})
    assert first == again and first["house"] in seating(4, 2)


def test_report_flags_a_house_over_one_and_a_half_times_its_share():
    results = [{"house": "batiatus", "seat": 0, "rounds": 9, "how": "influence"}] * 40 + [
        {"house": h, "seat": 1, "rounds": 11, "how": "influence"} for h in ("glaber", "tullius", "solonius")] * 20
    text = report(results, 4, 25, 1.0, 2, "")
    assert "| batiatus | 40 | 0.400 |" in text and "**over 1.5x**" in text
    assert text.count("over 1.5x") == 1
    lo, hi = wilson(40, 100)
    assert 0.30 < lo < 0.40 < hi < 0.50
