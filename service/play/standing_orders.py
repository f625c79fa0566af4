"""Standing orders: a player answers future decisions in advance.

Interrupt-heavy games ask every player, many times a round, whether they react, support
or bid; most of those answers are the same every time.  A standing order says so once
("pass on reactions unless I am the target", "never support schemes", "bid 0 on
auctions"), and the server answers a matching decision the moment it opens, exactly as
it answers for a bot, but as the player: the command goes through the same rules and
becomes an ordinary command event.  Orders are private settings: only their owner can
list them, and nothing in the game says an answer came from one.

An order is a small declarative rule (stored as JSON in ``standing_orders.rule``)::

    {"match":  {"prompt_key": "react_scheme", "mode": "interrupt", "command_type": "..."},
     "if":     [{"path": "prompt_args.target", "eq": "$me"}],
     "unless": [{"has_option": "use_guard"}],
     "answer": [{"type": "pass_reaction"}, {"default": true}]}

* ``match`` (at least one key; each a string or a list of strings) picks decisions by
  the fields every decision has: ``prompt_key``, ``mode`` (``turn``, ``simultaneous``,
  ``interrupt``) and ``command_type``;
* ``if`` conditions must all hold, ``unless`` conditions must all fail.  A condition
  reads a ``path`` into the decision's ``prompt_args`` or ``context`` with one operator
  (``eq``, ``ne``, ``in``, ``not_in``, ``lt``, ``lte``, ``gt``, ``gte``, ``exists``), or
  asks whether an option of a type is offered (``has_option``).  ``"$me"`` stands for
  the player's seat.  A condition about a value the decision does not carry can be
  neither true nor false: the order then does not fire, and the player decides;
* ``answer`` is tried in order and the first legal one is played: ``{"default": true}``
  (the decision's own default), or ``{"type", "args"}``.  Against listed options the
  ``args`` given must match (others may be anything), so ``{"type": "refuse_support"}``
  picks that option; against a schema decision ``args`` must satisfy the schema.  When
  no answer is legal, or the rules refuse it, the order does not fire;
* ``reads_hand`` (default false): whether the order may look at its owner's hand.  A
  *private* decision (a window, whose options are the cards one holds) is answered by an
  order without it only from public facts (``prompt_args``) and only with its default,
  so the order answers at the same moment whatever the hand; with it, ``has_option``,
  ``context`` and any answer may be used, and how fast the order answers may hint at the
  hand (the player chose that);
* ``during`` (optional) ``{"round": n, "phase": "..."}``: the order answers only while the
  game is in that round and phase, as the whole table sees them (:func:`phase_key`), and
  lies idle afterwards ("pass on everything this phase").

Only blocking decisions are answered (free actions such as trades never are), orders
for one game come before orders for all games, then by ``position``.  Orders answer a
matching decision when it opens, or the next time the game moves while it is still
open.  At most :data:`MAX_ANSWERS_PER_SEAT` answers per seat follow one change, so an
order that keeps re-opening its own decision cannot spin the server.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Optional, Sequence

from sqlalchemy import func, or_, select, update
from sqlalchemy.orm import Session

from engine import registry
from engine.core import schema as schema_mod
from engine.core.errors import RuleViolation
from engine.core.types import Command, Decision
from service.plumbing.db import Game, Seat, StandingOrder, User, utcnow
from service.plumbing.errors import Conflict, Forbidden, InvalidInput, NotFound

MAX_ORDERS_PER_USER = 50
MAX_CONDITIONS = 10
MAX_ANSWERS = 5
MAX_ANSWERS_PER_SEAT = 100
#: The most characters of an order's name; its position runs from -MAX_POSITION to MAX_POSITION.
MAX_NAME = 80
MAX_POSITION = 1000
ME = "$me"
MODES = ("turn", "simultaneous", "interrupt")
MATCH_KEYS = ("prompt_key", "mode", "command_type")
OPERATORS = ("eq", "ne", "in", "not_in", "lt", "lte", "gt", "gte", "exists")
PATH_ROOTS = ("prompt_args", "context")
#: A dotted path into a decision (its first part one of PATH_ROOTS), and a name (a prompt key,
#: a command type): the API's document states them as JSON Schema patterns.
PATH_PATTERN = r"^[A-Za-z0-9_]{1,64}(\.[A-Za-z0-9_]{1,64}){1,7}$"
NAME_PATTERN = r"^[A-Za-z0-9_.:\-]{1,64}$"
_PATH = re.compile(PATH_PATTERN)
_NAME = re.compile(NAME_PATTERN)
_UNKNOWN = object()

#: The orders ``docs/fair-play.md`` recommends, offered with one click on the standing-orders
#: page and used by ``bench/tempo.py``.  Each answers every decision it matches, and at once,
#: so whom the game waits for and how long never depends on a hand: the first looks only at
#: what the table knows; the second (``defend_me``) reads its owner's hand to choose *what*
#: to answer -- a guard, else a foil, else a pass -- which the rules show anyway when a card
#: is played, but it answers just as fast with nothing in hand.
RECOMMENDED: tuple[dict, ...] = (
    {"key": "windows_not_about_me",
     "name": "Pass on windows that are not about me",
     "game_type": "spartacus",
     "rule": {"match": {"prompt_key": ["react_scheme", "react_reaction", "react_scheme_succeeded",
                                       "react_gold_emptied", "react_fighter_died", "react_bets_placed"]},
              "unless": [{"path": "prompt_args.target", "eq": "$me"}],
              "answer": {"type": "pass_reaction"}}},
    {"key": "defend_me",
     "name": "Defend me when a scheme names me",
     "game_type": "spartacus",
     "rule": {"match": {"prompt_key": ["react_scheme"]},
              "if": [{"path": "prompt_args.target", "eq": "$me"}],
              "reads_hand": True,
              "answer": [{"type": "use_guard"}, {"type": "play_reaction"}, {"default": True}]}},
)


# --------------------------------------------------------------------------- validating


def check_rule(raw: Any) -> dict:
    """The rule in normal form (lists everywhere), or :class:`InvalidInput` listing every
    problem in ``details.fields`` (path -> messages), as the API reports schema errors."""
    errors: dict[str, list[str]] = {}

    def bad(where: str, message: str) -> None:
        errors.setdefault(where, []).append(message)

    if not isinstance(raw, Mapping):
        raise _invalid({"rule": ["A standing order is a JSON object with match, if, unless and answer."]})
    for key in sorted(set(raw) - {"match", "if", "unless", "answer", "reads_hand", "during"}):
        bad(str(key)[:64], "Unknown field.")
    out: dict[str, Any] = {"match": {}, "if": [], "unless": [], "answer": []}
    if "reads_hand" in raw:
        if type(raw["reads_hand"]) is not bool:
            bad("reads_hand", "true or false.")
        elif raw["reads_hand"]:
            out["reads_hand"] = True

    if "during" in raw:
        during = raw["during"]
        if not isinstance(during, Mapping) or set(during) != {"round", "phase"} \
                or type(during.get("round")) is not int or not 0 <= during["round"] <= 10_000 \
                or not isinstance(during.get("phase"), str) or not _NAME.match(during["phase"]):
            bad("during", 'The round and phase it applies in, like {"round": 3, "phase": "intrigue"}.')
        else:
            out["during"] = {"round": during["round"], "phase": during["phase"]}

    match = raw.get("match")
    if not isinstance(match, Mapping) or not match:
        bad("match", f"Give at least one of {', '.join(MATCH_KEYS)} to say which decisions it answers.")
    else:
        for key in sorted(set(match) - set(MATCH_KEYS)):
            bad(f"match.{str(key)[:64]}", f"Unknown field; use {', '.join(MATCH_KEYS)}.")
        for key in MATCH_KEYS:
            if key not in match:
                continue
            values = match[key] if isinstance(match[key], list) else [match[key]]
            if not values or len(values) > 20 or not all(isinstance(v, str) and _NAME.match(v) for v in values):
                bad(f"match.{key}", "A name, or a list of 1 to 20 names (letters, digits, _ . : -).")
            elif key == "mode" and set(values) - set(MODES):
                bad("match.mode", f"Modes are {', '.join(MODES)} (free actions are never answered).")
            else:
                out["match"][key] = list(dict.fromkeys(values))

    for part in ("if", "unless"):
        conditions = raw.get(part, [])
        if not isinstance(conditions, list) or len(conditions) > MAX_CONDITIONS:
            bad(part, f"A list of at most {MAX_CONDITIONS} conditions.")
            continue
        for i, condition in enumerate(conditions):
            checked = _check_condition(condition, f"{part}[{i}]", bad)
            if checked is not None:
                out[part].append(checked)

    answers = raw.get("answer")
    answers = [answers] if isinstance(answers, Mapping) else answers
    if not isinstance(answers, list) or not 1 <= len(answers) <= MAX_ANSWERS:
        bad("answer", f"An answer, or a list of 1 to {MAX_ANSWERS} answers tried in order.")
    else:
        for i, answer in enumerate(answers):
            checked = _check_answer(answer, f"answer[{i}]", bad)
            if checked is not None:
                out["answer"].append(checked)
    if errors:
        raise _invalid(errors)
    return out


def _check_condition(condition: Any, where: str, bad) -> Optional[dict]:
    if not isinstance(condition, Mapping):
        bad(where, 'A condition is an object like {"path": "prompt_args.target", "eq": "$me"}.')
        return None
    if "has_option" in condition:
        if set(condition) != {"has_option"} or not isinstance(condition["has_option"], str) \
                or not _NAME.match(condition["has_option"]):
            bad(where, '{"has_option": "<command type>"} takes nothing else.')
            return None
        return {"has_option": condition["has_option"]}
    path = condition.get("path")
    operators = [k for k in condition if k != "path"]
    if not isinstance(path, str) or not _PATH.match(path) or path.split(".")[0] not in PATH_ROOTS:
        bad(f"{where}.path", f"A dotted path starting with {' or '.join(PATH_ROOTS)}, like prompt_args.target.")
        return None
    if len(operators) != 1 or operators[0] not in OPERATORS:
        bad(where, f"Exactly one operator of {', '.join(OPERATORS)}.")
        return None
    op, value = operators[0], condition[operators[0]]
    if op == "exists" and not isinstance(value, bool):
        bad(f"{where}.exists", "true or false.")
        return None
    if op in ("in", "not_in") and (not isinstance(value, list) or not value or len(value) > 50
                                   or not all(_is_scalar(v) for v in value)):
        bad(f"{where}.{op}", "A list of 1 to 50 plain values.")
        return None
    if op in ("eq", "ne") and not _is_scalar(value):
        bad(f"{where}.{op}", 'A plain value (a number, text, true/false, null, or "$me").')
        return None
    if op in ("lt", "lte", "gt", "gte") and not (_is_number(value) or value == ME):
        bad(f"{where}.{op}", 'A number (or "$me").')
        return None
    return {"path": path, op: value}


def _check_answer(answer: Any, where: str, bad) -> Optional[dict]:
    if not isinstance(answer, Mapping):
        bad(where, 'An answer is {"type": ..., "args": {...}} or {"default": true}.')
        return None
    if "default" in answer:
        if set(answer) != {"default"} or answer["default"] is not True:
            bad(where, '{"default": true} takes nothing else.')
            return None
        return {"default": True}
    if set(answer) - {"type", "args"}:
        bad(where, "An answer has only type and args.")
        return None
    if not isinstance(answer.get("type"), str) or not _NAME.match(answer["type"]):
        bad(f"{where}.type", "The command type to play, as the decision lists it.")
        return None
    args = answer.get("args", {})
    if not isinstance(args, Mapping) or len(str(args)) > 2000:
        bad(f"{where}.args", "A JSON object (of at most 2000 characters).")
        return None
    return {"type": answer["type"], "args": copy.deepcopy(dict(args))}


def _invalid(errors: Mapping[str, list[str]]) -> InvalidInput:
    return InvalidInput("This standing order is malformed; see details.fields.", code="invalid_standing_order",
                        details={"fields": dict(errors)})


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _is_scalar(value: Any) -> bool:
    return value is None or isinstance(value, (str, bool, int, float))


# --------------------------------------------------------------------------- the owner's settings


def create_order(session: Session, user: User, *, rule: Any, name: str = "", game_id: Optional[str] = None,
                 game_type: Optional[str] = None, enabled: bool = True, position: int = 0) -> StandingOrder:
    """Store a standing order for ``user``: for one game they play, or for all their
    games (of ``game_type`` if given).  Everything is checked before anything is written."""
    checked = check_rule(rule)
    name = _checked_name(name)
    game_type = _checked_game_type(game_type)
    if game_id is not None:
        game = _seated_game(session, user, game_id)
        if game_type is not None and game_type != game.game_type:
            raise _invalid({"game_type": [f"Game {game.id} is {game.game_type}, not {game_type}."]})
        game_type = game.game_type
    count = session.scalar(select(func.count(StandingOrder.id)).where(StandingOrder.user_id == user.id))
    if count >= MAX_ORDERS_PER_USER:
        raise Conflict(f"You have {count} standing orders; delete one first.", code="too_many_standing_orders",
                       details={"limit": MAX_ORDERS_PER_USER})
    now = utcnow()
    order = StandingOrder(user_id=user.id, game_id=game_id, game_type=game_type, name=name, rule=checked,
                          enabled=bool(enabled), position=_checked_position(position), uses=0,
                          created_at=now, updated_at=now)
    session.add(order)
    session.flush()
    return order


def list_orders(session: Session, user: User, game_id: Optional[str] = None) -> list[StandingOrder]:
    query = select(StandingOrder).where(StandingOrder.user_id == user.id)
    if game_id is not None:
        query = query.where(StandingOrder.game_id == game_id)
    return list(session.scalars(query.order_by(StandingOrder.game_id.is_(None), StandingOrder.position,
                                               StandingOrder.id)))


def get_order(session: Session, user: User, order_id: int) -> StandingOrder:
    """One of ``user``'s orders; anybody else's is reported as not found."""
    order = session.get(StandingOrder, order_id) if type(order_id) is int else None
    if order is None or order.user_id != user.id:
        raise NotFound(f"You have no standing order {order_id}.", code="standing_order_not_found")
    return order


def update_order(session: Session, user: User, order_id: int, *, rule: Any = None, name: Optional[str] = None,
                 enabled: Optional[bool] = None, position: Optional[int] = None) -> StandingOrder:
    order = get_order(session, user, order_id)
    checked = check_rule(rule) if rule is not None else None
    new_name = _checked_name(name) if name is not None else None
    new_position = _checked_position(position) if position is not None else None
    if checked is not None:
        order.rule = checked
    if new_name is not None:
        order.name = new_name
    if new_position is not None:
        order.position = new_position
    if enabled is not None:
        order.enabled = bool(enabled)
    order.updated_at = utcnow()
    session.flush()
    return order


def delete_order(session: Session, user: User, order_id: int) -> None:
    session.delete(get_order(session, user, order_id))
    session.flush()


def _checked_name(name: Any) -> str:
    if name is None:
        return ""
    if not isinstance(name, str) or len(name.strip()) > MAX_NAME:
        raise _invalid({"name": [f"Text of at most {MAX_NAME} characters."]})
    return name.strip()


def _checked_position(position: Any) -> int:
    if type(position) is not int or not -MAX_POSITION <= position <= MAX_POSITION:
        raise _invalid({"position": [f"A whole number from {-MAX_POSITION} to {MAX_POSITION}."]})
    return position


def _checked_game_type(game_type: Any) -> Optional[str]:
    if game_type is None:
        return None
    if not isinstance(game_type, str) or game_type not in registry.names():
        raise _invalid({"game_type": [f"One of {', '.join(registry.names())}."]})
    return game_type


def _seated_game(session: Session, user: User, game_id: Any) -> Game:
    game = session.get(Game, game_id) if isinstance(game_id, str) and len(game_id) <= 32 else None
    if game is None:
        raise NotFound("no such game", details={"game_id": str(game_id)[:64], "field": "game_id"})
    seated = session.scalar(select(Seat.id).where(Seat.game_id == game.id, Seat.user_id == user.id))
    if seated is None:
        raise Forbidden("you hold no seat in this game", code="not_seated", details={"game_id": game.id})
    return game


# --------------------------------------------------------------------------- answering


@dataclass
class _Order:
    id: int
    user_id: int
    rule: dict


@dataclass
class StandingBook:
    """The enabled orders of a game's players, consulted by :func:`service.play.bots.autoplay`.

    ``attributions`` collects ``(first_event_index, event_count, user_id, order_id)`` of
    every answer given, so the events can be recorded with the player as their actor.
    """

    orders: dict[int, list[_Order]]
    attributions: list[tuple[int, int, int, int]] = field(default_factory=list)
    _refused: set[tuple[str, int]] = field(default_factory=set)
    _answered: dict[int, int] = field(default_factory=dict)

    def answer(self, decision: Decision, phase: Optional[Callable[[], Optional[dict]]] = None
               ) -> Optional[tuple[Command, int]]:
        """``(command, order_id)`` if an order of the decision's seat answers it now;
        ``phase`` tells the game's public round and phase (:func:`phase_key`) when an
        order asks (``during``)."""
        if decision.mode not in MODES or (decision.id, decision.seat) in self._refused:
            return None
        if self._answered.get(decision.seat, 0) >= MAX_ANSWERS_PER_SEAT:
            return None
        for order in self.orders.get(decision.seat, ()):
            command = answer_for(order.rule, decision, phase)
            if command is not None:
                return command, order.id
        return None

    def refused(self, decision: Decision) -> None:
        """The rules refused the answer: leave this decision to the player."""
        self._refused.add((decision.id, decision.seat))

    def applied(self, decision: Decision, order_id: int, first: int, count: int) -> None:
        self._answered[decision.seat] = self._answered.get(decision.seat, 0) + 1
        owner = next(o.user_id for o in self.orders[decision.seat] if o.id == order_id)
        self.attributions.append((first, count, owner, order_id))

    def record_uses(self, session: Session, game_id: str) -> None:
        """Count each order's answers on its row (what its owner sees of its work)."""
        now = utcnow()
        used: dict[int, int] = {}
        for _first, _count, _owner, order_id in self.attributions:
            used[order_id] = used.get(order_id, 0) + 1
        for order_id, times in used.items():
            session.execute(
                update(StandingOrder).where(StandingOrder.id == order_id)
                .values(uses=StandingOrder.uses + times, last_used_at=now, last_used_game_id=game_id)
                .execution_options(synchronize_session=False)
            )


