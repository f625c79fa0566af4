"""The worker's bot turns: the answers of searching bots, which no request gives.

A request that leaves a ``normal`` or ``hard`` bot owing an answer commits what it did,
marks the game (``games.bots_due_at``) and wakes the worker
(:func:`service.plumbing.dispatch.bots_committed`); the embedded worker thread
(:mod:`service.inprocess`) and the Celery task ``worker.tasks.play_bots`` then call
:func:`play`, and a sweep (:func:`run_due`) finds any game whose wake-up was lost.  So no
request is held open while a bot thinks, and every answer is paced to the think budget
(:mod:`service.play.bots`), so its timing tells nothing of the bot's hand.

Each transaction gives at most :data:`ANSWERS_PER_COMMIT` searched answers, so the
table sees the bots' moves as they come and a human's command racing the worker costs
it at most that much work (the worker loses the race, reloads and plays on).  Every
commit that leaves bots owing stamps ``bots_due_at`` anew: a game whose stamp is older
than a worker could take (:func:`due_game_ids` with ``stale_seconds``) lost its worker.
"""

from __future__ import annotations

import datetime as dt
import logging
import time
from typing import Optional

from sqlalchemy import select
from sqlalchemy.orm import sessionmaker

from service.play import games
from service.plumbing.config import Config
from service.plumbing.db import Game, utcnow
from service.plumbing.errors import LostRace, StaleVersion

log = logging.getLogger(__name__)

#: Searched answers per transaction.
ANSWERS_PER_COMMIT = 8


def due_game_ids(session_factory: sessionmaker, stale_seconds: Optional[float] = None) -> list[str]:
    """The running games in which a searching bot owes an answer, the longest waiting
    first; with ``stale_seconds``, only those no worker has moved on for that long."""
    query = select(Game.id).where(Game.bots_due_at.is_not(None), Game.status == "running")
    if stale_seconds is not None:
        query = query.where(Game.bots_due_at < utcnow() - dt.timedelta(seconds=stale_seconds))
    with session_factory() as session:
        return list(session.scalars(query.order_by(Game.bots_due_at)))


def still_due(session_factory: sessionmaker, game_id: str) -> bool:
    with session_factory() as session:
        game = session.get(Game, game_id)
        return game is not None and game.status == "running" and game.bots_due_at is not None


def play(session_factory: sessionmaker, config: Config, game_id: str, *, for_seconds: float = 30.0) -> int:
    """Play the bots of ``game_id`` until none owes an answer, starting no transaction
    after ``for_seconds`` (a game of bots alone can take thousands of answers: the caller
    comes back to it); returns the commits made."""
    commits = 0
    stop_at = time.monotonic() + for_seconds
    while time.monotonic() < stop_at:
        with session_factory() as session:
            try:
                result = games.play_owed_bot_answers(session, config, game_id, answers=ANSWERS_PER_COMMIT)
                session.commit()
            except (LostRace, StaleVersion):
                session.rollback()  # a player's command came first: read the game again
                continue
            if result is None:
                return commits
            commits += 1
            if result.game is None or result.game.bots_due_at is None:
                return commits
    return commits


def run_due(session_factory: sessionmaker, config: Config) -> int:
    """Play every game whose bots owe answers (the embedded worker's job and the sweep)."""
    done = 0
    for game_id in due_game_ids(session_factory):
        try:
            done += play(session_factory, config, game_id)
        except Exception:
            log.exception("the bots of game %s could not play", game_id)
    return done
