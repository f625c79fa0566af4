"""``/api/v1/games/{id}/messages`` (table talk) and ``/api/v1/inbound/mail`` (replies by mail).

Table talk belongs to a game's players: each reads the public messages and the private
ones addressed to their seat, and nothing else (spectators are refused, 403).
Posting never changes the game's version.

The inbound endpoint is for a mail provider's inbound webhook (Mailgun, SendGrid,
Postmark... or any relay that can POST a received mail).  It authenticates with HTTP
Basic, the password being ``CAPUA_INBOUND_MAIL_SECRET`` (``https://capua:SECRET@host/...``
in the provider's settings); with no secret set it is off.
"""

from __future__ import annotations

import hmac

from flask import current_app, request, url_for
from marshmallow import Schema, ValidationError, fields, validate

from service.api.blueprint import ApiBlueprint
from service.api.body import is_json_mimetype, parse_json_bytes
from service.api.schemas import MAX_INT64, MAX_SEATS
from service.identity import auth
from service.notify import inbound_mail, talk as service
from service.plumbing import mail
from service.plumbing.database import config, session
from service.plumbing.errors import Forbidden, InvalidInput, Unauthorized
from service.plumbing.idempotency import after_commit

blp = ApiBlueprint("messages", __name__, url_prefix="/games",
                   description="Table talk: public and private messages among a game's players.")
inbound = ApiBlueprint("inbound", __name__, url_prefix="/inbound", public=True, accepts_forms=True,
                       description="Replies to table-talk mail, posted by your mail provider.")


class MessageInSchema(Schema):
    body = fields.String(required=True, validate=validate.Length(min=1, max=service.MAX_BODY))
    to = fields.List(fields.Integer(strict=True, validate=validate.Range(min=0, max=MAX_SEATS - 1)),
                     load_default=None, allow_none=True, validate=validate.Length(min=1, max=MAX_SEATS),
                     metadata={"description": "Seats of a private message (yours is added); omit for everyone."})
    reply_to = fields.Integer(strict=True, load_default=None, allow_none=True,
                              validate=validate.Range(min=1, max=MAX_INT64),
                              metadata={"description": "The message answered; without `to`, the reply goes to its "
                                                       "audience."})


class TableMessageSchema(Schema):
    id = fields.Integer(required=True)
    game_id = fields.String(required=True)
    sender_seat = fields.Integer(required=True)
    sender_name = fields.String(required=True)
    public = fields.Boolean(required=True)
    to = fields.List(fields.Integer(), allow_none=True, required=True,
                     metadata={"description": "The seats of a private message, the sender's included; `null` "
                                              "when public."})
    to_names = fields.List(fields.String(), allow_none=True)
    body = fields.String(required=True)
    reply_to_id = fields.Integer(allow_none=True)
    via = fields.String(required=True, metadata={
        "description": "`web`, `api`, `email`, or `bot` (a bot answering a message addressed to it)."})
    created_at = fields.DateTime(required=True)


class TableMessageListSchema(Schema):
    messages = fields.List(fields.Nested(TableMessageSchema), required=True)


class MessageQuerySchema(Schema):
    after = fields.Integer(load_default=0, validate=validate.Range(min=0, max=MAX_INT64),
                           metadata={"description": "Only messages with a larger id."})
    limit = fields.Integer(load_default=100, validate=validate.Range(min=1, max=service.MAX_PAGE))


class InboundMailSchema(Schema):
    raw = fields.String(required=True, validate=validate.Length(min=1, max=inbound_mail.MAX_MAIL_BYTES),
                        metadata={"description": "The whole received mail (RFC 5322), headers and body."})
    recipient = fields.String(load_default=None, allow_none=True, validate=validate.Length(max=320),
                              metadata={"description": "The envelope recipient (the `talk+...` address)."})
    sender = fields.String(load_default=None, allow_none=True, validate=validate.Length(max=320),
                           metadata={"description": "The envelope sender."})


class InboundResultSchema(Schema):
    status = fields.String(required=True, metadata={"description": "`posted`, or `duplicate` for a mail seen before."})
    message_id = fields.Integer(required=True)
    game_id = fields.String(required=True)


