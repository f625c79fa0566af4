"""What each seat may see: the state (``view``) and each event (``visible``).

Rulebook, Preparation: "All cards (property and money) are held in hand, neither shown to the
other players nor their number told."  So another
player's hand, its size, their aurei and the cards they are drawing never leave the engine,
nor does the deck order or Rome's hidden cards (until this viewer peeked, or the game ended).
Income and payment amounts are private; public card movements (legions, laid cards, Rome)
are shown with their cards.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Optional

from engine.core.types import Event, Viewer
from engine.pax.card_set import CATEGORIES, Card
from engine.pax.scoring import score, with_bonuses
from engine.pax.state import ROMAN, PaxState, legion_value, symbol_counts


def _cards(cards) -> list[dict]:
    return [c.to_json() for c in cards]


def _tableau(cards: tuple[Card, ...]) -> dict[str, list[dict]]:
    """Laid cards sorted into their category rows (every category present)."""
    rows: dict[str, list[dict]] = {cat: [] for cat in CATEGORIES}
    for c in cards:
        rows[c.category].append(c.to_json())
    return rows


def _is_seat(state: PaxState, viewer: Viewer) -> bool:
    return viewer is not None and 0 <= viewer < state.seats


def view(state: PaxState, viewer: Viewer) -> dict:
    """The table as ``viewer`` (a seat, or ``None`` for a spectator) may see it."""
    ended = state.phase == "ended"
    me = viewer if _is_seat(state, viewer) else None
    sees_hidden = ended or (me is not None and me in state.peeked)
    players = []
    for seat in range(len(state.tableaux)):
        tableau = state.tableaux[seat]
        counts = symbol_counts(tableau)
        bonus = with_bonuses(counts)
        players.append({
            "seat": seat,
            "tableau": _tableau(tableau),
            "symbols": counts,
            "bonus": {"fleet": bonus["fleet"] - counts["fleet"], "army": bonus["army"] - counts["army"]},
            "laid_this_turn": _cards(state.laid_this_turn) if state.phase == "turn" and seat == state.active_seat else [],
            "peeked": seat in state.peeked,
            "primus_conspiratus": state.primus == seat,
        })
    mine = None
    if me is not None:
        dealt = bool(state.hands)  # before the shuffle nothing is dealt yet
        choice = state.setup_choices[me] if dealt else None
        mine = {
            "seat": me,
            "hand": _cards(state.hands[me]) if dealt else [],
            "gold": state.gold[me] if dealt else 0,
            "drawn": _cards(state.limbo[me]) if dealt else [],
            "setup_choice": None if choice is None else {"keep": choice.keep, "push": choice.push},
            "peeked": me in state.peeked,
        }
    outcome = score(state) if ended else None
    return {
        "game": "pax",
        "seats": state.seats,
        "solo_level": state.solo_level if state.solo else None,
        "round": state.round,
        "turn": state.turn,
        "phase": state.phase,
        "step": state.step or None,
        "active_seat": state.active_seat if state.phase in ("turn", "interrupt") else None,
        "start_seat": state.start_seat if state.phase != "shuffle" else None,
        "primus_conspiratus": state.primus,
        "deck_size": len(state.deck),
        "set_aside": len(state.set_aside),
        "legions": [
            {"number": n, "label": ROMAN[n - 1], "cards": _cards(cards), "value": legion_value(cards)}
            for n, cards in enumerate(state.legions, start=1)
        ],
        "rome": {
            "open": _cards(state.rome_open),
            "hidden_count": len(state.rome_hidden),
            "hidden": _cards(state.rome_hidden) if sees_hidden else None,
            "symbols": symbol_counts(state.rome_open),
        },
        "interrupt": (
            {"senator_seat": state.interrupt_by, "responder": state.responders[0] if state.responders else None,
             "still_to_answer": list(state.responders), "laid": list(state.window_laid)}
            if state.phase == "interrupt" else None
        ),
        "players": players,
        "me": mine,
        "outcome": outcome.to_json() if outcome else None,
    }


# --- events ----------------------------------------------------------------------------

def _public(data: Mapping[str, Any], *keys: str) -> dict:
    return {k: data[k] for k in keys if k in data}


def _own_or(*public_keys: str) -> Callable[[Mapping[str, Any], Viewer], dict]:
    """Everything for the acting seat; only ``public_keys`` for everyone else."""
    def redact(data: Mapping[str, Any], viewer: Viewer) -> dict:
        return dict(data) if viewer == data.get("seat") else _public(data, *public_keys)
    return redact


def _everything(data: Mapping[str, Any], viewer: Viewer) -> dict:
    return dict(data)


def _game_set_up(data: Mapping[str, Any], viewer: Viewer) -> dict:
    # the permutation is the deck order: nobody sees it
    return _public(data, "start_seat", "start_aurei", "legions", "set_aside", "extra_cards")


def _rome_dealt(data: Mapping[str, Any], viewer: Viewer) -> dict:
    # the hidden cards are revealed by GameEnded (and to a peeker by RomePeeked), never here
    return {"open": list(data["open"]), "hidden_count": len(data["hidden"])}


def _counted(data: Mapping[str, Any], viewer: Viewer) -> dict:
    if viewer == data["seat"]:
        return dict(data)
    out = _public(data, "seat", "remaining_batches")
    out["count"] = len(data["cards"])
    return out


def _start_cards_kept(data: Mapping[str, Any], viewer: Viewer) -> dict:
    entries = []
    for entry in data["entries"]:
        if entry["seat"] == viewer:
            entries.append(dict(entry))
        else:
            entries.append({"seat": entry["seat"], "pushed_count": len(entry["pushed"])})
    return {"entries": entries}


def _card_assigned(data: Mapping[str, Any], viewer: Viewer) -> dict:
    if data["to"] == "legion" or viewer == data["seat"]:
        return dict(data)
    return _public(data, "seat", "to")


_REDACT: dict[str, Callable[[Mapping[str, Any], Viewer], dict]] = {
    "GameSetUp": _game_set_up,
    "RomeDealt": _rome_dealt,
    "StartCardsDrawn": _counted,
    "StartCardChosen": _own_or("seat"),
    "StartCardsKept": _start_cards_kept,
    "LegionsRefilled": _everything,
    "RoundStarted": _everything,
    "TurnStarted": _everything,
    "DeckExhaustedAureiTaken": _own_or("seat"),
    "RomePeeked": _own_or("seat"),
    "CardsDrawn": _counted,
    "CardAssigned": _card_assigned,
    "LegionBought": _own_or("seat", "legion", "cards"),
    "PurchaseSkipped": _everything,
    "CardLaid": _own_or("seat", "card", "during"),
    "PrimusConspiratusMoved": _everything,
    "IncomeTaken": _own_or("seat"),
    "TurnEnded": _everything,
    "InterruptOpened": _everything,
    "InterruptPassed": _everything,
    "InterruptReopened": _everything,
    "InterruptClosed": _everything,
    "LegionCleared": _everything,
    "RoundEnded": _everything,
    "GameEnded": _everything,
}


def visible(event: Event, viewer: Viewer) -> Optional[dict]:
    """``{"type": ..., **what this viewer may know}``; unknown event types are invisible."""
    redact = _REDACT.get(event.type)
    if redact is None:
        return None
    if redact is _everything:  # the data itself, copied once
        return {"type": event.type, **event.data}
    return {"type": event.type, **redact(event.data, viewer)}
