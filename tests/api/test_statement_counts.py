"""SQL statements, flushes and transactions per command, counted for every game.

A count is not a time, but it is what a command costs the database and the ORM, and it
does not depend on how loaded the machine is: this is the regression guard of issue 17's
command path.  Each case plays a few commands through ``POST /commands`` (a human in seat
0, bots in the others, so a command includes the bots' replies) and asserts the most any
of them cost.
"""

from __future__ import annotations

import random

import pytest

from service.plumbing import database
from tests.api.players import blocking, choose, create_game
from tests.api.round_trips import RoundTripCounter
from tests.api.statement_counter import StatementCounter

#: (game, seats, options, most statements, most flushes, most transactions) per command,
#: bots' replies included.  Measured on main before issue 17's work: PAX 41 statements, Rom 41,
#: Spartacus 43, Spartacus arena 32, each with 7 flushes in 2 transactions (authentication
#: committed its own).  The target is 10 statements in one transaction.  Now eight: the
#: idempotency claim, which checks the token too (the client's earlier requests showed the
#: process the token live, so it is not read in a statement of its own); the game with its
#: clock, seats, players and their settings (:mod:`service.play.at_hand`); the version
#: ``UPDATE``; the events (one executemany); the open decisions' ``DELETE`` and upsert;
#: the notification; the idempotency answer.  A command that crosses a snapshot boundary
#: writes one more row.
#: No ORM flush is left on that path (the statements are Core, the notification included);
#: the arena's only command ends the game, whose row the ORM writes.  On PostgreSQL the
#: open decisions' ``DELETE`` rides in their upsert (its ``WITH``): one statement fewer
#: wherever a decision stays open; the game's open decisions are read in the game's own
#: statement, so that nothing written waits for an answer before the COMMIT, at no
#: statement more; and the version ``UPDATE`` rides in the events' ``INSERT`` (its
#: ``WITH``): one statement fewer (:data:`FEWER_ON_POSTGRESQL`).
CASES = [
    ("pax", 2, {}, 8, 0, 1),
    ("rom", 2, {}, 8, 0, 1),
    ("spartacus", 3, {"max_rounds": 2}, 8, 0, 1),
    ("spartacus_arena", 2, {}, 8, 1, 1),
]
#: Statements fewer on PostgreSQL, every game: the ``DELETE`` riding in the upsert one
#: fewer, and the version ``UPDATE`` riding in the events' ``INSERT`` one fewer, that
#: ``INSERT`` being one statement however many events a command and its bots' replies
#: append (:func:`service.play.store.append`): six.  The read of the open decisions, once
#: a statement of its own, is a subquery of the game's (:func:`service.play.at_hand.load`).
#: The arena's one command ends the game, so no decision is left open and there is no
#: upsert for the ``DELETE`` to ride in: six as well, one fewer than on SQLite's seven
#: (where eight are allowed).
FEWER_ON_POSTGRESQL = 2
COMMANDS = 6


def _one_command(client, game_id: str, rng: random.Random):
    """Answer the first open blocking decision; the response, or None when nothing is owed."""
    listing = client.get(f"games/{game_id}/decisions").get_json()
    owed = blocking(listing["decisions"])
    if not owed:
        return None
    command_type, args = choose(owed[0], rng)
    if "options" not in owed[0]:
        command_type, args = owed[0]["default"]["type"], owed[0]["default"]["args"]
    body = {"type": command_type, "args": args, "expected_version": listing["version"]}
    return lambda: client.post(f"games/{game_id}/commands", json=body, idempotent=True)


def measure(app, client, game_type: str, seats: int, options: dict, commands: int = COMMANDS) -> list[dict]:
    """The counts of ``commands`` commands of a fresh game (fewer if the game ends first)."""
    return [counter.figures() for counter in _counted(app, client, game_type, seats, options, StatementCounter,
                                                          commands)]


