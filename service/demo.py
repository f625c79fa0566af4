"""The demo game of ``capua demo``: one human seat against bots, one click to start.

A newcomer runs one command and gets a link that signs them in and opens a running PAX
game in which every other seat is a bot, so they can play a whole game alone.  The demo
player is ``demo@capua.local``; running ``capua demo`` again prints a fresh link into the
same game while it is not finished, so demo games do not pile up.
"""

from __future__ import annotations

from typing import Optional

from sqlalchemy import select
from sqlalchemy.orm import Session

from service.identity import auth
from service.play import games
from service.plumbing.config import Config
from service.plumbing.db import Game, User
from service.words import game_names

DEMO_EMAIL = "demo@capua.local"
DEMO_GAME = "pax"
DEMO_SEATS = 4
DEMO_TITLE = game_names.DEMO_TITLE


def demo_user(session: Session) -> User:
    """The demo player, created on first use."""
    user = auth.get_or_create_user(session, DEMO_EMAIL)
    if not user.display_name:
        user.display_name = "Demo"
    return user


def running_demo_game(session: Session, user: User) -> Game | None:
    """The demo player's latest demo game that is not finished yet, if any."""
    return session.scalars(
        select(Game)
        .where(Game.created_by == user.id, Game.game_type == DEMO_GAME, Game.title == DEMO_TITLE,
               Game.status != "finished")
        .order_by(Game.created_at.desc())
        .limit(1)
    ).first()


def create_demo_game(session: Session, config: Config, bot_level: Optional[str] = None) -> tuple[User, Game]:
    """A new PAX game: the demo player in seat 0, bots in seats 1-3 (it starts at once),
    playing at ``bot_level`` (default: the site's ``CAPUA_BOT_LEVEL``, ``normal``)."""
    user = demo_user(session)
    game = games.create_game(
        session,
        config,
        creator=user,
        game_type=DEMO_GAME,
        options={},
        seats=DEMO_SEATS,
        bot_seats=list(range(1, DEMO_SEATS)),
        bot_levels={n: bot_level for n in range(1, DEMO_SEATS)} if bot_level else None,
        creator_seat=0,
        title=DEMO_TITLE,
    )
    return user, game


def demo_game(session: Session, config: Config, bot_level: Optional[str] = None) -> tuple[User, Game, bool]:
    """The demo game to offer: the running one if there is one, else a new one (its bots
    at ``bot_level``, see :func:`create_demo_game`).

    Returns the demo player, the game and whether it was newly created.
    """
    user = demo_user(session)
    game = running_demo_game(session, user)
    if game is not None:
        return user, game, False
    user, game = create_demo_game(session, config, bot_level)
    return user, game, True


def demo_link(config: Config, user: User, game: Game) -> str:
    """A sign-in link that lands on the game's page."""
    return auth.make_magic_link(config, user.email, f"/games/{game.id}")
