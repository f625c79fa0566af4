"""Rom: Rise to Power in Capua's languages: the engine's prompts, its commands on buttons,
and the names of cards, provinces and regions.

German names follow the German rulebook where it names a thing (the senate cards keep
their printed Latin names there: "LEGATUS", "MAGISTER EQUITUM"; the regions "Gallia",
"Greko", "Hispania", "Asia").  The rulebook does not name the provinces or the arena cards
of Capua's default set (see docs/rom.md), so those carry their usual German and Russian
names.  Names are data, not catalogue strings: they are looked up by card id.
"""

from __future__ import annotations

import functools
from typing import Any, Iterable, Mapping, Optional

from service.boards import seat_style
from service.i18n import N_, language_or_default, translator

#: prompt_key -> English sentence (``%(name)s`` from the decision's ``prompt_args``).
#: ``place_die`` is shared by "place a die" and "you cannot place, pass": one sentence
#: says both, so that the generic key of ``service.i18n`` never answers for Rom.
PROMPTS: dict[str, str] = {
    "order_cards": N_("Phase 1: activate Tribunus cards before the turn order is fixed, or go on."),
    "place_die": N_("Place one of your power dice, or pass if none can be placed; you may activate senate "
                    "cards first."),
    "after_placement": N_("Activate senate cards after placing your die, or end your turn."),
    "reroll_again": N_("Re-roll unplaced power dice once more, or keep them."),
    "conquer_provinces": N_("Your legion has strength %(strength)s: choose the provinces to conquer."),
    "take_senate_cards": N_("Take %(count)s of the senate cards laid out."),
    "black_market": N_("Black market: %(left)s of your budget %(budget)s left. Buy an arena card or leave."),
    "arena_set": N_("Lay a set of 3 or more arena cards face down for the games, or pass with an empty set."),
}

#: command type -> its words on a button when it has no arguments to tell.
COMMANDS: dict[str, str] = {
    "place_die": N_("Place a power die"),
    "activate_card": N_("Activate a senate card"),
    "pass_placement": N_("Pass: give up your remaining dice this round"),
    "end_turn": N_("End your turn"),
    "finish_order_cards": N_("Go on"),
    "reroll_again": N_("Re-roll again"),
    "keep_dice": N_("Keep the dice"),
    "conquer_provinces": N_("Conquer provinces"),
    "take_senate_cards": N_("Take senate cards"),
    "buy_arena_card": N_("Buy an arena card"),
    "buy_hidden_arena_card": N_("Buy the top hidden arena card"),
    "leave_black_market": N_("Leave the black market"),
    "submit_arena_set": N_("Lay an arena set"),
}

#: Commands that get a confirm step before they are sent.  Each of these gives something
#: up for good, at once, and is easy to hit by mistake next to a harmless button:
#: passing forfeits every die still in hand for the round; leaving the black market
#: forfeits the rest of the budget; a conquest, a senate pick and an arena set cannot be
#: taken back (and the set's cards leave the game); the hidden arena card costs 5 for a
#: card nobody has seen.  Placing a die and activating a card are the ordinary moves of
#: every turn (a board click already confirms them) and ending a turn or going on only
#: skips optional cards, so those are sent straight away.
CONFIRM: frozenset[str] = frozenset({
    "pass_placement", "leave_black_market", "conquer_provinces", "take_senate_cards",
    "buy_hidden_arena_card", "submit_arena_set",
})

#: Track names on their own (headings, legends).
TRACK_NAMES: dict[str, str] = {
    "military": N_("Military track"),
    "senate": N_("Senate track"),
    "black_market": N_("Black market track"),
}

#: "Place a 3 on the senate track": one sentence per track, as the grammar of German and
#: Russian differs per track name.
_PLACE: dict[str, str] = {
    "military": N_("Place a %(value)s on the military track"),
    "senate": N_("Place a %(value)s on the senate track"),
    "black_market": N_("Place a %(value)s on the black market track"),
}
_PLACE_WITH: dict[str, str] = {
    "military": N_("Place a %(value)s on the military track with %(card)s"),
    "senate": N_("Place a %(value)s on the senate track with %(card)s"),
    "black_market": N_("Place a %(value)s on the black market track with %(card)s"),
}
_DIE_ON: dict[str, str] = {
    "military": N_("die %(n)s on the military track"),
    "senate": N_("die %(n)s on the senate track"),
    "black_market": N_("die %(n)s on the black market track"),
}

#: Regions (not cards, but named by the same rulebook).
REGIONS: dict[str, dict[str, str]] = {
    "italia": {"de": "Italia", "ru": "Италия"},
    "gallia": {"de": "Gallia", "ru": "Галлия"},
    "greko": {"de": "Greko", "ru": "Греция"},
    "hispania": {"de": "Hispania", "ru": "Испания"},
    "asia": {"de": "Asia", "ru": "Азия"},
    "africa": {"de": "Africa", "ru": "Африка"},
    "aegyptus": {"de": "Aegyptus", "ru": "Египет"},
}

