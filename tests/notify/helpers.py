"""Building games for the notification tests through the service, as the API would."""

from __future__ import annotations

from service.identity import auth
from service.play import games


def new_game(sessions, config, *, players=("ann", "bob"), bots=(), game_type="count", options=None, clock=None):
    """A running game with ``players`` (joined users ann@example.org...) and ``bots``;
    returns ``(game_id, {name: user_id})``."""
    seats = len(players) + len(bots)
    with sessions() as s:
        users = {name: auth.get_or_create_user(s, f"{name}@example.org") for name in players}
        for name, user in users.items():
            user.display_name = name.capitalize()
        creator = users[players[0]]
        bot_seats = list(range(len(players), seats))
        game = games.create_game(s, config, creator=creator, game_type=game_type,
                                 options=options if options is not None else ({"target": 6} if game_type == "count"
                                                                              else {}),
                                 seats=seats, bot_seats=bot_seats, creator_seat=0, clock=clock)
        for n, name in enumerate(players[1:], start=1):
            games.join_game(s, config, game.id, users[name], seat=n)
        s.commit()
        return game.id, {name: u.id for name, u in users.items()}
