"""PAX in Capua's languages: the seven categories and the card names, and which choices
ask for a confirmation.

The decision prompts and button words of PAX live in :mod:`service.words.i18n` (``PROMPTS``,
``COMMANDS``).  Here are the game's own terms, which are data rather than sentences:
the rulebook (Material) names the property cards by category with the Latin word printed
on the card -- "je 10 Karten Wohlstand (in floribus), Flotte (navis longa), Armee
(legionarius), Religion (religio), Senator (senator); je 12 Land (praedium) und Intrige
(conspiratio)" -- so a card is called by its category and its Latin name in every language.
"""

from __future__ import annotations

import functools
from typing import Any, Mapping, Optional

from engine.pax.card_set import CATEGORIES, Card, LATIN_NAMES, load_card_set, second_copy
from service.words.i18n import N_, NP_, ngettext, translator
from service.words.terms import seat_name, seats_of

#: The categories as the German rulebook names them, with English and Russian beside.
CATEGORY_NAMES: dict[str, dict[str, str]] = {
    "en": {"wealth": "Wealth", "fleet": "Fleet", "army": "Army", "religion": "Religion",
           "senator": "Senator", "land": "Land", "intrigue": "Intrigue"},
    "de": {"wealth": "Wohlstand", "fleet": "Flotte", "army": "Armee", "religion": "Religion",
           "senator": "Senator", "land": "Land", "intrigue": "Intrige"},
    "ru": {"wealth": "Богатство", "fleet": "Флот", "army": "Армия", "religion": "Религия",
           "senator": "Сенатор", "land": "Земля", "intrigue": "Интрига"},
}

#: Command types whose board link or button first shows a confirm page.  Both give up
#: something that cannot be taken back and both sit one click away from a routine choice:
#: buying a legion spends aurei and takes every card under it (``skip_buy`` is the default
#: next to it); looking at Rome's hidden cards replaces the whole turn -- no drawing, buying
#: or laying (``draw_cards`` is the default next to it).  Laying a card and placing a drawn
#: card happen several times a turn, and their cost is already in the prompt, so asking
#: again each time would only slow the game.
CONFIRM = frozenset({"buy_legion", "peek_rome"})


def category_name(category: str, language: str) -> str:
    """The category's word in ``language`` (English when Capua does not speak it)."""
    names = CATEGORY_NAMES.get(language) or CATEGORY_NAMES["en"]
    return names.get(category, category)


@functools.cache
def _default_cards() -> dict[str, Card]:
    cards = load_card_set().cards
    return {c.id: c for c in cards + second_copy(cards)}


def card_name(card_id: str, language: str) -> Optional[str]:
    """``"Flotte (navis longa)"``: the category in ``language`` and the card's Latin name.

    Only the default card set is known by id; a card of another set keeps the name its
    file gives it (``None``)."""
    card = _default_cards().get(str(card_id))
    if card is None or card.category not in CATEGORIES:
        return None
    return display_name(card.category, card.name, language)


def display_name(category: str, latin: Optional[str], language: str) -> str:
    """A card's name from its category and printed name, as :func:`card_name` gives it."""
    latin = latin or LATIN_NAMES.get(category, "")
    word = category_name(category, language)
    return f"{word} ({latin})" if latin and latin.lower() != word.lower() else word


# --------------------------------------------------------------------------- the outcome panel

#: The kinds of points of the rulebook's "Sieger", in its order, as the engine's detail
#: names them (``players[].points``).
POINT_KINDS: tuple[tuple[str, str], ...] = (
    ("categories_laid", N_("Categories laid")),
    ("stronger_than_rome", N_("Stronger than Rome")),
    ("fleet_and_army", N_("Fleets and armies")),
    ("primus_conspiratus", N_("Primus conspiratus")),
    ("richest", N_("Most money")),
)
#: Why the game ended (the engine's ``reason``).
END_REASONS: dict[str, str] = {
    "deck_exhausted": N_("The game ended because the deck could no longer fill every empty legion."),
}