def book_for(session: Session, game: Game, seats: Sequence[Seat]) -> Optional[StandingBook]:
    """The standing orders that apply in ``game``, by seat; ``None`` when there are none
    (the common case costs one indexed query)."""
    seat_of = {s.user_id: s.seat for s in seats if s.user_id is not None and not s.is_bot}
    if not seat_of:
        return None
    rows = session.scalars(
        select(StandingOrder).where(
            StandingOrder.enabled.is_(True),
            StandingOrder.user_id.in_(sorted(seat_of)),
            or_(
                StandingOrder.game_id == game.id,
                StandingOrder.game_id.is_(None)
                & or_(StandingOrder.game_type.is_(None), StandingOrder.game_type == game.game_type),
            ),
        )
    ).all()
    if not rows:
        return None
    rows = sorted(rows, key=lambda r: (r.game_id is None, r.position, r.id))
    orders: dict[int, list[_Order]] = {}
    for row in rows:
        orders.setdefault(seat_of[row.user_id], []).append(_Order(id=row.id, user_id=row.user_id, rule=row.rule))
    return StandingBook(orders=orders)


def phase_key(rules: Any, state: Any) -> Optional[dict]:
    """``{"round", "phase"}`` of the game as a spectator sees it (public by construction),
    the scope of an order given "for this phase"; ``None`` for a game that names no phase.
    Spartacus names stages (``intrigue_turn``...); the phase is the stage's first word."""
    return phase_in(rules.view(state, None))


