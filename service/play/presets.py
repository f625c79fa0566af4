"""Standing-order presets: the orders a player gives with one click, from a mail or a page.

Writing a standing order by hand means JSON; the few orders that save most of the waiting
are offered ready-made instead, each built for the moment the player is in:

* ``windows_like_this`` -- "always pass in windows like this": this game's windows of the
  same kind (``prompt_key``) and the same relation to me (about me, or about somebody else);
* ``pass_this_phase`` -- "pass on everything this phase": every window of this game until
  the round or phase changes (:func:`service.play.standing_orders.phase_key`);
* ``bid_zero_unless`` -- "bid 0 unless the lot is a ...": every auction of this game whose
  lot is not of the types the player names is answered with a bid of 0;
* ``windows_not_about_me`` -- the order ``docs/fair-play.md`` recommends, for all of the
  player's Spartacus games;
* ``defend_me`` -- its second recommended order, for all of the player's Spartacus games:
  when a scheme names me, use a guard, else foil it, else pass.

Every preset but ``defend_me`` looks only at what the whole table knows (the window's kind
and target, the lot on the table, the public round and phase) and answers with the
decision's default.  ``defend_me`` reads its owner's hand to choose what to play (a card the
rules show when it is played), but answers every scheme against its owner, at once, with
a card or with *Pass*: so every preset answers at the same moment whatever its player holds,
and whom a window waits for, and how long, never depends on a hand.  Giving a preset answers at once
the decision it was given from, when the new order answers it, exactly as the player's
click on *Pass* would.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Optional, Sequence

from sqlalchemy import select
from sqlalchemy.orm import Session

from engine.core.types import Decision
from service.play import game_clock, games, standing_orders, store
from service.plumbing.config import Config
from service.plumbing.db import Game, Seat, StandingOrder, User
from service.plumbing.errors import Conflict, Forbidden, InvalidInput, NotFound
from service.words import i18n

#: Preset keys, in the order pages offer them.
KEYS = ("windows_like_this", "pass_this_phase", "bid_zero_unless", "windows_not_about_me", "defend_me")
#: The presets that are orders for all of a player's Spartacus games (the recommended ones).
ALL_GAMES = ("windows_not_about_me", "defend_me")
#: Lot types ``bid_zero_unless`` may except (Spartacus market card types, and the host marker).
LOT_TYPES = ("gladiator", "slave", "weapon", "armour", "special", "host")
#: Presets offered for a window (an ``interrupt`` decision) and for an auction.
WINDOW_PRESETS = ("windows_like_this", "pass_this_phase")
AUCTION_PRESETS = ("bid_zero_unless",)
#: The lot types a mail's one-click "bid 0 unless ..." excepts: what a house is built on (the
#: page lets the player name any others).
MAIL_LOT_TYPES = ("gladiator", "slave", "host")
#: The names orders get, in the owner's language when stored (the page shows them as given).
NAMES = {
    "windows_like_this": i18n.N_("Always pass in windows like this"),
    "pass_this_phase": i18n.N_("Pass on everything this phase"),
    "bid_zero_unless": i18n.N_("Bid 0 unless the lot is: %(types)s"),
    "windows_not_about_me": i18n.N_("Pass on windows that are not about me"),
    "defend_me": i18n.N_("Defend me when a scheme names me"),
}


#: What each preset does, as the confirm page says it.
EXPLAINED = {
    "windows_like_this": i18n.N_("From now on, every window of this game of the same kind as this one (about you, or "
                                 "about somebody else, as this one is) is answered with Pass at once."),
    "pass_this_phase": i18n.N_("Until this phase of this round ends, every window of this game is answered with Pass "
                               "at once, even one about you."),
    "bid_zero_unless": i18n.N_("At this game's auctions, you bid 0 at once unless the lot is of a type you named."),
    "windows_not_about_me": i18n.N_("In all your Spartacus games, every window that is not about you is answered "
                                    "with Pass at once."),
    "defend_me": i18n.N_("In all your Spartacus games, when a scheme names you, a guard of yours is used at once; "
                         "without one, a foil from your hand is played; with neither, you pass. It answers at once "
                         "whatever you hold, so nobody learns anything from when it answers; a card it plays is "
                         "shown, as any card played is."),
}


#: The lot types in a player's words (for an order's name).
LOT_WORDS = {
    "gladiator": i18n.N_("a gladiator"), "slave": i18n.N_("a slave"), "weapon": i18n.N_("a weapon"),
    "armour": i18n.N_("armour"), "special": i18n.N_("a special card"), "host": i18n.N_("the host marker"),
}


def name_of(key: str, lot_types: Sequence[str], language: str) -> str:
    """Preset ``key``'s name in ``language`` (``bid_zero_unless``: with the lot types named)."""
    _ = i18n.translator(language)
    if key != "bid_zero_unless":
        return _(NAMES[key])
    if not lot_types:
        return _("Bid 0 at every auction")
    return _(NAMES[key], types=", ".join(_(LOT_WORDS[t]) if t in LOT_WORDS else t for t in lot_types))


