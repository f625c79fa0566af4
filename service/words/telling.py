"""Decisions, answers and events told in words: the engine's prompts, command names on
buttons and one sentence per event, in the reader's language.

Capua's own words live here (the generic prompts, the service events); a game's own
words come from its terms module (:mod:`service.words.terms`), which is asked first.
The engine gives each decision an English ``prompt`` plus a ``prompt_key`` and
``prompt_args``; :func:`decision_prompt` translates the keys it knows and falls back to
the engine's English sentence otherwise.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any, Mapping, Optional, Union

from service.words import terms
from service.words.i18n import (DEFAULT_LANGUAGE, N_, NP_, Counted, format_moment, gettext, language_or_default,
                                 ngettext, translator)
from service.words.seat_marks import seat_letter


# --------------------------------------------------------------------------- decision prompts


#: prompt_key -> the English sentence to translate; ``%(...)s`` from ``prompt_args``.
PROMPTS: dict[str, str] = {
    "pax.choose_action": N_("Draw three cards, or instead look at Rome's hidden cards and take 2 aurei."),
    "pax.assign_card": N_("Place a drawn card: one goes to your hand, one under a legion, one under the deck."),
    "pax.assign_card.closed": N_("Place a drawn card under a legion or under the deck: your hand only takes "
                                 "one once you have seen the third card."),
    "pax.buy": N_("Buy all the cards under one legion, or buy nothing."),
    "pax.lay": N_("Lay a card from your hand (this one costs %(cost)s), or stop laying and take your income."),
    "pax.lay.free": N_("Lay a card from your hand (this one is free), or stop laying and take your income."),
    "pax.lay.empty": N_("You have no card in your hand to lay: stop laying and take your income."),
    "pax.lay.aurei": N_("None of your cards can be laid now: the next one costs %(cost)s, more aurei than you "
                        "have. Stop laying and take your income."),
    "pax.lay.limit": N_("None of your cards can be laid now: each would take your armies or fleets beyond your "
                        "limit (your land or intrigue symbols, whichever are more). Stop laying and take your "
                        "income."),
    "pax.lay.both": N_("None of your cards can be laid now: the next one costs %(cost)s, more aurei than you "
                       "have, or would take your armies or fleets beyond your limit. Stop laying and take your "
                       "income."),
    "pax.setup_keep": N_("You drew %(count)s cards: keep one; the rest go back under the deck."),
    "pax.setup_keep.lay": N_("You were dealt %(count)s cards: keep one, push one under the deck, and lay the "
                             "other %(lay)s at once."),
    "pax.interrupt": N_("%(senator_seat)s laid a senator: you may lay one card from your hand for "
                        "%(cost)s (no income), or pass."),
    # generic keys used by several games
    "bid": N_("Place your bid."),
    "host_bid": N_("Place your bid as the host."),
    "bets": N_("Place your bets."),
    "verdict": N_("Thumbs up or thumbs down: does the defeated gladiator live?"),
    "invitation": N_("You are invited: accept or decline."),
    "invite": N_("Whom do you invite?"),
    "give_gold": N_("Give gold to another player."),
    "hand_limit": N_("Discard down to your hand limit of %(limit)s cards."),
    "place_die": N_("Place one of your dice."),
}


#: Prompt arguments that name a seat: a prompt shows the seat's player, never the engine's index.
SEAT_ARGS = frozenset({"asker", "partner", "host", "senator_seat", "by", "target", "about"})


def decision_prompt(language: str, decision: Mapping[str, Any], game: Optional[str] = None,
                    seat_names: Optional[Mapping[int, str]] = None) -> str:
    """The decision's question in ``language``; the engine's English if the key is unknown.

    ``game`` names whose words to look in first (``service/words/terms/<game>.py``): prompt keys
    are only unique within a game.  A seat the question names is named as the pages name
    it (``seat_names``: the player's name and mark), never by the engine's seat index."""
    key = decision.get("prompt_key") or ""
    args = dict(decision.get("prompt_args") or {})
    if key == "pax.assign_card" and args.get("hand_closed"):
        key = "pax.assign_card.closed"
    if key == "pax.setup_keep" and args.get("lay"):
        key = "pax.setup_keep.lay"
    if key == "pax.lay":
        key = _lay_key(args)
    if key == "support" and isinstance(args.get("claim"), str):
        key = "support.claim"
        args["claim"] = terms.card_name(game, args["claim"], language, args["claim"].replace("_", " "))
    if key.startswith("pax.") and isinstance(args.get("cost"), int) and not isinstance(args.get("cost"), bool):
        args["cost"] = ngettext(language_or_default(language), "%(num)s aureus", "%(num)s aurei", args["cost"])
        own_words = True  # the engine's English counts no aureus in the plural
    else:
        own_words = False
    if key == "react_scheme" and isinstance(args.get("by"), int) and isinstance(args.get("target"), int):
        key = "react_scheme.aimed"
    elif key == "react_scheme" and isinstance(args.get("by"), int):
        key = "react_scheme.by"
    if key == "react_reaction" and isinstance(args.get("by"), int):
        key = "react_reaction.guard" if args.get("subject") == "guard" else "react_reaction.by"
    message = terms.prompt(game, key) or PROMPTS.get(key)
    if message is None:
        return str(decision.get("prompt") or key)
    names_a_seat = any(f"%({k})s" in message and isinstance(args.get(k), int) for k in SEAT_ARGS)
    engine_counts_seats = any(isinstance(args.get(k), int) and not isinstance(args.get(k), bool) for k in SEAT_ARGS)
    if names_a_seat:
        _ = translator(language)
        for k in SEAT_ARGS:
            if isinstance(args.get(k), int) and not isinstance(args.get(k), bool):
                n = args[k]
                args[k] = (seat_names or {}).get(n) or _("Seat %(n)s", n=seat_letter(n))
    elif language_or_default(language) == DEFAULT_LANGUAGE and decision.get("prompt") and not engine_counts_seats \
            and not own_words:
        # English readers get the engine's own sentence, which may say more (but names
        # seats by their index, so not when the decision concerns a seat).
        return str(decision["prompt"])
    try:
        return gettext(language, message, **{k: _plain(v) for k, v in args.items()}) if "%(" in message \
            else gettext(language, message)
    except (KeyError, TypeError, ValueError):
        return str(decision.get("prompt") or key)


def _lay_key(args: Mapping[str, Any]) -> str:
    """Which PAX laying question to ask: with a price, free, or -- when only stopping is
    left -- why no card of the hand can be laid (the engine counts them for the seat)."""
    if args.get("can_lay", True):
        return "pax.lay.free" if args.get("cost") == 0 else "pax.lay"
    if not args.get("hand"):
        return "pax.lay.empty"
    aurei, limit = bool(args.get("aurei")), bool(args.get("limit"))
    return "pax.lay.both" if aurei and limit else "pax.lay.limit" if limit else "pax.lay.aurei"


#: command type -> its name on a button.
COMMANDS: dict[str, str] = {
    "draw_cards": N_("Draw three cards"),
    "peek_rome": N_("Look at Rome's hidden cards (+2 aurei)"),
    "assign_card": N_("Place"),
    "buy_legion": N_("Buy legion %(legion)s"),
    "skip_buy": N_("Buy nothing"),
    "lay_card": N_("Lay"),
    "take_income": N_("Stop laying and take income"),
    "keep_card": N_("Keep"),
    "pass": N_("Pass"),
    "accept": N_("Accept"),
    "decline": N_("Decline"),
    "thumbs_up": N_("Thumbs up"),
    "thumbs_down": N_("Thumbs down"),
}

#: command type -> its words on a button that names a card (``%(card)s``; ``%(where)s``: one of
#: :data:`DESTINATIONS`): a whole sentence, so a language can put the card in the case it
#: needs ("Оставить карту «Земля»", not "Оставить Земля").
CARD_COMMANDS: dict[str, str] = {
    "assign_card": N_("Place %(card)s %(where)s"),
    "keep_card": N_("Keep %(card)s"),
    "lay_card": N_("Lay %(card)s"),
}

#: where a drawn PAX card may go
DESTINATIONS: dict[str, str] = {
    "hand": N_("to your hand"),
    "deck": N_("under the deck"),
    "legion": N_("under legion %(legion)s"),
}
ROMAN = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X")


def command_label(language: str, command: Mapping[str, Any], card_names: Mapping[str, str],
                  game: Optional[str] = None, seat_names: Optional[Mapping[int, str]] = None) -> str:
    """A button's words for ``command``: translated where Capua knows the command (the
    game's own words first), else the command type in words followed by its arguments
    (card ids shown as card names)."""
    _ = translator(language)
    special = terms.command_label(game, language, command, card_names, seat_names)
    if special:
        return special
    ctype = str(command.get("type", ""))
    own = terms.command(game, ctype)
    if own is not None and not (command.get("args") or {}):
        return _(own)
    args = dict(command.get("args") or {})
    card = args.get("card")
    card_name = card_names.get(str(card), str(card)) if card is not None else None
    if ctype == "buy_legion" and isinstance(args.get("legion"), int):
        return _(COMMANDS[ctype], legion=_roman(args["legion"]))
    if ctype == "assign_card" and card_name is not None:
        dest = args.get("to")
        where = _(DESTINATIONS[dest], legion=_roman(args.get("legion"))) if dest in DESTINATIONS else str(dest)
        return _(CARD_COMMANDS[ctype], card=card_name, where=where)
    if ctype == "keep_card" and card_name is not None:
        label = _(CARD_COMMANDS[ctype], card=card_name)
        if "push" in args:
            label += " / " + _("push under: %(card)s", card=card_names.get(str(args["push"]), str(args["push"])))
        return label
    if ctype == "lay_card" and card_name is not None:
        return _(CARD_COMMANDS[ctype], card=card_name)
    if ctype in COMMANDS and not args:
        return _(COMMANDS[ctype])
    words = ctype.replace("_", " ").strip().capitalize()
    parts = []
    for key, value in args.items():
        if key in ("card", "cards") and value is not None:
            value = ", ".join(card_names.get(str(v), str(v)) for v in value) if isinstance(value, list) \
                else card_names.get(str(value), str(value))
        parts.append(f"{str(key).replace('_', ' ')}: {value}")
    return f"{words} — {'; '.join(parts)}" if parts else words


def _roman(n: Any) -> str:
    return ROMAN[n - 1] if isinstance(n, int) and 1 <= n <= len(ROMAN) else str(n)


def _plain(value: Any) -> Any:
    return value if isinstance(value, (int, str, float)) else str(value)


# --------------------------------------------------------------------------- events


#: service event type -> sentence; ``%(player)s`` is the seat's player, ``%(by)s`` the creator;
#: a sentence with a number in the form its number takes (:func:`service.words.i18n.NP_`).
SERVICE_EVENTS: dict[str, Union[str, Counted]] = {
    "capua.GamePaused": N_("%(by)s paused the game: no deadline runs until it is resumed."),
    "capua.GameResumed": N_("%(by)s resumed the game; the deadlines run again."),
    "capua.DeadlineExtended": NP_("%(by)s extended the deadline by one hour.",
                                  "%(by)s extended the deadline by %(hours)s hours.", "hours"),
    "capua.DeadlineMissed": N_("%(player)s let a deadline pass; Capua played the default answer."),
    "capua.BotTookOver": NP_("%(player)s missed a deadline: the bot plays the seat until they act again.",
                             "%(player)s missed %(missed)s deadlines in a row: the bot plays the seat until "
                             "they act again.", "missed"),
    "capua.PlayerReturned": N_("%(player)s is back and plays their seat again."),
    "capua.VacationDaySpent": N_("%(player)s is on vacation: their deadline moved to %(until)s."),
}

_CAMEL = re.compile(r"(?<!^)(?=[A-Z])")


def describe_event(language: str, event: Mapping[str, Any], seat_names: Mapping[int, str],
                   tz_name: str = "UTC", game: Optional[str] = None) -> str:
    """One line saying what an event (as the player may see it) was: Capua's own events
    here, a game's events in that game's words (``service/words/terms/<game>.py``)."""
    _ = translator(language)
    etype = str(event.get("type", ""))
    data = dict(event.get("data") or {})

    def name_of(seat: Any) -> str:
        if isinstance(seat, int):
            return seat_names.get(seat) or _("Seat %(n)s", n=seat_letter(seat))
        return _("The game's creator")

    if etype in SERVICE_EVENTS:
        until = data.get("until")
        if isinstance(until, str):
            try:
                until = format_moment(dt.datetime.fromisoformat(until), language, tz_name)
            except ValueError:
                pass
        return _(SERVICE_EVENTS[etype], player=name_of(data.get("seat")), by=name_of(data.get("by_seat")),
                 hours=data.get("hours", ""), missed=data.get("missed", ""), until=until or "")
    told = terms.describe_event(game, event, language, seat_names)
    if told:
        return told
    words = _CAMEL.sub(" ", etype.split(".")[-1]).lower().capitalize()
    who = name_of(data["seat"]) + ": " if isinstance(data.get("seat"), int) else ""
    details = []
    for key in ("card", "legion", "aurei", "price", "to", "cost"):
        value = data.get(key)
        if isinstance(value, dict):
            value = value.get("name") or value.get("id")
        if value not in (None, "", [], {}):
            details.append(f"{key}: {value}")
    return who + words + (f" ({', '.join(details)})" if details else "")
