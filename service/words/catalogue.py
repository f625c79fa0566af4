"""Every card of a game's card set as plain rows: for ``capua cards list`` and the pages.

Each game keeps its cards as data files beside its engine; this module only reads them
through the game's own loader (which validates them) and flattens them into rows with a
``deck``, an ``id``, a ``name`` and a one-line ``text``.
"""

from __future__ import annotations

from typing import Callable

from engine import registry


def _count(n: int, one: str, more: str) -> str:
    """``n`` with its English noun in the form ``n`` takes ("1 symbol", "2 symbols")."""
    return f"{n} {one if n == 1 else more}"


def _pax(set_name: str) -> list[dict]:
    from engine.pax.card_set import load_card_set

    return [
        {"deck": "property", "id": c.id, "name": c.name, "category": c.category, "symbols": c.symbols,
         "price": c.price, "text": f"{c.category}, {_count(c.symbols, 'symbol', 'symbols')}, "
                                   f"{_count(c.price, 'aureus', 'aurei')}"}
        for c in load_card_set(set_name).cards
    ]


def _rom(set_name: str) -> list[dict]:
    from engine.rom.carddata import load_card_set

    cards = load_card_set(set_name)
    rows = [
        {"deck": "province", "id": p.id, "name": p.name, "epoch": p.epoch, "strength": p.strength,
         "resource": p.resource, "symbol": p.symbol, "region": p.region,
         "text": f"epoch {p.epoch}, strength {p.strength}, {p.resource}, {p.symbol}, {p.region}"}
        for p in cards.provinces
    ]
    rows += [
        {"deck": "senate", "id": s.id, "name": s.name, "epoch": s.epoch, "symbols": list(s.symbols),
         "text": s.text}
        for s in cards.senate
    ]
    rows += [
        {"deck": "arena", "id": a.id, "name": a.name, "type": a.type, "cost": a.cost,
         "text": f"{a.type}, cost {a.cost}"}
        for a in cards.arena
    ]
    return rows


def _spartacus(set_name: str) -> list[dict]:
    from engine.spartacus.game.cards import describe_set

    rows = describe_set(set_name)
    for row in rows:
        if "attack" in row:  # gladiators and slaves: their dice first, then any ability
            stats = f"{row['type']}, attack {row['attack']} / defence {row['defence']} / speed {row['speed']}, {row['gold']} gold"
            row["text"] = f"{stats}. {row['text']}" if row["text"] else stats
        elif not row.get("text"):
            row["text"] = f"{row.get('type', row['deck'])}, {row.get('gold', 0)} gold"
    return rows


_CATALOGUES: dict[str, Callable[[str], list[dict]]] = {
    "pax": _pax,
    "rom": _rom,
    "spartacus": _spartacus,
    "spartacus_arena": _spartacus,
}


def games_with_cards() -> list[str]:
    return [name for name in registry.names() if name in _CATALOGUES]


def card_list(game: str, set_name: str = "default") -> list[dict]:
    """The rows of ``game``'s card set ``set_name``; ``KeyError`` for a game without cards,
    the loader's own error (naming the problem) for a broken or unknown set."""
    return _CATALOGUES[game](set_name)
