"""Fight plans: a player's standing orders for a fight, set in advance.

A plan answers every decision a fight can ask of its fighter, so a fight between two
planned fighters runs on chance alone, and a player who is away never holds a fight up.
Which answer each setting gives is :mod:`engine.spartacus.arena.policy`'s job.

==================  =========================================================================
``approach``        ``close``: move into reach and attack, stay engaged; ``keep_distance``:
                    strike only from where you stand, then step back out of the opponent's
                    reach, and otherwise wait just outside it (cornered, you close in)
``initiative``      ``auto``: move first if you can strike this turn, else let the opponent
                    come; ``first``; ``second``
``net``             ``never``; ``first_round``; ``when_in_reach`` (a round in which you can
                    strike); ``when_behind`` (you have fewer dice left than the opponent)
``speed_attack``    ``never``; ``when_out_of_reach`` (only when the normal attack cannot
                    reach); ``when_stronger`` (also when you have more speed than attack dice)
``reroll``          ``never``; ``lowest`` (your lowest dice showing 1-3); ``smart`` (the dice
                    that give the best expected result against the roll you see)
``wound_order``     the attributes that lose dice first, e.g. ``["speed", "defence", "attack"]``
                    (always within the rule of one); with ``spread`` the order turns after
                    every die
==================  =========================================================================
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Mapping

from engine.spartacus.arena.combat import ATTRIBUTES

CHOICES: dict[str, tuple[str, ...]] = {
    "approach": ("close", "keep_distance"),
    "initiative": ("auto", "first", "second"),
    "net": ("never", "first_round", "when_in_reach", "when_behind"),
    "speed_attack": ("never", "when_out_of_reach", "when_stronger"),
    "reroll": ("never", "lowest", "smart"),
}


@dataclass(frozen=True)
class FightPlan:
    approach: str = "close"
    initiative: str = "auto"
    net: str = "when_in_reach"
    speed_attack: str = "when_stronger"
    reroll: str = "smart"
    wound_order: tuple[str, ...] = ("speed", "defence", "attack")
    spread: bool = False

    def to_json(self) -> dict:
        return {f.name: (list(getattr(self, f.name)) if f.name == "wound_order" else getattr(self, f.name))
                for f in fields(self)}


#: The plan a player who lets a deadline pass is given, and the engine's suggestions.
DEFAULT_PLAN = FightPlan()

#: The ``set_fight_plan`` command's arguments (missing settings take the defaults above;
#: ``"active": false`` drops the plan, so every decision is asked again).
PLAN_SCHEMA: dict = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "active": {"type": "boolean"},
        **{name: {"type": "string", "enum": list(values)} for name, values in CHOICES.items()},
        "wound_order": {"type": "array", "items": {"type": "string", "enum": list(ATTRIBUTES)},
                        "minItems": 3, "maxItems": 3, "uniqueItems": True},
        "spread": {"type": "boolean"},
    },
}


def plan_from_args(args: Mapping[str, Any]) -> FightPlan | None:
    """The plan ``set_fight_plan`` arguments describe (already checked against
    :data:`PLAN_SCHEMA`), or ``None`` for ``"active": false``."""
    if args.get("active") is False:
        return None
    values: dict[str, Any] = {k: args[k] for k in CHOICES if k in args}
    if "wound_order" in args:
        values["wound_order"] = tuple(args["wound_order"])
    if "spread" in args:
        values["spread"] = bool(args["spread"])
    return FightPlan(**values)


def plan_from_json(data: Mapping[str, Any] | None) -> FightPlan | None:
    """Read a plan back from an event (``None`` stays ``None``)."""
    if data is None:
        return None
    return plan_from_args(data)
