"""``/api/v1/games/{id}/clock`` and the creator's controls: pause, resume, extend; and
``/return`` for a player whose seat the bot plays after missed deadlines.

Each change is a service event in the game's log (``capua.GamePaused``...), so it moves
the game's version like a move does; a paused game refuses commands with 409
``game_paused``.
"""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from service.api.blueprint import ApiBlueprint
from service.identity import auth
from service.play import absence, deadlines, game_clock
from service.plumbing.database import config, session

blp = ApiBlueprint("clock", __name__, url_prefix="/games",
                   description="A game's clock: deadlines, pause, extensions, bot takeover.")


class DeadlineSchema(Schema):
    seat = fields.Integer(required=True)
    decision_id = fields.String(required=True)
    deadline_at = fields.DateTime(allow_none=True, required=True, metadata={"description": "`null` while paused."})
    remaining_seconds = fields.Integer(allow_none=True, metadata={"description": "Time left, while paused."})


class SeatClockSchema(Schema):
    seat = fields.Integer(required=True)
    missed_deadlines = fields.Integer(required=True, metadata={"description": "Missed in a row."})
    bot_since = fields.DateTime(allow_none=True, required=True,
                                metadata={"description": "Since when the bot plays this seat, or `null`."})


class ClockSchema(Schema):
    game_id = fields.String(required=True)
    version = fields.Integer(required=True)
    hours = fields.Integer(required=True, metadata={"description": "Time per decision."})
    window_hours = fields.Integer(required=True, metadata={
        "description": "Time per window answer: Spartacus's reaction windows (react, use a guard, pass) and "
                       "PAX's senator window for 5-8 players (lay a card for one aureus, or pass) run on "
                       "this clock; a game without windows keeps it unused."})
    time_of_day = fields.String(allow_none=True, required=True,
                                metadata={"description": "Deadlines fall at this time (HH:MM) in `timezone`."})
    timezone = fields.String(required=True)
    weekend_pause = fields.Boolean(required=True, metadata={"description": "The clock stops Saturday and Sunday."})
    bot_after_missed = fields.Integer(required=True,
                                      metadata={"description": "Deadlines missed in a row before the bot plays (0 never)."})
    stand_in = fields.String(allow_none=True, metadata={
        "description": "Who plays for an absent player: a bot level, or `defaults` (the deadline defaults only)."})
    vacation = fields.Boolean(required=True, metadata={"description": "Players may spend vacation days."})
    paused = fields.Boolean(required=True)
    paused_at = fields.DateTime(allow_none=True, required=True)
    deadlines = fields.List(fields.Nested(DeadlineSchema), required=True)
    seats = fields.List(fields.Nested(SeatClockSchema), required=True)


class PauseSchema(Schema):
    reason = fields.String(load_default="", validate=validate.Length(max=300))


class ExtendSchema(Schema):
    hours = fields.Integer(strict=True, required=True, validate=validate.Range(min=1, max=game_clock.MAX_CLOCK_HOURS))
    seat = fields.Integer(strict=True, load_default=None, allow_none=True, validate=validate.Range(min=0, max=15),
                          metadata={"description": "Only this seat's deadlines; all open ones when omitted."})


@blp.route("/<game_id:game_id>/clock", methods=["GET"])
@blp.errors(404)
@blp.response(200, ClockSchema)
def get_clock(game_id: str):
    """Show a game's clock

    Its policy, whether it is paused, every open deadline, and each seat's missed
    deadlines and bot takeover.
    """
    auth.require_user()
    return deadlines.clock_view(session(), game_id)


@blp.route("/<game_id:game_id>/pause", methods=["POST"])
@blp.errors(403, 404, 409)
@blp.mutation
@blp.arguments(PauseSchema, required=False)
@blp.response(200, ClockSchema)
def pause_game(args, game_id: str):
    """Pause a game (its creator)

    Every deadline keeps the time it had left; commands are refused with 409
    `game_paused` until the game is resumed.
    """
    deadlines.pause(session(), config(), game_id, auth.require_user(), (args or {}).get("reason", ""))
    return deadlines.clock_view(session(), game_id)


@blp.route("/<game_id:game_id>/resume", methods=["POST"])
@blp.errors(403, 404, 409)
@blp.mutation
@blp.response(200, ClockSchema)
def resume_game(game_id: str):
    """Resume a paused game (its creator)"""
    deadlines.resume(session(), config(), game_id, auth.require_user())
    return deadlines.clock_view(session(), game_id)


@blp.route("/<game_id:game_id>/deadlines/extend", methods=["POST"])
@blp.errors(403, 404, 409)
@blp.mutation
@blp.arguments(ExtendSchema)
@blp.response(200, ClockSchema)
def extend_deadlines(args, game_id: str):
    """Extend the open deadlines (its creator)

    Adds `hours` to every open deadline, or to one `seat`'s. Reminders are re-armed.
    """
    deadlines.extend(session(), config(), game_id, auth.require_user(), args["hours"], args["seat"])
    return deadlines.clock_view(session(), game_id)


@blp.route("/<game_id:game_id>/return", methods=["POST"])
@blp.errors(404, 409)
@blp.mutation
@blp.response(200, ClockSchema)
def take_back_seat(game_id: str):
    """Take my seat back from the bot

    After missed deadlines the bot plays your seat until you act again; this is acting
    again. 409 `not_taken_over` when the bot does not play your seat.
    """
    absence.take_back_seat(session(), config(), game_id, auth.require_user())
    return deadlines.clock_view(session(), game_id)