#: card id -> (German, Russian); English is the engine's own name.
NAMES: dict[str, tuple[str, str]] = {
    # provinces
    "latium": ("Latium", "Лаций"),
    "etruria": ("Etrurien", "Этрурия"),
    "sicilia": ("Sizilien", "Сицилия"),
    "gallia_cisalpina": ("Gallia Cisalpina", "Цизальпинская Галлия"),
    "gallia_narbonensis": ("Gallia Narbonensis", "Нарбонская Галлия"),
    "gallia_comata": ("Gallia Comata", "Косматая Галлия"),
    "epirus": ("Epirus", "Эпир"),
    "macedonia": ("Makedonien", "Македония"),
    "achaea": ("Achaia", "Ахайя"),
    "thracia": ("Thrakien", "Фракия"),
    "tarraconensis": ("Tarraconensis", "Тарраконская Испания"),
    "baetica": ("Baetica", "Бетика"),
    "lusitania": ("Lusitanien", "Лузитания"),
    "pergamon": ("Pergamon", "Пергам"),
    "bithynia": ("Bithynien", "Вифиния"),
    "numidia": ("Numidien", "Нумидия"),
    "mauretania": ("Mauretanien", "Мавретания"),
    "africa_proconsularis": ("Africa Proconsularis", "Проконсульская Африка"),
    "cyrenaica": ("Kyrenaika", "Киренаика"),
    "alexandria": ("Alexandria", "Александрия"),
    # senate cards: German as printed in the German rulebook
    "vicarius": ("Vicarius", "Викарий"),
    "quaestor_1": ("Quaestor", "Квестор"),
    "quaestor_2": ("Quaestor", "Квестор"),
    "censor": ("Censor", "Цензор"),
    "senator": ("Senator", "Сенатор"),
    "tribunus": ("Tribunus", "Трибун"),
    "magistrate": ("Magistrate", "Магистрат"),
    "legatus": ("Legatus", "Легат"),
    "consul": ("Consul", "Консул"),
    "military_tribune": ("Military Tribune", "Военный трибун"),
    "proconsul": ("Proconsul", "Проконсул"),
    "aedile": ("Aedile", "Эдил"),
    "magister_equitum": ("Magister Equitum", "Начальник конницы"),
    "africanus_maximus": ("Africanus Maximus", "Африканус Максимус"),
    "hispania_maximus": ("Hispania Maximus", "Испания Максимус"),
    "greko_maximus": ("Greko Maximus", "Греко Максимус"),
    "asianus": ("Asianus", "Азианус"),
    "ludi_maximus": ("Ludi Maximus", "Луди Максимус"),
    "imperator": ("Imperator", "Император"),
    "praetor": ("Praetor", "Претор"),
    "vicarius_intrigue": ("Vicarius", "Викарий"),
    "tribunus_intrigue": ("Tribunus", "Трибун"),
    "hispania_maximus_intrigue": ("Hispania Maximus", "Испания Максимус"),
    "greko_maximus_intrigue": ("Greko Maximus", "Греко Максимус"),
    "africanus_maximus_intrigue": ("Africanus Maximus", "Африканус Максимус"),
    # arena cards
    "gladiator": ("Gladiator", "Гладиатор"),
    "murmillo": ("Murmillo", "Мурмиллон"),
    "retiarius": ("Retiarius", "Ретиарий"),
    "secutor": ("Secutor", "Секутор"),
    "hoplomachus": ("Hoplomachus", "Гопломах"),
    "centurion": ("Zenturio", "Центурион"),
    "praetorian": ("Prätorianer", "Преторианец"),
    "wolf": ("Wolf", "Волк"),
    "bear": ("Bär", "Медведь"),
    "crocodile": ("Krokodil", "Крокодил"),
    "lion": ("Löwe", "Лев"),
    "tiger": ("Tiger", "Тигр"),
    "rhinoceros": ("Nashorn", "Носорог"),
    "elephant": ("Elefant", "Слон"),
    "gaul": ("Gallier", "Галл"),
    "germanic_warrior": ("Germanischer Krieger", "Германский воин"),
    "thracian": ("Thraker", "Фракиец"),
    "numidian": ("Numider", "Нумидиец"),
    "briton": ("Brite", "Бритт"),
    "scythian": ("Skythe", "Скиф"),
    "parthian": ("Parther", "Парфянин"),
}


