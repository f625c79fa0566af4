"""The demo game of ``capua demo``: one human seat against bots, one click to start.

A newcomer runs one command and gets a link that signs them in and opens a running PAX
game in which every other seat is a bot, so they can play a whole game alone.
"""

from __future__ import annotations

from sqlalchemy.orm import Session

from service import auth, games
from service.config import Config
from service.db import Game, User

DEMO_EMAIL = "demo@capua.local"
DEMO_GAME = "pax"
DEMO_SEATS = 4


def demo_user(session: Session) -> User:
    """The demo player, created on first use."""
    user = auth.get_or_create_user(session, DEMO_EMAIL)
    if not user.display_name:
        user.display_name = "Demo"
    return user


def create_demo_game(session: Session, config: Config) -> tuple[User, Game]:
    """A new PAX game: the demo player in seat 0, bots in seats 1-3 (it starts at once)."""
    user = demo_user(session)
    game = games.create_game(
        session,
        config,
        creator=user,
        game_type=DEMO_GAME,
        options={},
        seats=DEMO_SEATS,
        bot_seats=list(range(1, DEMO_SEATS)),
        creator_seat=0,
        title="PAX against three bots",
    )
    return user, game


def demo_link(config: Config, user: User, game: Game) -> str:
    """A sign-in link that lands on the game's page."""
    return auth.make_magic_link(config, user.email, f"/games/{game.id}")
