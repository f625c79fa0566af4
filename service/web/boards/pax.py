"""The PAX table drawn as SVG: the legion row, Rome and the deck, my hand, every player's
laid cards -- laid out here, drawn by ``templates/games/board_pax.html``.

Everything comes from ``board`` (the engine's view for this viewer) and the viewer's own
open ``decisions``, so the drawing shows exactly what the rulebook lets this player see:
"Alle Karten (Besitzkarten und Geld) werden auf der Hand gehalten, ohne sie den anderen
Spielern zu zeigen" -- other hands and purses never reach this module, and Rome's three
face-down cards only when the view holds them (this player looked, or the game is over).

Every section is its own SVG, 360 units wide (a phone's width), wrapping its cards into
rows; the stylesheet puts several side by side on a wide screen.  Choices that happen at a
place on the table are links there (to the confirm page of :func:`choice_url`): buying a
legion, placing a drawn card under a legion, laying or keeping a card of my hand, drawing
from the deck, looking at Rome's hidden cards.
"""

from __future__ import annotations

from typing import Any, Mapping, Optional, Sequence

from service.web.boards import choice_url
from service.words import i18n, telling
from service.words.i18n import N_
from service.words.seat_marks import seat_style
from service.words.terms import pax as pax_terms

#: Width of every section's viewBox: one phone screen.
WIDTH = 360
CARD_W, CARD_H = 64, 44
#: Horizontal distance of two cards in a row, vertical distance of two cards in a pile.
PITCH, STACK = 72, 48
#: Columns of cards on one row of the hand, and legions on one row of the table.
PER_ROW = 5
#: The legion plate above its cards, and a slot to place a drawn card in.
PLATE_H, SLOT_H, BUY_H = 40, 30, 44
#: The hand and the deck as targets beside a drawn card.
TARGET_W = 132
#: One category column of a tableau (players, Rome): header and one laid card.
COLUMN_W, COLUMN_HEAD, CHIP_H, CHIP_W = 50, 40, 20, 44
#: Players' panels: the name line, then rows of markers above the categories.
NAME_H, MARKER_H = 30, 22
#: Markers on a player's panel, in this order.
MARKERS = (
    ("to_move", N_("to move")),
    ("start", N_("start player")),
    ("primus", N_("primus conspiratus")),
    ("peeked", N_("has looked at Rome")),
)
#: Rome's row of piles (deck, hidden cards) above its categories; where the hidden cards lie.
PILE_H, HIDDEN_X = 112, 100

#: Fill and darker outline of each category's cards; the icon (a distinct shape per
#: category, see the template) and the category's letter say the same without colour.
CATEGORY_STYLE = {
    "wealth": ("#F7E08A", "#7A5C00"),
    "fleet": ("#A9D2F5", "#0B4F8A"),
    "army": ("#F5B7A5", "#8A2A0B"),
    "religion": ("#D9C4EC", "#4B2C6B"),
    "senator": ("#F4F1EA", "#5A4A32"),
    "land": ("#BFE3A8", "#2F5E1A"),
    "intrigue": ("#C9C9C9", "#333333"),
}
CATEGORY_ORDER = tuple(CATEGORY_STYLE)


def prepare(board: Mapping[str, Any], *, language: str, game_id: str, version: Optional[int],
            seat: Optional[int], decisions: Sequence[Mapping[str, Any]]) -> dict:
    """The layout of the whole table for this viewer (see the module docstring)."""
    language = i18n.language_or_default(language)
    choices = _Choices(game_id, decisions, language, board)
    me = board.get("me") if isinstance(board.get("me"), Mapping) else None
    return {
        "width": WIDTH,
        "card": {"w": CARD_W, "h": CARD_H},
        "chip": {"w": CHIP_W, "h": CHIP_H},
        "categories": [_category(cat, language) for cat in CATEGORY_ORDER],
        "legions": _legions(board, choices, language),
        "rome": _rome(board, choices, language),
        "players": [_player(p, board, language) for p in board.get("players") or []],
        "hand": _hand(me, choices, language) if me is not None else None,
        "seats": [dict(seat_style(p.get("seat")), seat=p.get("seat")) for p in board.get("players") or []],
        "active": _style(board.get("active_seat")),
        "start": _style(board.get("start_seat")),
        "primus": _style(board.get("primus_conspiratus")),
        "me_seat": me.get("seat") if me else None,
    }


def _style(seat: Any) -> Optional[dict]:
    return seat_style(seat) if seat is not None else None


# --------------------------------------------------------------------------- choices on the board


