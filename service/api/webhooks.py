"""``/api/v1/webhooks``: subscribe URLs to your games, read the delivery log, redeliver.

Views are thin: each calls one function of :mod:`service.notify.webhooks`.  An endpoint's
signing secret is in the answer that creates it, at ``GET .../secret`` and in the
answer of a rotation; listings never show it.  Another user's endpoint is 404.
"""

from __future__ import annotations

from flask import Response, url_for
from marshmallow import Schema, fields, validate

from service.api.blueprint import ApiBlueprint
from service.api.schemas import MAX_INT64
from service.identity import auth
from service.notify import webhooks as service
from service.plumbing.database import config, session

blp = ApiBlueprint("webhooks", __name__, url_prefix="/webhooks",
                   description="Webhooks: Capua POSTs your games' events to your URLs, signed per Standard Webhooks.")

_STATUSES = ("pending", "sending", "succeeded", "failed")
_URL_DOC = {
    "format": "uri", "pattern": "^https?://[^\\s]+$",
    "description": "Where to POST: an https (or http) URL of a public address, unless the operator allows "
                   "others; no user name or password, no #fragment."}


def _event_type() -> fields.String:
    """An event type name; the service refuses others with 422 ``invalid_event_types``."""
    return fields.String(validate=validate.Length(max=64), metadata={"enum": sorted(service.EVENT_TYPES)})


class WebhookCreateSchema(Schema):
    url = fields.String(required=True, validate=validate.Length(min=1, max=2000), metadata=_URL_DOC)
    game_id = fields.String(load_default=None, allow_none=True, validate=validate.Length(min=1, max=32), metadata={
        "description": "One game; `null` for every game you hold a seat in."})
    event_types = fields.List(_event_type(), load_default=None, allow_none=True,
                              validate=validate.Length(min=1, max=20),
                              metadata={"description": "Which events to receive (see `GET /webhooks/event-types`); "
                                                       "all of them when omitted."})
    description = fields.String(load_default="", validate=validate.Length(max=200))


class WebhookUpdateSchema(Schema):
    url = fields.String(validate=validate.Length(min=1, max=2000), metadata=_URL_DOC)
    event_types = fields.List(_event_type(), validate=validate.Length(min=1, max=20))
    description = fields.String(validate=validate.Length(max=200))
    enabled = fields.Boolean(truthy={True}, falsy={False},
                             metadata={"description": "`true` turns a disabled webhook back on."})


class WebhookSchema(Schema):
    id = fields.Integer(required=True)
    url = fields.String(required=True)
    game_id = fields.String(allow_none=True, required=True)
    description = fields.String(required=True)
    event_types = fields.List(fields.String(), required=True)
    status = fields.String(required=True, metadata={"description": "`enabled` or `disabled`."})
    disabled_reason = fields.String(required=True, metadata={
        "description": "Why it is off, as an English sentence; empty while it is on."})
    disabled_code = fields.String(required=True, metadata={
        "description": "Why it is off, machine-readable: `by_owner`, `gone_410`, `retries_exhausted`, "
                       "`address_refused` or `other` (a reason recorded before codes existed); empty while it is on."})
    disabled_details = fields.Dict(allow_none=True, required=True, metadata={
        "description": "What goes with the code: `attempts`, `status` (the last HTTP answer, or `null`) and `error` "
                       "for `retries_exhausted`; `host` and `detail` for `address_refused`; `text` for `other`."})
    disabled_at = fields.DateTime(allow_none=True)
    previous_secret_expires_at = fields.DateTime(allow_none=True, metadata={
        "description": "While set, messages are also signed with the secret before the last rotation."})
    created_at = fields.DateTime(required=True)
    updated_at = fields.DateTime(required=True)


class WebhookCreatedSchema(WebhookSchema):
    secret = fields.String(required=True, metadata={"description": "The signing secret (`whsec_...`)."})


class WebhookListSchema(Schema):
    webhooks = fields.List(fields.Nested(WebhookSchema), required=True)


class EventTypeSchema(Schema):
    name = fields.String(required=True)
    description = fields.String(required=True)


