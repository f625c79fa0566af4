"""``/api/v1/tokens``: personal API tokens.

A token is shown once, in the answer that creates it; afterwards only its prefix is
known (the server keeps a hash).  Revoking is immediate: the next request with it is 401.
"""

from __future__ import annotations

from flask import Response, url_for

from service.api.blueprint import ApiBlueprint
from service.api.schemas import TokenCreateSchema, TokenCreatedSchema, TokenListSchema, TokenSchema
from service.identity import auth
from service.plumbing.database import session

blp = ApiBlueprint("tokens", __name__, url_prefix="/tokens", description="Personal API tokens.")


@blp.route("", methods=["GET"])
@blp.response(200, TokenListSchema)
def list_tokens():
    """List my API tokens

    Newest first, revoked ones included (with `revoked_at`).
    """
    return {"tokens": auth.list_api_tokens(session(), auth.require_user())}


@blp.route("", methods=["POST"])
@blp.mutation
@blp.arguments(TokenCreateSchema)
@blp.response(201, TokenCreatedSchema, headers={"Location": {"schema": {"type": "string"}}})
def create_token(args):
    """Create an API token

    The answer holds the token itself (`token`) this once: store it now.
    """
    token, raw = auth.create_api_token(session(), auth.require_user(), args["name"])
    body = {name: getattr(token, name) for name in TokenSchema().fields} | {"token": raw}
    return body, 201, {"Location": url_for("tokens.list_tokens")}


@blp.route("/<id32:token_id>", methods=["DELETE"])
@blp.errors(404)
@blp.mutation
@blp.response(204)
def revoke_token(token_id: int):
    """Revoke an API token

    Revoking a revoked token is not an error; another user's token is 404.
    """
    auth.revoke_api_token(session(), auth.require_user(), token_id)
    return Response(status=204)
