"""What each viewer may see: ``view`` of the state and ``visible`` of each event.

Hidden: every hand (its size is public, as at the table), deck order, secret bids and bets
and upkeep choices before they are revealed, and the gold they set aside (a closed fist: its
owner sees ``committed``, the others only that the seat has answered), gold hidden during the
market (to all but its owner), the card behind a support request, and what an informant (Indus) saw.  Discard
piles, property cards, influence and revealed bids are public.
"""

from __future__ import annotations

from typing import Any, Optional

from engine.core.types import Event, Viewer
from engine.spartacus.arena import fight as arena_fight
from engine.spartacus.game.cards import card_key
from engine.spartacus.game.reactions import together
from engine.spartacus.game.state import GameState, Window, thaw


def _asset_json(state: GameState, a: Any) -> dict:
    if a.kind == "guard":
        name = state.cards.intrigue_card(a.id).name
    else:
        name = state.cards.market_card(a.id).name
    return {"card": a.id, "name": name, "kind": a.kind, "exhausted": a.exhausted, "injured": a.injured,
            "favour": a.favour, "champion": a.champion}


def view(state: GameState, viewer: Viewer) -> dict:
    """The state as ``viewer`` may see it (see the module docstring for what is hidden)."""
    players = []
    for p in state.players:
        entry: dict[str, Any] = {
            "seat": p.seat,
            "house": p.house,
            "influence": p.influence,
            "hand_size": len(p.hand),
            "gold_hidden": p.gold_hidden,
            "property": [_asset_json(state, a) for a in p.assets],
        }
        entry["gold"] = p.gold if (not p.gold_hidden or viewer == p.seat) else None
        # a tied stake lies on the table for all to see; a closed fist (a secret bid, the
        # bets, the upkeep payment before the reveal) shows its amount to its owner only
        entry["staked"] = p.staked
        if viewer == p.seat:
            entry["committed"] = p.committed
            entry["free_gold"] = p.free_gold
        if viewer == p.seat:
            entry["hand"] = [
                {"card": c, "name": state.cards.intrigue_card(c).name, "type": state.cards.intrigue_card(c).type,
                 "influence": state.cards.intrigue_card(c).influence, "gold": state.cards.intrigue_card(c).gold}
                for c in p.hand
            ]
            if p.house:
                house = state.cards.house(p.house)
                entry["hand_limit"] = house.limit(p.influence)
        players.append(entry)
    out: dict[str, Any] = {
        "game": "spartacus",
        "round": state.round,
        "stage": state.stage,
        "host": state.host,
        "players": players,
        "intrigue_deck": len(state.intrigue_deck),
        "intrigue_discard": list(state.intrigue_discard),
        "market_deck": len(state.market_deck),
        "market_discard": list(state.market_discard),
        "windows": [_window_view(state, w, viewer) for w in state.windows],
        "winners": list(state.winners),
    }
    if state.turn is not None:
        t = state.turn
        out["turn"] = {"seat": t.seat, "support": None if t.support is None else {
            "asked": list(t.support.asked), "answers": {str(b): g for b, g in t.support.answers}}}
        if viewer == t.seat:
            out["turn"]["discount"] = t.discount
            out["turn"]["peeks"] = [{"seat": s, "card": c, "name": state.cards.intrigue_card(c).name}
                                    for s, c in t.peeks]
            if t.support is not None:
                out["turn"]["support"]["card"] = t.support.card
    if state.market is not None:
        m = state.market
        a = m.auction
        out["market"] = {
            "offers": [{"id": o.id, "from": o.frm, "to": o.to, "give": list(o.give), "take": list(o.take),
                        "gold": o.gold} for o in m.offers],
            "lots_face_down": len(m.lots) - (1 if a is not None and a.lot else 0),
            "auction": None if a is None else {"host": a.host, "card": a.lot, "round": a.round,
                                               "bidders": list(a.bidders), "stakes": {str(k): v for k, v in a.stakes}},
        }
    if state.arena is not None:
        ar = state.arena
        out["arena"] = {
            "invited": list(ar.invited), "declined": list(ar.declined), "awaiting": ar.awaiting,
            "entries": [{"seat": e.seat, "fighter": e.fighter, "weapon": e.weapon, "armour": e.armour,
                         "special": e.special} for e in ar.entries],
            "bets": {str(s): dict(b) for s, b in ar.bets},
            "result": thaw(ar.result) if ar.result else None,
        }
        if ar.fight is not None:
            out["arena"]["fight"] = _fight_view(ar.fight, viewer)
    own_plan = next((plan for seat, plan in state.fight_plans if seat == viewer), None)
    if own_plan is not None:
        out["fight_plan"] = thaw(own_plan)  # the viewer's own plan for the next fight
    if state.tournament is not None:
        t = state.tournament
        out["tournament"] = {"seats": list(t.seats), "order": list(t.order), "current": list(t.current),
                             "winners": list(t.winners)}
        if t.fight is not None:
            out["tournament"]["fight"] = _fight_view(t.fight, viewer)
    if state.sealed is not None:
        out["sealed"] = {"key": state.sealed.key, "waiting_for": [s for s in state.sealed.seats
                                                                 if not state.sealed.answered(s)]}
        if viewer is not None and state.sealed.answered(viewer):
            out["sealed"]["mine"] = state.sealed.answer(viewer)
    if state.prompts:
        pr = state.prompts[-1]
        out["prompt"] = {"seat": pr.seat, "kind": pr.kind, "remaining": pr.remaining}
    return out