class EventTypeListSchema(Schema):
    event_types = fields.List(fields.Nested(EventTypeSchema), required=True)


class SecretSchema(Schema):
    secret = fields.String(required=True)
    previous_secret_expires_at = fields.DateTime(allow_none=True)


class RotateSchema(Schema):
    grace_hours = fields.Integer(strict=True, load_default=service.DEFAULT_ROTATION_GRACE_HOURS,
                                 validate=validate.Range(min=0, max=service.MAX_ROTATION_GRACE_HOURS),
                                 metadata={"description": "How long the old secret keeps signing too (0: stop now)."})


class AttemptSchema(Schema):
    started_at = fields.DateTime(required=True)
    duration_ms = fields.Integer(required=True)
    status_code = fields.Integer(allow_none=True, metadata={"description": "The receiver's answer; `null` if none."})
    error = fields.String(required=True)
    response_excerpt = fields.String(required=True)


class DeliverySchema(Schema):
    id = fields.Integer(required=True)
    message_id = fields.String(required=True, metadata={"description": "The `webhook-id` header."})
    event_type = fields.String(required=True)
    game_id = fields.String(allow_none=True)
    status = fields.String(required=True, metadata={"description": "`pending`, `sending`, `succeeded` or `failed`."})
    attempts = fields.Integer(required=True)
    next_attempt_at = fields.DateTime(allow_none=True)
    last_status_code = fields.Integer(allow_none=True)
    last_error = fields.String(required=True)
    created_at = fields.DateTime(required=True)
    delivered_at = fields.DateTime(allow_none=True)


class DeliveryDetailSchema(DeliverySchema):
    payload = fields.String(required=True, metadata={"description": "The body sent, byte for byte."})
    attempt_log = fields.List(fields.Nested(AttemptSchema), required=True)


class DeliveryListSchema(Schema):
    deliveries = fields.List(fields.Nested(DeliverySchema), required=True)


class DeliveryQuerySchema(Schema):
    status = fields.String(load_default=None, validate=validate.OneOf(_STATUSES))
    before = fields.Integer(load_default=None, validate=validate.Range(min=1, max=MAX_INT64),
                            metadata={"description": "Only deliveries with a smaller id (page on)."})
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=service.MAX_DELIVERIES_PAGE))


_LOCATION = {"Location": {"schema": {"type": "string"}}}


@blp.route("", methods=["GET"])
@blp.response(200, WebhookListSchema)
def list_webhooks():
    """List my webhooks"""
    return {"webhooks": service.list_endpoints(session(), auth.require_user())}


@blp.route("", methods=["POST"])
@blp.errors(404)
@blp.mutation
@blp.arguments(WebhookCreateSchema)
@blp.response(201, WebhookCreatedSchema, headers=_LOCATION)
def create_webhook(args):
    """Subscribe a URL

    For one game (`game_id`) or all your games. The answer holds the signing secret;
    verify each message's `webhook-signature` with it (any Standard Webhooks library
    does). Refused with 422 `forbidden_address` for loopback, private and link-local
    addresses unless the operator allows them, `invalid_url`, `invalid_event_types`;
    404 for an unknown game.
    """
    endpoint = service.create_endpoint(session(), config(), auth.require_user(), url=args["url"],
                                       game_id=args["game_id"], event_types=args["event_types"],
                                       description=args["description"])
    return _created(endpoint), 201, {"Location": url_for("webhooks.get_webhook", endpoint_id=endpoint.id)}


@blp.route("/event-types", methods=["GET"])
@blp.response(200, EventTypeListSchema)
def list_event_types():
    """List the event types a webhook can receive"""
    return {"event_types": [{"name": k, "description": v} for k, v in sorted(service.EVENT_TYPES.items())]}


@blp.route("/<id32:endpoint_id>", methods=["GET"])
@blp.errors(404)
@blp.response(200, WebhookSchema)
def get_webhook(endpoint_id: int):
    """Show a webhook"""
    return service.get_endpoint(session(), auth.require_user(), endpoint_id)