def outcome(result: Mapping[str, Any], language: str, seat_names: Mapping[int, str]) -> Optional[dict]:
    """The end of a PAX game in words: why it ended, whether Rome or the players won and
    who, and each player's points by kind (rulebook, Sieger).  ``None`` for a detail this
    does not know (the page then draws the generic panel)."""
    detail = result.get("detail")
    if not isinstance(detail, Mapping) or not isinstance(detail.get("players"), list):
        return None
    _ = translator(language)
    reason = END_REASONS.get(str(detail.get("reason")))
    lines = [_(reason)] if reason else []
    if "solo_level" in detail:
        return _solo_outcome(detail, language, seat_names, lines)
    rome = detail.get("rome") if isinstance(detail.get("rome"), Mapping) else {}
    holds = [category_name(c, language) for c in rome.get("holds") or []]
    winners = [seat_name(seat_names, s, language) for s in seats_of(result, "winners")]
    players = [p for p in detail["players"] if isinstance(p, Mapping)]
    totals = {p.get("seat"): p.get("total") for p in players}
    if detail.get("rome_won"):
        lines.append(_(NP_("Rome won: in %(count)s category (%(categories)s) it has at least as many symbols as "
                           "every player.",
                           "Rome won: in %(count)s categories (%(categories)s) it has at least as many symbols as "
                           "every player.", "count"), count=len(holds), categories=", ".join(holds)))
        primus = detail.get("primus_conspiratus")
        if isinstance(primus, int):
            lines.append(_("%(name)s holds primus conspiratus and wins with Rome.",
                           name=seat_name(seat_names, primus, language)))
        else:
            lines.append(_("Nobody holds primus conspiratus, so no player wins with Rome."))
    else:
        lines.append(_(NP_("The players beat Rome: it is at least as strong as every player in only %(count)s "
                           "category, so the most points win.",
                           "The players beat Rome: it is at least as strong as every player in only %(count)s "
                           "categories, so the most points win.", "count"), count=len(holds)))
        best = seats_of(result, "winners")
        points = totals.get(best[0]) if best else None
        if len(winners) > 1:
            lines.append(_(NP_("%(names)s share the victory with %(points)s point.",
                               "%(names)s share the victory with %(points)s points.", "points"),
                           names=", ".join(winners), points=points))
        elif winners:
            lines.append(_(NP_("%(name)s won with %(points)s point.", "%(name)s won with %(points)s points.", "points"),
                           name=winners[0], points=points))
    if detail.get("rome_won"):
        lines.append(_("The points below did not count, since Rome won."))
    order = seats_of(result, "ranking")
    players.sort(key=lambda p: order.index(p["seat"]) if p.get("seat") in order else len(order))
    table = {
        "caption": _("Points of each player"),
        "head": [_("Player")] + [_(words) for _key, words in POINT_KINDS] + [_("Total")],
        "rows": [{"seat": p.get("seat"),
                  "cells": [seat_name(seat_names, p.get("seat"), language)]
                  + [str((p.get("points") or {}).get(key, 0)) for key, _words in POINT_KINDS]
                  + [str(p.get("total", ""))]}
                 for p in players],
    }
    return {"lines": lines, "table": table}


def _solo_outcome(detail: Mapping[str, Any], language: str, seat_names: Mapping[int, str],
                  lines: list[str]) -> dict:
    """The solo game (rulebook, Solo-Spiel): stronger than Rome in enough categories, and
    at the lower levels every category laid."""
    _ = translator(language)
    player = detail["players"][0] if detail["players"] and isinstance(detail["players"][0], Mapping) else {}
    name = seat_name(seat_names, player.get("seat", 0), language)
    stronger = [category_name(c, language) for c in player.get("stronger_than_rome") or []]
    laid = player.get("categories_laid") or []
    args = {"name": name, "level": detail.get("solo_level"), "count": len(stronger), "needed": detail.get("needed")}
    if detail.get("won"):
        lines.append(_(NP_("%(name)s beat Rome in the solo game (level %(level)s): stronger in %(count)s category, "
                           "%(needed)s were needed.",
                           "%(name)s beat Rome in the solo game (level %(level)s): stronger in %(count)s categories, "
                           "%(needed)s were needed.", "count"), **args))
    else:
        lines.append(_(NP_("Rome won the solo game (level %(level)s): %(name)s was stronger in only %(count)s "
                           "category, %(needed)s were needed.",
                           "Rome won the solo game (level %(level)s): %(name)s was stronger in only %(count)s "
                           "categories, %(needed)s were needed.", "count"), **args))
    if detail.get("all_categories_needed"):
        lines.append(_("All %(all)s categories had to be laid; %(name)s laid %(laid)s.", all=len(CATEGORIES),
                       name=name, laid=len(laid)))
    table = {
        "caption": _("Categories against Rome"),
        "head": [_("Player"), _("Categories laid"), _("Stronger than Rome")],
        "rows": [{"seat": player.get("seat", 0),
                  "cells": [name, str(len(laid)), ", ".join(stronger) or "0"]}],
    }
    return {"lines": lines, "table": table}