def _fight_view(fight: Any, viewer: Viewer) -> Any:
    return arena_fight.view(fight, viewer)


def _play_public(play: Any) -> Optional[dict]:
    if play is None:
        return None
    return {"card": play.card, "seat": play.seat, "target": play.target, "kind": play.kind,
            "supporters": list(play.supporters)}


#: events whose data is only for the seat named in ``seat`` (others see who, not what)
def _window_view(state: GameState, w: Window, viewer: Viewer) -> dict:
    """A reaction window as ``viewer`` sees it: who is asked and who has answered; with
    ``reactions: together``, what a seat answered only to that seat."""
    out = {"id": w.id, "moment": w.moment, "asked": list(w.order), "subject": _play_public(w.subject),
           "about": w.about}
    if together(state):
        answered = [a[0] for a in w.answers]
        out.update(together=True, round=w.round,
                   waiting_for=[s for s in w.order if s not in answered], answered=answered)
        mine = [a for a in w.answers if a[0] == viewer]
        if mine:
            out["my_answer"] = {"type": mine[0][1], "args": thaw(mine[0][2])}
    else:
        out.update(waiting_for=w.order[w.index] if w.passes < len(w.order) else None, passes_in_a_row=w.passes)
    return out


_SECRET_FOR_OTHERS = {
    "IntrigueCardsDrawn": ("cards",),
    "SealedAnswered": ("answer", "commit"),
    "ReactionAnswered": ("answer",),
    "SupportRequested": ("card", "target"),
}


def visible(state_cards: Any, event: Event, viewer: Viewer) -> Optional[dict]:
    """``event`` as ``viewer`` may see it."""
    data = dict(event.data)
    t = event.type
    if t in ("IntrigueDeckShuffled", "MarketDeckShuffled"):
        data = {"count": len(data.get("order", []))}
    elif t == "GameSetUp":
        data = {k: v for k, v in data.items() if k not in ("intrigue_deck", "market_deck")}
        data["intrigue_deck"] = len(event.data.get("intrigue_deck", []))
        data["market_deck"] = len(event.data.get("market_deck", []))
    elif t == "AuctionLotsLaid":
        data = {"count": len(data.get("cards", [])), "complete": data.get("complete", True)}
    elif t == "HandCardPeeked":
        if viewer != data.get("seat"):
            data = {"seat": data.get("seat"), "at": data.get("at")}
    elif t == "PromptOpened" and data.get("kind") in ("discard_hand", "replace_hand"):
        if viewer != data.get("seat"):
            data = {k: v for k, v in data.items() if k != "options"}
            data["options"] = len(event.data.get("options", []))
    elif t == "PromptAnswered" and data.get("kind") in ("discard_hand", "replace_hand"):
        data = {k: v for k, v in data.items()}  # discards are face up: the choice is public
    elif t in _SECRET_FOR_OTHERS and viewer != data.get("seat"):
        for key in _SECRET_FOR_OTHERS[t]:
            if key in data:
                value = data.pop(key)
                if key == "cards":
                    data["count"] = len(value)
    elif t == "FightPlanChosen" and viewer != data.get("seat"):
        return None  # a fight plan is its dominus's alone
    elif t in ("GoldHidden",):
        data = {"seat": data.get("seat")}
    elif t == "ChanceRequested":
        data = {k: v for k, v in data.items() if k != "data"}
        data["data"] = {k: v for k, v in dict(event.data.get("data", {})).items() if k not in ("cards",)}
    elif _is_fight_event(event):
        return _fight_visible(event, viewer)
    return {"type": t, "version": event.version, "data": data}


def _is_fight_event(event: Event) -> bool:
    try:
        from engine.spartacus.arena import events as fight_events
    except ImportError:  # pragma: no cover
        return False
    return fight_events.is_fight_event(event)


def _fight_visible(event: Event, viewer: Viewer) -> Optional[dict]:
    return arena_fight.visible(event, viewer)


__all__ = ["view", "visible", "card_key"]
