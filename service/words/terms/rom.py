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

from service.words.i18n import N_, NP_, language_or_default, translator
from service.words.seat_marks import seat_style
from service.words.terms import seat_name, seat_value, seats_of

#: prompt_key -> English sentence (``%(name)s`` from the decision's ``prompt_args``).
#: ``place_die`` is shared by "place a die" and "you cannot place, pass": one sentence
#: says both, so that the generic key of ``service.words.i18n`` never answers for Rom.
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

#: Per track, its sentences: its name (headings), "Place a 3 on the senate track", the
#: same with a senate card (Legatus, Consul), and "die 2 on the senate track" (Senator).
#: One sentence per track, as German and Russian inflect each track's name differently.
_TRACK_WORDS: dict[str, tuple[str, str, str, str]] = {
    "military": (N_("Military track"), N_("Place a %(value)s on the military track"),
                 N_("Place a %(value)s on the military track with %(card)s"),
                 N_("die %(n)s on the military track")),
    "senate": (N_("Senate track"), N_("Place a %(value)s on the senate track"),
               N_("Place a %(value)s on the senate track with %(card)s"),
               N_("die %(n)s on the senate track")),
    "black_market": (N_("Black market track"), N_("Place a %(value)s on the black market track"),
                     N_("Place a %(value)s on the black market track with %(card)s"),
                     N_("die %(n)s on the black market track")),
}
TRACK_NAMES: dict[str, str] = {track: words[0] for track, words in _TRACK_WORDS.items()}
_PLACE = {track: words[1] for track, words in _TRACK_WORDS.items()}
_PLACE_WITH = {track: words[2] for track, words in _TRACK_WORDS.items()}
_DIE_ON = {track: words[3] for track, words in _TRACK_WORDS.items()}

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


_PLACE_ANY_DIE = ("Aktiviere diese Karte, wenn du einen Machtwürfel setzt. Er darf einen höheren Wert haben als der "
                  "Machtwürfel, neben den er gesetzt wird.",
                  "Активируйте эту карту, когда ставите кубик власти: он может быть выше кубика, рядом с которым "
                  "его ставят.")
_FLIP = ("Stelle einen deiner noch nicht gesetzten Machtwürfel auf den Kopf, d. h., eine „1“ wird zur „6“, eine "
         "„5“ zur „2“ usw.",
         "Переверните один из своих ещё не поставленных кубиков власти: «1» становится «6», «5» — «2» и так далее.")

