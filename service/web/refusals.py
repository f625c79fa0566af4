"""A service's refusal as a page tells it: in the reader's language.

The service refuses in English, for the API and the log.  A page that shows a refusal (a
form sent back with the reason: joining a game, table talk, the creator's clock controls,
"I am back", a vacation, the notification settings, a webhook, a standing order; a link
from a mail that no longer works) looks its code up here and fills the sentence from the
error's details, so a German or Russian page never shows an English sentence for what its
own forms can meet.  A code this table does not know keeps the service's sentence; so do
the problems of a standing order's rule, which name its JSON fields and syntax and are
listed as the API lists them.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from service.play import standing_orders
from service.plumbing.errors import ServiceError
from service.words import i18n
from service.words.i18n import N_
from service.words.seat_marks import seat_letter

#: code -> the refusal's sentence (placeholders filled by :func:`_params`).
BY_CODE: dict[str, str] = {
    # a link from a mail (``/act``, ``/unsubscribe``)
    "link_invalid": N_("This link is not valid: it may have been cut short or changed."),
    "link_expired": N_("This link has expired."),
    "link_used": N_("This link has already been used."),
    "decision_closed": N_("This decision is no longer open: it was answered, or its deadline passed."),
    "option_gone": N_("That answer is no longer possible; choose again."),
    "invitation_closed": N_("This invitation is no longer open."),
    # a game and its seats, its table talk and its clock
    "game_started": N_("This game has already started."),
    "already_seated": N_("You already hold a seat in this game."),
    "game_full": N_("Every seat of this game is taken or reserved."),
    "seat_taken": N_("Seat %(seat)s is taken."),
    "seat_reserved": N_("Seat %(seat)s is reserved for an invited player."),
    "invalid_seat": N_("There is no such seat in this game."),
    "not_seated": N_("You hold no seat in this game."),
    "not_found": N_("There is no such game."),
    "game_over": N_("The game has ended."),
    "game_not_started": N_("The game has not started: seats are still open."),
    "game_paused": N_("The game is paused by its creator; try again when it is resumed."),
    "game_not_paused": N_("The game is not paused."),
    "no_open_deadline": N_("No open deadline to extend."),
    "not_creator": N_("Only the game's creator may do this."),
    "not_taken_over": N_("The bot does not play your seat; nothing to take back."),
    "invalid_recipients": N_("Choose players of this game who can read the message."),
    "message_not_found": N_("There is no such message for you in this game."),
    "too_many_vacations": N_("You already have %(max)s vacations; delete one first."),
    "vacation_not_found": N_("There is no such vacation of yours."),
    # notification settings (a field the table below does not know)
    "invalid_preferences": N_("Some settings are not valid; check the form."),
    # webhooks and standing orders
    "invalid_url": N_("This is not a webhook address Capua can send to."),
    "forbidden_address": N_("Webhooks go to public addresses only."),
    "invalid_event_types": N_("Choose at least one kind of event from the list."),
    "too_many_webhooks": N_("You have %(limit)s webhooks already; delete one first."),
    "webhook_disabled": N_("This webhook is turned off; turn it on first."),
    "delivery_in_progress": N_("This message is being sent right now; try again in a moment."),
    "invalid_standing_order": N_("This standing order is not valid; the problems are listed below."),
    "too_many_standing_orders": N_("You have %(limit)s standing orders already; delete one first."),
}

#: (code, the detail that tells which) -> its sentence, where one code covers several refusals.
BY_DETAIL: dict[tuple[str, str], str] = {
    ("game_paused", "already"): N_("The game is paused already."),
    ("invalid_message", "empty"): N_("Write something: a message cannot be empty."),
    ("invalid_message", "too_long"): N_("A message has at most %(max_length)s characters."),
    ("invalid_message", "nul"): N_("A message must not contain NUL characters."),
    ("invalid_clock", "hours"): N_("Extend by a whole number of hours from 1 to %(max)s."),
    ("invalid_input", "reason"): N_("The reason is at most %(max_length)s characters long."),
    ("invalid_input", "description"): N_("A description is at most %(max_length)s characters long."),
    ("invalid_preferences", "quiet_hours"): N_("Quiet hours need a start and a different end hour, or neither."),
    ("invalid_standing_order", "not_json"): N_("The rule is not readable JSON."),
}

#: A refused notification setting, by field (``details["fields"]`` of ``invalid_preferences``).
PREFERENCES: dict[str, str] = {
    "act_delivery": N_("Choose when mail comes: at once, in the daily digest or never."),
    "info_delivery": N_("Choose when mail comes: at once, in the daily digest or never."),
    "digest_hour": N_("The daily digest comes at a whole hour from 0 to 23."),
    "quiet_start": N_("Quiet hours are whole hours from 0 to 23."),
    "quiet_end": N_("Quiet hours are whole hours from 0 to 23."),
    "reminder_lead_hours": N_("A reminder comes 0 to 168 whole hours before a deadline (empty: scaled to the "
                              "game's clock)."),
    "language": N_("Choose one of the languages offered."),
    "timezone": N_("Choose a time zone from the list."),
}

#: Why a webhook's address was refused (``details["reason"]`` of ``invalid_url`` and
#: ``forbidden_address``: :class:`service.plumbing.netguard.AddressRefused`).
WEBHOOK_ADDRESS: dict[str, str] = {
    "too_long": N_("A webhook's address is an http(s) URL of at most %(max_length)s characters."),
    "spaces": N_("A webhook's address must not contain spaces or control characters."),
    "unreadable": N_("This webhook address cannot be read."),
    "scheme": N_("A webhook's address starts with https:// (or http://)."),
    "credentials": N_("A webhook's address carries no user name or password; check the messages' signature "
                      "instead."),
    "no_host": N_("This webhook address names no host."),
    "port_zero": N_("This webhook address has port 0."),
    "fragment": N_("A webhook's address has no #fragment."),
    "internal_name": N_("%(host)s is an internal name; webhooks go to public addresses only."),
    "not_a_host": N_("%(host)s is not a host name."),
    "cannot_receive": N_("%(address)s cannot receive webhooks."),
    "not_public": N_("%(address)s is not a public address; webhooks go to public addresses only."),
    "resolves_cannot_receive": N_("%(host)s resolves to %(address)s, which cannot receive webhooks."),
    "resolves_not_public": N_("%(host)s resolves to %(address)s, which is not a public address; webhooks go to "
                              "public addresses only."),
    "resolves_badly": N_("%(host)s resolves to an address that cannot be read."),
}

#: A standing order's fields the form fills (``details["fields"]`` of
#: ``invalid_standing_order``); the problems of the rule itself, which name its JSON
#: fields and syntax, are listed as the API says them.
STANDING_ORDER_FIELDS: dict[str, str] = {
    "name": N_("A name is text of at most %(max_length)s characters."),
    "game_type": N_("Choose the kind of game the order is for; for one game, its own kind."),
    "position": N_("A position is a whole number from %(low)s to %(high)s."),
}

#: A vacation's problems, by field and problem (``details["problems"]``).
VACATION: dict[tuple[str, str], str] = {
    ("starts_on", "not_a_date"): N_("The first day must be a date like 2026-12-24."),
    ("ends_on", "not_a_date"): N_("The last day must be a date like 2026-12-24."),
    ("ends_on", "before_start"): N_("The last day is before the first."),
    ("ends_on", "past"): N_("The last day is in the past."),
    ("ends_on", "too_long"): N_("A vacation lasts at most %(max_days)s days."),
    ("note", "too_long"): N_("The note is at most %(max_length)s characters long."),
}


def refusal(err: ServiceError, language: str) -> str:
    """``err`` as a page in ``language`` tells it (the service's sentence for a code not known here)."""
    details = err.details if isinstance(err.details, Mapping) else {}
    _ = i18n.translator(language)
    if err.code == "invalid_vacation" and isinstance(details.get("problems"), Mapping):
        said = [_(VACATION[(field, kind)], **_params(details))
                for field, kind in details["problems"].items() if (field, kind) in VACATION]
        if said:
            return " ".join(said)
    if err.code in ("invalid_url", "forbidden_address") and details.get("reason") in WEBHOOK_ADDRESS:
        return _(WEBHOOK_ADDRESS[details["reason"]], **_params(details))
    if err.code == "invalid_preferences" and details.get("problem") is None \
            and isinstance(details.get("fields"), Mapping):
        said = list(dict.fromkeys(_(PREFERENCES[field]) for field in details["fields"] if field in PREFERENCES))
        if said:
            return " ".join(said)
    which = _which(err.code, details)
    if which is not None and (err.code, which) in BY_DETAIL:
        return _(BY_DETAIL[(err.code, which)], **_params(details))
    if err.code in BY_CODE:
        return _(BY_CODE[err.code], **_params(details))
    return err.message


def standing_order_problems(err: ServiceError, language: str) -> dict[str, list[str]]:
    """The problems of a refused standing order, by field, as its page lists them: the
    fields of the form in ``language``, the rule's own as the service said them."""
    details = err.details if isinstance(err.details, Mapping) else {}
    fields = details.get("fields")
    if not isinstance(fields, Mapping):
        return {}
    _ = i18n.translator(language)
    limits = {"max_length": standing_orders.MAX_NAME, "low": -standing_orders.MAX_POSITION,
              "high": standing_orders.MAX_POSITION}
    problems: dict[str, list[str]] = {}
    for where, said in fields.items():
        if where in STANDING_ORDER_FIELDS:
            problems[str(where)] = [_(STANDING_ORDER_FIELDS[where], **limits)]
        else:
            problems[str(where)] = [said] if isinstance(said, str) else list(said)
    return problems


def _which(code: str, details: Mapping[str, Any]) -> Any:
    """The detail that tells one refusal of ``code`` from another (see :data:`BY_DETAIL`)."""
    if code == "game_paused":
        return "already" if details.get("already") else None
    if code in ("invalid_message", "invalid_preferences", "invalid_standing_order"):
        return details.get("problem")
    return details.get("field")


_SHOWN: dict[str, Callable[[Any], Any]] = {"seat": seat_letter}


def _params(details: Mapping[str, Any]) -> dict[str, Any]:
    """The placeholders a sentence may use, from the error's details (a seat as its letter);
    every one present, so a sentence never lacks one it names."""
    out: dict[str, Any] = {"seat": "?", "max": "?", "max_length": "?", "max_days": "?", "limit": "?", "host": "?",
                           "address": "?"}
    for key, value in details.items():
        if key in out and isinstance(value, (int, str)):
            out[key] = _SHOWN.get(key, lambda v: v)(value)
    return out
