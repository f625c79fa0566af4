"""``/api/v1/standing-orders``: answer future decisions in advance.

A standing order is a private setting of its owner (nobody else can list or read it);
see :mod:`service.play.standing_orders` for the rule format.  A malformed order is refused
with 422 ``invalid_standing_order`` and ``details.fields`` naming every problem.
"""

from __future__ import annotations

from typing import Any

from flask import Response, url_for
from marshmallow import Schema, fields, validate

from engine import registry
from service.api.blueprint import ApiBlueprint
from service.identity import auth
from service.play import presets, standing_orders as service
from service.plumbing.database import config, session
from service.words import i18n

blp = ApiBlueprint("standing_orders", __name__, url_prefix="/standing-orders",
                   description="Standing orders: your answers to future decisions, given in advance.")

_RULE_DOC = {
    "match": "Which decisions: any of `prompt_key`, `mode` (`turn`, `simultaneous`, `interrupt`), `command_type`; "
             "each a name or a list of names.",
    "if": 'Conditions that must all hold, like `{"path": "prompt_args.target", "eq": "$me"}` or '
          '`{"has_option": "use_guard"}`. Operators: eq, ne, in, not_in, lt, lte, gt, gte, exists.',
    "unless": "Conditions none of which may hold.",
    "answer": 'What to play, tried in order: `{"type", "args"}` or `{"default": true}`; an object or a list.',
    "reads_hand": "Whether the order may look at your hand. A private decision (a reaction window: its options "
                  "are the cards you hold) is otherwise answered only from public facts (`prompt_args`) and only "
                  "with its default, at the same moment whatever you hold; with `true` it may use `has_option`, "
                  "`context` and any answer, and how fast it answers may hint at your hand.",
    "during": 'Only in this round and phase of the game, as the whole table sees them, like '
              '`{"round": 3, "phase": "intrigue"}`; `null`: always.',
}


def _rule_schemas() -> dict[str, dict]:
    """The rule format of :func:`service.play.standing_orders.check_rule` as JSON Schema,
    for the document (the service checks it and answers 422 ``invalid_standing_order``)."""
    name = {"type": "string", "pattern": service.NAME_PATTERN}
    mode = {"type": "string", "enum": list(service.MODES)}

    def one_or_list(item: dict) -> dict:
        return {"oneOf": [item, {"type": "array", "items": item, "minItems": 1, "maxItems": 20}]}

    roots = "|".join(service.PATH_ROOTS)
    path = {"type": "string", "pattern": f"^({roots})(\\.[A-Za-z0-9_]{{1,64}}){{1,7}}$"}
    scalar = {"anyOf": [{"type": "string"}, {"type": "number"}, {"type": "boolean"}], "nullable": True}
    number_or_me = {"anyOf": [{"type": "number"}, {"type": "string", "enum": [service.ME]}]}
    operators = {"eq": scalar, "ne": scalar, "exists": {"type": "boolean"},
                 **{op: {"type": "array", "items": scalar, "minItems": 1, "maxItems": 50} for op in ("in", "not_in")},
                 **{op: number_or_me for op in ("lt", "lte", "gt", "gte")}}
    condition = {"oneOf": [
        {"type": "object", "properties": {"has_option": name}, "required": ["has_option"],
         "additionalProperties": False},
        {"type": "object", "properties": {"path": path, **operators}, "required": ["path"],
         "additionalProperties": False, "minProperties": 2, "maxProperties": 2,
         "description": "A path and exactly one operator."},
    ]}
    answer = {"oneOf": [
        {"type": "object", "properties": {"default": {"type": "boolean", "enum": [True]}}, "required": ["default"],
         "additionalProperties": False},
        {"type": "object", "properties": {"type": name, "args": {
            "type": "object", "description": "At most 2000 characters written out."}},
         "required": ["type"], "additionalProperties": False},
    ]}
    return {
        "match": {"type": "object", "minProperties": 1, "additionalProperties": False, "properties": {
            "prompt_key": one_or_list(name), "mode": one_or_list(mode), "command_type": one_or_list(name)}},
        "condition": condition,
        "answer": {"oneOf": [answer, {"type": "array", "items": answer, "minItems": 1,
                                      "maxItems": service.MAX_ANSWERS}]},
        "during": {"type": "object", "additionalProperties": False, "required": ["round", "phase"],
                   "properties": {"round": {"type": "integer", "minimum": 0, "maximum": 10_000}, "phase": name}},
    }


_RULE = _rule_schemas()


def _conditions(description: str, **kwargs: Any) -> fields.List:
    return fields.List(fields.Raw(metadata=_RULE["condition"]),
                       metadata={"maxItems": service.MAX_CONDITIONS, "description": description}, **kwargs)