#: senate card id -> (German, Russian) ability text.  German as printed in the rulebook
#: (p. 8), with its typos mended ("Militärlaiste", "werdest"); Hispania Maximus advances the
#: wine marker while the olives are scored, as printed (the card text wins, docs/rom.md).
ABILITIES: dict[str, tuple[str, str]] = {
    "legatus": _PLACE_ANY_DIE,
    "consul": _PLACE_ANY_DIE,
    "quaestor_1": _FLIP,
    "quaestor_2": _FLIP,
    "magistrate": ("Erhöhe in Phase 3 den Wert deines Budgets auf der Schwarzmarktleiste um 1. Gilt nur, wenn du "
                   "mindestens einen Machtwürfel auf der Schwarzmarktleiste hast.",
                   "В фазе 3 увеличьте свой бюджет на чёрном рынке на 1, если у вас есть хотя бы один кубик власти "
                   "на шкале чёрного рынка."),
    "military_tribune": ("Wirf einen deiner gesetzten Machtwürfel auf der Militärleiste erneut. Das ändert nicht die "
                         "Reihenfolge der Aktivierung.",
                         "Перебросьте один из своих поставленных кубиков власти на военной шкале. Порядок "
                         "розыгрыша от этого не меняется."),
    "censor": ("Wirf beliebig viele deiner noch nicht gesetzten Machtwürfel erneut.",
               "Перебросьте любое число своих ещё не поставленных кубиков власти."),
    "vicarius": ("Ändere den Wert eines deiner ungesetzten Machtwürfel um +/- 1. Eine „1“ kann zur „6“ werden und "
                 "umgekehrt.",
                 "Измените значение одного из своих непоставленных кубиков власти на +1 или −1. «1» может стать "
                 "«6» и наоборот."),
    "tribunus": ("In Phase 1 kannst du diese Karte aktivieren, um deine Gesamtwürfelsumme bei der Bestimmung der "
                 "Spielerreihenfolge um 3 zu reduzieren.",
                 "В фазе 1 можно активировать эту карту, чтобы уменьшить сумму своих кубиков на 3 при определении "
                 "порядка хода."),
    "senator": ("Senke den Wert eines deiner gesetzten Machtwürfel um 1. Falls er bereits den Wert „1“ hat, lege "
                "ihn auf den äußersten linken Abschnitt, er gilt nun als „0“.",
                "Уменьшите значение одного из своих поставленных кубиков власти на 1. Если на нём уже «1», "
                "положите его в крайнюю левую секцию: теперь он считается «0»."),
    "aedile": ("Erhöhe in Phase 3 den Wert deines Budgets auf der Schwarzmarktleiste um 3. Gilt nur, wenn du "
               "mindestens einen Machtwürfel auf der Schwarzmarktleiste hast.",
               "В фазе 3 увеличьте свой бюджет на чёрном рынке на 3, если у вас есть хотя бы один кубик власти на "
               "шкале чёрного рынка."),
    "magister_equitum": ("Erhöhe in Phase 3 die Stärke deiner Machtwürfel auf der Militärleiste um 3. Gilt nur, "
                         "wenn du mindestens einen Machtwürfel auf der Militärleiste hast.",
                         "В фазе 3 увеличьте силу своих кубиков власти на военной шкале на 3, если у вас там есть "
                         "хотя бы один кубик."),
    "proconsul": ("Wirf beliebig viele deiner ungesetzten Machtwürfel erneut. Das darfst du sogar wiederholen.",
                  "Перебросьте любое число своих непоставленных кубиков власти. Это можно даже повторять "
                  "(сколько угодно раз)."),
    "africanus_maximus": ("Wertung: Wenn du die Forumsleiste Wein wertest, lege diese Karte auf eine "
                          "Weinprovinzkarte (wodurch beide erschöpft werden), um deinen Marker auf der Weinleiste "
                          "ein Feld vorzurücken.",
                          "Подсчёт: при подсчёте шкалы вина положите эту карту на провинцию с вином (обе "
                          "истощаются), чтобы продвинуть свой маркер на шкале вина на одно деление."),
    "hispania_maximus": ("Wertung: Wenn du die Forumsleiste Oliven wertest, lege diese Karte auf eine "
                         "Olivenprovinzkarte (wodurch beide erschöpft werden), um deinen Marker auf der "
                         "Weinleiste ein Feld vorzurücken.",
                         "Подсчёт: при подсчёте шкалы оливок положите эту карту на провинцию с оливками (обе "
                         "истощаются), чтобы продвинуть свой маркер на шкале вина на одно деление."),
    "asianus": ("Wertung: Zum Spielende erhältst du 1 SP für jede Region, in der du einen Säulenbogen hast.",
                "Подсчёт: в конце игры 1 ПО за каждый регион, где у вас есть арка."),
    "ludi_maximus": ("Wertung: Zum Spielende erhältst du 2 SP für jede deiner Provinzkarten mit einem Arenasymbol.",
                     "Подсчёт: в конце игры 2 ПО за каждую свою карту провинции с символом арены."),
    "imperator": ("Wertung: Zum Spielende erhältst du 2 SP für jede deiner Provinzkarten mit einem "
                  "Armeelagersymbol.",
                  "Подсчёт: в конце игры 2 ПО за каждую свою карту провинции с символом военного лагеря."),
    "greko_maximus": ("Wertung: Zum Spielende erhältst du 1 SP für jedes Paar deiner Senats- und Provinzkarten mit "
                      "gleichem Symbol.",
                      "Подсчёт: в конце игры 1 ПО за каждую пару из вашей карты сената и карты провинции с "
                      "одинаковым символом."),
    "praetor": ("Wertung: Zum Spielende erhältst du 2 SP für jede deiner Provinzkarten mit dem Villasymbol.",
                "Подсчёт: в конце игры 2 ПО за каждую свою карту провинции с символом виллы."),
    "vicarius_intrigue": ("Intrige: Wirf einen noch nicht gesetzten Machtwürfel eines beliebigen Spielers erneut.",
                          "Интрига: перебросьте один ещё не поставленный кубик власти любого игрока."),
    "hispania_maximus_intrigue": ("Intrige: Wirf eine deiner Senatskarten (auch diese) ab, um eine Provinzkarte der "
                                  "Epoche I eines beliebigen Spielers abzuwerfen und den entsprechenden Säulenbogen "
                                  "vom Spielplan zu entfernen. Der Spieler verliert auch die Ressource.",
                                  "Интрига: сбросьте одну из своих карт сената (можно эту), чтобы сбросить карту "
                                  "провинции эпохи I любого игрока и убрать её арку с карты. Этот игрок теряет и "
                                  "ресурс."),
    "tribunus_intrigue": ("Intrige: Erhöhe in Phase 1 die Gesamtwürfelsumme eines beliebigen Spielers bei der "
                          "Bestimmung der Spielerreihenfolge um 3.",
                          "Интрига: в фазе 1 увеличьте сумму кубиков любого игрока на 3 при определении порядка "
                          "хода."),
    "greko_maximus_intrigue": ("Intrige: Du erhältst für deine Darbietungen in der Arena 1 SP zusätzlich und dein "
                               "Rang gilt als 1 Rang höher bei der Ermittlung der „besten Darbietung“.",
                               "Интрига: вы получаете 1 дополнительное ПО за выступление на арене, а ваш ранг "
                               "считается на 1 выше при определении лучшего выступления."),
    "africanus_maximus_intrigue": ("Intrige: Stehle 1 Juwel von einem beliebigen Spieler, indem du deinen Marker "
                                   "1 Feld vorsetzt und seinen 1 Feld zurück.",
                                   "Интрига: украдите 1 драгоценность у любого игрока: продвиньте свой маркер на 1 "
                                   "деление вперёд, а его — на 1 назад."),
}