@blp.route("/<id32:endpoint_id>", methods=["PATCH"])
@blp.errors(404)
@blp.mutation
@blp.arguments(WebhookUpdateSchema)
@blp.response(200, WebhookSchema)
def update_webhook(args, endpoint_id: int):
    """Change a webhook

    Any of `url`, `event_types`, `description`; `enabled: true` turns a disabled
    webhook back on (then redeliver what failed), `false` pauses it.
    """
    return service.update_endpoint(session(), config(), auth.require_user(), endpoint_id, **args)


@blp.route("/<id32:endpoint_id>", methods=["DELETE"])
@blp.errors(404)
@blp.mutation
@blp.response(204)
def delete_webhook(endpoint_id: int):
    """Delete a webhook and its delivery log"""
    service.delete_endpoint(session(), auth.require_user(), endpoint_id)
    return Response(status=204)


@blp.route("/<id32:endpoint_id>/secret", methods=["GET"])
@blp.errors(404)
@blp.response(200, SecretSchema)
def get_secret(endpoint_id: int):
    """Show a webhook's signing secret"""
    endpoint = service.get_endpoint(session(), auth.require_user(), endpoint_id)
    return {"secret": endpoint.secret, "previous_secret_expires_at": endpoint.previous_secret_expires_at}


@blp.route("/<id32:endpoint_id>/rotate-secret", methods=["POST"])
@blp.errors(404)
@blp.mutation
@blp.arguments(RotateSchema)
@blp.response(200, SecretSchema)
def rotate_secret(args, endpoint_id: int):
    """Rotate a webhook's signing secret

    Messages are signed with both the new and the old secret for `grace_hours`
    (default 24), so your receiver can switch at its own pace.
    """
    endpoint = service.rotate_secret(session(), auth.require_user(), endpoint_id, args["grace_hours"])
    return {"secret": endpoint.secret, "previous_secret_expires_at": endpoint.previous_secret_expires_at}


@blp.route("/<id32:endpoint_id>/test", methods=["POST"])
@blp.errors(404)
@blp.mutation
@blp.response(202, DeliverySchema)
def send_test(endpoint_id: int):
    """Send a test message

    A `webhook.test` message, queued like any other; follow it in the delivery log.
    """
    return service.send_test(session(), config(), auth.require_user(), endpoint_id), 202


@blp.route("/<id32:endpoint_id>/deliveries", methods=["GET"])
@blp.errors(404)
@blp.arguments(DeliveryQuerySchema, location="query")
@blp.response(200, DeliveryListSchema)
def list_deliveries(query, endpoint_id: int):
    """Read the delivery log

    The webhook's messages, newest first, with their status, attempts and last error.
    """
    return {"deliveries": service.list_deliveries(session(), auth.require_user(), endpoint_id, **query)}


@blp.route("/<id32:endpoint_id>/deliveries/<int64:delivery_id>", methods=["GET"])
@blp.errors(404)
@blp.response(200, DeliveryDetailSchema)
def get_delivery(endpoint_id: int, delivery_id: int):
    """Show one delivery, its body and every attempt"""
    return _detail(service.get_delivery(session(), auth.require_user(), endpoint_id, delivery_id))


@blp.route("/<id32:endpoint_id>/deliveries/<int64:delivery_id>/redeliver", methods=["POST"])
@blp.errors(404)
@blp.mutation
@blp.response(202, DeliveryDetailSchema)
def redeliver(endpoint_id: int, delivery_id: int):
    """Send a message again

    The same `webhook-id` and body, now; a failure is retried on the schedule again.
    409 `webhook_disabled` while the webhook is off.
    """
    delivery = service.redeliver(session(), config(), auth.require_user(), endpoint_id, delivery_id)
    return _detail(delivery), 202


def _created(endpoint) -> dict:
    body = {name: getattr(endpoint, name) for name in WebhookSchema().fields}
    return body | {"secret": endpoint.secret}


def _detail(delivery) -> dict:
    body = {name: getattr(delivery, name) for name in DeliverySchema().fields}
    return body | {"payload": delivery.payload,
                   "attempt_log": service.attempts_of(session(), delivery)}
