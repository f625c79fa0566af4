"""Folding events into the state: ``apply`` is total and never validates.

Every event type Rom records is listed in :data:`EVENT_TYPES` with its version.  Event
data is JSON as the event store returns it (lists, string keys), so the live path and a
replay fold exactly the same values.  Unknown events are ignored, so an old stream with
events a later version no longer makes still replays.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from engine.core.records import evolve
from engine.core.types import Event
from engine.rom import placement
from engine.rom.state import (
    BLACK_MARKET, MILITARY, REPEAT_FREELY, SENATE, Reroll, State, freeze, resource_index, track_index,
)

EVENT_TYPES = {
    "DecksShuffled": 1, "CardsLaidOut": 1, "PowerDiceRolled": 1, "SenateCardActivated": 1,
    "OrderSumAdjusted": 1, "OrderCardsFinished": 1, "TurnOrderDetermined": 1, "PowerDiePlaced": 1,
    "PlacementPassed": 1, "TurnEnded": 1, "PowerDieChanged": 1, "RerollStarted": 1, "PowerDiceRerolled": 1,
    "RerollDeclined": 1, "PlacedDieLowered": 1, "TrackBonusGained": 1, "ResourceStolen": 1,
    "SenateCardDiscarded": 1, "ProvinceDiscarded": 1, "PlacementFinished": 1, "ProvincesConquered": 1,
    "SenateCardsTaken": 1, "ArenaCardBought": 1, "HiddenArenaCardBought": 1, "BlackMarketLeft": 1,
    "ResolutionFinished": 1, "ForumMarkerAdvanced": 1, "ForumScored": 1,
    "ArenaSetSubmitted": 1, "ArenaSetsRevealed": 1, "RoundCleanedUp": 1, "SenateCardsScored": 1,
    "RegionsScored": 1, "GameEnded": 1,
}


def apply(state: State, event: Event) -> State:
    handler = _HANDLERS.get(event.type)
    return state if handler is None else handler(state, event.data)


# ---------------------------------------------------------------- helpers


def _next_turn(state: State, seat: int) -> State:
    """The next player in turn order who still has dice to place ("after all players have
    placed one die, all place their second ..."), or nobody."""
    order = state.turn_order
    i = order.index(seat)
    for k in range(1, len(order) + 1):
        candidate = order[(i + k) % len(order)]
        if state.player(candidate).unplaced:
            return evolve(state, turn_seat=candidate, turn_placed=False)
    return evolve(state, turn_seat=None, turn_placed=False)


def _without_one(values: tuple[int, ...], value: int) -> tuple[int, ...]:
    out = list(values)
    out.remove(value)
    return tuple(out)


def _set_track(state: State, track: int, groups) -> State:
    tracks = list(state.tracks)
    tracks[track] = groups
    return evolve(state, tracks=tuple(tracks))


def _remove_group(state: State, track: int, seat: int) -> State:
    return _set_track(state, track, tuple([g for g in state.tracks[track] if g.seat != seat]))


def _forum_add(state: State, seat: int, resource: str, amount: int) -> State:
    r = resource_index(resource)
    forum = list(state.player(seat).forum)
    forum[r] = max(0, min(state.cards.forum_max[r], forum[r] + amount))
    return state.with_player(seat, forum=tuple(forum))


def _add_vp(state: State, points: Mapping[str, int]) -> State:
    for seat, vp in points.items():
        state = state.with_player(int(seat), vp=state.player(int(seat)).vp + vp)
    return state


# ---------------------------------------------------------------- handlers


def _decks_shuffled(state: State, d: Mapping[str, Any]) -> State:
    return evolve(state, province_deck=tuple(d["provinces"]), senate_deck=tuple(d["senate"]),
                   arena_deck=tuple(d["arena"]))


def _cards_laid_out(state: State, d: Mapping[str, Any]) -> State:
    return evolve(
        state,
        round=d["round"],
        phase="roll",
        province_row=tuple(d["provinces"]),
        senate_row=tuple(d["senate"]),
        arena_row=tuple(d["arena"]),
        province_deck=state.province_deck[len(d["provinces"]):],
        senate_deck=state.senate_deck[len(d["senate"]):],
        arena_deck=state.arena_deck[len(d["arena"]):],
    )


def _dice_rolled(state: State, d: Mapping[str, Any]) -> State:
    players = tuple(
        evolve(p, unplaced=tuple(sorted(d["dice"][str(s)])), rolled=tuple(d["dice"][str(s)]), order_adjust=0,
                track_bonus=(0, 0, 0))
        for s, p in enumerate(state.players)
    )
    previous = tuple(d["tiebreak"]) if d.get("tiebreak") is not None else state.turn_order
    return evolve(state, players=players, phase="order", previous_order=previous, order_done=frozenset())


def _card_activated(state: State, d: Mapping[str, Any]) -> State:
    return evolve(
        state,
        exhausted_senate=state.exhausted_senate | {d["card"]},
        exhausted_provinces=state.exhausted_provinces | set(d["provinces"]),
        senate_on=state.senate_on + ((d["card"], tuple(d["provinces"])),),
    )


def _order_adjusted(state: State, d: Mapping[str, Any]) -> State:
    target = d["target"]
    return state.with_player(target, order_adjust=state.player(target).order_adjust + d["amount"])


def _order_cards_finished(state: State, d: Mapping[str, Any]) -> State:
    return evolve(state, order_done=state.order_done | {d["seat"]})


def _order_determined(state: State, d: Mapping[str, Any]) -> State:
    order = tuple(d["order"])
    first = next((s for s in order if state.player(s).unplaced), None)
    return evolve(state, turn_order=order, phase="placement", turn_seat=first, turn_placed=False)


def _die_placed(state: State, d: Mapping[str, Any]) -> State:
    seat, track = d["seat"], track_index(d["track"])
    at = placement.Landing(d["section"], tuple(d["pushes"]), d["joins"])
    tracks = list(state.tracks)
    tracks[track] = placement.place(tracks[track], seat, d["value"], at)
    players = list(state.players)
    players[seat] = evolve(players[seat], unplaced=_without_one(players[seat].unplaced, d["value"]))
    return evolve(state, tracks=tuple(tracks), players=tuple(players), turn_placed=True)


def _placement_passed(state: State, d: Mapping[str, Any]) -> State:
    return _next_turn(state.with_player(d["seat"], unplaced=()), d["seat"])


def _turn_ended(state: State, d: Mapping[str, Any]) -> State:
    return _next_turn(state, d["seat"])


def _die_changed(state: State, d: Mapping[str, Any]) -> State:
    seat = d["seat"]
    unplaced = _without_one(state.player(seat).unplaced, d["from"]) + (d["to"],)
    return state.with_player(seat, unplaced=tuple(sorted(unplaced)))


def _reroll_started(state: State, d: Mapping[str, Any]) -> State:
    reroll = Reroll(
        seat=d["seat"], by=d["by"], card=d["card"], values=tuple(d.get("values", ())),
        track=track_index(d["track"]) if "track" in d else -1, index=d.get("index", -1), repeat=d["repeat"],
    )
    return evolve(state, reroll=reroll, repeat_offer=None, chance_seq=state.chance_seq + 1)


def _dice_rerolled(state: State, d: Mapping[str, Any]) -> State:
    seat = d["seat"]
    reroll = state.reroll
    if "track" in d:
        track = track_index(d["track"])
        state = _set_track(state, track, placement.set_die(state.tracks[track], seat, d["index"], d["new"][0]))
    else:
        unplaced = state.player(seat).unplaced
        for value in d["old"]:
            unplaced = _without_one(unplaced, value)
        state = state.with_player(seat, unplaced=tuple(sorted(unplaced + tuple(d["new"]))))
    offer = None
    if reroll is not None and reroll.repeat != 0 and state.player(reroll.by).unplaced:
        left = REPEAT_FREELY if reroll.repeat == REPEAT_FREELY else reroll.repeat - 1
        offer = Reroll(seat=reroll.by, by=reroll.by, card=reroll.card, repeat=left)
    return evolve(state, reroll=None, repeat_offer=offer)


def _reroll_declined(state: State, d: Mapping[str, Any]) -> State:
    return evolve(state, repeat_offer=None)


def _die_lowered(state: State, d: Mapping[str, Any]) -> State:
    track = track_index(d["track"])
    groups, _moved = placement.lower(state.tracks[track], d["seat"], d["index"])
    return _set_track(state, track, groups)


def _bonus_gained(state: State, d: Mapping[str, Any]) -> State:
    seat, track = d["seat"], track_index(d["track"])
    bonus = list(state.player(seat).track_bonus)
    bonus[track] += d["amount"]
    return state.with_player(seat, track_bonus=tuple(bonus))


def _resource_stolen(state: State, d: Mapping[str, Any]) -> State:
    state = _forum_add(state, d["target"], d["resource"], -d["lost"])
    return _forum_add(state, d["seat"], d["resource"], d["gained"])


def _senate_discarded(state: State, d: Mapping[str, Any]) -> State:
    seat = d["seat"]
    state = state.with_player(seat, senate=tuple(c for c in state.player(seat).senate if c != d["card"]))
    return evolve(state, removed=state.removed + (d["card"],),
                   senate_on=tuple((c, on) for c, on in state.senate_on if c != d["card"]))


def _province_discarded(state: State, d: Mapping[str, Any]) -> State:
    owner, pid = d["owner"], d["province"]
    if owner is None:
        return state
    state = state.with_player(owner, provinces=tuple(p for p in state.player(owner).provinces if p != pid))
    state = _forum_add(state, owner, d["resource"], -1)
    senate_on = tuple((c, tuple(p for p in on if p != pid)) for c, on in state.senate_on)
    return evolve(state, removed=state.removed + (pid,), senate_on=senate_on)


def _placement_finished(state: State, d: Mapping[str, Any]) -> State:
    return evolve(state, phase="resolution", turn_seat=None, turn_placed=False, reroll=None, repeat_offer=None)


def _provinces_conquered(state: State, d: Mapping[str, Any]) -> State:
    seat = d["seat"]
    state = _remove_group(state, MILITARY, seat)
    taken = tuple(d["provinces"])
    state = evolve(state, province_row=tuple(p for p in state.province_row if p not in taken))
    state = state.with_player(seat, provinces=state.player(seat).provinces + taken)
    for pid in taken:
        state = _forum_add(state, seat, state.province(pid).resource, 1)
    return state


def _senate_taken(state: State, d: Mapping[str, Any]) -> State:
    seat = d["seat"]
    state = _remove_group(state, SENATE, seat)
    taken = tuple(d["cards"])
    state = evolve(state, senate_row=tuple(c for c in state.senate_row if c not in taken))
    return state.with_player(seat, senate=state.player(seat).senate + taken)


def _arena_bought(state: State, d: Mapping[str, Any]) -> State:
    seat = d["seat"]
    state = evolve(state, arena_row=tuple(c for c in state.arena_row if c != d["card"]),
                    market_spent=state.market_spent + d["cost"])
    return state.with_player(seat, arena=state.player(seat).arena + (d["card"],))


def _hidden_arena_bought(state: State, d: Mapping[str, Any]) -> State:
    seat = d["seat"]
    state = evolve(state, arena_deck=state.arena_deck[1:], market_spent=state.market_spent + d["cost"])
    return state.with_player(seat, arena=state.player(seat).arena + (d["card"],))


def _market_left(state: State, d: Mapping[str, Any]) -> State:
    return evolve(_remove_group(state, BLACK_MARKET, d["seat"]), market_spent=0)


def _resolution_finished(state: State, d: Mapping[str, Any]) -> State:
    return evolve(state, phase=d["next"])


def _forum_advanced(state: State, d: Mapping[str, Any]) -> State:
    state = _card_activated(state, {"card": d["card"], "provinces": [d["province"]]})
    return _forum_add(state, d["seat"], d["resource"], d["steps"])


def _forum_scored(state: State, d: Mapping[str, Any]) -> State:
    total: dict[str, int] = {}
    for points in d["points"].values():
        for seat, vp in points.items():
            total[seat] = total.get(seat, 0) + vp
    state = _add_vp(state, total)
    # "Each player may form a set of three or more arena cards" (p. 6): who holds three.
    eligible = tuple(s for s, p in enumerate(state.players) if len(p.arena) >= 3)
    return evolve(state, phase="arena", arena_eligible=eligible,
                   scores_log=state.scores_log + (("ForumScored", freeze(dict(d))),))


def _arena_set_submitted(state: State, d: Mapping[str, Any]) -> State:
    return state.with_player(d["seat"], arena_set=tuple(d["cards"]))


def _arena_revealed(state: State, d: Mapping[str, Any]) -> State:
    state = _add_vp(state, d["points"])
    used: list[str] = []
    for seat_key, cards in d["sets"].items():
        seat = int(seat_key)
        used.extend(cards)
        state = state.with_player(seat, arena=tuple(c for c in state.player(seat).arena if c not in cards))
    players = tuple(evolve(p, arena_set=None) for p in state.players)
    return evolve(state, players=players, removed=state.removed + tuple(used), arena_eligible=(),
                   phase=d["next"], scores_log=state.scores_log + (("ArenaSetsRevealed", freeze(dict(d))),))


def _round_cleaned_up(state: State, d: Mapping[str, Any]) -> State:
    players = tuple(evolve(p, unplaced=(), order_adjust=0, track_bonus=(0, 0, 0)) for p in state.players)
    return evolve(
        state,
        players=players,
        removed=state.removed + tuple(d["removed"]),
        province_row=(), senate_row=(), arena_row=(),
        exhausted_provinces=frozenset(), exhausted_senate=frozenset(), senate_on=(),
        tracks=((), (), ()),
    )


def _senate_scored(state: State, d: Mapping[str, Any]) -> State:
    total = {seat: sum(cards.values()) for seat, cards in d["points"].items()}
    return evolve(_add_vp(state, total), scores_log=state.scores_log + (("SenateCardsScored", freeze(dict(d))),))


def _regions_scored(state: State, d: Mapping[str, Any]) -> State:
    total: dict[str, int] = {}
    for points in d["points"].values():
        for seat, vp in points.items():
            total[seat] = total.get(seat, 0) + vp
    return evolve(_add_vp(state, total), scores_log=state.scores_log + (("RegionsScored", freeze(dict(d))),))


def _game_ended(state: State, d: Mapping[str, Any]) -> State:
    return evolve(state, phase="over", result=(tuple(d["winners"]), tuple(d["ranking"]), freeze(d["tiebreak"])))


_HANDLERS: dict[str, Callable[[State, Mapping[str, Any]], State]] = {
    "DecksShuffled": _decks_shuffled,
    "CardsLaidOut": _cards_laid_out,
    "PowerDiceRolled": _dice_rolled,
    "SenateCardActivated": _card_activated,
    "OrderSumAdjusted": _order_adjusted,
    "OrderCardsFinished": _order_cards_finished,
    "TurnOrderDetermined": _order_determined,
    "PowerDiePlaced": _die_placed,
    "PlacementPassed": _placement_passed,
    "TurnEnded": _turn_ended,
    "PowerDieChanged": _die_changed,
    "RerollStarted": _reroll_started,
    "PowerDiceRerolled": _dice_rerolled,
    "RerollDeclined": _reroll_declined,
    "PlacedDieLowered": _die_lowered,
    "TrackBonusGained": _bonus_gained,
    "ResourceStolen": _resource_stolen,
    "SenateCardDiscarded": _senate_discarded,
    "ProvinceDiscarded": _province_discarded,
    "PlacementFinished": _placement_finished,
    "ProvincesConquered": _provinces_conquered,
    "SenateCardsTaken": _senate_taken,
    "ArenaCardBought": _arena_bought,
    "HiddenArenaCardBought": _hidden_arena_bought,
    "BlackMarketLeft": _market_left,
    "ResolutionFinished": _resolution_finished,
    "ForumMarkerAdvanced": _forum_advanced,
    "ForumScored": _forum_scored,
    "ArenaSetSubmitted": _arena_set_submitted,
    "ArenaSetsRevealed": _arena_revealed,
    "RoundCleanedUp": _round_cleaned_up,
    "SenateCardsScored": _senate_scored,
    "RegionsScored": _regions_scored,
    "GameEnded": _game_ended,
}
assert set(_HANDLERS) == set(EVENT_TYPES)