def _refuse(message: str, field: str = "preset") -> InvalidInput:
    return InvalidInput(message, code="invalid_preset", details={"field": field})


def presets_for(mode: Any, prompt_key: Any, about_me: bool = False) -> tuple[str, ...]:
    """The presets a page or mail offers next to a decision of ``mode`` and ``prompt_key``;
    under a Spartacus scheme that names its player (``about_me``, public: the scheme names
    its target aloud) also the second recommended order, ``defend_me``."""
    if mode == "interrupt":
        return WINDOW_PRESETS + (("defend_me",) if about_me and prompt_key == "react_scheme" else ())
    if prompt_key in ("bid", "host_bid"):
        return AUCTION_PRESETS
    return ()


def about_me(decision: Any) -> bool:
    """Whether a decision (a :class:`Decision` or its JSON) is a window about its own seat."""
    if isinstance(decision, Decision):
        args, seat = decision.prompt_args, decision.seat
    else:
        args, seat = decision.get("prompt_args") or {}, decision.get("seat")
    return isinstance(args, Mapping) and "target" in args and args["target"] == seat


def like_of(decision: Decision) -> dict:
    """What makes a window "like this one": its kind, and whether it is about its player
    (``about_me`` is ``None`` for windows about nobody in particular)."""
    target = decision.prompt_args.get("target") if "target" in decision.prompt_args else None
    prompt_key = decision.to_json(with_options=False)["prompt_key"]  # the id's first word when unnamed
    return {"prompt_key": prompt_key, "about_me": None if target is None else target == decision.seat}


def rule_for(key: str, like: Optional[dict], phase: Optional[dict], lot_types: Sequence[str] = ()) -> dict:
    """The rule of preset ``key``: ``like`` (from :func:`like_of`) says which windows
    ``windows_like_this`` passes on, ``phase`` the game's public round and phase for
    ``pass_this_phase``; :class:`InvalidInput` when they are missing."""
    if key in ALL_GAMES:
        return dict(next(r for r in standing_orders.RECOMMENDED if r["key"] == key)["rule"])
    if key == "windows_like_this":
        if not like or not isinstance(like.get("prompt_key"), str):
            raise _refuse("“Always pass in windows like this” is given from an open window.")
        rule: dict[str, Any] = {"match": {"prompt_key": like["prompt_key"]}, "answer": {"default": True}}
        if like.get("about_me") is not None:
            about_me = {"path": "prompt_args.target", "eq": standing_orders.ME}
            rule["if" if like["about_me"] else "unless"] = [about_me]
        return rule
    if key == "pass_this_phase":
        if phase is None:
            raise _refuse("This game names no phase; “pass on everything this phase” does not apply.")
        return {"match": {"mode": "interrupt"}, "during": dict(phase), "answer": {"default": True}}
    if key == "bid_zero_unless":
        wanted = list(dict.fromkeys(lot_types))
        if any(t not in LOT_TYPES for t in wanted):
            raise _refuse(f"Lot types are {', '.join(LOT_TYPES)}.", field="lot_types")
        rule = {"match": {"prompt_key": ["bid", "host_bid"]}, "answer": {"default": True}}
        if wanted:
            rule["unless"] = [{"path": "prompt_args.card_type", "in": wanted}]
        return rule
    raise _refuse(f"Presets are {', '.join(KEYS)}.")


