"""The service's bot seats play at the configured level, each answer within its wall-time bound."""

from __future__ import annotations

import random

import pytest

from sqlalchemy import func, select

from engine.core import bots as engine_bots
from engine.core.game import step
from engine.pax.rules import RULES
from service.play import bot_turns, bots, games, store
from service.plumbing import dispatch
from service.plumbing.config import load_config
from service.plumbing.db import Game, GameClock, Seat, utcnow
from service.plumbing.errors import InvalidInput


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


# ------------------------------------------------------------- levels chosen per game


@pytest.fixture
def asked(monkeypatch):
    """Every bot answer the service asks for, as ``(seat, level)``; the bot answers with
    the decision's default, so these tests stay quick whatever the level."""
    calls: list[tuple[int, str]] = []

    def record(rules, state, decision, *, level, think_ms, **_ignored):
        calls.append((decision.seat, level))
        return decision.default

    monkeypatch.setattr(bots, "bot_command", record)
    monkeypatch.setattr(dispatch, "bots_committed", lambda config, ids: None)  # the test plays them
    return calls


def test_each_bot_seat_plays_at_the_level_chosen_for_it(session, session_factory, config, make_user, asked):
    ann = make_user("ann")
    game = games.create_game(session, config, creator=ann, game_type="count", options={"target": 1_000}, seats=3,
                             bot_seats=[1, 2], bot_levels={"1": "hard"})
    session.commit()
    assert asked == []  # a hard bot thinks in the worker (tests/service/test_bot_turns.py)
    bot_turns.play(session_factory, config, game.id)
    # seat 2 named no level: the operator's (this configuration's: random)
    assert sorted(set(asked)) == [(1, "hard"), (2, config.bot_level)]
    rows = session.scalars(select(Seat).where(Seat.game_id == game.id).order_by(Seat.seat)).all()
    assert [r.bot_level for r in rows] == [None, "hard", config.bot_level]
    view = games.game_view(session, game.id, ann)
    assert [s["bot_level"] for s in view["seats"]] == [None, "hard", config.bot_level]


@pytest.mark.parametrize("levels", [{"0": "hard"}, {"1": "grandmaster"}, {"x": "easy"}, ["hard"], {"7": "easy"}])
def test_a_level_for_no_bot_seat_or_no_level_is_refused(session, config, make_user, levels):
    with pytest.raises(InvalidInput) as refused:
        games.create_game(session, config, creator=make_user("ann"), game_type="count", options={}, seats=2,
                          bot_seats=[1], bot_levels=levels)
    assert refused.value.code == "invalid_bot_level"
    assert session.scalar(select(func.count()).select_from(Game)) == 0


def _absent_bob(session, session_factory, config, make_user, clock):
    ann, bob = make_user("ann"), make_user("bob")
    game = games.create_game(session, config, creator=ann, game_type="count", options={"target": 1_000}, seats=2,
                             invites=["bob@example.org"], clock=clock)
    games.join_game(session, config, game.id, bob)
    seat = session.scalars(select(Seat).where(Seat.game_id == game.id, Seat.seat == 1)).one()
    seat.bot_since = utcnow()  # as two missed deadlines would (tests/notify/test_deadlines.py)
    session.commit()
    games.submit_command(session, config, game.id, ann, command_type="add", args={"n": 1}, expected_version=None)
    session.commit()
    bot_turns.play(session_factory, config, game.id)
    session.expire_all()
    return game


@pytest.mark.parametrize("stand_in, expected", [("hard", (1, "hard")), (None, (1, "random"))])
def test_the_stand_in_plays_at_the_games_level(session, session_factory, config, make_user, asked, stand_in,
                                               expected):
    game = _absent_bob(session, session_factory, config, make_user, {"stand_in": stand_in} if stand_in else None)
    assert asked and set(asked) == {expected}  # Bob's additions, round 1 and the next
    assert session.get(GameClock, game.id).stand_in == (stand_in or config.bot_level)
    assert store.load_state(session, game).round == 2  # Bob's addition was made for him


def test_a_defaults_only_stand_in_answers_with_the_deadline_defaults_and_no_bot(session, session_factory, config,
                                                                              make_user, asked):
    game = _absent_bob(session, session_factory, config, make_user, {"stand_in": "defaults"})
    assert asked == []
    assert store.load_state(session, game).round == 2
    chosen = [e.event.data for e in store.load_events(session, game.id) if e.event.type == "AmountChosen"]
    # Bob's decision's default is "add 1", what its deadline would have played
    assert [(c["seat"], c["n"]) for c in chosen if c["round"] == 1] == [(0, 1), (1, 1)]
    assert session.get(GameClock, game.id).stand_in == "defaults"


def test_an_unknown_stand_in_is_refused(session, config, make_user):
    with pytest.raises(InvalidInput) as refused:
        games.create_game(session, config, creator=make_user("ann"), game_type="count", options={}, seats=2,
                          bot_seats=[1], clock={"stand_in": "grandmaster"})
    assert refused.value.code == "invalid_clock" and "stand_in" in refused.value.details["fields"]


# ------------------------------------------------------------- what is offered to a bot


def _spartacus_market_with_a_trade_offered_to(seat: int):
    """A seeded game of random Spartacus bots played to the first moment seat 0 may offer
    ``seat`` a trade, and the state after seat 0 offered it."""
    from engine.spartacus.game.rules import RULES as SPARTACUS

    rng = random.Random(5)
    state = SPARTACUS.initial_state(3, {})
    for _ in range(5000):
        pending = SPARTACUS.pending(state)
        if pending.chance is not None:
            state = step(SPARTACUS, state, bots.chance_command(pending.chance))[0]
            continue
        offer = next((d for d in pending.decisions if d.seat == 0 and d.command_type == "propose_trade"
                      and seat in d.schema["properties"]["to"].get("enum", [])), None)
        if offer is not None:
            args = dict(offer.default.args)
            if args["to"] == seat:
                return SPARTACUS, step(SPARTACUS, state, offer.default)[0]
        decision = min(pending.blocking, key=lambda d: d.order)
        state = step(SPARTACUS, state, engine_bots.choose(decision, rng))[0]
    raise AssertionError("no market with a trade for that seat")


@pytest.mark.parametrize("level", ["random", "easy"])
def test_a_bot_turns_down_a_trade_offered_to_it(level):
    rules, state = _spartacus_market_with_a_trade_offered_to(1)
    assert [o.to for o in state.market.offers] == [1]
    seeded = random.Random(11)  # the bots' moves after the refusal, the same in every run
    after, events = bots.autoplay(rules, state, {1, 2}, level=level,
                                  generator=lambda _decision: random.Random(seeded.getrandbits(64)))
    assert "TradeRejected" in [e.type for e in events]
    assert "TradeAccepted" not in [e.type for e in events] and after.market.offers == ()