def _counted(app, client, game_type: str, seats: int, options: dict, counter_type, commands: int) -> list:
    """The ``counter_type`` counters (each entered around one command) of ``commands``
    commands of a fresh game, the human at seat 0 and bots in the others (fewer commands
    if the game ends first)."""
    rng = random.Random(17)
    game = create_game(client, game_type=game_type, seats=seats, options=options,
                       bot_seats=list(range(1, seats)), my_seat=0)
    counters = []
    engine = database.engine(app)
    for _ in range(commands):
        send = _one_command(client, game["id"], rng)
        if send is None:
            break
        with counter_type(engine) as counter:
            response = send()
        assert response.status_code == 200, response.get_json()
        counters.append(counter)
    return counters


@pytest.mark.parametrize("game_type,seats,options,most_statements,most_flushes,most_transactions", CASES,
                         ids=[case[0] for case in CASES])
def test_a_command_costs_few_statements_in_one_transaction(app, ann, game_type, seats, options, most_statements,
                                                           most_flushes, most_transactions):
    counts = measure(app, ann, game_type, seats, options)
    assert counts, "the human owed nothing at the start"
    assert max(c["transactions"] for c in counts) <= most_transactions, counts
    # A snapshot is a cache written every ``snapshot_every`` events, whichever command
    # crosses the boundary: counted apart, at most one per command.
    assert all(c["by_kind"].get("INSERT snapshots", 0) <= 1 for c in counts), counts
    worst = max(c["statements"] - c["by_kind"].get("INSERT snapshots", 0) for c in counts)
    if database.engine(app).dialect.name == "postgresql":
        most_statements -= FEWER_ON_POSTGRESQL
    assert worst <= most_statements, counts
    assert max(c["flushes"] for c in counts) <= most_flushes, counts


@pytest.mark.parametrize("game_type,seats,options", [(c[0], c[1], c[2]) for c in CASES], ids=[c[0] for c in CASES])
def test_the_answer_built_in_hand_is_what_reading_back_gives(ann, game_type, seats, options):
    """A command's answer is built from the state and events it had in hand; it says
    exactly what the read side says afterwards (events as the player may see them, the
    player's decisions with their deadlines and version)."""
    rng = random.Random(5)
    game = create_game(ann, game_type=game_type, seats=seats, options=options,
                       bot_seats=list(range(1, seats)), my_seat=0)
    for _ in range(3):
        before = ann.get(f"games/{game['id']}/decisions").get_json()["version"]
        send = _one_command(ann, game["id"], rng)
        if send is None:
            break
        answer = send().get_json()
        events = ann.get(f"games/{game['id']}/events?after={before}&limit=1000").get_json()
        assert [e for e in events["events"] if e["seq"] <= answer["version"]] == answer["events"]
        assert ann.get(f"games/{game['id']}/decisions").get_json() == {
            "version": answer["version"], "decisions": answer["decisions"]}


#: Round trips to PostgreSQL per command (a client's wait for the server, ``BEGIN`` and
#: ``COMMIT`` included), at most.  Measured before: 11 (``BEGIN``, nine statements,
#: ``COMMIT``), then 7 with the writes held for the commit, then 3 while the open
#: decisions' upsert was answered before the fan-out and the version ``UPDATE`` before
#: the ``COMMIT``.  Now 2: [``BEGIN`` + the idempotency claim, which checks the token
#: (the client's earlier requests showed it live) + the game with what it needs, its
#: open decisions included], [the events with the version ``UPDATE`` in their ``WITH`` + the open decisions' upsert with the
#: ``DELETE`` of closed ones in its ``WITH`` + the notification + the idempotency answer +
#: ``COMMIT``]: nothing written is answered before the ``COMMIT``, a lost race being
#: refused by the events' unique ``(game_id, seq)`` (:func:`service.play.store.append`).
MOST_ROUND_TRIPS = 2


@pytest.mark.parametrize("game_type,seats,options", [(c[0], c[1], c[2]) for c in CASES], ids=[c[0] for c in CASES])
def test_a_command_costs_few_round_trips_on_postgresql(app, ann, game_type, seats, options):
    engine = database.engine(app)
    if engine.dialect.name != "postgresql":
        pytest.skip("round trips are PostgreSQL's (SQLite runs in the process)")
    counted = [counter.messages for counter in _counted(app, ann, game_type, seats, options, RoundTripCounter,
                                                        COMMANDS)]
    assert counted, "the human owed nothing at the start"
    assert max(len(trips) for trips in counted) <= MOST_ROUND_TRIPS, counted