# --------------------------------------------------------------------------- events in one sentence

#: Every event PAX records (engine/pax/events.py), told from what the reader may see of
#: it (engine/pax/views.py ``visible``): a field another seat's secret hides is used only
#: where the reader's view carries it.
EVENT_SENTENCES: dict[str, str] = {
    "GameSetUp": N_("The game was set up: %(player)s starts and every player has %(aurei)s."),
    "RomeDealt": N_("Rome was dealt its cards: %(open)s open, %(hidden)s hidden."),
    "StartCardsDrawn": N_("%(player)s drew start cards: %(count)s."),
    "StartCardChosen": N_("%(player)s chose a start card."),
    "StartCardChosen.card": N_("%(player)s chose %(card)s as the start card."),
    "StartCardsKept": N_("Every player kept a start card and pushed the others under the deck."),
    "LegionsRefilled": N_("The empty legions were filled; cards laid: %(count)s."),
    "RoundStarted": N_("Round %(round)s began with %(player)s."),
    "TurnStarted": N_("%(player)s began a turn."),
    "DeckExhaustedAureiTaken": N_("%(player)s took aurei because the deck is empty."),
    "DeckExhaustedAureiTaken.aurei": N_("%(player)s took %(aurei)s because the deck is empty."),
    "RomePeeked": N_("%(player)s looked at the hidden cards of Rome instead of drawing."),
    "CardsDrawn": N_("%(player)s drew cards: %(count)s."),
    "CardAssigned.hand": N_("%(player)s took a drawn card into the hand."),
    "CardAssigned.hand.card": N_("%(player)s took %(card)s into the hand."),
    "CardAssigned.legion": N_("%(player)s put %(card)s under legion %(legion)s."),
    "CardAssigned.deck": N_("%(player)s pushed a drawn card under the deck."),
    "CardAssigned.deck.card": N_("%(player)s pushed %(card)s under the deck."),
    "LegionBought": N_("%(player)s bought legion %(legion)s: %(cards)s."),
    "LegionBought.price": N_("%(player)s bought legion %(legion)s for %(price)s: %(cards)s."),
    "PurchaseSkipped": N_("%(player)s bought no legion."),
    "CardLaid": N_("%(player)s laid %(card)s."),
    "CardLaid.cost": N_("%(player)s laid %(card)s for %(cost)s."),
    "CardLaid.interrupt": N_("%(player)s answered the senator by laying %(card)s."),
    "PrimusConspiratusMoved": N_("%(player)s is now Primus conspiratus."),
    "PrimusConspiratusMoved.nobody": N_("Nobody is Primus conspiratus any more."),
    "IncomeTaken": N_("%(player)s took the income."),
    "IncomeTaken.aurei": N_("%(player)s took an income of %(aurei)s."),
    "TurnEnded": N_("%(player)s ended the turn."),
    "InterruptOpened": N_("%(player)s laid a senator: the other players may answer by laying a card."),
    "InterruptPassed": N_("%(player)s did not answer the senator."),
    "InterruptReopened": N_("%(player)s answered the senator: whoever has laid no card in this window may answer again."),
    "InterruptClosed": N_("Everyone has answered the senator; %(player)s goes on."),
    "LegionCleared": N_("Legion %(legion)s went to Rome: %(cards)s."),
    "LegionCleared.empty": N_("Legion %(legion)s went to Rome."),
    "RoundEnded": N_("Round %(round)s ended."),
    "GameEnded": N_("The game has ended."),
}


def _event_data(event: Mapping[str, Any]) -> dict:
    """The event's fields as the reader may see them, whether the view nests them
    (``{"type", "data": {...}}``) or lays them beside the type."""
    data = event.get("data")
    if not isinstance(data, Mapping):
        data = {k: v for k, v in event.items() if k not in ("seq", "at", "version")}
    data = dict(data)
    inner = data.get("data")
    if isinstance(inner, Mapping) and "type" in data:
        data = dict(inner)
    return data


