"""A player who is playing on the game's page gets no "Your move" mail for the question in
front of them; a player who is away does, and so does one who left the page a while ago."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import select

from service.identity import auth
from service.notify import compose, mailing
from service.plumbing.db import MailMessage, Notification, Seat
from tests.web.pages_play import bot_game
from tests.web.support import sign_in_with


def _due_for(web_sessions, email: str) -> tuple[int, dt.datetime]:
    with web_sessions() as s:
        ann = auth.get_or_create_user(s, email)
        rows = list(s.scalars(select(Notification).where(Notification.user_id == ann.id,
                                                         Notification.status == "pending")))
        assert rows, "the game asks ann something"
        return ann.id, max(r.due_at for r in rows)


def _mails_to(web_sessions, email: str) -> list[str]:
    with web_sessions() as s:
        return [m.subject for m in s.scalars(select(MailMessage).where(MailMessage.to_address == email))]


def _compose_at(web_sessions, web_config, user_id: int, due: dt.datetime, after_page: dt.timedelta) -> None:
    """Compose ann's mail when it is due and ``after_page`` after her page was drawn."""
    with web_sessions() as s:
        seen = s.scalar(select(Seat.on_page_at).where(Seat.user_id == user_id))
    seen = seen if seen is None or seen.tzinfo else seen.replace(tzinfo=dt.timezone.utc)
    now = max(due, (seen or due) + after_page)
    mailing.compose_for_user(web_sessions, web_config, user_id, now)


def test_no_your_move_mail_while_the_player_is_on_the_page(app, client, web_sessions, web_config):
    game_id = bot_game(web_sessions, web_config, "pax", 3)
    user_id, due = _due_for(web_sessions, "ann@example.org")
    sign_in_with(app, client, "ann@example.org")
    assert client.get(f"/games/{game_id}").status_code == 200
    _compose_at(web_sessions, web_config, user_id, due, dt.timedelta(minutes=2))
    assert not [s for s in _mails_to(web_sessions, "ann@example.org") if "move" in s.lower()], \
        "ann plays on the page: no mail asks her what the page shows"


def test_the_mail_comes_when_the_player_is_away(app, web_sessions, web_config):
    game_id = bot_game(web_sessions, web_config, "pax", 3)
    user_id, due = _due_for(web_sessions, "ann@example.org")
    _compose_at(web_sessions, web_config, user_id, due, dt.timedelta(0))
    assert any("Your move" in s for s in _mails_to(web_sessions, "ann@example.org"))


def test_the_mail_comes_once_the_page_was_left_a_while_ago(app, client, web_sessions, web_config):
    game_id = bot_game(web_sessions, web_config, "pax", 3)
    user_id, due = _due_for(web_sessions, "ann@example.org")
    sign_in_with(app, client, "ann@example.org")
    client.get(f"/games/{game_id}")
    _compose_at(web_sessions, web_config, user_id, due, compose.ON_PAGE + dt.timedelta(minutes=1))
    assert any("Your move" in s for s in _mails_to(web_sessions, "ann@example.org"))