class StandingOrderInSchema(Schema):
    name = fields.String(load_default="", validate=validate.Length(max=80))
    game_id = fields.String(load_default=None, allow_none=True, validate=validate.Length(min=1, max=32),
                            metadata={"description": "One game you play; `null` for all your games."})
    game_type = fields.String(load_default=None, allow_none=True, validate=validate.Length(min=1, max=32),
                              metadata={"enum": [*registry.names(), None],
                                        "description": "With `game_id` null: only games of this type."})
    enabled = fields.Boolean(truthy={True}, falsy={False}, load_default=True)
    position = fields.Integer(strict=True, load_default=0, validate=validate.Range(min=-1000, max=1000),
                              metadata={"description": "Orders are tried by position (then age)."})
    match = fields.Dict(required=True, metadata={**_RULE["match"], "description": _RULE_DOC["match"]})
    if_ = _conditions(_RULE_DOC["if"], data_key="if", load_default=list)
    unless = _conditions(_RULE_DOC["unless"], load_default=list)
    answer = fields.Raw(required=True, metadata={**_RULE["answer"], "description": _RULE_DOC["answer"]})
    reads_hand = fields.Boolean(truthy={True}, falsy={False}, load_default=False,
                                metadata={"description": _RULE_DOC["reads_hand"]})
    during = fields.Dict(load_default=None, allow_none=True,
                         metadata={**_RULE["during"], "description": _RULE_DOC["during"]})


class StandingOrderPatchSchema(Schema):
    name = fields.String(validate=validate.Length(max=80))
    enabled = fields.Boolean(truthy={True}, falsy={False})
    position = fields.Integer(strict=True, validate=validate.Range(min=-1000, max=1000))
    match = fields.Dict(metadata={**_RULE["match"], "description": _RULE_DOC["match"]})
    if_ = _conditions(_RULE_DOC["if"], data_key="if")
    unless = _conditions(_RULE_DOC["unless"])
    answer = fields.Raw(metadata={**_RULE["answer"], "description": _RULE_DOC["answer"]})
    reads_hand = fields.Boolean(truthy={True}, falsy={False}, metadata={"description": _RULE_DOC["reads_hand"]})
    during = fields.Dict(allow_none=True, metadata={**_RULE["during"], "description": _RULE_DOC["during"]})


class StandingOrderSchema(Schema):
    id = fields.Integer(required=True)
    name = fields.String(required=True)
    game_id = fields.String(allow_none=True, required=True)
    game_type = fields.String(allow_none=True, required=True)
    enabled = fields.Boolean(required=True)
    position = fields.Integer(required=True)
    match = fields.Dict(required=True)
    if_ = fields.List(fields.Raw(), data_key="if", required=True)
    unless = fields.List(fields.Raw(), required=True)
    answer = fields.List(fields.Raw(), required=True)
    reads_hand = fields.Boolean(required=True, metadata={"description": _RULE_DOC["reads_hand"]})
    during = fields.Dict(required=True, allow_none=True, metadata={"description": _RULE_DOC["during"]})
    uses = fields.Integer(required=True, metadata={"description": "How many decisions it has answered."})
    last_used_at = fields.DateTime(allow_none=True)
    last_used_game_id = fields.String(allow_none=True)
    created_at = fields.DateTime(required=True)
    updated_at = fields.DateTime(required=True)


class StandingOrderListSchema(Schema):
    standing_orders = fields.List(fields.Nested(StandingOrderSchema), required=True)


class StandingOrderQuerySchema(Schema):
    game_id = fields.String(load_default=None, validate=validate.Length(min=1, max=32),
                            metadata={"description": "Only the orders for this game."})


_RULE_FIELDS = ("match", "if_", "unless", "answer", "reads_hand", "during")


class PresetInSchema(Schema):
    preset = fields.String(required=True, validate=validate.OneOf(presets.KEYS), metadata={"description": (
        "`windows_like_this`: always pass in this game's windows of the kind of `decision_id` (or the window "
        "open now), about you or about others as that one is; `pass_this_phase`: pass on every window of this "
        "game until the round or phase changes; `bid_zero_unless`: bid 0 at this game's auctions unless the lot "
        "is of one of `lot_types`; `windows_not_about_me`: the recommended order, for all your Spartacus games; "
        "`defend_me`: the second recommended one, for all your Spartacus games (when a scheme names you: a guard, "
        "else a foil, else pass, at once whatever you hold).")})
    game_id = fields.String(required=True, validate=validate.Length(min=1, max=32))
    decision_id = fields.String(load_default=None, allow_none=True, validate=validate.Length(min=1, max=200),
                                metadata={"description": "The open decision the preset is given from; it is "
                                                         "answered at once when the new order matches it."})
    lot_types = fields.List(fields.String(validate=validate.OneOf(presets.LOT_TYPES)), load_default=list,
                            validate=validate.Length(max=len(presets.LOT_TYPES)),
                            metadata={"description": "For `bid_zero_unless`: the lots you still want to bid on."})


