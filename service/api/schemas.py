"""The marshmallow schemas of every request and answer of the API.

Request schemas are strict, because no input may reach a service function in a shape it
does not expect: unknown fields are refused (marshmallow's default ``RAISE``), integers
must be JSON integers (``strict``: not ``"3"``, not ``3.0``) within bounds that also
keep them inside a 64-bit database column, and strings have lengths.  What only the rules
know (a game's options, a command's arguments) is passed as a JSON object and checked by
the engine.

Answer schemas document the shapes; game-specific parts (a board, an event's data, a
decision's schema) are JSON objects whose contents belong to each game.

A command is the request the API serves most, and marshmallow's generic loading and
dumping cost about a twentieth of it.  :class:`CommandSchema` therefore takes a body that
is plainly valid (the shape every client sends) without marshmallow, and hands anything
else to marshmallow, so every refusal is marshmallow's own; :class:`CommandResultSchema`
dumps through a dumper compiled once from its declared fields (:func:`compiled_dumper`),
which does what marshmallow's dump does with these field types.
"""

from __future__ import annotations

import functools
from typing import Any, Callable, Optional
from zoneinfo import available_timezones

from marshmallow import Schema, ValidationError, fields, validate, validates

from engine import registry
from engine.core import bots
from service.play.games import MAX_CLOCK_HOURS, MAX_EVENTS_PAGE

#: The names a ``timezone`` may take.
TIME_ZONES = sorted(available_timezones())
#: Upper bound of versions, sequence numbers and ids taken from clients: a 63-bit column.
MAX_INT64 = 2**63 - 1
#: The most seats any game could have; the game's own seat counts are checked by the rules.
MAX_SEATS = 16


def _strict_int(*, lo: int = 0, hi: int = MAX_INT64, **kwargs) -> fields.Integer:
    return fields.Integer(strict=True, validate=validate.Range(min=lo, max=hi), **kwargs)


# --------------------------------------------------------------------------- errors


class ErrorBodySchema(Schema):
    status = fields.Integer(required=True, metadata={"description": "The HTTP status, repeated."})
    code = fields.String(required=True, metadata={
        "description": "Stable machine-readable code: `invalid_input`, `not_found`, `stale_version`, "
                       "`illegal_command`, `idempotency_key_reused`...",
    })
    message = fields.String(required=True, metadata={"description": "A sentence for a person."})
    details = fields.Dict(required=True, metadata={
        "description": "Particulars: `fields` (per-field messages) for 422 schema errors, "
                       "`retry_after` for 429, `incident` for 500.",
    })


class ErrorSchema(Schema):
    """Every error answer: ``{"error": {"status", "code", "message", "details"}}``."""

    error = fields.Nested(ErrorBodySchema, required=True)


# --------------------------------------------------------------------------- game types


class GameTypeSchema(Schema):
    name = fields.String(required=True, metadata={"description": "The `game_type` to create a game with."})
    title = fields.String(required=True)
    options_schema = fields.Dict(required=True, metadata={"description": "JSON schema of the creation options."})
    seat_counts = fields.List(fields.Integer(), required=True,
                              metadata={"description": "Allowed numbers of seats with the default options."})


class GameTypeListSchema(Schema):
    game_types = fields.List(fields.Nested(GameTypeSchema), required=True)


# --------------------------------------------------------------------------- games


#: The keys of a new game's ``clock`` (checked by :func:`service.play.game_clock.checked_clock`).
_CLOCK_PROPERTIES = {
    "hours": {"type": "integer", "minimum": 1, "maximum": MAX_CLOCK_HOURS,
              "description": "Equal to `clock_hours` when both are given."},
    "window_hours": {"type": "integer", "minimum": 1, "maximum": MAX_CLOCK_HOURS, "nullable": True,
                     "description": "At most `hours`."},
    "time_of_day": {"type": "string", "pattern": "^(([01][0-9]|2[0-3]):[0-5][0-9])?$", "nullable": True},
    "timezone": {"type": "string", "enum": TIME_ZONES},
    "weekend_pause": {"type": "boolean"},
    "bot_after_missed": {"type": "integer", "minimum": 0, "maximum": 100},
    "vacation": {"type": "boolean"},
}


