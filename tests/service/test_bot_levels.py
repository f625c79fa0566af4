"""The service's bot seats play at the configured level, each answer within its wall-time bound."""

from __future__ import annotations

import pytest

from engine.core.game import step
from engine.pax.rules import RULES
from service.play import bots
from service.plumbing.config import load_config


def _dealt_pax():
    state = RULES.initial_state(2, {})
    return step(RULES, state, bots.chance_command(RULES.pending(state).chance))[0]


def test_a_bot_answer_is_a_legal_answer_when_its_time_is_up():
    state = _dealt_pax()
    decision = RULES.pending(state).blocking[0]
    # a bound already passed still lets the search run one iteration, then it answers
    command = bots.bot_command(RULES, state, decision, level="hard", think_ms=0)
    assert command in decision.options


@pytest.mark.parametrize("level", ["easy", "normal"])
def test_autoplay_plays_a_whole_game_at_a_level(level):
    state, events = bots.autoplay(RULES, _dealt_pax(), {0, 1}, level=level, think_ms=40)
    assert RULES.outcome(state) is not None and events


def test_the_level_and_its_bound_are_settings(tmp_path):
    base = {"instance_dir": str(tmp_path), "secret_key": "k"}
    assert load_config(overrides=base, environ={}).bot_level == "normal"
    chosen = load_config(overrides=base, environ={"CAPUA_BOT_LEVEL": "hard", "CAPUA_BOT_THINK_MS": "250"})
    assert (chosen.bot_level, chosen.bot_think_ms) == ("hard", 250)
    with pytest.raises(ValueError, match="CAPUA_BOT_LEVEL"):
        load_config(overrides=base, environ={"CAPUA_BOT_LEVEL": "grandmaster"})
