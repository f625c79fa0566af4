"""Final scoring: does Rome win, and who among the players (Sieger; Solospiel)."""

from __future__ import annotations

from typing import Iterable

from engine.core.types import Outcome
from engine.pax.card_set import CATEGORIES, Card
from engine.pax.state import PaxState, symbol_counts

#: Rulebook, Winner: "Rome wins if in at least 4 categories it has as many or more symbols
#: than any player".
ROME_WINS_WITH = 4
#: Solo levels: categories that must be stronger than Rome (Solospiel).
SOLO_NEEDED = {1: 3, 2: 4, 3: 5, 4: 6, 5: 7}
POINTS_PER_CATEGORY_LAID = 2
POINTS_PER_CATEGORY_STRONGER = 3
POINTS_PRIMUS = 1
POINTS_RICHEST = 4


def strength(cards: Iterable[Card]) -> dict[str, int]:
    """Symbols per category, with the bonus fleets and armies of the final scoring.

    Rulebook, Fleet: "With at least 3 fleet symbols a player gets one army at the final scoring,
    with 6 two, and so on"; Army: the same from armies to fleets.  Rome gets them too (the
    scoring example gives Rome a bonus fleet and a bonus army)."""
    return with_bonuses(symbol_counts(cards))


def with_bonuses(counts: dict[str, int]) -> dict[str, int]:
    """``counts`` (printed symbols per category) with the bonus fleets and armies added."""
    out = dict(counts)
    out["fleet"] = counts["fleet"] + counts["army"] // 3
    out["army"] = counts["army"] + counts["fleet"] // 3
    return out


def rome_cards(state: PaxState) -> tuple[Card, ...]:
    return state.rome_open + state.rome_hidden


def score(state: PaxState) -> Outcome:
    """The outcome of an ended game."""
    return _score_solo(state) if state.solo else _score_players(state)


def _score_players(state: PaxState) -> Outcome:
    """Rulebook, Winner: "Rome wins if in at least 4 categories it has as many or more symbols
    than any player; then the player with primus conspiratus wins. Otherwise the players win,
    and the most points win: 2 per category laid; 3 per category where the player is stronger
    than Rome; 1 per fleet and army symbol, bonus ones included; 1 for primus conspiratus; 4 for
    the largest sum of money and hand cards (each card worth one aureus; on a tie all tied
    players get the 4 points)."  Equal points share the victory: the rulebook names no tie-break."""
    rome = strength(rome_cards(state))
    players = [strength(t) for t in state.tableaux]
    rome_holds = [c for c in CATEGORIES if all(rome[c] >= p[c] for p in players)]
    rome_won = len(rome_holds) >= ROME_WINS_WITH
    riches = [state.gold[s] + len(state.hands[s]) for s in range(state.seats)]
    richest = [s for s in range(state.seats) if riches[s] == max(riches)]
    detail_players = []
    scores: dict[int, int] = {}
    for seat in range(state.seats):
        mine = players[seat]
        laid = [c for c in CATEGORIES if any(card.category == c for card in state.tableaux[seat])]
        stronger = [c for c in CATEGORIES if mine[c] > rome[c]]
        points = {
            "categories_laid": POINTS_PER_CATEGORY_LAID * len(laid),
            "stronger_than_rome": POINTS_PER_CATEGORY_STRONGER * len(stronger),
            "fleet_and_army": mine["fleet"] + mine["army"],
            "primus_conspiratus": POINTS_PRIMUS if state.primus == seat else 0,
            "richest": POINTS_RICHEST if seat in richest else 0,
        }
        scores[seat] = sum(points.values())
        detail_players.append({
            "seat": seat, "symbols": mine, "categories_laid": laid, "stronger_than_rome": stronger,
            "riches": riches[seat], "points": points, "total": scores[seat],
        })
    if rome_won:
        winners = () if state.primus is None else (state.primus,)
    else:
        best = max(scores.values())
        winners = tuple(s for s in range(state.seats) if scores[s] == best)
    ranking = tuple(sorted(range(state.seats), key=lambda s: (s not in winners, -scores[s], s)))
    return Outcome(
        winners=winners, ranking=ranking, scores=scores,
        detail={
            "rome_won": rome_won, "reason": state.end_reason,
            "rome": {"symbols": rome, "holds": rome_holds},
            "primus_conspiratus": state.primus, "richest": richest, "players": detail_players,
            "shared_victory": len(winners) > 1,
        },
    )


def _score_solo(state: PaxState) -> Outcome:
    """Rulebook, Solo game: "In the first game the player must win 3 categories against Rome
    and have all 7 categories laid" -- levels 2/3/4 need 4/5/6 categories (and all 7 laid),
    level 5 all 7.  The score is the number of categories won against Rome."""
    rome = strength(rome_cards(state))
    mine = strength(state.tableaux[0])
    laid = [c for c in CATEGORIES if any(card.category == c for card in state.tableaux[0])]
    stronger = [c for c in CATEGORIES if mine[c] > rome[c]]
    needed = SOLO_NEEDED[state.solo_level]
    all_laid_needed = state.solo_level <= 4
    won = len(stronger) >= needed and (not all_laid_needed or len(laid) == len(CATEGORIES))
    return Outcome(
        winners=(0,) if won else (), ranking=(0,), scores={0: len(stronger)},
        detail={
            "solo_level": state.solo_level, "needed": needed, "all_categories_needed": all_laid_needed,
            "won": won, "rome_won": not won, "reason": state.end_reason,
            "rome": {"symbols": rome},
            "players": [{"seat": 0, "symbols": mine, "categories_laid": laid, "stronger_than_rome": stronger}],
        },
    )