class CreateGameSchema(Schema):
    game_type = fields.String(required=True, validate=validate.Length(min=1, max=32),
                              metadata={"enum": registry.names(),
                                        "description": "A name from `GET /api/v1/games/types`."})
    options = fields.Dict(keys=fields.String(validate=validate.Length(max=64)), load_default=dict,
                          metadata={"description": "Options of the game type (its `options_schema`)."})
    seats = _strict_int(lo=1, hi=MAX_SEATS, required=True)
    invites = fields.List(fields.Email(validate=validate.Length(max=254)), load_default=list,
                          validate=validate.Length(max=MAX_SEATS),
                          metadata={"description": "Addresses invited to the human seats, in seat order."})
    bot_seats = fields.List(_strict_int(lo=0, hi=MAX_SEATS - 1), load_default=list,
                            validate=validate.Length(max=MAX_SEATS))
    bot_levels = fields.Dict(keys=fields.String(validate=validate.Regexp(r"^[0-9]{1,2}$")),
                             values=fields.String(validate=validate.OneOf(bots.LEVELS)),
                             load_default=dict, validate=validate.Length(max=MAX_SEATS),
                             metadata={"propertyNames": {"type": "string", "pattern": "^[0-9]{1,2}$"},
                                       "description": "How well each bot seat plays, by seat number: "
                                                      "`{\"1\": \"hard\"}`; `random`, `easy`, `normal` or `hard` "
                                                      "(a bot seat not named: the server's `CAPUA_BOT_LEVEL`)."})
    my_seat = _strict_int(lo=0, hi=MAX_SEATS - 1, load_default=0, allow_none=True,
                          metadata={"description": "The creator's seat; `null` to only watch."})
    clock_hours = _strict_int(lo=1, hi=MAX_CLOCK_HOURS, load_default=None, allow_none=True,
                              metadata={"description": "Time per decision; the server default if omitted."})
    clock = fields.Dict(keys=fields.String(validate=validate.Length(max=32)), load_default=None, allow_none=True,
                        metadata={"properties": _CLOCK_PROPERTIES, "additionalProperties": False,
                                  "description": "The clock policy: `hours` per decision (e.g. 12, 24, 48, 72, 168), "
                                                 "`window_hours` per window answer (at most `hours`; default a sixth "
                                                 "of it, at least 1), "
                                                 "`time_of_day` (\"20:00\": deadlines fall then), `timezone`, "
                                                 "`weekend_pause`, `bot_after_missed` (default 2; 0 never), "
                                                 "`stand_in` (who plays for an absent player: a bot level, "
                                                 "or `defaults` for the deadline defaults only; default the "
                                                 "server's `CAPUA_BOT_LEVEL`), "
                                                 "`vacation` (players may spend vacation days; default true)."})
    title = fields.String(load_default="", validate=validate.Length(max=120))

    @validates("game_type")
    def _known_game_type(self, value: str, **_kwargs) -> None:
        if value not in registry.names():
            raise ValidationError(f"Unknown game type; one of {registry.names()}.")


class JoinGameSchema(Schema):
    seat = _strict_int(lo=0, hi=MAX_SEATS - 1, load_default=None, allow_none=True,
                       metadata={"description": "The seat to take; your invitation's, or the first open one, "
                                                "when omitted."})


class SeatSchema(Schema):
    seat = fields.Integer(required=True)
    name = fields.String(allow_none=True, metadata={"description": "Display name; `null` for an empty seat."})
    is_bot = fields.Boolean(required=True)
    bot_level = fields.String(allow_none=True, metadata={"description": "A bot seat's level; `null` otherwise."})
    invited = fields.Boolean(required=True, metadata={"description": "Reserved for an invited address."})
    open = fields.Boolean(required=True, metadata={"description": "Anyone may join into it."})
    is_you = fields.Boolean(required=True)
    invited_email = fields.String(metadata={"description": "Shown to the game's creator and the invitee only."})