def phase_in(view: Mapping[str, Any]) -> Optional[dict]:
    """``{"round", "phase"}`` as ``view`` (any seat's: round and phase are public) shows them."""
    phase = view.get("phase") if isinstance(view.get("phase"), str) else None
    if phase is None and isinstance(view.get("stage"), str):
        phase = view["stage"].split("_")[0]
    round_no = view.get("round")
    if not phase or type(round_no) is not int:
        return None
    return {"round": round_no, "phase": phase}


def answer_for(rule: Mapping[str, Any], decision: Decision,
               phase: Optional[Callable[[], Optional[dict]]] = None) -> Optional[Command]:
    """The command ``rule`` plays for ``decision``, or ``None`` if it does not fire.

    An order given ``during`` one round and phase fires only while ``phase()`` (the game's
    public round and phase) says the game is still there; without ``phase`` it never does.

    A *private* decision's options follow from its seat's hand, so an order that did not
    ask to read the hand (``reads_hand``) answers it blind: its conditions may read only the
    decision's public ``prompt_args`` (no ``has_option``, no ``context``), and it fires only
    when its first answer is the decision's default, which is legal whatever the hand.
    Either way, whether and when it answers then never depends on what the player holds.
    """
    if rule.get("during") is not None and (phase is None or phase() != rule["during"]):
        return None
    me = decision.seat
    facts = decision.to_json()
    blind = decision.private and not rule.get("reads_hand")
    for key, wanted in (rule.get("match") or {}).items():
        if facts.get(key) not in wanted:
            return None
    conditions = [*(rule.get("if") or ()), *(rule.get("unless") or ())]
    if blind and any(_reads_hand(c) for c in conditions):
        return None
    for condition in rule.get("if") or ():
        if _holds(condition, decision, me) is not True:
            return None
    for condition in rule.get("unless") or ():
        if _holds(condition, decision, me) is not False:
            return None
    answers = list(rule.get("answer") or ())
    if blind:
        command = _legal_answer(answers[0], decision, me) if answers else None
        return command if command == decision.default else None
    for answer in answers:
        command = _legal_answer(answer, decision, me)
        if command is not None:
            return command
    return None


