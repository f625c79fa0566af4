"""``/api/v1/games/types``: which games this server plays, and how to set one up.

Public: a client needs it before anyone has signed in (to draw a "new game" form).
"""

from __future__ import annotations

from engine import registry
from service.api.blueprint import ApiBlueprint
from service.api.schemas import GameTypeListSchema

blp = ApiBlueprint("game-types", __name__, url_prefix="/games/types", public=True,
                   description="The games this server plays, with their options and seat counts.")


@blp.route("", methods=["GET"])
@blp.response(200, GameTypeListSchema)
def list_game_types():
    """List the game types

    Each type with its options schema (pass matching `options` to `POST /games`) and the
    seat counts it allows with the default options.
    """
    out = []
    for name in registry.names():
        rules = registry.get(name)
        out.append({
            "name": name,
            "title": rules.title,
            "options_schema": dict(rules.options_schema()),
            "seat_counts": list(rules.seat_counts({})),
        })
    return {"game_types": out}
