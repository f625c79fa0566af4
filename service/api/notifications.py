"""``/api/v1/me/notifications`` and ``/api/v1/me/vacation``: how and when Capua mails
me, and when I am away.

Settings are checked twice: the schema refuses wrong shapes and unknown fields, the
service refuses values that only make sense together (quiet hours need both ends).  A
refused request changes nothing and says which fields are wrong (``details.fields``).
"""

from __future__ import annotations

from flask import Response
from marshmallow import Schema, ValidationError, fields, validate, validates

from service.api.blueprint import ApiBlueprint
from service.api.schemas import TIME_ZONES
from service.identity import auth, settings
from service.play import absence
from service.plumbing import clock
from service.plumbing.database import config, session
from service.plumbing.db import GameNotificationPreference
from service.words import i18n

blp = ApiBlueprint("notifications", __name__, url_prefix="/me",
                   description="My notification settings and vacations.")

_DELIVERY = validate.OneOf(settings.DELIVERY_MODES)
_HOUR = validate.Range(min=0, max=23)
_LEAD = validate.Range(min=0, max=24 * 7)


class PreferencesSchema(Schema):
    act_delivery = fields.String(required=True, metadata={
        "description": "Mail asking you to act (your turn, reminders, invitations): `immediate`, `digest` or `off`."})
    info_delivery = fields.String(required=True, metadata={
        "description": "News of your games: `immediate`, `digest` or `off`."})
    digest_hour = fields.Integer(required=True, metadata={"description": "Hour (0-23, your time) of the daily digest."})
    quiet_start = fields.Integer(allow_none=True, required=True,
                                 metadata={"description": "No mail from this hour (your time)..."})
    quiet_end = fields.Integer(allow_none=True, required=True, metadata={"description": "...until this hour."})
    reminder_lead_hours = fields.Integer(allow_none=True, required=True, metadata={
        "description": "Remind me this many hours before a deadline; 0 never; `null` scaled to the game's clock."})
    email_enabled = fields.Boolean(required=True, metadata={"description": "`false`: no notification mail at all."})
    language = fields.String(required=True, metadata={"description": "`en`, `de` or `ru`."})
    timezone = fields.String(required=True, metadata={"description": "IANA time zone of every time in mail."})


class PreferencesUpdateSchema(Schema):
    act_delivery = fields.String(validate=_DELIVERY)
    info_delivery = fields.String(validate=_DELIVERY)
    digest_hour = fields.Integer(strict=True, validate=_HOUR)
    quiet_start = fields.Integer(strict=True, validate=_HOUR, allow_none=True, metadata={
        "description": "With `quiet_end` (given now or before): both hours, and different, or both `null`."})
    quiet_end = fields.Integer(strict=True, validate=_HOUR, allow_none=True)
    reminder_lead_hours = fields.Integer(strict=True, validate=_LEAD, allow_none=True)
    email_enabled = fields.Boolean(truthy={True}, falsy={False})
    language = fields.String(validate=validate.OneOf(i18n.LANGUAGES))
    timezone = fields.String(validate=validate.Length(max=64), metadata={"enum": TIME_ZONES})

    @validates("timezone")
    def _zone(self, value: str, **_kwargs) -> None:
        if not clock.is_time_zone(value):
            raise ValidationError("Not a time zone; use a name like Europe/Berlin.")


class GamePreferencesUpdateSchema(Schema):
    act_delivery = fields.String(validate=_DELIVERY, allow_none=True,
                                 metadata={"description": "`null` inherits your global setting."})
    info_delivery = fields.String(validate=_DELIVERY, allow_none=True)
    reminder_lead_hours = fields.Integer(strict=True, validate=_LEAD, allow_none=True)


class GamePreferencesSchema(Schema):
    game_id = fields.String(required=True)
    overrides = fields.Dict(required=True, metadata={"description": "What this game sets itself (`null`: inherited)."})
    effective = fields.Nested(PreferencesSchema, required=True, metadata={"description": "What applies to this game."})


class GamePreferencesListSchema(Schema):
    games = fields.List(fields.Nested(GamePreferencesSchema), required=True)


class VacationPeriodSchema(Schema):
    id = fields.Integer(dump_only=True)
    starts_on = fields.Date(required=True)
    ends_on = fields.Date(required=True, metadata={
        "description": f"Today or later (your time zone), not before `starts_on`, and at most "
                       f"{absence.MAX_VACATION_DAYS} days after it, counting both."})
    note = fields.String(load_default="", validate=validate.Length(max=200))