@blp.route("", methods=["GET"])
@blp.arguments(StandingOrderQuerySchema, location="query")
@blp.response(200, StandingOrderListSchema)
def list_orders(query):
    """List my standing orders

    Per-game orders first, then those for all games, each by position: the order they
    are tried in.
    """
    orders = service.list_orders(session(), auth.require_user(), query["game_id"])
    return {"standing_orders": [_shown(o) for o in orders]}


@blp.route("", methods=["POST"])
@blp.errors(403, 404)
@blp.mutation
@blp.arguments(StandingOrderInSchema)
@blp.response(201, StandingOrderSchema, headers={"Location": {"schema": {"type": "string"}}})
def create_order(args):
    """Give a standing order

    From now on a matching decision of yours is answered the moment it opens, with the
    first legal `answer`. 403 `not_seated` for a game you do not play; 409
    `too_many_standing_orders` when you have 50 already.
    """
    rule = {"match": args["match"], "if": args["if_"], "unless": args["unless"], "answer": args["answer"],
            "reads_hand": args["reads_hand"]}
    if args["during"] is not None:
        rule["during"] = args["during"]
    order = service.create_order(session(), auth.require_user(), rule=rule, name=args["name"],
                                 game_id=args["game_id"], game_type=args["game_type"], enabled=args["enabled"],
                                 position=args["position"])
    return _shown(order), 201, {"Location": url_for("standing_orders.get_order", order_id=order.id)}


@blp.route("/presets", methods=["POST"])
@blp.errors(403, 404)
@blp.mutation
@blp.arguments(PresetInSchema)
@blp.response(201, StandingOrderSchema, headers={"Location": {"schema": {"type": "string"}}})
def give_preset(args):
    """Give a ready-made standing order for one game

    The presets look only at what the whole table knows and answer with the decision's
    default (pass, bid 0), so they answer at the same moment whatever you hold. Given from
    an open decision (`decision_id`) that the new order matches, that decision is answered
    at once. 409 `decision_closed` when that decision is no longer open.
    """
    user = auth.require_user()
    order = presets.give(session(), config(), user, args["game_id"], args["preset"],
                         decision_id=args["decision_id"], lot_types=args["lot_types"],
                         language=i18n.language_or_default(user.language))
    return _shown(order), 201, {"Location": url_for("standing_orders.get_order", order_id=order.id)}


@blp.route("/<id32:order_id>", methods=["GET"])
@blp.errors(404)
@blp.response(200, StandingOrderSchema)
def get_order(order_id: int):
    """Show a standing order"""
    return _shown(service.get_order(session(), auth.require_user(), order_id))


@blp.route("/<id32:order_id>", methods=["PATCH"])
@blp.errors(404)
@blp.mutation
@blp.arguments(StandingOrderPatchSchema)
@blp.response(200, StandingOrderSchema)
def update_order(args, order_id: int):
    """Change a standing order

    `enabled: false` pauses it. Parts of the rule given replace those parts; the whole
    rule is checked again.
    """
    user = auth.require_user()
    order = service.get_order(session(), user, order_id)
    rule = None
    if any(k in args for k in _RULE_FIELDS):
        current = dict(order.rule)
        rule = {"match": args.get("match", current.get("match")), "if": args.get("if_", current.get("if", [])),
                "unless": args.get("unless", current.get("unless", [])),
                "answer": args.get("answer", current.get("answer")),
                "reads_hand": args.get("reads_hand", bool(current.get("reads_hand")))}
        during = args.get("during", current.get("during"))
        if during is not None:
            rule["during"] = during
    order = service.update_order(session(), user, order_id, rule=rule, name=args.get("name"),
                                 enabled=args.get("enabled"), position=args.get("position"))
    return _shown(order)


@blp.route("/<id32:order_id>", methods=["DELETE"])
@blp.errors(404)
@blp.mutation
@blp.response(204)
def delete_order(order_id: int):
    """Withdraw a standing order"""
    service.delete_order(session(), auth.require_user(), order_id)
    return Response(status=204)


def _shown(order) -> dict:
    rule = order.rule or {}
    return {
        "id": order.id, "name": order.name, "game_id": order.game_id, "game_type": order.game_type,
        "enabled": order.enabled, "position": order.position, "match": rule.get("match", {}),
        "if_": rule.get("if", []), "unless": rule.get("unless", []), "answer": rule.get("answer", []),
        "reads_hand": bool(rule.get("reads_hand")), "during": rule.get("during"),
        "uses": order.uses, "last_used_at": order.last_used_at, "last_used_game_id": order.last_used_game_id,
        "created_at": order.created_at, "updated_at": order.updated_at,
    }
