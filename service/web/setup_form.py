"""The "new game" form: what it offers for each game type, and the request it makes.

The form asks for exactly what ``POST /api/v1/games`` takes (the game type, its options
from the game's ``options_schema()``, the seats: the creator's, bots' and invited
addresses, and the clock policy) and :func:`read` turns a posted form into the keyword
arguments of :func:`service.play.games.create_game`, the one function both the API and the
page call.  Whatever the form cannot know (which seat counts the options allow, whether
an address is valid) that function checks, so the form and the API refuse the same.
"""

from __future__ import annotations

from typing import Any, Mapping, Optional

from flask_babel import gettext as _, ngettext
from werkzeug.datastructures import MultiDict

from engine import registry
from service.plumbing import clock
from service.plumbing.errors import InvalidInput
from service.web import schema_forms
from service.words import terms
from service.words.i18n import N_
from service.words.seat_marks import seat_letter

#: The times per decision the form offers, in hours (the API takes any from 1 h to 90 days).
CLOCK_HOURS: tuple[tuple[int, str], ...] = (
    (12, N_("12 hours")), (24, N_("24 hours")), (48, N_("48 hours")), (72, N_("72 hours")), (168, N_("7 days")),
)
#: Who sits in a seat: the creator, an invited player, a bot, or whoever joins with the link.
ROLES: tuple[tuple[str, str], ...] = (
    ("me", N_("You")), ("invite", N_("A player you invite")), ("bot", N_("A bot")), ("open", N_("Anyone who joins")),
)
#: How a bot seat plays, and how an absent player's seat is played (``defaults``: only the
#: answers its deadlines would give).
BOT_LEVELS: tuple[tuple[str, str], ...] = (
    ("random", N_("random moves")), ("easy", N_("easy")), ("normal", N_("normal")), ("hard", N_("hard")),
)
STAND_INS: tuple[tuple[str, str], ...] = (*BOT_LEVELS, ("defaults", N_("defaults only (no bot moves)")))

#: Options of the registered games in words (the engine's descriptions are English).
OPTION_LABELS: dict[str, str] = {
    "solo_level": N_("Solo level (1–5)"),
    "card_set": N_("Card set"),
    "variant_intrigue": N_("Intrigue variant: the five base senate cards are replaced by the intrigue cards"),
    "custom_deck": N_("Your own senate deck (card ids, one per line; empty: the usual deck)"),
    "game_length": N_("Length of the game"),
    "decapitation_odds": N_("Payout of a decapitation bet (x:1)"),
    "custom_cards": N_("Your own card documents (JSON; empty: the usual cards)"),
    "two_player_variant": N_("Allow a game of two"),
    "max_rounds": N_("Last round (0: no limit)"),
    "influence_cap": N_("Influence cap (0: none)"),
    "reactions": N_("Who answers a scheme first"),
    "fighter_i": N_("Fighter I"), "weapon_i": N_("Fighter I's weapon"), "armour_i": N_("Fighter I's armour"),
    "special_i": N_("Fighter I's special card"),
    "fighter_ii": N_("Fighter II"), "weapon_ii": N_("Fighter II's weapon"), "armour_ii": N_("Fighter II's armour"),
    "special_ii": N_("Fighter II's special card"),
}
#: Option descriptions in words, where the engine's English one must reach every language:
#: Spartacus's house rules say that they are not the rulebook's.
OPTION_HELP: dict[tuple[str, str], str] = {
    ("spartacus", "max_rounds"): N_("A house rule, not in the rulebook: the game ends after this round's arena "
                                    "phase and the most influential dominus wins. 0 plays until a dominus wins "
                                    "as printed."),
    ("spartacus", "influence_cap"): N_("A house rule, not in the rulebook: no house's influence climbs above "
                                       "this. 0 leaves influence unbounded as printed."),
    ("spartacus", "reactions"): N_("A house rule where the rulebook is silent. One at a time: the domini are asked "
                                   "clockwise, each seeing who passed before him. All at once: everyone is asked "
                                   "together, the answers stay sealed, and the first answer clockwise that is not a "
                                   "pass takes effect, the others' cards staying in hand. All at once is much faster "
                                   "by mail."),
    ("spartacus", "decapitation_odds"): N_("The German rulebook pays 2:1, the Russian one 3:1."),
    ("spartacus", "two_player_variant"): N_("Two domini, with the rulebook's changes for two players."),
    ("pax", "solo_level"): N_("For a game of one against Rome: you win with 3, 4, 5, 6 or 7 categories "
                              "stronger than Rome; levels 1 to 4 also need all 7 categories laid."),
}
#: Options for those who bring their own card data (a card set's file, card documents, a
#: deck of ids): shown to players folded away under "Advanced", never among the game's options.
ADVANCED_OPTIONS = frozenset({"card_set", "custom_cards", "custom_deck"})
VALUE_LABELS: dict[str, str] = {
    "none": N_("none"), "default": N_("the standard set"),
    "quick": N_("quick (start with 7 influence)"), "standard": N_("standard (start with 4 influence)"),
    "long": N_("long (start with 1 influence)"),
    "in_turn": N_("one at a time, clockwise"), "together": N_("all at once, sealed"),
}


