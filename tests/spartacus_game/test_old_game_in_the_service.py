"""A Spartacus game stored by rules version 4 loads through the service and plays on.

The game's 2,502 events (``tests/spartacus_game/old_games.py``) are written to the event
store as they were recorded then, with a snapshot of those rules beside them.  The service
must skip that snapshot, fold the events through the upcaster to the state today's rules
reach, and take the next command on top of them.
"""

from __future__ import annotations

import pickle

from engine.core.game import replay
from engine.core.upcast import upcast
from engine.spartacus.game.rules import RULES
from service.play import games, store
from service.plumbing.db import Seat, Snapshot
from tests.spartacus_game import old_games

NAMES = ("ann", "bob", "cid", "dee")


def test_a_game_stored_by_earlier_rules_loads_replays_and_plays_on(session, config, make_user):
    doc = old_games.load()
    old = old_games.old_events(doc)
    users = [make_user(n) for n in NAMES]
    game = games.create_game(session, config, creator=users[0], game_type="spartacus", options=doc["options"],
                             seats=4, invites=[u.email for u in users[1:]])
    assert game.status == "open" and game.version == 0
    for user, seat in zip(users[1:], session.query(Seat).filter_by(game_id=game.id).order_by(Seat.seat)[1:]):
        seat.user_id = user.id
    store.append(session, game, old, 0, None)
    game.status, game.rules_version = "running", "4"
    # a snapshot the earlier rules wrote: a cache of other rules, never read
    session.add(Snapshot(game_id=game.id, seq=2400, rules_version="4", state=pickle.dumps("rules 4 state")))
    session.commit()
    store.clear_state_cache()

    start = RULES.initial_state(4, game.options)
    expected = replay(RULES, start, upcast(RULES, old))
    assert store.load_state(session, game) == expected
    assert store.load_state_at(session, game, 1500) == replay(RULES, start, old[:1500])

    listed = []
    for user in users:
        listed += [(user, d) for d in games.decisions_for(session, game.id, user) if d["mode"] != "free"]
    assert listed, "somebody owes an answer"
    user, decision = listed[0]
    games.submit_command(session, config, game.id, user, command_type=decision["default"]["type"],
                         args=dict(decision["default"]["args"]), expected_version=len(old))
    session.commit()
    assert game.version > len(old) and game.status == "running" and game.rules_version == RULES.rules_version

    store.clear_state_cache()
    stored = [r.event for r in store.load_events(session, game.id)
              if not r.event.type.startswith(store.SERVICE_EVENT_PREFIX)]
    assert stored[:len(old)] == old  # what was stored stays as it was
    assert store.load_state(session, game) == replay(RULES, start, upcast(RULES, stored))
