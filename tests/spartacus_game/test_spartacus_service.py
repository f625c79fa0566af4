"""A 4-player Spartacus game through the service: one human, three bot seats.

The human plays as a generic client would, from the ``decisions_for`` listing alone (each
listed decision rebuilt and answered with the kernel's random bot), submitting against the
listed version; the bot seats and chance are the service's own.  ``max_rounds`` keeps the
game short: after the second round's arena the most influential dominus wins (ties go to
the tournament).  At the end the stored events, folded from scratch, must give the board
every viewer sees.
"""

from __future__ import annotations

import dataclasses
import json
import random

from engine.core import bots as kernel_bots
from engine.core.game import replay
from engine.core.types import Command, Decision
from engine.spartacus.game.rules import RULES
from service.play import games, store
from service.plumbing.errors import Conflict, InvalidInput


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


def test_four_player_spartacus_with_one_human_plays_to_a_winner_and_replays(session, config, make_user):
    config = dataclasses.replace(config, snapshot_every=200)
    ann = make_user("ann")
    rng = random.Random(2024)
    game = games.create_game(session, config, creator=ann, game_type="spartacus", options={"max_rounds": 2},
                             seats=4, bot_seats=[1, 2, 3])
    session.commit()
    assert game.status == "running"

    answered = 0
    for _ in range(3_000):
        if game.status == "finished":
            break
        listed = [d for d in games.decisions_for(session, game.id, ann) if d["mode"] != "free"]
        assert listed, "only the human can owe an answer, so the human must owe one"
        assert all(d["seat"] == 0 for d in listed)
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
        answered += 1
    assert game.status == "finished", "the game did not end"
    assert answered > 10  # the human really played: house choice, upkeep, intrigue, market, arena

    outcome = game.outcome
    assert len(outcome["winners"]) == 1 and sorted(outcome["ranking"]) == [0, 1, 2, 3]
    assert outcome["detail"]["how"] in ("influence", "round_limit", "tournament")
    assert outcome["detail"]["round"] <= 2
    assert sorted(outcome["detail"]["houses"].values()) == ["batiatus", "glaber", "solonius", "tullius"]
    assert games.decisions_for(session, game.id, ann) == []

    events = [r.event for r in store.load_events(session, game.id)
              if not r.event.type.startswith(store.SERVICE_EVENT_PREFIX)]
    replayed = replay(RULES, RULES.initial_state(4, game.options), events)
    assert RULES.outcome(replayed).to_json() == outcome
    winner = outcome["winners"][0]
    if outcome["detail"]["how"] == "round_limit":
        assert replayed.player(winner).influence == max(p.influence for p in replayed.players)
    for viewer, user in [(0, ann), (None, None)]:
        assert canonical(games.game_view(session, game.id, user)["board"]) == canonical(RULES.view(replayed, viewer))
    store.clear_state_cache()
    loaded = store.load_state(session, game)
    for viewer in [0, 1, 2, 3, None]:
        assert canonical(RULES.view(loaded, viewer)) == canonical(RULES.view(replayed, viewer))
