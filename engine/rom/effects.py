"""What each kind of senate-card effect does: the one place with card-specific code.

Cards are data (``cards/*.json``); their ``effect.kind`` names an entry of
:data:`engine.rom.vocabulary.KINDS`.  For the kinds a player activates (timings
``order``, ``turn``, ``placement``) this module enumerates the legal targets and turns a
chosen target into events; for the scoring kinds it computes what the card is worth.
Activation itself is the same for every card ("Senatskarten", p. 4): "To activate a
senate card, lay it on one of your province cards that shows the same province symbol in
its lower left corner.  Some senate cards show two symbols and must be laid on two
province cards with these symbols.  A province card with a senate card on it is
exhausted: no other senate card may be laid on it this round.  An activated senate card
is exhausted too and cannot be activated again this round."
"""

from __future__ import annotations

from itertools import combinations
from typing import Any, Optional

from engine.core.types import Event
from engine.rom import scoring
from engine.rom.carddata import SenateCard
from engine.rom.state import State, resource_index
from engine.rom.vocabulary import TRACKS

# ---------------------------------------------------------------- activation


def province_choices(state: State, seat: int, symbols: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The ways to lay a card with ``symbols`` on ``seat``'s unexhausted provinces.

    Provinces of the same symbol and resource are interchangeable for every later use of
    exhaustion (other cards ask for a symbol, Africanus/Hispania Maximus for a resource),
    so one representative per combination of (symbol, resource) is offered: the first
    such province the player conquered.
    """
    wanted = sorted(symbols)
    # Only provinces of a wanted symbol can be part of a fitting combination; looked up once.
    free = [(pid, state.province(pid)) for pid in state.player(seat).provinces
            if pid not in state.exhausted_provinces]
    free = [(pid, p) for pid, p in free if p.symbol in wanted]
    seen: dict[tuple, tuple[str, ...]] = {}
    for combo in combinations(free, len(symbols)):
        if sorted(p.symbol for _pid, p in combo) != wanted:
            continue
        signature = tuple(sorted((p.symbol, p.resource) for _pid, p in combo))
        seen.setdefault(signature, tuple(pid for pid, _p in combo))
    return list(seen.values())


def provinces_fit(state: State, seat: int, card: SenateCard, provinces: list[str]) -> Optional[str]:
    """Why ``provinces`` cannot carry ``card`` (``None`` if they can)."""
    mine = state.player(seat).provinces
    if len(provinces) != len(card.symbols) or len(set(provinces)) != len(provinces):
        return f"{card.name} is laid on {len(card.symbols)} province card(s) of your own"
    for pid in provinces:
        if pid not in mine:
            return f"province {pid!r} is not yours"
        if pid in state.exhausted_provinces:
            return f"province {pid!r} is exhausted this round"
    if sorted(state.province(p).symbol for p in provinces) != sorted(card.symbols):
        return f"{card.name} needs provinces with the symbols {list(card.symbols)}"
    return None


def activated(seat: int, card: SenateCard, provinces: tuple[str, ...]) -> Event:
    return Event("SenateCardActivated", {"seat": seat, "card": card.id, "provinces": list(provinces)})


# ---------------------------------------------------------------- targets of activated kinds


def _distinct(values: tuple[int, ...]) -> list[int]:
    return sorted(set(values))


def sub_multisets(values: tuple[int, ...]) -> list[list[int]]:
    out = set()
    for size in range(1, len(values) + 1):
        out.update(combinations(sorted(values), size))
    return [list(v) for v in sorted(out, key=lambda t: (len(t), t))]


def _wrapped(value: int, delta: int, wrap: bool) -> Optional[int]:
    new = value + delta
    if 1 <= new <= 6:
        return new
    return ((new - 1) % 6) + 1 if wrap else None


def targets(state: State, seat: int, card: SenateCard) -> list[dict[str, Any]]:
    """Every legal target of ``card`` for ``seat`` now (each a dict of command args).

    An empty list means the card cannot be activated now.  Kinds of other timings have
    no targets here.
    """
    kind = card.kind
    me = state.player(seat)
    if kind == "adjust_order_sum":
        # Tribunus: "reduce your total by 3"; intrigue Tribunus: "increase any player's total by 3".
        if card.param("target") == "self":
            return [{}]
        return [{"target": s} for s in range(state.seats)]
    if kind == "reroll_unplaced":
        # Censor, Proconsul: "re-roll any number of your unplaced dice";
        # intrigue Vicarius: "re-roll an unplaced die of any player".
        seats = [seat] if card.param("target") == "self" else list(range(state.seats))
        out = []
        for s in seats:
            values = state.player(s).unplaced
            choices = sub_multisets(values) if card.param("dice") == "any" else [[v] for v in _distinct(values)]
            for chosen in choices:
                out.append({"values": chosen} if card.param("target") == "self" else {"target": s, "values": chosen})
        return out
    if kind == "change_unplaced":
        # Vicarius: "change one of your unplaced dice by +/-1; a 1 may become a 6 and vice versa".
        delta, wrap = card.param("delta"), card.param("wrap")
        return [
            {"value": v, "delta": d}
            for v in _distinct(me.unplaced)
            for d in (delta, -delta)
            if _wrapped(v, d, wrap) is not None
        ]
    if kind == "flip_unplaced":
        # Quaestor: "turn one of your unplaced dice upside down".
        return [{"value": v} for v in _distinct(me.unplaced)]
    if kind == "lower_placed":
        # Senator: "lower one of your placed dice by 1" (a 0 cannot go lower).
        out = []
        for t, name in enumerate(TRACKS):
            group = state.group(t, seat)
            if group is not None:
                out.extend({"track": name, "index": i} for i, v in enumerate(group.dice) if v >= 1)
        return out
    if kind == "reroll_placed":
        # Military Tribune: "re-roll one of your placed dice on the military track".
        group = state.group(TRACKS.index(card.param("track")), seat)
        return [] if group is None else [{"index": i} for i in range(len(group.dice))]
    if kind == "track_bonus":
        # Magistrate, Aedile, Magister Equitum: the bonus applies in Phase 3.
        return [{}]
    if kind == "steal_resource":
        # Intrigue Africanus Maximus: "steal 1 jewel from any player".
        r = resource_index(card.param("resource"))
        return [{"target": s} for s in range(state.seats) if s != seat and state.player(s).forum[r] > 0]
    if kind == "discard_province":
        # Intrigue Hispania Maximus: "discard one of your senate cards (this one too) to discard
        # an epoch I province card of any player".
        epoch = card.param("epoch")
        provinces = [
            p for s in range(state.seats) for p in state.player(s).provinces if state.province(p).epoch == epoch
        ]
        return [{"discard": c, "province": p} for c in me.senate for p in provinces]
    return []


def effect_events(state: State, seat: int, card: SenateCard, args: dict[str, Any]) -> list[Event]:
    """The events of ``card``'s effect for the (validated) target ``args``."""
    kind = card.kind
    if kind == "adjust_order_sum":
        target = seat if card.param("target") == "self" else args["target"]
        return [Event("OrderSumAdjusted", {"seat": seat, "card": card.id, "target": target,
                                           "amount": card.param("amount")})]
    if kind == "reroll_unplaced":
        target = seat if card.param("target") == "self" else args["target"]
        return [Event("RerollStarted", {"seat": target, "by": seat, "card": card.id, "values": list(args["values"]),
                                        "repeat": card.param("repeat")})]
    if kind == "change_unplaced":
        new = _wrapped(args["value"], args["delta"], card.param("wrap"))
        return [Event("PowerDieChanged", {"seat": seat, "card": card.id, "from": args["value"], "to": new})]
    if kind == "flip_unplaced":
        return [Event("PowerDieChanged",
                      {"seat": seat, "card": card.id, "from": args["value"], "to": 7 - args["value"]})]
    if kind == "lower_placed":
        track = TRACKS.index(args["track"])
        value = state.group(track, seat).dice[args["index"]]
        return [Event("PlacedDieLowered", {"seat": seat, "card": card.id, "track": args["track"],
                                           "index": args["index"], "from": value, "to": value - 1,
                                           "moved": value == 1})]
    if kind == "reroll_placed":
        return [Event("RerollStarted", {"seat": seat, "by": seat, "card": card.id, "track": card.param("track"),
                                        "index": args["index"], "repeat": 0})]
    if kind == "track_bonus":
        return [Event("TrackBonusGained", {"seat": seat, "card": card.id, "track": card.param("track"),
                                           "amount": card.param("amount")})]
    if kind == "steal_resource":
        resource = card.param("resource")
        r = resource_index(resource)
        target = args["target"]
        lost = min(card.param("amount"), state.player(target).forum[r])
        room = state.cards.forum_max[r] - state.player(seat).forum[r]
        return [Event("ResourceStolen", {"seat": seat, "card": card.id, "target": target, "resource": resource,
                                         "lost": lost, "gained": max(0, min(lost, room))})]
    if kind == "discard_province":
        province = state.province(args["province"])
        owner = state.owner_of_province(province.id)
        return [
            Event("SenateCardDiscarded", {"seat": seat, "card": args["discard"]}),
            Event("ProvinceDiscarded", {"seat": seat, "card": card.id, "owner": owner, "province": province.id,
                                        "resource": province.resource}),
        ]
    raise AssertionError(f"{card.id}: kind {kind!r} is not activated by a player")


# ---------------------------------------------------------------- scoring kinds


def forum_advance(state: State, seat: int, card: SenateCard, scoring: str) -> Optional[Event]:
    """Africanus / Hispania Maximus while the ``scoring`` forum track is scored.

    "Scoring: when you score the wine forum track, lay this card on a wine province card
    (exhausting both) to advance your marker on the wine track one space."  Hispania Maximus,
    as printed, is laid on an olive province while the olives are scored and advances the
    *wine* marker ("um deinen Marker auf der Weinleiste ein Feld vorzurücken", p. 8): the
    card data names the three tracks separately.  Scoring cards
    "need no matching province, but can be activated only once per scoring" (p. 6).  The
    move only ever helps its owner, so it is made for him whenever it can advance his
    marker: on the first of his unexhausted provinces of the resource.
    """
    if card.param("scoring") != scoring or card.id in state.exhausted_senate:
        return None
    advance = resource_index(card.param("advance"))
    me = state.player(seat)
    if me.forum[advance] >= state.cards.forum_max[advance]:
        return None
    province = next(
        (p for p in me.provinces
         if state.province(p).resource == card.param("exhaust") and p not in state.exhausted_provinces),
        None,
    )
    if province is None:
        return None
    steps = min(card.param("steps"), state.cards.forum_max[advance] - me.forum[advance])
    return Event("ForumMarkerAdvanced", {"seat": seat, "card": card.id, "province": province,
                                         "resource": card.param("advance"), "steps": steps})


def arena_bonus(card: SenateCard) -> tuple[int, int]:
    """Intrigue Greko Maximus: "You get 1 extra VP for your performance in the arena and
    your rank counts one higher for the best performance."  It needs no province and
    only ever helps, so it applies whenever its owner shows a set."""
    return card.param("vp"), card.param("rank")


def end_points(state: State, seat: int, card: SenateCard) -> int:
    """End-of-game senate cards ("Senatskarten, die zum Spielende SP bringen", p. 7)."""
    me = state.player(seat)
    provinces = [state.province(p) for p in me.provinces]
    if card.kind == "vp_per_province_symbol":
        # Ludi Maximus, Imperator, Praetor: "2 VP for each of your provinces with an arena /
        # army camp / villa symbol".
        return card.param("vp") * sum(1 for p in provinces if p.symbol == card.param("symbol"))
    if card.kind == "vp_per_region_with_arch":
        # Asianus: "1 VP for each region in which you have an arch".
        return card.param("vp") * len({p.region for p in provinces})
    if card.kind == "vp_per_symbol_pair":
        # Greko Maximus: "1 VP for each pair of your senate and province cards with the same symbol".
        senate_symbols = [state.senate_card(c).symbols for c in me.senate]
        return card.param("vp") * scoring.symbol_pairs(senate_symbols, [p.symbol for p in provinces])
    return 0