def card_name(card_id: str, language: str) -> Optional[str]:
    """The name of card ``card_id`` in ``language`` (English: the default set's name);
    ``None`` for unknown ids.  Arena cards of one name share it:
    ``lion_2`` is a "Löwe" like ``lion_1``."""
    column = {"de": 0, "ru": 1}.get(language_or_default(language))
    if column is None:
        # an English reader gets the card set's name ("Gallia Cisalpina"), never the id
        return _english_names().get(str(card_id))
    names = NAMES.get(card_id)
    if names is None:
        base, _, number = card_id.rpartition("_")
        names = NAMES.get(base) if number.isdigit() and base not in REGIONS else None
    return names[column] if names else None


def card_text(card_id: str, language: str) -> Optional[str]:
    """A senate card's ability in ``language``; ``None`` for English (the engine's text)."""
    column = {"de": 0, "ru": 1}.get(language_or_default(language))
    texts = ABILITIES.get(card_id)
    return texts[column] if texts and column is not None else None


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


def command_label(language: str, command: Mapping[str, Any], card_names: Mapping[str, str],
                  seat_names: Optional[Mapping[int, str]] = None) -> Optional[str]:
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


# --------------------------------------------------------------------------- the outcome panel

#: The engine's tie-break keys (``tiebreak_order``), as column heads: victory points,
#: then provinces, then the price of the arena cards in hand (rulebook, end of the game).
TIEBREAK_WORDS: dict[str, str] = {
    "vp": N_("Victory points"),
    "provinces": N_("Provinces"),
    "arena_cost_in_hand": N_("Price of arena cards in hand"),
}