class _Choices:
    """The viewer's open options, found by what they do (``buy_legion`` of legion 2...)."""

    def __init__(self, game_id: str, decisions: Sequence[Mapping[str, Any]], language: str,
                 board: Mapping[str, Any]):
        self.game_id = game_id
        self.language = language
        self.options: list[tuple[Mapping[str, Any], Mapping[str, Any]]] = [
            (d, o) for d in decisions or [] for o in d.get("options") or [] if isinstance(o, Mapping)
        ]
        # the options name cards of my hand and of my draw only
        me = board.get("me") or {}
        self.names = {str(c.get("id")): pax_terms.display_name(c.get("category", ""), c.get("name"), language)
                      for c in list(me.get("hand") or []) + list(me.get("drawn") or []) if isinstance(c, Mapping)}

    def find(self, command_type: str, **args: Any) -> Optional[dict]:
        """``{"url", "label"}`` of the option with exactly these arguments, if it is open."""
        for decision, option in self.options:
            if option.get("type") == command_type and dict(option.get("args") or {}) == args:
                command = {"type": command_type, "args": args}
                return {"url": choice_url(self.game_id, decision, command),
                        "label": telling.command_label(self.language, command, self.names, "pax")}
        return None


# --------------------------------------------------------------------------- cards


def _category(cat: str, language: str) -> dict:
    # every card set has the seven categories (the loader checks); plain white for anything else
    fill, stroke = CATEGORY_STYLE.get(cat, ("#FFFFFF", "#000000"))
    name = pax_terms.category_name(cat, language)
    return {"key": cat, "name": name, "letter": name[:1], "fill": fill, "stroke": stroke}


def _card(card: Mapping[str, Any], language: str) -> dict:
    """One card as drawn: its id (for the viewer only: it is in their view), category
    style, symbols, price, and a name in the viewer's language."""
    cat = str(card.get("category"))
    style = _category(cat, language)
    symbols = card.get("symbols") if isinstance(card.get("symbols"), int) else 0
    return {
        "id": str(card.get("id")),
        "category": cat,
        "fill": style["fill"],
        "stroke": style["stroke"],
        "letter": style["letter"],
        "symbols": max(0, min(symbols, 6)),
        "symbol_count": symbols,
        "price": card.get("price"),
        "name": pax_terms.display_name(cat, card.get("name"), language),
    }


# --------------------------------------------------------------------------- the legion row


def _legion_rows(count: int) -> list[int]:
    """How many legions go on each row: all on one up to 5, else two balanced rows."""
    if count <= PER_ROW:
        return [count]
    first = (count + 1) // 2
    return [first, count - first]


def _legions(board: Mapping[str, Any], choices: _Choices, language: str) -> dict:
    legions = [lg for lg in board.get("legions") or [] if isinstance(lg, Mapping)]
    drawn = [c for c in ((board.get("me") or {}).get("drawn") or []) if isinstance(c, Mapping)]
    prices = _buy_prices(choices)
    columns, y, index = [], 0, 0
    for per_row in _legion_rows(len(legions)):
        row = legions[index:index + per_row]
        index += per_row
        row_height = 0
        for col, legion in enumerate(row):
            number = legion.get("number")
            cards = [_card(c, language) for c in legion.get("cards") or []]
            buy = choices.find("buy_legion", legion=number)
            slots = []
            for card in drawn:
                place = choices.find("assign_card", card=card.get("id"), to="legion", legion=number)
                if place:
                    slots.append({**place, "card": _card(card, language)})
            top = PLATE_H + 6
            for i, card in enumerate(cards):
                card["dy"] = top + i * STACK
            slot_top = top + len(cards) * STACK
            for i, slot in enumerate(slots):
                slot["dy"] = slot_top + i * (SLOT_H + 4)
            height = slot_top + len(slots) * (SLOT_H + 4) + (BUY_H + 4 if buy else 0)
            columns.append({
                "x": 4 + col * PITCH, "y": y, "number": number, "label": legion.get("label") or str(number),
                "value": legion.get("value"), "cards": cards, "slots": slots, "buy": buy,
                "price": prices.get(str(number)), "buy_dy": height - BUY_H - 4 if buy else None,
                "height": max(height, top + CARD_H),
            })
            row_height = max(row_height, columns[-1]["height"])
        y += row_height + 10
    return {"columns": columns, "height": max(y, PLATE_H + 10)}


def _buy_prices(choices: _Choices) -> dict[str, Any]:
    """Legion number -> what buying it costs me now (the engine's context of ``buy``)."""
    for decision, _option in choices.options:
        prices = (decision.get("context") or {}).get("prices")
        if isinstance(prices, Mapping):
            return {str(k): v for k, v in prices.items()}
    return {}


# --------------------------------------------------------------------------- tableaux: players and Rome


def _columns(symbols: Mapping[str, Any], rows: Mapping[str, Sequence[Mapping[str, Any]]],
             bonus: Mapping[str, Any], language: str) -> tuple[list[dict], int]:
    """The seven category columns: symbol count (and bonus), the laid cards as chips."""
    columns, tallest = [], 0
    for i, cat in enumerate(CATEGORY_ORDER):
        cards = [_card(c, language) for c in rows.get(cat) or []]
        for k, card in enumerate(cards):
            card["dy"] = COLUMN_HEAD + k * (CHIP_H + 3)
        columns.append({**_category(cat, language), "x": 5 + i * COLUMN_W, "count": symbols.get(cat) or 0,
                        "bonus": bonus.get(cat) or 0, "cards": cards})
        tallest = max(tallest, len(cards))
    return columns, COLUMN_HEAD + tallest * (CHIP_H + 3) + 6


