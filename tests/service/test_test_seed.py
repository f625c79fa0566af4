"""A test's games deal and its bots answer the same way on every run (``test_seed``, only
with ``TESTING``); a production configuration draws from the CSPRNG whatever it is given."""

from __future__ import annotations

from types import SimpleNamespace

from engine.core.game import step
from engine.pax.rules import RULES
from service.play import bots
from service.play.games import injected_bot_generator, injected_chance
from service.plumbing.config import load_config


def _config(tmp_path, **extra):
    return load_config(overrides={"instance_dir": str(tmp_path), "secret_key": "k", **extra}, environ={})


def test_a_seeded_test_configuration_plays_the_same_game_twice(tmp_path):
    config = _config(tmp_path, TESTING=True, test_seed="s1")
    first = _seeded_events(config)
    assert first == _seeded_events(config)
    assert first != _seeded_events(_config(tmp_path, TESTING=True, test_seed="s2"))


def test_without_testing_the_seed_is_ignored(tmp_path):
    config = _config(tmp_path, test_seed="s1")
    assert injected_chance(config, SimpleNamespace(id="any")) is None
    assert injected_bot_generator(config) is None


def test_a_test_chance_function_wins_over_the_seed(tmp_path):
    config = _config(tmp_path, TESTING=True, test_seed="s1", test_chance=lambda game, request: {"from": game.id})
    assert injected_chance(config, SimpleNamespace(id="g"))(None) == {"from": "g"}


def _seeded_events(config):
    """Everything the bots and chance did in the first moves of a game, as stored events."""
    events = []
    game = SimpleNamespace(id="any")
    state = RULES.initial_state(2, {})
    draw, generator = injected_chance(config, game), injected_bot_generator(config)
    for _ in range(40):
        pending = RULES.pending(state)
        if pending.chance is not None:
            state, made = step(RULES, state, bots.chance_command(pending.chance, draw))
        elif pending.blocking:
            decision = min(pending.blocking, key=lambda d: d.order)
            state, made = step(RULES, state, bots.bot_command(RULES, state, decision, level="random",
                                                              generator=generator))
        else:
            break
        events.extend(made)
    return events