@blp.route("/<game_id:game_id>/messages", methods=["GET"])
@blp.errors(403, 404)
@blp.arguments(MessageQuerySchema, location="query")
@blp.response(200, TableMessageListSchema)
def list_messages(query, game_id: str):
    """Read the table talk

    The public messages and those private to you, oldest first; page on with `after`
    = the last id you read.
    """
    return {"messages": service.messages_for(session(), game_id, auth.require_user(), after=query["after"],
                                             limit=query["limit"])}


@blp.route("/<game_id:game_id>/messages", methods=["POST"])
@blp.errors(403, 404)
@blp.mutation
@blp.arguments(MessageInSchema)
@blp.response(201, TableMessageSchema, headers={"Location": {"schema": {"type": "string"}}})
def post_message(args, game_id: str):
    """Say something at the table

    Public without `to`; private to the seats in `to` (two players at least, you
    included). The recipients are emailed, and their webhooks told.
    """
    user = auth.require_user()
    message = service.post_message(session(), config(), game_id, user, body=args["body"], to=args["to"],
                                   reply_to=args["reply_to"], via="api")
    after_commit(_deliver_mail)
    return (service.describe(session(), message), 201,
            {"Location": url_for("messages.list_messages", game_id=game_id, after=message.id - 1)})


@inbound.route("/mail", methods=["POST"])
@inbound.errors(400, 401, 403, 413, 415, 422)
@inbound.doc(requestBody={
    "required": True,
    "content": {
        "application/json": {"schema": InboundMailSchema},
        "application/x-www-form-urlencoded": {"schema": {"type": "object", "properties": {
            "recipient": {"type": "string"}, "sender": {"type": "string"},
            "raw": {"type": "string"}, "email": {"type": "string"}, "body-mime": {"type": "string"}}}},
    },
    "description": "JSON `{raw, recipient, sender}`, or a form post with the whole mail in `raw`, `email` "
                   "(SendGrid's raw mode) or `body-mime` (Mailgun's MIME route).",
})
@inbound.mutation
@inbound.response(200, InboundResultSchema)
def receive_mail():
    """Post a reply that arrived by mail

    Authenticated with HTTP Basic (password: the operator's `CAPUA_INBOUND_MAIL_SECRET`).
    Refused, posting nothing: 403 `bad_reply_address` (not ours, or tampered),
    `sender_mismatch` (not the player the mail was sent to), `automatic_mail`,
    `not_seated`; 422 `empty_reply`. The same `Message-ID` twice posts once.
    """
    _check_inbound_secret()
    fields_ = _inbound_fields()
    result = inbound_mail.receive(session(), config(), raw=fields_["raw"].encode("utf-8", "surrogateescape"),
                                  recipient=fields_["recipient"], sender=fields_["sender"])
    after_commit(_deliver_mail)
    return {"status": "duplicate" if result.duplicate else "posted", "message_id": result.message.id,
            "game_id": result.message.game_id}


def _deliver_mail() -> None:
    mail.notify_mail_committed(current_app, mail.take_queued(session()))


def _check_inbound_secret() -> None:
    secret = config().inbound_mail_secret
    if not secret:
        raise Forbidden("Replies by mail are not taken over HTTP here (CAPUA_INBOUND_MAIL_SECRET).",
                        code="inbound_mail_off")
    given = request.authorization.password if request.authorization is not None else None
    if not isinstance(given, str) or not hmac.compare_digest(given.encode("utf-8"), secret.encode("utf-8")):
        raise Unauthorized("Send the inbound-mail secret as the HTTP Basic password.",
                           headers={"WWW-Authenticate": 'Basic realm="capua-inbound"'})


def _inbound_fields() -> dict:
    """The mail and its envelope from a JSON body or a provider's form post."""
    if is_json_mimetype(request.mimetype):
        data = parse_json_bytes(request.get_data(cache=True))
        try:
            return InboundMailSchema().load(data if isinstance(data, dict) else {})
        except ValidationError as err:
            raise InvalidInput("The request does not fit the schema; see details.fields.",
                               details={"fields": err.messages}) from None
    form = request.form
    raw = form.get("raw") or form.get("email") or form.get("body-mime")
    if not raw:
        raise InvalidInput("Send the whole mail as JSON {raw, recipient, sender} or as a form field raw.",
                           code="invalid_mail", details={"fields": {"raw": ["Missing data for required field."]}})
    return {"raw": raw, "recipient": form.get("recipient") or form.get("to") or None,
            "sender": form.get("sender") or form.get("from") or None}