def outcome(result: Mapping[str, Any], language: str, seat_names: Mapping[int, str]) -> Optional[dict]:
    """The end of a Rom game in words: who won with how many victory points, what broke a
    tie, when the forum and the arena games were scored, and a table of every player's
    victory points, provinces and arena cards' price (the tie-break, best first)."""
    detail = result.get("detail")
    if not isinstance(detail, Mapping) or not isinstance(detail.get("tiebreak"), Mapping):
        return None
    _ = translator(language)
    order = [k for k in detail.get("tiebreak_order") or [] if k in TIEBREAK_WORDS] or ["vp"]
    keys = {s: list(seat_value(detail["tiebreak"], s) or []) for s in seats_of(result, "ranking")}
    ranking = [s for s in keys if len(keys[s]) >= len(order)]
    winners = [s for s in seats_of(result, "winners") if s in keys]
    lines = []
    if winners:
        points = keys[winners[0]][0]
        names = [seat_name(seat_names, s, language) for s in winners]
        if len(names) > 1:
            lines.append(_(NP_("%(names)s share the victory with %(points)s victory point.",
                               "%(names)s share the victory with %(points)s victory points.", "points"),
                           names=", ".join(names), points=points))
        else:
            lines.append(_(NP_("%(name)s won with %(points)s victory point.",
                               "%(name)s won with %(points)s victory points.", "points"), name=names[0], points=points))
        runner_up = next((s for s in ranking if s not in winners), None)
        if len(winners) == 1 and runner_up is not None and keys[runner_up][0] == points:
            decided = next((i for i in range(1, len(order)) if keys[runner_up][i] != keys[winners[0]][i]), None)
            args = {"name": names[0], "other": seat_name(seat_names, runner_up, language)}
            if decided is not None and order[decided] == "provinces":
                lines.append(_("%(name)s had as many victory points as %(other)s and won with more provinces.",
                               **args))
            elif decided is not None and order[decided] == "arena_cost_in_hand":
                lines.append(_("%(name)s had as many victory points and provinces as %(other)s and won with the "
                               "more valuable arena cards in hand.", **args))
    lines.extend(_scorings(detail.get("scoring"), language))
    table = {
        "caption": _("Victory points and tie-break"),
        "head": [_("Player")] + [_(TIEBREAK_WORDS[k]) for k in order],
        "rows": [{"seat": s, "cells": [seat_name(seat_names, s, language)] + [str(v) for v in keys[s][:len(order)]]}
                 for s in ranking],
    }
    return {"lines": lines, "table": table}


def _scorings(history: Any, language: str) -> list[str]:
    """When the forum and the arena games were scored, and the round of the final scoring."""
    _ = translator(language)
    if not isinstance(history, list):
        return []
    rounds: dict[str, list[int]] = {}
    for entry in history:
        if isinstance(entry, Mapping) and isinstance(entry.get("round"), int):
            rounds.setdefault(str(entry.get("event")), []).append(entry["round"])
    lines = []
    forum, arena = rounds.get("ForumScored"), rounds.get("ArenaSetsRevealed")
    if forum:
        lines.append(_("The forum was scored in rounds %(rounds)s.", rounds=", ".join(map(str, forum))))
    if arena:
        lines.append(_("The arena games were held in rounds %(rounds)s.", rounds=", ".join(map(str, arena))))
    final = rounds.get("RegionsScored") or rounds.get("SenateCardsScored")
    if final:
        lines.append(_("The final scoring of senate cards and regions came after round %(round)s.", round=final[-1]))
    return lines


# --------------------------------------------------------------------------- events in one sentence

#: The forum's goods, by the engine's resource ids.
RESOURCE_NAMES: dict[str, str] = {"olive": N_("Olives"), "wine": N_("Wine"), "jewel": N_("Jewels")}

