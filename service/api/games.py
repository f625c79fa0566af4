"""``/api/v1/games``: create, list, join, read and play games.

Views are thin: they read the request, call one function of :mod:`service.play.games`, and
shape the answer.  Everything a player reads comes from that module's read side
(``game_view``, ``decisions_for``, ``visible_events``, ``view_at``), which only ever
hands out the engine's per-viewer ``view``/``visible``: a view here never touches raw
state or raw events.  Signed-in users who hold no seat are spectators and get the public
view.

The game's version is its ETag: ``GET`` honours ``If-None-Match`` (304), and a command
may carry the version it was decided against as ``If-Match`` or ``expected_version``.
"""

from __future__ import annotations

from typing import Optional

from flask import Response, request, url_for

from service.api.blueprint import ApiBlueprint
from service.identity import auth
from service.play import games as game_service
from service.api.schemas import (
    CommandResultSchema,
    CommandSchema,
    CreateGameSchema,
    DecisionListSchema,
    EventListSchema,
    EventQuerySchema,
    GameListSchema,
    GameSchema,
    GameStateSchema,
    GameTellingSchema,
    JoinGameSchema,
    plain_command,
)
from service.plumbing.database import config, session
from service.plumbing.db import Game
from service.plumbing.errors import InvalidInput, NotFound

blp = ApiBlueprint("games", __name__, url_prefix="/games", description="Games: create, join, read and play.")

_ETAG_HEADER = {"ETag": {"description": "The game's version, quoted.", "schema": {"type": "string"}}}
_LOCATION_HEADER = {"Location": {"description": "The new game's address.", "schema": {"type": "string"}}}


@blp.route("", methods=["GET"])
@blp.response(200, GameListSchema)
def list_games():
    """List my games

    The games you sit in or are invited to: those awaiting your answer first, then the
    most recently changed.
    """
    return {"games": game_service.games_for_user(session(), auth.require_user())}


@blp.route("", methods=["POST"])
@blp.errors(409)
@blp.mutation
@blp.arguments(CreateGameSchema)
@blp.response(201, GameSchema, headers={**_ETAG_HEADER, **_LOCATION_HEADER})
def create_game(args):
    """Create a game

    Seats are filled in order: yours (`my_seat`, or `null` to only watch), the bots', then
    the invited addresses; any seat left is open to whoever has the game's id. The game
    starts as soon as no seat is left to fill.
    """
    user = auth.require_user()
    game = game_service.create_game(
        session(), config(), creator=user, game_type=args["game_type"], options=args["options"],
        seats=args["seats"], invites=args["invites"], bot_seats=args["bot_seats"], bot_levels=args["bot_levels"],
        creator_seat=args["my_seat"], clock_hours=args["clock_hours"], title=args["title"], clock=args["clock"],
    )
    view = game_service.game_view(session(), game.id, user)
    return view, 201, {"ETag": _etag(view["version"]),
                       "Location": url_for("games.get_game", game_id=game.id)}


@blp.route("/<game_id:game_id>", methods=["GET"])
@blp.errors(304, 404)
@blp.reads_headers("If-None-Match")
@blp.response(200, GameSchema, headers=_ETAG_HEADER)
def get_game(game_id: str):
    """Show a game as I may see it

    Players see their own hand; spectators (signed in, holding no seat) the public
    view. Send the `ETag` back as `If-None-Match` to get 304 while nothing has changed.
    """
    view = game_service.game_view(session(), game_id, auth.require_user())
    etag = _etag(view["version"])
    headers = {"ETag": etag, "Cache-Control": "private, no-cache", "Vary": "Authorization, Cookie"}
    if _none_match(request.headers.get("If-None-Match"), view["version"]):
        return Response(status=304, headers=headers)
    return view, 200, headers


@blp.route("/<game_id:game_id>/join", methods=["POST"])
@blp.errors(404, 409)
@blp.mutation
@blp.arguments(JoinGameSchema, required=False)
@blp.response(200, GameSchema, headers=_ETAG_HEADER)
def join_game(args, game_id: str):
    """Join a game

    Takes the seat you were invited to, the `seat` you name, or the first open one. The
    game starts when its last seat is filled.
    """
    user = auth.require_user()
    game_service.join_game(session(), config(), game_id, user, seat=(args or {}).get("seat"))
    view = game_service.game_view(session(), game_id, user)
    return view, 200, {"ETag": _etag(view["version"])}


