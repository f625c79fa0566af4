"""Scoring: forum tracks, arena performances, region control, end-game cards, the winner.

Pure functions over plain values; the flow (:mod:`engine.rom.flow`) calls them and records
their results in events, so ``apply`` only adds the numbers.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from itertools import combinations
from typing import Iterable, Mapping, Optional, Sequence

from engine.rom.carddata import ArenaCard, ArenaRank, CardSet, Clause


def forum_points(markers: Sequence[int]) -> list[int]:
    """One forum track (Phase 4, "Forumswertung", p. 6).

    "A player gets 1 VP if he has at least 1 resource of this track.  In addition every
    player gets 1 VP for each player marker behind his.  Markers lying on a marker do not
    count as behind it."
    """
    return [(1 if m > 0 else 0) + sum(1 for other in markers if other < m) for m in markers]


def _clause_met(cards: Sequence[ArenaCard], clause: Clause) -> bool:
    pool = [c for c in cards if not clause.type or c.type == clause.type]
    count = len({c.name for c in pool}) if clause.distinct else len(pool)
    return count >= clause.count


def arena_rank(cards: Sequence[ArenaCard], ranks: Sequence[ArenaRank]) -> Optional[ArenaRank]:
    """The highest rank of the performance table that the set shows (p. 6, "Rang der
    Darbietung"), or ``None`` for fewer than 3 cards.

    "Each player may form one set of three or more arena cards ... and gets VP once, for
    his highest rank."  A set may hold more cards than its rank needs; all of them count
    for the cost tie-break and all are removed afterwards.  Cards are "different" when
    their names differ.
    """
    if len(cards) < 3:
        return None
    best = None
    for rank in ranks:
        if any(all(_clause_met(cards, c) for c in alternative) for alternative in rank.any_of):
            if best is None or rank.rank > best.rank:
                best = rank
    return best


def best_performance(entries: Mapping[int, tuple[int, int]]) -> Optional[int]:
    """The seat with the best performance, or ``None``.

    "The player with the best performance gets 1 bonus VP: the player with the highest
    rank.  On a tie, the tied player whose arena cards were more expensive gets it.  If
    that is still tied, nobody gets the bonus." ``entries``: seat -> (effective rank,
    total cost of the set).
    """
    if not entries:
        return None
    top = max(entries.values())
    best = [seat for seat, key in entries.items() if key == top]
    return best[0] if len(best) == 1 else None


def best_set(cards: Sequence[ArenaCard], ranks: Sequence[ArenaRank]) -> list[ArenaCard]:
    """The set a player who lets the deadline pass shows: the highest rank reachable, with
    as few cards as that rank needs, the most expensive of those (for the bonus tie-break).
    Empty when the hand holds fewer than 3 cards."""
    return list(_best_set(tuple(cards), tuple(ranks)))


@lru_cache(maxsize=256)
def _best_set(cards: tuple[ArenaCard, ...], ranks: tuple[ArenaRank, ...]) -> tuple[ArenaCard, ...]:
    if len(cards) < 3:
        return ()
    target = arena_rank(cards, ranks)  # ranks only grow with more cards: the hand's is the best
    # Cards of one name are interchangeable; no pattern needs more than 3 of one name.
    pool: list[ArenaCard] = []
    for card in sorted(cards, key=lambda c: (-c.cost, c.id)):
        if sum(1 for c in pool if c.name == card.name) < 3:
            pool.append(card)
    for size in range(3, len(pool) + 1):
        fitting = [combo for combo in combinations(pool, size) if arena_rank(combo, ranks) == target]
        if fitting:
            return max(fitting, key=lambda combo: sum(c.cost for c in combo))
    return tuple(pool)


def region_points(card_set: CardSet, holdings: Sequence[Iterable[str]],
                  in_game: Iterable[str]) -> dict[str, dict[int, int]]:
    """Region control (end of game, "Regionenkontrolle", p. 7).

    "Every player with at least one province in a region adds up the strengths of his
    provinces there.  The player with the highest sum gets 2 VP.  If a player controls all
    provinces of a region, he gets 3 VP."  Greko example: "Yellow and Red are tied
    (7 + 7 = 9 + 5).  Both get 1 VP each." -- tied leaders get 1 VP each.  "All provinces"
    means all of the region's provinces in this game (with 2 players, Hispania and Asia
    are out of the game).
    """
    in_game = set(in_game)
    out: dict[str, dict[int, int]] = {}
    for region, _name in card_set.regions:
        provinces = {p.id for p in card_set.provinces if p.region == region and p.id in in_game}
        if not provinces:
            continue
        sums = {}
        for seat, held in enumerate(holdings):
            mine = [card_set.province(p) for p in held if p in provinces]
            if mine:
                sums[seat] = sum(p.strength for p in mine)
        if not sums:
            continue
        top = max(sums.values())
        leaders = [s for s, v in sums.items() if v == top]
        points: dict[int, int] = {}
        if len(leaders) == 1:
            seat = leaders[0]
            owns_all = provinces <= set(holdings[seat])
            points[seat] = card_set.region_vp_all if owns_all else card_set.region_vp_majority
        else:
            for seat in leaders:
                points[seat] = card_set.region_vp_tied
        out[region] = points
    return out


def symbol_pairs(senate_symbols: Sequence[tuple[str, ...]], province_symbols: Sequence[str]) -> int:
    """Greko Maximus: the number of disjoint (senate card, province) pairs sharing a symbol
    -- a maximum matching, so every card counts in one pair at most."""
    match: dict[int, int] = {}

    def augment(card: int, seen: set[int]) -> bool:
        for p, symbol in enumerate(province_symbols):
            if symbol in senate_symbols[card] and p not in seen:
                seen.add(p)
                if p not in match or augment(match[p], seen):
                    match[p] = card
                    return True
        return False

    return sum(1 for card in range(len(senate_symbols)) if augment(card, set()))


def ranking(keys: Mapping[int, tuple[int, int, int]]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Winners and ranking (p. 7, "Spielende").

    "The player with the most VP wins.  On a tie, the tied player with more province cards
    wins.  If still tied, the tied players add up the costs of the arena cards still in
    their hands; the higher total wins.  If still tied, they share the victory."
    ``keys``: seat -> (VP, provinces, arena cost in hand).
    """
    order = tuple(sorted(keys, key=lambda s: (tuple(-k for k in keys[s]), s)))
    top = keys[order[0]]
    winners = tuple(s for s in order if keys[s] == top)
    return winners, order


def arena_cost(card_set: CardSet, cards: Iterable[str]) -> int:
    return sum(card_set.arena_card(c).cost for c in cards)


def type_counts(cards: Sequence[ArenaCard]) -> Counter:
    return Counter(c.type for c in cards)