class GameSummarySchema(Schema):
    id = fields.String(required=True)
    game_type = fields.String(required=True)
    title = fields.String(required=True)
    status = fields.String(required=True, metadata={"description": "`open`, `running` or `finished`."})
    version = fields.Integer(required=True, metadata={"description": "The stream version; also the ETag."})
    seat_count = fields.Integer(required=True)
    clock_hours = fields.Integer(required=True)
    created_at = fields.DateTime(required=True)
    updated_at = fields.DateTime(required=True)
    seats = fields.List(fields.Nested(SeatSchema), required=True)
    my_seat = fields.Integer(allow_none=True, required=True, metadata={"description": "`null` when watching."})
    invited_seat = fields.Integer(allow_none=True, metadata={"description": "The seat you are invited to."})
    awaiting_seats = fields.List(fields.Integer(), required=True, metadata={"description": "Seats that owe an answer."})
    bots_thinking = fields.Boolean(metadata={"description": "A bot owes an answer and is thinking it over in the "
                                                            "worker; the game moves on when it answers."})
    my_open_decisions = fields.Integer(required=True)
    next_deadline = fields.DateTime(allow_none=True)
    my_next_deadline = fields.DateTime(allow_none=True)
    outcome = fields.Dict(allow_none=True, metadata={"description": "`winners`, `ranking`, `scores`, `detail` "
                                                                    "once the game has ended."})


class GameListSchema(Schema):
    games = fields.List(fields.Nested(GameSummarySchema), required=True,
                        metadata={"description": "Games awaiting your answer first, then the latest changed."})


class GameSchema(GameSummarySchema):
    board = fields.Dict(required=True, metadata={"description": "The game as you may see it."})


# --------------------------------------------------------------------------- decisions and commands


class CommandSpecSchema(Schema):
    type = fields.String(required=True)
    args = fields.Dict(required=True)


class DecisionSchema(Schema):
    id = fields.String(required=True)
    seat = fields.Integer(required=True)
    mode = fields.String(required=True, metadata={"description": "`turn`, `simultaneous`, `interrupt` or `free`."})
    prompt = fields.String(required=True)
    prompt_key = fields.String()
    prompt_args = fields.Dict()
    group = fields.String(allow_none=True)
    context = fields.Dict(metadata={"description": "What you need to choose (cards just drawn...), yours only."})
    command_type = fields.String()
    options = fields.List(fields.Nested(CommandSpecSchema),
                          metadata={"description": "The legal answers, when they can be listed."})
    schema = fields.Dict(metadata={"description": "JSON schema of `args` when the answers are not listed."})
    default = fields.Nested(CommandSpecSchema, metadata={"description": "Applied when the deadline passes."})
    deadline_at = fields.DateTime(allow_none=True)
    version = fields.Integer(metadata={"description": "The game version the decision was opened at."})


class DecisionListSchema(Schema):
    version = fields.Integer(required=True)
    decisions = fields.List(fields.Nested(DecisionSchema), required=True)


class CommandSchema(Schema):
    type = fields.String(required=True, validate=validate.Length(min=1, max=64),
                         metadata={"description": "A decision's `command_type` (or an option's `type`)."})
    args = fields.Dict(keys=fields.String(validate=validate.Length(max=64)), load_default=dict)
    expected_version = _strict_int(load_default=None, allow_none=True, metadata={
        "description": "The version you decided against (or send `If-Match`); 412 if the game moved on.",
    })
    seat = _strict_int(lo=0, hi=MAX_SEATS - 1, load_default=None, allow_none=True,
                       metadata={"description": "Your seat, if you hold several (hot-seat games)."})

    def load(self, data, *, many=None, partial=None, unknown=None):
        """A plainly valid body without marshmallow (:func:`plain_command`), else marshmallow."""
        if many is None and partial is None and unknown is None and not self.many:
            plain = plain_command(data)
            if plain is not None:
                return plain
        return super().load(data, many=many, partial=partial, unknown=unknown)