def game_types() -> list[dict]:
    """Every registered game: its ``name`` and ``title``."""
    return [{"name": name, "title": registry.get(name).title} for name in registry.names()]


def clock_choices(default_hours: int) -> tuple[tuple[int, str], ...]:
    """The times per decision offered: :data:`CLOCK_HOURS`, and the operator's default
    (``CAPUA_DEFAULT_CLOCK_HOURS``) where it is none of them."""
    if any(hours == default_hours for hours, _words in CLOCK_HOURS):
        return CLOCK_HOURS
    return tuple(sorted((*CLOCK_HOURS, (default_hours, N_("%(hours)s hours"))), key=lambda choice: choice[0]))


def blank(game_type: str, user_timezone: str, default_hours: int, bot_level: str = "normal") -> MultiDict:
    """The form of a new ``game_type`` game as first shown: the options' defaults, the
    fewest players those defaults allow (two at least, where the game allows it), you in
    the first seat and bots at the site's level (``CAPUA_BOT_LEVEL``) in the others, so
    the form as shown starts a game at once, and the site's default clock
    (``CAPUA_DEFAULT_CLOCK_HOURS``) in your time zone."""
    counts = seat_counts(game_type)
    allowed = sorted(registry.get(game_type).seat_counts({})) or counts
    seats = next((n for n in allowed if n >= 2), allowed[0])
    form = MultiDict({"game_type": game_type, "seats": str(seats), "clock.hours": str(default_hours),
                      "clock.timezone": user_timezone if clock.is_time_zone(user_timezone) else "UTC",
                      "clock.bot_after_missed": "2", "clock.stand_in": bot_level, "clock.vacation": "1",
                      "title": ""})
    for n in range(max(counts)):
        form[f"seat.{n}.role"] = "me" if n == 0 else "bot"
        form[f"seat.{n}.level"] = bot_level
    for field in option_fields(game_type, "en"):
        _put_default(form, field)
    return form


def _put_default(form: MultiDict, field: dict) -> None:
    key = f"arg.{field['name']}"
    kind = field["kind"]
    if kind == "boolean":
        if field["value"]:
            form[key] = "1"
    elif kind == "multi":
        for value in sorted(field["chosen"]):
            form.add(key, value)
    elif kind == "ordered":
        for i, value in enumerate(field["positions"]):
            form[f"{key}.{i}"] = value
    elif kind == "object":
        for inner in field["fields"]:
            _put_default(form, inner)
    elif kind == "select":
        if field["value"] != "null":
            form[key] = field["value"]
    elif field["value"] is not None and field["value"] != "":
        form[key] = str(field["value"])


def seat_counts(game_type: str) -> list[int]:
    """The seat counts the game allows with its default options or any one of its
    switches turned on (a two-player variant, a solo level): the form offers them all and
    the service refuses a count the chosen options do not allow."""
    rules = registry.get(game_type)
    schema = rules.options_schema() or {}
    counts = set(rules.seat_counts({}))
    for name, sub in (schema.get("properties") or {}).items():
        if sub.get("type") == "boolean":
            counts |= set(rules.seat_counts({name: True}))
        elif sub.get("type") == "integer" and "minimum" in sub and sub.get("minimum", 0) > 0:
            counts |= set(rules.seat_counts({name: sub["minimum"]}))
    return sorted(counts)


