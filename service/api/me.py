"""``/api/v1/me``: who the API thinks you are."""

from __future__ import annotations

from service.api.blueprint import ApiBlueprint
from service.api.schemas import UserSchema
from service.identity import auth

blp = ApiBlueprint("me", __name__, url_prefix="/me", description="The signed-in user.")


@blp.route("", methods=["GET"])
@blp.response(200, UserSchema)
def get_me():
    """Show the signed-in user"""
    return auth.require_user()