def give(session: Session, config: Config, user: User, game_id: str, key: str, *,
         decision_id: Optional[str] = None, like: Optional[dict] = None, phase: Optional[dict] = None,
         lot_types: Sequence[str] = (), language: str = "en") -> StandingOrder:
    """Give preset ``key`` for ``user``'s seat in game ``game_id``.  ``decision_id`` is the
    decision it is given from, answered at once if still open and matched; a mailed link
    also names what that decision was (``like``, the ``phase`` of the game), so the order
    can be given after the window closed, but not once that phase is over.  Never commits."""
    if key not in KEYS:
        raise _refuse(f"Presets are {', '.join(KEYS)}.")
    if not isinstance(lot_types, (list, tuple)) or not all(isinstance(t, str) for t in lot_types):
        raise _refuse("A list of lot types.", field="lot_types")
    game = session.get(Game, game_id) if isinstance(game_id, str) and len(game_id) <= 32 else None
    if game is None:
        raise NotFound("no such game", details={"game_id": str(game_id)[:64]})
    seat = session.scalars(select(Seat).where(Seat.game_id == game.id, Seat.user_id == user.id)).first()
    if seat is None:
        raise Forbidden("you hold no seat in this game", code="not_seated", details={"game_id": game.id})
    if game.status != "running":
        raise Conflict("the game is not running", code="game_not_running", details={"game_id": game.id})
    rules = store.rules_of(game)
    state = store.load_state(session, game, rules=rules)
    mine = [d for d in rules.pending(state).blocking if d.seat == seat.seat]
    decision = next((d for d in mine if d.id == decision_id), None) if decision_id is not None else None
    if decision_id is not None and decision is None and like is None:
        raise Conflict("This decision is no longer open: it was answered, or its deadline passed.",
                       code="decision_closed", details={"decision_id": str(decision_id)[:200]})
    if key in ALL_GAMES and game.game_type != "spartacus":
        raise _refuse(f"“{NAMES[key]}” is a Spartacus order.")
    if key == "windows_like_this" and like is None:
        window = decision or next((d for d in mine if d.mode == "interrupt"), None)
        like = like_of(window) if window is not None and window.mode == "interrupt" else None
    now_phase = standing_orders.phase_key(rules, state)
    if key == "pass_this_phase" and phase is not None and phase != now_phase:
        raise Conflict("That phase of the game is over; the order would never answer.", code="phase_over",
                       details={"phase": dict(phase)})
    phase = now_phase
    rule = rule_for(key, like, phase, lot_types)
    name = name_of(key, lot_types, language)
    order = _tidy(session, user, game, standing_orders.check_rule(rule), phase)
    if order is None and key in ALL_GAMES:
        order = standing_orders.create_order(session, user, rule=rule, name=name, game_type=game.game_type)
    elif order is None:
        order = standing_orders.create_order(session, user, rule=rule, name=name[:80], game_id=game.id)
    if game_clock.is_paused(session, game.id):
        return order  # it answers once the game is resumed and moves
    # The order answers what is open now, as the player's own click would.
    for open_decision in ([decision] if decision is not None else mine):
        command = standing_orders.answer_for(order.rule, open_decision, lambda: phase)
        if command is not None:
            games.submit_command(session, config, game.id, user, command_type=command.type, args=dict(command.args),
                                 expected_version=None, seat=seat.seat)
            break
    return order


def _tidy(session: Session, user: User, game: Game, rule: dict, phase: Optional[dict]) -> Optional[StandingOrder]:
    """Withdraw ``user``'s orders for ``game`` whose phase is over (they would never answer
    again, and a player who clicks "pass on everything this phase" every phase must not run
    out of orders); return an enabled order with the same ``rule`` if there is one, so that
    the same click twice gives one order."""
    same = None
    for order in standing_orders.list_orders(session, user):
        if order.game_id == game.id and order.rule.get("during") is not None and order.rule["during"] != phase:
            session.delete(order)
        elif same is None and order.enabled and order.rule == rule \
                and (order.game_id == game.id or (order.game_id is None and order.game_type == game.game_type)):
            same = order
    session.flush()
    return same