_COMMAND_KEYS = frozenset({"type", "args", "expected_version", "seat"})


def _int_within(value: Any, lo: int, hi: int) -> bool:
    return value is None or (type(value) is int and lo <= value <= hi)


def plain_command(data: Any) -> Optional[dict]:
    """What :class:`CommandSchema` loads from ``data`` when ``data`` is plainly valid;
    ``None`` for anything else (which marshmallow then loads, or refuses in its words)."""
    if type(data) is not dict or not data.keys() <= _COMMAND_KEYS:
        return None
    kind, args = data.get("type"), data.get("args", {})
    version, seat = data.get("expected_version"), data.get("seat")
    if type(kind) is not str or not 1 <= len(kind) <= 64 or type(args) is not dict:
        return None
    for key in args:  # (a loop: a generator would cost a call per key)
        if type(key) is not str or len(key) > 64:
            return None
    if not _int_within(version, 0, MAX_INT64) or not _int_within(seat, 0, MAX_SEATS - 1):
        return None
    return {"type": kind, "args": dict(args), "expected_version": version, "seat": seat}


class EventSchema(Schema):
    seq = fields.Integer(required=True)
    type = fields.String(required=True)
    data = fields.Dict(required=True)
    at = fields.DateTime(allow_none=True)


class CommandResultSchema(Schema):
    version = fields.Integer(required=True, metadata={"description": "The game's version after the command."})
    events = fields.List(fields.Nested(EventSchema), required=True,
                         metadata={"description": "The events it caused, as you may see them."})
    decisions = fields.List(fields.Nested(DecisionSchema), required=True,
                            metadata={"description": "Your open decisions now."})
    outcome = fields.Dict(allow_none=True)

    def dump(self, obj, *, many=None):
        """An answer (a dict) through :func:`compiled_dumper`; anything else through marshmallow."""
        dumper = compiled_dumper(type(self))
        if dumper is not None and many is None and not self.many and type(obj) is dict \
                and not self.only and not self.exclude:
            return dumper(obj)
        return super().dump(obj, many=many)


def _iso(value: Any) -> str:
    """``value.isoformat()``; the text of the time asked last is kept, since an answer
    repeats one time (its command's) for each event it lists."""
    last = _ISO_HELD[0]
    if last[0] is value:  # (held, so no other object can have its id)
        return last[1]
    text = value.isoformat()
    _ISO_HELD[0] = (value, text)
    return text


#: The time :func:`_iso` formatted last, with its text, in one tuple (read and replaced
#: whole, so threads see parts that belong together).
_ISO_HELD: list[tuple[Any, str]] = [(None, "")]


@functools.lru_cache(maxsize=None)
def compiled_dumper(schema: type[Schema]) -> Optional[Callable[[dict], dict]]:
    """A function dumping a dict as ``schema().dump`` would, built once from the declared
    fields; ``None`` when the schema uses anything it does not know (hooks, options, other
    field types), and then marshmallow dumps.

    What marshmallow does, per field: a key absent from the dict is left out, ``None``
    stays ``None``; an ``Integer`` is ``int(v)``, a ``String`` ``str(v)``, a ``Dict``
    without key or value fields a shallow ``dict(v)``, an ISO ``DateTime``
    ``v.isoformat()``, a ``Nested`` (or a ``List`` of one) the nested schema's dump.
    """
    if any(schema._hooks.values()) or schema.Meta is not Schema.Meta:
        return None
    steps: list[tuple[str, str, Callable[[Any], Any], Optional[type]]] = []
    for name, field in schema._declared_fields.items():
        convert = _converter(field)
        if convert is None or field.load_only or field.attribute not in (None, name) or "." in name:
            return None
        # ``int(v)`` of an int and ``str(v)`` of a str are ``v`` itself: those are not called
        already = convert if convert is int or convert is str else None
        steps.append((name, field.data_key or name, convert, already))

    def dump(obj: dict) -> dict:
        if type(obj) is not dict:
            return schema().dump(obj)
        out = {}
        for attr, key, convert, already in steps:
            if attr in obj:
                value = obj[attr]
                out[key] = value if value is None or value.__class__ is already else convert(value)
        return out

    return dump