def _player(player: Mapping[str, Any], board: Mapping[str, Any], language: str) -> dict:
    """One player's panel: seat badge and name, markers (to move, start player, primus
    conspiratus, looked at Rome -- all public), my aurei on my own panel only, and the
    laid cards by category."""
    columns, grid_height = _columns(player.get("symbols") or {}, player.get("tableau") or {},
                                    player.get("bonus") or {}, language)
    seat = player.get("seat")
    me = board.get("me") or {}
    flags = {
        "to_move": board.get("active_seat") == seat,
        "start": board.get("start_seat") == seat and (board.get("seats") or 0) > 1,
        "primus": bool(player.get("primus_conspiratus")),
        "peeked": bool(player.get("peeked")),
    }
    markers, head = _marker_pills([(kind, i18n.gettext(language, text)) for kind, text in MARKERS if flags[kind]])
    return {
        "seat": seat,
        "style": seat_style(seat),
        "is_me": bool(me) and me.get("seat") == seat,
        "gold": me.get("gold") if me and me.get("seat") == seat else None,
        **flags,
        "markers": markers,
        "columns": columns,
        "grid_y": head,
        "height": head + grid_height,
        "laid": sum(len(c["cards"]) for c in columns),
    }


def _marker_pills(markers: Sequence[tuple[str, str]]) -> tuple[list[dict], int]:
    """Markers as pills, wrapped onto as many lines as the panel's width needs; returns
    them and the top of the category grid below them."""
    pills, x, y = [], 6, NAME_H
    for kind, text in markers:
        width = int(len(text) * 7.2) + 16  # 12-unit sans-serif text (Cyrillic runs wider), with padding
        if x + width > WIDTH - 6 and x > 6:
            x, y = 6, y + MARKER_H
        pills.append({"kind": kind, "text": text, "x": x, "y": y, "w": width})
        x += width + 6
    return pills, y + (MARKER_H if pills else 0) + 4


def _rome(board: Mapping[str, Any], choices: _Choices, language: str) -> dict:
    rome = board.get("rome") or {}
    rows: dict[str, list] = {}
    for card in rome.get("open") or []:
        rows.setdefault(card.get("category"), []).append(card)
    columns, grid_height = _columns(rome.get("symbols") or {}, rows, {}, language)
    hidden = rome.get("hidden")
    hidden_count = rome.get("hidden_count") or 0
    shown = [_card(c, language) for c in hidden] if isinstance(hidden, list) else []
    for i, card in enumerate(shown):
        card["dx"] = HIDDEN_X + i * PITCH
    return {
        "columns": columns,
        "grid_y": PILE_H,
        "height": PILE_H + grid_height,
        "hidden_count": hidden_count,
        "hidden": shown,
        "hidden_x": HIDDEN_X,
        "backs": [HIDDEN_X + i * 10 for i in range(min(hidden_count, 6))] if not shown else [],
        "deck_size": board.get("deck_size") or 0,
        "draw": choices.find("draw_cards"),
        "peek": choices.find("peek_rome"),
        "open_count": len(rome.get("open") or []),
    }


# --------------------------------------------------------------------------- my hand


def _card_rows(cards: list[dict], top: int, gap: int) -> int:
    """Places ``cards`` in rows of :data:`PER_ROW`; returns the height used below ``top``."""
    for i, card in enumerate(cards):
        card["dx"] = 4 + (i % PER_ROW) * PITCH
        card["dy"] = top + (i // PER_ROW) * (CARD_H + gap)
    rows = (len(cards) + PER_ROW - 1) // PER_ROW
    return rows * (CARD_H + gap)


def _hand(me: Mapping[str, Any], choices: _Choices, language: str) -> dict:
    """My hand (each card a link when I may lay it) and my drawn cards still to place
    (each with the hand and the deck as targets; the legions carry their own)."""
    hand = []
    for raw in me.get("hand") or []:
        card = _card(raw, language)
        card["act"] = choices.find("lay_card", card=card["id"])
        hand.append(card)
    hand_height = _card_rows(hand, 4, 8)
    drawn = []
    for raw in me.get("drawn") or []:
        card = _card(raw, language)
        card["act"] = choices.find("keep_card", card=card["id"])
        card["to_hand"] = choices.find("assign_card", card=card["id"], to="hand")
        card["to_deck"] = choices.find("assign_card", card=card["id"], to="deck")
        drawn.append(card)
    if any(c["to_hand"] or c["to_deck"] for c in drawn):
        # a card being placed gets a row of its own, the hand and the deck beside it
        for i, card in enumerate(drawn):
            card["dx"], card["dy"] = 4, 4 + i * (CARD_H + 8)
        drawn_height = len(drawn) * (CARD_H + 8)
    else:
        drawn_height = _card_rows(drawn, 4, 8)
    return {
        "gold": me.get("gold"),
        "cards": hand,
        "height": hand_height + 4 if hand else 30,
        "drawn": drawn,
        "drawn_height": drawn_height + 4,
        "target": {"x": PITCH + 4, "w": TARGET_W, "h": SLOT_H, "gap": TARGET_W + 8},
    }