class VacationSchema(Schema):
    year = fields.Integer(required=True)
    days_per_year = fields.Integer(required=True, metadata={"description": "Your allowance (`CAPUA_VACATION_DAYS_PER_YEAR`)."})
    spent = fields.Integer(required=True)
    remaining = fields.Integer(required=True)
    spent_days = fields.List(fields.Date(), required=True,
                             metadata={"description": "Days spent this year (each covers all your games)."})
    on_vacation = fields.Boolean(required=True, metadata={"description": "A declared vacation covers today."})
    vacations = fields.List(fields.Nested(VacationPeriodSchema), required=True)


def _game_entry(row_or_id, user) -> dict:
    game_id = row_or_id if isinstance(row_or_id, str) else row_or_id.game_id
    row = session().get(GameNotificationPreference, (user.id, game_id)) if isinstance(row_or_id, str) \
        else row_or_id
    overrides = {k: getattr(row, k) if row is not None else None
                 for k in ("act_delivery", "info_delivery", "reminder_lead_hours")}
    return {"game_id": game_id, "overrides": overrides,
            "effective": settings.preferences(session(), user, game_id).to_json()}


@blp.route("/notifications", methods=["GET"])
@blp.response(200, PreferencesSchema)
def get_preferences():
    """Show my notification settings

    Defaults: mail at once when you must act, a daily digest at 08:00 of everything
    else, no quiet hours, reminders scaled to each game's clock.
    """
    return settings.preferences(session(), auth.require_user()).to_json()


@blp.route("/notifications", methods=["PATCH"])
@blp.mutation
@blp.arguments(PreferencesUpdateSchema)
@blp.response(200, PreferencesSchema)
def update_preferences(args):
    """Change my notification settings

    Send only the fields to change. Quiet hours need both `quiet_start` and `quiet_end`
    (or both `null`).
    """
    return settings.update_preferences(session(), auth.require_user(), args).to_json()


@blp.route("/notifications/games", methods=["GET"])
@blp.response(200, GamePreferencesListSchema)
def list_game_preferences():
    """List my per-game notification settings"""
    user = auth.require_user()
    return {"games": [_game_entry(row, user) for row in settings.game_overrides(session(), user)]}


@blp.route("/notifications/games/<game_id:game_id>", methods=["GET"])
@blp.errors(404)
@blp.response(200, GamePreferencesSchema)
def get_game_preferences(game_id: str):
    """Show my notification settings for one game"""
    user = auth.require_user()
    settings._require_player(session(), user, game_id)
    return _game_entry(game_id, user)


@blp.route("/notifications/games/<game_id:game_id>", methods=["PATCH"])
@blp.errors(404)
@blp.mutation
@blp.arguments(GamePreferencesUpdateSchema)
@blp.response(200, GamePreferencesSchema)
def update_game_preferences(args, game_id: str):
    """Change my notification settings for one game

    A field set to `null` inherits the global setting again.
    """
    user = auth.require_user()
    settings.update_game_preferences(session(), user, game_id, args)
    return _game_entry(game_id, user)


@blp.route("/notifications/games/<game_id:game_id>", methods=["DELETE"])
@blp.errors(404)
@blp.mutation
@blp.response(204)
def reset_game_preferences(game_id: str):
    """Forget my settings for one game (the global ones apply)"""
    settings.reset_game_preferences(session(), auth.require_user(), game_id)
    return Response(status=204)


@blp.route("/vacation", methods=["GET"])
@blp.response(200, VacationSchema)
def get_vacation():
    """Show my vacation allowance and declared vacations

    A vacation day is spent only when one of your deadlines would otherwise pass; a day
    covers all your games. During a declared vacation your deadlines move to a full
    clock period after it ends, paid from the allowance.
    """
    return absence.vacation_summary(session(), config(), auth.require_user())


@blp.route("/vacation/periods", methods=["POST"])
@blp.errors(409)
@blp.mutation
@blp.arguments(VacationPeriodSchema)
@blp.response(201, VacationSchema)
def declare_vacation(args):
    """Declare a vacation

    `starts_on` and `ends_on` are inclusive dates in your time zone.
    """
    user = auth.require_user()
    absence.declare_vacation(session(), user, args["starts_on"], args["ends_on"], args["note"])
    return absence.vacation_summary(session(), config(), user), 201


@blp.route("/vacation/periods/<id32:vacation_id>", methods=["DELETE"])
@blp.errors(404)
@blp.mutation
@blp.response(204)
def delete_vacation(vacation_id: int):
    """Delete a declared vacation"""
    absence.delete_vacation(session(), auth.require_user(), vacation_id)
    return Response(status=204)