#: Every event Rom records (engine/rom/events.py ``EVENT_TYPES``), told from what the
#: reader may see of it (engine/rom/views.py ``visible``: deck orders are counts, a card
#: bought from the deck and a face-down arena set are shown to their owner only).
EVENT_SENTENCES: dict[str, str] = {
    "DecksShuffled": N_("The province, senate and arena decks were shuffled."),
    "CardsLaidOut": N_("Round %(round)s: new provinces, senate cards and arena cards were laid out."),
    "PowerDiceRolled": N_("Round %(round)s: the power dice were rolled (%(dice)s)."),
    "SenateCardActivated": N_("%(player)s activated %(card)s."),
    "OrderSumAdjusted": N_("%(player)s changed the turn-order sum of %(target)s by %(amount)s with %(card)s."),
    "OrderCardsFinished": N_("%(player)s is done with cards for the turn order."),
    "TurnOrderDetermined": N_("Round %(round)s: the turn order is %(order)s."),
    "PowerDiePlaced": N_("%(player)s placed %(die)s."),
    "PlacementPassed": N_("%(player)s passed."),
    "PlacementPassed.dice": N_("%(player)s passed and gave up the dice %(dice)s."),
    "TurnEnded": N_("%(player)s ended the turn."),
    "PowerDieChanged": N_("%(player)s turned a %(old)s into a %(new)s with %(card)s."),
    "RerollStarted": N_("%(player)s may reroll with %(card)s."),
    "PowerDiceRerolled": N_("%(player)s rerolled %(old)s and got %(new)s."),
    "RerollDeclined": N_("%(player)s did not reroll again with %(card)s."),
    "PlacedDieLowered": N_("%(player)s lowered a placed die with %(card)s (%(track)s)."),
    "TrackBonusGained": N_("%(player)s gained a bonus of %(amount)s with %(card)s (%(track)s)."),
    "ResourceStolen": N_("%(player)s stole %(lost)s from %(target)s with %(card)s (%(resource)s)."),
    "SenateCardDiscarded": N_("%(player)s discarded %(card)s."),
    "ProvinceDiscarded": N_("%(player)s removed the province %(province)s from the game with %(card)s."),
    "PlacementFinished": N_("Round %(round)s: every power die is placed."),
    "ProvincesConquered": N_("%(player)s conquered %(cards)s with a strength of %(strength)s."),
    "ProvincesConquered.none": N_("%(player)s conquered no province (strength %(strength)s)."),
    "SenateCardsTaken": N_("%(player)s took the senate cards %(cards)s."),
    "SenateCardsTaken.none": N_("%(player)s took no senate card."),
    "ArenaCardBought": N_("%(player)s bought %(card)s for %(cost)s."),
    "HiddenArenaCardBought": N_("%(player)s bought a face-down arena card for %(cost)s."),
    "HiddenArenaCardBought.card": N_("%(player)s bought %(card)s face down from the arena deck for %(cost)s."),
    "BlackMarketLeft": N_("%(player)s left the black market having spent %(spent)s."),
    "ResolutionFinished": N_("Round %(round)s: the tracks are resolved."),
    "ForumMarkerAdvanced": N_("%(player)s moved forward %(steps)s on the forum (%(resource)s) with %(card)s."),
    "ForumScored": N_("Round %(round)s: the forum was scored (%(points)s)."),
    "ArenaSetSubmitted": N_("%(player)s put forward an arena set face down."),
    "ArenaSetSubmitted.cards": N_("%(player)s put forward the arena set %(cards)s."),
    "ArenaSetsRevealed": N_("Round %(round)s: the arena sets were revealed (%(points)s)."),
    "ArenaSetsRevealed.none": N_("Round %(round)s: nobody fought in the arena."),
    "RoundCleanedUp": N_("Round %(round)s is over; the cards left on the table were removed."),
    "SenateCardsScored": N_("The senate cards were scored (%(points)s)."),
    "RegionsScored": N_("The regions were scored (%(points)s)."),
    "GameEnded": N_("The game has ended: %(winners)s won."),
}


def _event_data(event: Mapping[str, Any]) -> dict:
    """The event's fields as the reader may see them: Rom's view nests them
    (``{"type", "version", "data": {...}}``) inside the stream's ``data``."""
    data = event.get("data")
    data = dict(data) if isinstance(data, Mapping) else {}
    inner = data.get("data")
    if isinstance(inner, Mapping) and "type" in data:
        data = dict(inner)
    return data


def _by_seat(values: Any, seat_names: Mapping[int, str], language: str, show=str) -> str:
    """``Ann 3, Bob 5``: a seat-keyed mapping in seat order."""
    if not isinstance(values, Mapping):
        return ""
    seats = sorted(values, key=lambda s: int(s) if str(s).lstrip("-").isdigit() else 99)
    return "; ".join(f"{seat_name(seat_names, s, language)}: {show(values[s])}" for s in seats)


def _points(by_kind: Any, seat_names: Mapping[int, str], language: str) -> str:
    """The points per seat of a scoring, summed over its kinds (goods, regions, cards)."""
    total: dict[int, int] = {}
    for points in (by_kind.values() if isinstance(by_kind, Mapping) else ()):
        for seat, vp in (points.items() if isinstance(points, Mapping) else ()):
            if isinstance(vp, int) and str(seat).isdigit():
                total[int(seat)] = total.get(int(seat), 0) + vp
    return _by_seat(total, seat_names, language)