def _converter(field: fields.Field) -> Optional[Callable[[Any], Any]]:
    kind = type(field)
    if field.dump_default is not fields.missing_:
        return None
    if kind is fields.Integer and not field.as_string:
        return int
    if kind is fields.String:
        return str
    if kind is fields.Dict and field.key_field is None and field.value_field is None:
        return dict
    if kind is fields.DateTime and field.format in (None, "iso"):
        return _iso
    if kind is fields.Nested and not field.many and isinstance(field.nested, type) and not field.only \
            and not field.exclude:
        inner = compiled_dumper(field.nested)
        return inner
    if kind is fields.List:
        item = _converter(field.inner)
        if item is None:
            return None
        return lambda value: [None if v is None else item(v) for v in value]
    return None


class EventQuerySchema(Schema):
    # Query values are strings on the wire, so these integers are not ``strict``.
    after = fields.Integer(load_default=0, validate=validate.Range(min=0, max=MAX_INT64),
                           metadata={"description": "Only events with a larger `seq`."})
    limit = fields.Integer(load_default=200, validate=validate.Range(min=1, max=MAX_EVENTS_PAGE))


class EventListSchema(Schema):
    version = fields.Integer(required=True)
    events = fields.List(fields.Nested(EventSchema), required=True)


class GameStateSchema(Schema):
    game_id = fields.String(required=True)
    seq = fields.Integer(required=True, metadata={"description": "The board after this many events."})
    version = fields.Integer(required=True, metadata={"description": "The game's current version."})
    board = fields.Dict(required=True)


class GameTellingSchema(Schema):
    game_id = fields.String(required=True)
    version = fields.Integer(required=True)
    summary = fields.String(allow_none=True, required=True, metadata={
        "description": "One readable paragraph (for Spartacus and the arena duel: the latest fight), "
                       "from what you may see; null for games that tell none."})


# --------------------------------------------------------------------------- identity


class MagicLinkRequestSchema(Schema):
    email = fields.String(required=True, validate=validate.Length(min=3, max=254), metadata={
        "format": "email",
        "description": "Your address: a dot-atom before the one `@`, a dotted domain of letters, digits and "
                       "hyphens after it (no quoted or IP-literal forms)."})
    next = fields.String(load_default="/", validate=validate.Length(max=2000),
                         metadata={"description": "A path on this site to open after signing in."})


class MessageSchema(Schema):
    message = fields.String(required=True)


class UserSchema(Schema):
    id = fields.Integer(required=True)
    email = fields.String(required=True)
    display_name = fields.String()
    language = fields.String()
    timezone = fields.String()
    created_at = fields.DateTime()


class TokenCreateSchema(Schema):
    name = fields.String(load_default="", validate=validate.Length(max=80))


class TokenSchema(Schema):
    id = fields.Integer(required=True)
    name = fields.String(required=True)
    prefix = fields.String(required=True, metadata={"description": "The first characters of the token."})
    created_at = fields.DateTime(required=True)
    last_used_at = fields.DateTime(allow_none=True)
    revoked_at = fields.DateTime(allow_none=True)


class TokenCreatedSchema(TokenSchema):
    token = fields.String(required=True, metadata={"description": "The token itself. Shown this once only."})


class TokenListSchema(Schema):
    tokens = fields.List(fields.Nested(TokenSchema), required=True)