def _card_words(card: Any, language: str) -> Optional[str]:
    if isinstance(card, Mapping):
        name = card_name(str(card.get("id", "")), language)
        if name is None and card.get("category"):
            name = display_name(str(card["category"]), card.get("name"), language)
        return name or (str(card["id"]) if card.get("id") else None)
    if isinstance(card, str) and card:
        return card_name(card, language) or card
    return None


def _cards_words(cards: Any, language: str) -> str:
    if not isinstance(cards, list):
        return ""
    return ", ".join(w for w in (_card_words(c, language) for c in cards) if w)


def aurei_words(amount: Any, language: str) -> str:
    """An amount of aurei in words, with the number's own form ("1 aureus", "2 aurei";
    "1 ауреус", "2 ауреуса", "5 ауреусов"); ``?`` for an amount the event does not give."""
    if not isinstance(amount, int) or isinstance(amount, bool):
        return "?"
    return ngettext(language, "%(num)s aureus", "%(num)s aurei", amount)


def describe_event(event: Mapping[str, Any], language: str, seat_names: Mapping[int, str]) -> Optional[str]:
    """One sentence telling what a PAX event, as the reader may see it, was."""
    _ = translator(language)
    etype = str(event.get("type", ""))
    d = _event_data(event)

    def say(key: str, **params: Any) -> str:
        return _(EVENT_SENTENCES[key], **params)

    player = seat_name(seat_names, d.get("seat"), language) if d.get("seat") is not None else ""
    if etype == "GameSetUp":
        return say(etype, player=seat_name(seat_names, d.get("start_seat"), language), aurei=aurei_words(d.get("start_aurei"), language))
    if etype == "RomeDealt":
        hidden = d.get("hidden_count", len(d.get("hidden") or []))
        return say(etype, open=len(d.get("open") or []), hidden=hidden)
    if etype in ("StartCardsDrawn", "CardsDrawn"):
        count = d.get("count", len(d.get("cards") or []))
        return say(etype, player=player, count=count)
    if etype == "StartCardChosen":
        card = _card_words(d.get("card"), language)
        return say("StartCardChosen.card", player=player, card=card) if card else say(etype, player=player)
    if etype == "LegionsRefilled":
        return say(etype, count=len(d.get("cards") or []))
    if etype == "RoundStarted":
        return say(etype, round=d.get("round", "?"), player=seat_name(seat_names, d.get("start_seat"), language))
    if etype in ("DeckExhaustedAureiTaken", "IncomeTaken"):
        if d.get("aurei") is not None:
            return say(etype + ".aurei", player=player, aurei=aurei_words(d["aurei"], language))
        return say(etype, player=player)
    if etype == "CardAssigned":
        to = d.get("to") if d.get("to") in ("hand", "legion", "deck") else "deck"
        card = _card_words(d.get("card"), language)
        if to == "legion":
            return say("CardAssigned.legion", player=player, card=card or "?", legion=d.get("legion", "?"))
        return say(f"CardAssigned.{to}.card", player=player, card=card) if card else say(f"CardAssigned.{to}", player=player)
    if etype == "LegionBought":
        cards = _cards_words(d.get("cards"), language)
        if d.get("price") is not None:
            return say("LegionBought.price", player=player, legion=d.get("legion", "?"), price=aurei_words(d["price"], language), cards=cards)
        return say(etype, player=player, legion=d.get("legion", "?"), cards=cards)
    if etype == "CardLaid":
        card = _card_words(d.get("card"), language) or "?"
        if d.get("during") == "interrupt":
            return say("CardLaid.interrupt", player=player, card=card)
        if d.get("cost") is not None:
            return say("CardLaid.cost", player=player, card=card, cost=aurei_words(d["cost"], language))
        return say(etype, player=player, card=card)
    if etype == "PrimusConspiratusMoved":
        if d.get("to") is None:
            return say("PrimusConspiratusMoved.nobody")
        return say(etype, player=seat_name(seat_names, d["to"], language))
    if etype == "LegionCleared":
        cards = _cards_words(d.get("cards"), language)
        return say(etype, legion=d.get("legion", "?"), cards=cards) if cards else \
            say("LegionCleared.empty", legion=d.get("legion", "?"))
    if etype == "RoundEnded":
        return say(etype, round=d.get("round", "?"))
    if etype == "GameEnded":
        reason = END_REASONS.get(str(d.get("reason")))
        return _(reason) if reason else say(etype)
    if etype in EVENT_SENTENCES:
        return say(etype, player=player or _("Seat %(n)s", n="?"))
    return None