def timing_may_hint(rule: Mapping[str, Any]) -> bool:
    """Whether *when* ``rule`` answers may depend on its owner's hand: it reads the hand,
    and either a condition looks at it or it may find no answer it can play (its last answer
    is not the decision's default).  An order that reads the hand only to choose what to
    play, and falls back on the default, answers every decision it matches at once
    (``defend_me``)."""
    if not rule.get("reads_hand"):
        return False
    conditions = [*(rule.get("if") or ()), *(rule.get("unless") or ())]
    answers = list(rule.get("answer") or ())
    return any(_reads_hand(c) for c in conditions) or not answers or answers[-1] != {"default": True}


def _reads_hand(condition: Mapping[str, Any]) -> bool:
    """Whether ``condition`` looks past what the table knows: the options offered, or the
    decision's ``context`` (what only its seat sees)."""
    return "has_option" in condition or str(condition.get("path", "")).startswith("context.")


def _holds(condition: Mapping[str, Any], decision: Decision, me: int) -> Any:
    """``True``, ``False``, or ``_UNKNOWN`` when the decision does not carry the value."""
    if "has_option" in condition:
        if decision.options is None:
            return decision.command_type == condition["has_option"]
        return any(o.type == condition["has_option"] for o in decision.options)
    value = _lookup({"prompt_args": dict(decision.prompt_args), "context": dict(decision.context)},
                    condition["path"])
    op = next(k for k in condition if k != "path")
    expected = _substitute(condition[op], me)
    if op == "exists":
        return (value is not _UNKNOWN) == expected
    if value is _UNKNOWN:
        return _UNKNOWN
    if op == "eq":
        return value == expected
    if op == "ne":
        return value != expected
    if op == "in":
        return value in expected
    if op == "not_in":
        return value not in expected
    if not _is_number(value):
        return _UNKNOWN
    return {"lt": value < expected, "lte": value <= expected, "gt": value > expected,
            "gte": value >= expected}[op]


def _lookup(root: Mapping[str, Any], path: str) -> Any:
    value: Any = root
    for part in path.split("."):
        if isinstance(value, Mapping) and part in value:
            value = value[part]
        elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        else:
            return _UNKNOWN
    return value


def _substitute(value: Any, me: int) -> Any:
    if value == ME:
        return me
    if isinstance(value, list):
        return [_substitute(v, me) for v in value]
    if isinstance(value, dict):
        return {k: _substitute(v, me) for k, v in value.items()}
    return value


def _legal_answer(answer: Mapping[str, Any], decision: Decision, me: int) -> Optional[Command]:
    if answer.get("default"):
        return decision.default
    command_type = answer["type"]
    args = _substitute(answer.get("args") or {}, me)
    if decision.options is not None:
        for option in decision.options:
            if option.type == command_type and all(option.args.get(k, _UNKNOWN) == v for k, v in args.items()):
                return option
        return None
    if command_type != (decision.command_type or decision.default.type):
        return None
    try:
        schema_mod.validate(decision.schema or {}, args)
    except RuleViolation:
        return None
    return Command(decision.seat, command_type, dict(args))