@blp.route("/<game_id:game_id>/decisions", methods=["GET"])
@blp.errors(404)
@blp.response(200, DecisionListSchema)
def list_decisions(game_id: str):
    """List my open decisions

    Each with its legal `options` (or a JSON `schema` of the arguments), the `default`
    applied at `deadline_at`, and the `version` to answer against. Empty for spectators
    and when you owe nothing.
    """
    decisions = game_service.decisions_for(session(), game_id, auth.require_user())
    return {"version": _version_of(game_id), "decisions": decisions}


@blp.route("/<game_id:game_id>/commands", methods=["POST"])
@blp.errors(403, 404, 409, 412)
@blp.reads_headers("If-Match")
@blp.mutation
@blp.plain_path(plain_command, CommandResultSchema, 200)
@blp.arguments(CommandSchema)
@blp.response(200, CommandResultSchema, headers=_ETAG_HEADER)
def submit_command(args, game_id: str):
    """Answer a decision

    `type` and `args` as listed by the decision; `expected_version` (or `If-Match`) is
    the version you decided against: 412 if the game has moved on, 409 if another
    change won the race. Answers with the new version, the events you may see since
    your command (bots' moves included) and your next decisions.
    """
    user = auth.require_requester()
    expected = _expected_version(args["expected_version"], request.headers.get("If-Match"))
    result = game_service.submit_command(
        session(), config(), game_id, user, command_type=args["type"], args=args["args"],
        expected_version=expected, seat=args["seat"],
    )
    return game_service.command_answer(result, user), 200, {"ETag": _etag(result.version)}


@blp.route("/<game_id:game_id>/events", methods=["GET"])
@blp.errors(404)
@blp.arguments(EventQuerySchema, location="query")
@blp.response(200, EventListSchema)
def list_events(query, game_id: str):
    """Read the game's log

    The events you may see, oldest first, after `after`; page on with the last `seq`.
    An empty page means you have read everything up to `version`.
    """
    events = game_service.visible_events(session(), game_id, auth.require_user(), after=query["after"],
                                         limit=query["limit"])
    return {"version": _version_of(game_id), "events": events}


@blp.route("/<game_id:game_id>/states/<int64:seq>", methods=["GET"])
@blp.errors(404)
@blp.response(200, GameStateSchema)
def get_state(game_id: str, seq: int):
    """Show the board at an earlier point

    The board after the first `seq` events, as you may see it now: for replays.
    """
    return game_service.view_at(session(), game_id, auth.require_user(), seq)


@blp.route("/<game_id:game_id>/summary", methods=["GET"])
@blp.errors(404)
@blp.response(200, GameTellingSchema)
def get_summary(game_id: str):
    """Tell the game in a paragraph

    The game's own summary of what you may see, such as the latest arena fight blow by
    blow in one paragraph (the text its emails use); `null` for games that have none.
    """
    return game_service.summary_for(session(), game_id, auth.require_user())


def _etag(version: int) -> str:
    return f'"{version}"'


def _version_of(game_id: str) -> int:
    game = session().get(Game, game_id)
    if game is None:  # the read just before found it; only a deletion between could get here
        raise NotFound("no such game", details={"game_id": game_id})
    return game.version


def _entity_tags(header: str) -> list[str]:
    """The entity tags of an ``If-Match``/``If-None-Match`` value, weak marks dropped."""
    tags = []
    for part in header.split(","):
        tag = part.strip()
        if tag.startswith("W/"):
            tag = tag[2:]
        if tag:
            tags.append(tag)
    return tags


def _none_match(header: Optional[str], version: int) -> bool:
    if header is None:
        return False
    tags = _entity_tags(header)
    return "*" in tags or _etag(version) in tags


def _expected_version(from_body: Optional[int], if_match: Optional[str]) -> Optional[int]:
    """The version a command must apply to, from the body or ``If-Match`` (``*``: any)."""
    from_header: Optional[int] = None
    if if_match is not None:
        tags = _entity_tags(if_match)
        if tags != ["*"]:
            if len(tags) != 1 or not _is_version_tag(tags[0]):
                raise InvalidInput('If-Match must hold one game version, like "42".', code="invalid_if_match",
                                   details={"header": "If-Match"})
            from_header = int(tags[0][1:-1])
    if from_body is not None and from_header is not None and from_body != from_header:
        raise InvalidInput("expected_version and If-Match name different versions.", code="conflicting_versions",
                           details={"expected_version": from_body, "if_match": from_header})
    return from_body if from_body is not None else from_header


def _is_version_tag(tag: str) -> bool:
    return len(tag) <= 21 and tag.startswith('"') and tag.endswith('"') and tag[1:-1].isascii() \
        and tag[1:-1].isdigit()