def describe_event(event: Mapping[str, Any], language: str, seat_names: Mapping[int, str]) -> Optional[str]:
    """One sentence telling what a Rom event, as the reader may see it, was."""
    _ = translator(language)
    etype = str(event.get("type", ""))
    d = _event_data(event)
    if etype not in EVENT_SENTENCES:
        return None

    def who(seat: Any) -> str:
        return seat_name(seat_names, seat, language) if seat is not None else _("Seat %(n)s", n="?")

    def track(value: Any) -> str:
        words = TRACK_NAMES.get(str(value))
        return _(words) if words else str(value)

    def say(key: str, **params: Any) -> str:
        return _(EVENT_SENTENCES[key], **params)

    card = name_of(d["card"], language) if d.get("card") is not None else "?"
    player = who(d.get("seat"))
    rnd = d.get("round", "?")
    if etype in ("DecksShuffled",):
        return say(etype)
    if etype in ("CardsLaidOut", "PlacementFinished", "ResolutionFinished", "RoundCleanedUp"):
        return say(etype, round=rnd)
    if etype == "PowerDiceRolled":
        return say(etype, round=rnd, dice=_by_seat(d.get("dice"), seat_names, language, show=_dice))
    if etype == "TurnOrderDetermined":
        order = ", ".join(who(s) for s in d.get("order") or [])
        return say(etype, round=rnd, order=order)
    if etype == "OrderSumAdjusted":
        amount = d.get("amount")
        amount = f"{amount:+d}" if isinstance(amount, int) else "?"
        return say(etype, player=player, target=who(d.get("target")), amount=amount, card=card)
    if etype == "PowerDiePlaced":
        words = _DIE_ON.get(str(d.get("track")))
        die = _(words, n=d.get("value", "?")) if words else str(d.get("value", "?"))
        return say(etype, player=player, die=die)
    if etype == "PlacementPassed":
        if d.get("forfeited"):
            return say("PlacementPassed.dice", player=player, dice=_dice(d["forfeited"]))
        return say(etype, player=player)
    if etype == "PowerDieChanged":
        return say(etype, player=player, old=d.get("from", "?"), new=d.get("to", "?"), card=card)
    if etype == "RerollStarted":
        return say(etype, player=who(d.get("by", d.get("seat"))), card=card)
    if etype == "PowerDiceRerolled":
        return say(etype, player=player, old=_dice(d.get("old", "?")), new=_dice(d.get("new", "?")))
    if etype in ("PlacedDieLowered", "TrackBonusGained"):
        return say(etype, player=player, track=track(d.get("track")), amount=d.get("amount", "?"), card=card)
    if etype in ("ResourceStolen", "ForumMarkerAdvanced"):
        resource = RESOURCE_NAMES.get(str(d.get("resource")))
        return say(etype, player=player, card=card, target=who(d.get("target")), lost=d.get("lost", "?"),
                   steps=d.get("steps", "?"), resource=_(resource) if resource else str(d.get("resource", "?")))
    if etype == "ProvinceDiscarded":
        return say(etype, player=player, card=card, province=name_of(d.get("province", "?"), language))
    if etype in ("ProvincesConquered", "SenateCardsTaken"):
        ids = d.get("provinces") if etype == "ProvincesConquered" else d.get("cards")
        if not ids:
            return say(etype + ".none", player=player, strength=d.get("strength", "?"))
        return say(etype, player=player, cards=_names(ids, language, {}), strength=d.get("strength", "?"))
    if etype in ("ArenaCardBought", "HiddenArenaCardBought"):
        if etype == "HiddenArenaCardBought" and d.get("card") is not None:
            return say("HiddenArenaCardBought.card", player=player, card=card, cost=d.get("cost", "?"))
        return say(etype, player=player, card=card, cost=d.get("cost", "?"))
    if etype == "BlackMarketLeft":
        return say(etype, player=player, spent=d.get("spent", 0))
    if etype == "ArenaSetSubmitted":
        if d.get("cards"):
            return say("ArenaSetSubmitted.cards", player=player, cards=_names(d["cards"], language, {}))
        return say(etype, player=player)
    if etype == "ArenaSetsRevealed":
        if not d.get("sets"):
            return say("ArenaSetsRevealed.none", round=rnd)
        points = _by_seat(d.get("points"), seat_names, language)
        return say(etype, round=rnd, points=points or "-")
    if etype == "SenateCardsScored":
        points = d.get("points") if isinstance(d.get("points"), Mapping) else {}
        total = {seat: sum(v for v in cards.values() if isinstance(v, int))
                 for seat, cards in points.items() if isinstance(cards, Mapping)}
        return say(etype, points=_by_seat(total, seat_names, language) or "-")
    if etype in ("ForumScored", "RegionsScored"):
        return say(etype, round=rnd, points=_points(d.get("points"), seat_names, language) or "-")
    if etype == "GameEnded":
        winners = ", ".join(who(s) for s in d.get("winners") or []) or "-"
        return say(etype, winners=winners)
    return say(etype, player=player, card=card)
