"""Helpers of the table-talk tests: compose notification mail the way the worker does,
on a clock the test moves forward, so that digests and coalesced mail can be observed."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import func, select

from service.notify import mailing
from service.plumbing.db import MailMessage, utcnow


def three_player_game(ann, bob, cat) -> str:
    """A running three-seat count game: Ann, Bob and Cat at seats 0, 1 and 2."""
    created = ann.post("games", json={"game_type": "count", "seats": 3, "options": {"target": 50},
                                      "invites": ["bob@example.org", "cat@example.org"]}, idempotent=True)
    game_id = created.get_json()["id"]
    assert bob.post(f"games/{game_id}/join").status_code == 200
    assert cat.post(f"games/{game_id}/join").status_code == 200
    return game_id


class Mailroom:
    """Runs the notification composer at moments the test chooses.

    ``compose()`` moves the clock a day on (by default), so every digest and every
    coalesced row written before is due, composes, and returns the mails queued since
    the last call; each mail then counts as the player's last one, as in production.
    """

    def __init__(self, sessions, config) -> None:
        self.sessions, self.config = sessions, config
        self.clock = utcnow()
        with sessions() as s:
            self.seen = s.scalar(select(func.max(MailMessage.id))) or 0

    def compose(self, *, after: dt.timedelta = dt.timedelta(days=1), at: dt.datetime | None = None) -> list:
        self.clock = at or self.clock + after
        mailing.compose_due(self.sessions, self.config, self.clock)
        with self.sessions() as s:
            rows = list(s.scalars(select(MailMessage).where(MailMessage.id > self.seen).order_by(MailMessage.id)))
        if rows:
            self.seen = rows[-1].id
        return rows