def option_fields(game_type: str, language: str) -> list[dict]:
    """The fields of the game's options, defaults filled in, labelled in ``language``."""
    schema = registry.get(game_type).options_schema() or {}
    defaults = {name: sub["default"] for name, sub in (schema.get("properties") or {}).items()
                if isinstance(sub, Mapping) and "default" in sub}

    def label_of(value: Any, _key: str) -> str:
        if isinstance(value, str) and value in VALUE_LABELS:
            return _(VALUE_LABELS[value])
        fallback = str(value).replace("-", " ").replace("_", " ").capitalize()
        return terms.card_name(game_type, value, language, fallback) if isinstance(value, str) else fallback

    fields = schema_forms.schema_fields(schema, defaults, label_of=label_of)
    for field in fields:
        words = OPTION_LABELS.get(field["key"])
        if words:
            field["label"] = _(words)
            # the engine's description is English only and mostly says the label again
            field["help"] = ""
        help_words = OPTION_HELP.get((game_type, field["key"]))
        if help_words:
            field["help"] = _(help_words)
        if field["key"] in defaults and field["kind"] == "select":
            field["required"] = True  # the default is chosen, never an empty "—"
        field["advanced"] = field["key"] in ADVANCED_OPTIONS
    return fields


def read(form: MultiDict, language: str) -> dict:
    """The keyword arguments of :func:`service.play.games.create_game` a posted form asks for.

    Refuses (:class:`InvalidInput` with the ``field``) only what the form alone shows to
    be wrong: an unknown game, a seat count that is not a number, two seats marked as
    yours, an invitation without an address, an open seat before an invited one (the
    service gives invitations the free seats in order), unreadable option values.
    """
    game_type = form.get("game_type", "")
    if game_type not in registry.names():
        raise InvalidInput(_("Choose one of the games offered."), code="unknown_game_type",
                           details={"field": "game_type"})
    options = schema_forms.values_from_form(option_fields(game_type, language), form)
    try:
        seats = int(form.get("seats", ""))
    except ValueError:
        raise InvalidInput(_("Choose how many players."), code="invalid_seats", details={"field": "seats"}) from None
    if not 1 <= seats <= max(seat_counts(game_type)):
        raise InvalidInput(_("Choose how many players."), code="invalid_seats", details={"field": "seats"})
    creator_seat: Optional[int] = None
    bots, invites = [], []
    levels: dict[int, str] = {}
    open_seen: Optional[int] = None
    for n in range(seats):
        role = form.get(f"seat.{n}.role", "open")
        if role == "me":
            if creator_seat is not None:
                raise InvalidInput(_("You can hold only one seat."), code="invalid_seat",
                                   details={"field": f"seat.{n}.role"})
            creator_seat = n
        elif role == "bot":
            bots.append(n)
            level = form.get(f"seat.{n}.level", "")
            if level:
                if level not in dict(BOT_LEVELS):
                    raise InvalidInput(_("Seat %(n)s: choose how well the bot plays.", n=n + 1),
                                       code="invalid_bot_level", details={"field": f"seat.{n}.level"})
                levels[n] = level
        elif role == "invite":
            email = form.get(f"seat.{n}.email", "").strip()
            if not email:
                raise InvalidInput(_("Seat %(n)s: enter the address of the player you invite.", n=seat_letter(n)),
                                   code="invalid_invites", details={"field": f"seat.{n}.email"})
            if open_seen is not None:
                raise InvalidInput(_("Seat %(open)s is open to anyone but seat %(n)s is an invitation: put the "
                                     "invited players first.", open=seat_letter(open_seen), n=seat_letter(n)),
                                   code="invalid_invites", details={"field": f"seat.{n}.role"})
            invites.append(email)
        elif role == "open":
            open_seen = n if open_seen is None else open_seen
        else:
            raise InvalidInput(_("Seat %(n)s: choose who sits there.", n=seat_letter(n)), code="invalid_seat",
                               details={"field": f"seat.{n}.role"})
    return {
        "game_type": game_type,
        "options": options,
        "seats": seats,
        "invites": invites,
        "bot_seats": bots,
        "bot_levels": levels,
        "creator_seat": creator_seat,
        "title": form.get("title", "").strip(),
        "clock": _clock(form),
    }


