"""What each viewer may see: the only way state and events leave the engine.

Open in the physical game, so open here: the rolled and placed power dice, the cards under
the tracks, every player's provinces, arches and senate cards ("lays the cards face up in
front of him", p. 5), forum markers and VP, and how many arena cards each player holds.
Hidden: the order of every deck (from everyone), the arena cards in a hand (from the
others; a card bought face up was seen by all when it was bought, a card bought from the
deck was not), and an arena set laid face down until all sets are revealed -- to the
others not even whether a player laid a set or passed, only that he has answered.
"""

from __future__ import annotations

from typing import Any, Optional

from engine.core.types import Event, Viewer
from engine.rom.state import State, thaw
from engine.rom.vocabulary import RESOURCES, TRACKS


def province_json(state: State, pid: str) -> dict[str, Any]:
    p = state.province(pid)
    return {"id": p.id, "name": p.name, "epoch": p.epoch, "strength": p.strength, "resource": p.resource,
            "symbol": p.symbol, "region": p.region}


def senate_json(state: State, cid: str) -> dict[str, Any]:
    c = state.senate_card(cid)
    return {"id": c.id, "name": c.name, "epoch": c.epoch, "symbols": list(c.symbols), "timing": c.timing,
            "intrigue": c.intrigue, "text": c.text}


def arena_json(state: State, aid: str) -> dict[str, Any]:
    a = state.cards.arena_card(aid)
    return {"id": a.id, "name": a.name, "type": a.type, "cost": a.cost}


def view(state: State, viewer: Viewer) -> dict[str, Any]:
    on = dict(state.senate_on)
    players = []
    for seat, p in enumerate(state.players):
        entry: dict[str, Any] = {
            "seat": seat,
            "vp": p.vp,
            "forum": dict(zip(RESOURCES, p.forum)),
            "provinces": [{**province_json(state, pid), "exhausted": pid in state.exhausted_provinces}
                          for pid in p.provinces],
            "senate_cards": [{**senate_json(state, cid), "exhausted": cid in state.exhausted_senate,
                              "on": list(on.get(cid, ()))} for cid in p.senate],
            "arena_cards": len(p.arena),
            "rolled": list(p.rolled),
            "unplaced": list(p.unplaced),
            "order_adjust": p.order_adjust,
            "bonuses": {"military": p.track_bonus[0], "black_market": p.track_bonus[2]},
        }
        if seat in state.arena_eligible:
            entry["arena_set"] = "submitted" if p.arena_set is not None else "deciding"
        players.append(entry)
    out: dict[str, Any] = {
        "game": "rom",
        "card_set": state.cards.name,
        "seats": state.seats,
        "round": state.round,
        "rounds": state.cards.rounds,
        "phase": state.phase,
        "variant_intrigue": state.intrigue,
        "turn_order": list(state.turn_order),
        "turn_seat": state.turn_seat,
        "tracks": {
            name: [{"section": i + 1, "seat": g.seat, "dice": list(g.dice)} for i, g in enumerate(state.tracks[t])]
            for t, name in enumerate(TRACKS)
        },
        "under_tracks": {
            "military": [province_json(state, p) for p in state.province_row],
            "senate": [senate_json(state, c) for c in state.senate_row],
            "black_market": [arena_json(state, a) for a in state.arena_row],
        },
        "decks": {"provinces": len(state.province_deck), "senate": len(state.senate_deck),
                  "arena": len(state.arena_deck)},
        "map": {pid: state.owner_of_province(pid) for pid in state.in_game_provinces
                if state.owner_of_province(pid) is not None},
        "players": players,
        "scoring": scoring(state),
    }
    if state.phase == "resolution" and state.tracks[2] and state.market_spent:
        out["market_spent"] = state.market_spent
    if viewer is not None and 0 <= viewer < state.seats:
        me = state.player(viewer)
        out["you"] = {
            "seat": viewer,
            "arena_hand": [arena_json(state, a) for a in me.arena],
            "arena_set": None if me.arena_set is None else list(me.arena_set),
        }
    if state.result:
        winners, ranking, tiebreak = state.result
        out["outcome"] = {"winners": list(winners), "ranking": list(ranking), "tiebreak": thaw(tiebreak)}
    return out


def scoring(state: State) -> list[dict[str, Any]]:
    """Every scoring so far (forum, arena, senate cards, regions) with the points it gave."""
    return [{"event": kind, **thaw(data)} for kind, data in state.scores_log]


def visible(event: Event, viewer: Viewer) -> Optional[dict[str, Any]]:
    """The event for ``viewer``: deck orders are shown to nobody (counts only), a card
    bought from the deck and a face-down arena set only to their owner."""
    data = dict(event.data)
    if event.type == "DecksShuffled":
        data = {k: len(v) for k, v in data.items()}
    elif event.type == "HiddenArenaCardBought" and viewer != data["seat"]:
        data = {"seat": data["seat"], "cost": data["cost"]}
    elif event.type == "ArenaSetSubmitted" and viewer != data["seat"]:
        data = {"seat": data["seat"]}
    return {"type": event.type, "version": event.version, "data": data}