def card_name(card_id: str, language: str) -> Optional[str]:
    """The name of card ``card_id`` in ``language``; ``None`` for English and unknown ids
    (the engine's English name is used then).  Arena cards of one name share it:
    ``lion_2`` is a "Löwe" like ``lion_1``."""
    column = {"de": 0, "ru": 1}.get(language_or_default(language))
    if column is None:
        return None
    names = NAMES.get(card_id)
    if names is None:
        base, _, number = card_id.rpartition("_")
        names = NAMES.get(base) if number.isdigit() and base not in REGIONS else None
    return names[column] if names else None


def region_name(region_id: str, language: str, fallback: str) -> str:
    """The name of a region on the map in ``language``."""
    return REGIONS.get(region_id, {}).get(language_or_default(language)) or fallback


@functools.cache
def _english_names() -> dict[str, str]:
    """Every card's English name in the default card set: a command names cards by id,
    and the page knows names only of cards it recognises as such."""
    from engine.rom.carddata import load_card_set

    cards = load_card_set("default")
    return {c.id: c.name for group in (cards.provinces, cards.senate, cards.arena) for c in group}


def name_of(card_id: Any, language: str, card_names: Mapping[str, str] = {}) -> str:
    """A card's name for a button: the language's name, else the page's, else English."""
    cid = str(card_id)
    return card_name(cid, language) or card_names.get(cid) or _english_names().get(cid, cid)


def _names(ids: Iterable[Any], language: str, card_names: Mapping[str, str]) -> str:
    return ", ".join(name_of(c, language, card_names) for c in ids)


def command_label(language: str, command: Mapping[str, Any], card_names: Mapping[str, str]) -> Optional[str]:
    """A button's words where the arguments matter ("Place a 3 on the senate track");
    ``None`` for commands without arguments (their :data:`COMMANDS` words are used)."""
    _ = translator(language)
    ctype = command.get("type")
    args = dict(command.get("args") or {})
    track = args.get("track")
    if ctype == "place_die" and track in _PLACE:
        if "card" in args:
            sentence = _PLACE_WITH[track]
            return _(sentence, value=args.get("value"), card=name_of(args["card"], language, card_names))
        sentence = _PLACE[track]
        return _(sentence, value=args.get("value"))
    if ctype == "activate_card" and "card" in args:
        return _activation_label(language, args, card_names)
    if ctype == "reroll_again" and "values" in args:
        return _("Re-roll %(values)s", values=_dice(args["values"]))
    if ctype == "conquer_provinces":
        provinces = args.get("provinces") or []
        return _("Conquer %(provinces)s", provinces=_names(provinces, language, card_names)) if provinces \
            else _("Conquer nothing")
    if ctype == "take_senate_cards" and args.get("cards"):
        return _("Take %(cards)s", cards=_names(args["cards"], language, card_names))
    if ctype == "buy_arena_card" and "card" in args:
        return _("Buy %(card)s", card=name_of(args["card"], language, card_names))
    if ctype == "submit_arena_set":
        cards = args.get("cards") or []
        return _("Lay %(cards)s face down", cards=_names(cards, language, card_names)) if cards \
            else _("Pass: lay no arena set")
    return None


def _activation_label(language: str, args: Mapping[str, Any], card_names: Mapping[str, str]) -> str:
    """"Activate Censor on Latium: re-roll 3, 5" -- the card, where it is laid, and what
    it does to which die or player."""
    _ = translator(language)
    label = _("Activate %(card)s", card=name_of(args["card"], language, card_names))
    if args.get("provinces"):
        label = _("Activate %(card)s on %(provinces)s", card=name_of(args["card"], language, card_names),
                  provinces=_names(args["provinces"], language, card_names))
    details = []
    if isinstance(args.get("target"), int):
        details.append(_("player %(mark)s", mark=seat_style(args["target"])["mark"]))
    if "values" in args:
        details.append(_("re-roll %(values)s", values=_dice(args["values"])))
    if "value" in args and "delta" in args:
        details.append(_("die %(value)s becomes %(new)s", value=args["value"],
                         new=_changed(args["value"], args["delta"])))
    elif "value" in args:
        details.append(_("die %(value)s", value=args["value"]))
    if "index" in args:
        sentence = _DIE_ON.get(args.get("track", "military"))
        if sentence:
            details.append(_(sentence, n=int(args["index"]) + 1))
    if args.get("discard"):
        details.append(_("discard %(card)s", card=name_of(args["discard"], language, card_names)))
    if args.get("province"):
        details.append(_("target %(card)s", card=name_of(args["province"], language, card_names)))
    return label + (": " + ", ".join(details) if details else "")


def _dice(values: Any) -> str:
    return ", ".join(str(v) for v in values) if isinstance(values, list) else str(values)


def _changed(value: Any, delta: Any) -> str:
    """Vicarius wraps: 6+1 is 1 and 1-1 is 6 (docs/rom.md)."""
    if not isinstance(value, int) or not isinstance(delta, int):
        return "?"
    new = value + delta
    return str(1 if new > 6 else 6 if new < 1 else new)