def _clock(form: MultiDict) -> dict:
    """The ``clock`` object of the API from the clock fields (checked by the service)."""
    def whole(name: str, fallback: Any) -> Any:
        text = form.get(name, "").strip()
        if text == "":
            return fallback
        try:
            return int(text)
        except ValueError:
            raise InvalidInput(_("%(field)s must be a whole number.", field=FIELD_NAMES[name]()), code="invalid_clock",
                               details={"field": name}) from None

    return {
        "hours": whole("clock.hours", None),  # none chosen: the site's default
        "window_hours": whole("clock.window_hours", None),  # none: a sixth of the decision clock
        "time_of_day": form.get("clock.time_of_day", "").strip() or None,
        "timezone": form.get("clock.timezone", "UTC").strip() or "UTC",
        "weekend_pause": "clock.weekend_pause" in form,
        "bot_after_missed": whole("clock.bot_after_missed", 2),
        "stand_in": form.get("clock.stand_in", "").strip() or None,  # none: the site's bot level
        "vacation": "clock.vacation" in form,
    }


#: The form's own fields by name, for messages that name them.
FIELD_NAMES = {
    "clock.hours": lambda: _("Time per decision"),
    "clock.window_hours": lambda: _("Time per window answer"),
    "clock.bot_after_missed": lambda: _("Missed deadlines before a bot takes over"),
}


def explain(err: InvalidInput) -> tuple[str, Optional[str]]:
    """A refusal of :func:`service.play.games.create_game` in the reader's language, and the
    form field it concerns (``None``: the form as a whole)."""
    details = err.details or {}
    field = details.get("field")
    if field == "seats" and "allowed" in details:
        allowed = [n for n in details["allowed"] if isinstance(n, int)]
        # (one count, 1: "by 1 player"; several, or one above 1: the plural)
        return ngettext("This game is played by %(counts)s player with these options.",
                        "This game is played by %(counts)s players with these options.",
                        allowed[0] if len(allowed) == 1 else 2,
                        counts=", ".join(str(n) for n in details["allowed"])), "seats"
    if err.code == "too_many_invites":
        free = details.get("free_seats", 0)
        return ngettext("More invitations than free seats: %(free)s seat is left for other players.",
                        "More invitations than free seats: %(free)s seats are left for other players.",
                        free if isinstance(free, int) else 2, free=free), "seats"
    if err.code == "invalid_invites" and "invalid" in details:
        return _("%(email)s is not an address you can invite.", email=details["invalid"]), "invites"
    if err.code == "invalid_invites" and "duplicate" in details:
        return _("%(email)s is invited twice.", email=details["duplicate"]), "invites"
    if err.code == "invalid_clock":
        problems = details.get("fields") or {}
        names = {"hours": _("Time per decision"), "window_hours": _("Time per window answer"),
                 "time_of_day": _("Deadlines fall at"),
                 "timezone": _("Time zone"), "bot_after_missed": _("Missed deadlines before a bot takes over"),
                 "stand_in": _("Who plays for an absent player")}
        named = [names.get(k, k) for k in sorted(problems)] or [_("Clock")]
        return _("The clock is not valid: check %(fields)s.", fields=", ".join(named)), "clock"
    if err.code == "invalid_bot_level" and field == "bot_levels":
        return _("Choose how well each bot plays."), "seats"
    if err.code == "invalid_options":
        return _("The options are not valid: %(problem)s", problem=err.message), "options"
    return err.message, field if isinstance(field, str) else None


def time_zone_groups() -> list[tuple[str, list[tuple[str, str]]]]:
    """The time zones by region for a grouped list: ``(region, [(zone, place)])``, UTC
    first on its own; the place is the zone's name after its region, in words
    ("America/Argentina/Buenos_Aires" -> "Argentina / Buenos Aires")."""
    groups: dict[str, list[tuple[str, str]]] = {"UTC": [("UTC", "UTC")]}
    for zone in clock.common_time_zones():
        region, _slash, place = zone.partition("/")
        groups.setdefault(region, []).append((zone, place.replace("_", " ").replace("/", " / ")))
    return list(groups.items())
