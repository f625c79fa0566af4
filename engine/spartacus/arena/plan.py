"""Fight plans: a player's standing orders for a fight, set in advance.

A plan answers the decisions a fight can ask of its fighter, so a fight between two planned
fighters runs on chance alone, and a player who is away never holds a fight up.  Each
setting that answers a kind of decision also takes ``"ask"``: that kind of decision is then
asked, blow by blow, while the plan answers the rest.  Which answer each setting gives is
:mod:`engine.spartacus.arena.policy`'s job.

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
``extra_wound``     a once-per-fight extra wound (Gladius, Gallus's Brawler):
                    ``first_chance``; ``to_finish`` (only when it ends the fight); ``never``
``ignore_wound``    a once-per-fight ignored wound (Lorica, Rufus's Bodyguard):
                    ``first_chance``; ``two_or_more`` (against a blow of two or more wounds);
                    ``to_survive`` (only when the blow would otherwise end the fight);
                    ``never``
``wounds``          ``by_order``: lose dice by ``wound_order``; ``ask``
``wound_order``     the attributes that lose dice first, e.g. ``["speed", "defence", "attack"]``
                    (always within the rule of one); with ``spread`` the order turns after
                    every die
==================  =========================================================================
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Mapping, Optional

from engine.spartacus.arena.combat import ATTRIBUTES

#: The answer a setting gives when the player wants that kind of decision asked.
ASK = "ask"

CHOICES: dict[str, tuple[str, ...]] = {
    "approach": ("close", "keep_distance", ASK),
    "initiative": ("auto", "first", "second", ASK),
    "net": ("never", "first_round", "when_in_reach", "when_behind", ASK),
    "speed_attack": ("never", "when_out_of_reach", "when_stronger"),
    "reroll": ("never", "lowest", "smart", ASK),
    "extra_wound": ("first_chance", "to_finish", "never", ASK),
    "ignore_wound": ("first_chance", "two_or_more", "to_survive", "never", ASK),
    "wounds": ("by_order", ASK),
}

#: A title and a sentence per setting, so a generic form can render the plan from its schema.
DESCRIPTIONS: dict[str, tuple[str, str]] = {
    "approach": ("Approach", "close: move into reach and strike, stay engaged; keep_distance: strike only from "
                 "where you stand, then step out of reach; ask: choose every turn yourself."),
    "initiative": ("Initiative", "auto: move first exactly when you can strike this turn; first; second; "
                   "ask: choose yourself each time you win the initiative."),
    "net": ("Net", "When to throw the net to win the initiative: never, first_round, when_in_reach "
            "(a round in which you can strike), when_behind (fewer dice left than the opponent), ask."),
    "speed_attack": ("Speed attack", "When to attack with the speed dice (Javelin, Hasta): never, "
                     "when_out_of_reach (only where the normal attack cannot reach), when_stronger "
                     "(also when you have more speed than attack dice)."),
    "reroll": ("Rerolls", "never; lowest (your dice showing 1-3, lowest first); smart (the dice with the best "
               "expected result against the roll you see); ask."),
    "extra_wound": ("Once-per-fight extra wound", "Gladius, Brawler: first_chance (the first attack that "
                    "wounds); to_finish (only when it ends the fight); never; ask."),
    "ignore_wound": ("Once-per-fight ignored wound", "Lorica, Bodyguard: first_chance (the first wound); "
                     "two_or_more (a blow of two or more wounds); to_survive (only when the blow would "
                     "otherwise end the fight); never; ask."),
    "wounds": ("Losing dice", "by_order: lose dice in the order below; ask: choose every time."),
    "wound_order": ("Order of losing dice", "The attributes that lose dice first, within the rule of one."),
    "spread": ("Spread the wounds", "Turn the order after every die lost."),
    "active": ("Fight by this plan", "false: drop the plan; every decision is asked again."),
}


@dataclass(frozen=True)
class FightPlan:
    approach: str = "close"
    initiative: str = "auto"
    net: str = "when_in_reach"
    speed_attack: str = "when_stronger"
    reroll: str = "smart"
    extra_wound: str = "first_chance"
    ignore_wound: str = "first_chance"
    wounds: str = "by_order"
    wound_order: tuple[str, ...] = ("speed", "defence", "attack")
    spread: bool = False

    def to_json(self) -> dict:
        return {name: (list(getattr(self, name)) if name == "wound_order" else getattr(self, name))
                for name in _PLAN_FIELDS}

    def answers(self, setting: str) -> bool:
        """Whether the plan answers the decisions of ``setting`` (else they are asked)."""
        return getattr(self, setting) != ASK


_PLAN_FIELDS = tuple(f.name for f in fields(FightPlan))


def answering(plan: Optional[FightPlan], setting: str) -> Optional[FightPlan]:
    """``plan`` if it answers the decisions of ``setting``, else ``None`` (ask the player)."""
    return plan if plan is not None and plan.answers(setting) else None


#: The plan a player who lets a deadline pass is given, and the engine's suggestions.
DEFAULT_PLAN = FightPlan()

#: Plans with a name, offered as one click (a mail's buttons) where the whole form is too
#: much: the ``set_fight_plan`` arguments of each (missing settings take the defaults).
PRESETS: dict[str, dict] = {
    "close": {"approach": "close"},
    "keep_distance": {"approach": "keep_distance"},
    "blow_by_blow": {"active": False},
}


def _titled(name: str, schema: dict) -> dict:
    title, description = DESCRIPTIONS[name]
    out = {**schema, "title": title, "description": description}
    if name in CHOICES or name in ("wound_order", "spread"):
        default = getattr(DEFAULT_PLAN, name)
        out["default"] = list(default) if isinstance(default, tuple) else default
    return out


#: The ``set_fight_plan`` command's arguments (missing settings take the defaults above;
#: ``"active": false`` drops the plan, so every decision is asked again).
PLAN_SCHEMA: dict = {
    "type": "object",
    "title": "Fight plan",
    "additionalProperties": False,
    "properties": {
        "active": _titled("active", {"type": "boolean"}),
        **{name: _titled(name, {"type": "string", "enum": list(values)}) for name, values in CHOICES.items()},
        "wound_order": _titled("wound_order", {
            "type": "array", "items": {"type": "string", "enum": list(ATTRIBUTES)},
            "minItems": 3, "maxItems": 3, "uniqueItems": True}),
        "spread": _titled("spread", {"type": "boolean"}),
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
    """Read a plan back from an event (``None`` stays ``None``; settings added since the event
    was stored take their defaults)."""
    if data is None:
        return None
    return plan_from_args(data)
