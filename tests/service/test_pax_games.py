"""Whole PAX games through the service: one human, bots in every other seat.

The human plays as a generic client would, from the ``decisions_for`` listing alone
(rebuilt into a :class:`Decision` and answered with the kernel's random bot), submitting
against the listed version.  At the end, folding the stored events from scratch must give
the board every viewer saw.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import random

import pytest

from engine.core import bots as kernel_bots
from engine.core.game import replay
from engine.core.types import Command, Decision
from service.play import games, store
from service.plumbing.errors import Conflict, InvalidInput

pytestmark = pytest.mark.skipif(importlib.util.find_spec("engine.pax.rules") is None,
                                reason="engine/pax has not landed yet")


def decision_from_listing(listed: dict) -> Decision:
    seat = listed["seat"]
    options = None
    if "options" in listed:
        options = tuple(Command(seat, o["type"], o["args"]) for o in listed["options"])
    return Decision(
        id=listed["id"], seat=seat, mode=listed["mode"], prompt=listed["prompt"],
        default=Command(seat, listed["default"]["type"], listed["default"]["args"]),
        command_type=listed["command_type"], options=options, schema=listed.get("schema"),
    )


def canonical(value) -> str:
    return json.dumps(value, sort_keys=True, default=str)


@pytest.mark.parametrize("seats", [1, 2, 4, 6, 8])
def test_a_pax_game_with_one_human_and_bots_plays_to_the_end_and_replays(session, config, make_user, seats):
    from engine.pax.rules import RULES

    config = dataclasses.replace(config, snapshot_every=50)
    ann = make_user("ann")
    rng = random.Random(1000 + seats)
    game = games.create_game(session, config, creator=ann, game_type="pax", options={}, seats=seats,
                             bot_seats=list(range(1, seats)))
    session.commit()

    for _ in range(5_000):
        if game.status == "finished":
            break
        listed = [d for d in games.decisions_for(session, game.id, ann) if d["mode"] != "free"]
        assert listed, "only the human can owe an answer, so the human must owe one"
        decision = decision_from_listing(rng.choice(listed))
        command = kernel_bots.choose(decision, rng)
        try:
            games.submit_command(session, config, game.id, ann, command_type=command.type, args=dict(command.args),
                                 expected_version=listed[0]["version"])
        except (Conflict, InvalidInput):
            session.rollback()
            games.submit_command(session, config, game.id, ann, command_type=decision.default.type,
                                 args=dict(decision.default.args), expected_version=game.version)
        session.commit()
    assert game.status == "finished", f"PAX for {seats} did not end"
    assert game.outcome is not None
    assert games.decisions_for(session, game.id, ann) == []

    events = [r.event for r in store.load_events(session, game.id)]
    assert len(events) == game.version
    replayed = replay(RULES, RULES.initial_state(seats, game.options), events)
    assert RULES.outcome(replayed).to_json() == game.outcome
    for viewer, user in [(0, ann), (None, None)]:
        assert canonical(games.game_view(session, game.id, user)["board"]) == canonical(RULES.view(replayed, viewer))
    loaded = store.load_state(session, game)
    for viewer in [*range(seats), None]:
        assert canonical(RULES.view(loaded, viewer)) == canonical(RULES.view(replayed, viewer))
