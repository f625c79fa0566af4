"""Winning: 12 influence at the end of a phase, or the tournament among the tied.

- 'If at the end of any phase (intrigue, market or arena) exactly one dominus has 12
  influence, he wins' (p. 17).
- 'If 2 or more players end a phase with 12 influence the game ends too, but the winner is
  decided in the arena: a tournament among all of them' (p. 17).  Two: one fight by the
  normal rules.  Three: 'add up the gold values of their gladiators and equipment, ties
  decided by a die; the two lowest fight, the winner fights the third'.  Four: 'the two
  poorest fight, and the two richest; the winners fight a third fight' (p. 17).

Capua's additions (documented in docs/spartacus.md): with the ``max_rounds`` option the
game also ends after the arena phase of the last round -- the most influential dominus
wins, ties go to the tournament.  In the tournament nobody bets, no host judges, and no
favour is won; a contender without a ready fighter forfeits the match (if neither has one,
a die decides).
"""

from __future__ import annotations

from engine.core.types import Command, Decision
from engine.spartacus.game import arena_phase
from engine.spartacus.game.state import WIN_INFLUENCE, GameState
from engine.spartacus.game.tx import Tx


def end_of_phase(tx: Tx, phase: str) -> bool:
    """Check victory at the end of a phase; True when the game ended or a tournament began."""
    s = tx.state
    leaders = [p.seat for p in s.players if p.influence >= WIN_INFLUENCE]
    if len(leaders) == 1:
        tx.emit("GameEnded", winners=leaders, how="influence", phase=phase)
        return True
    if len(leaders) >= 2:
        tx.emit("TournamentStarted", seats=leaders, why="influence")
        return True
    cap = int(s.option("max_rounds", 0) or 0)
    if phase == "arena" and cap and s.round >= cap:
        top = max(p.influence for p in s.players)
        best = [p.seat for p in s.players if p.influence == top]
        if len(best) == 1:
            tx.emit("GameEnded", winners=best, how="round_limit", phase=phase)
        else:
            tx.emit("TournamentStarted", seats=best, why="round_limit")
        return True
    return False


def wealth(state: GameState, seat: int) -> int:
    """Gold value of a dominus's gladiators and equipment (slaves and guards do not count)."""
    total = 0
    for a in state.player(seat).assets:
        if a.kind in ("gladiator", "weapon", "armour", "special"):
            total += state.cards.market_card(a.id).value
    return total


def advance_tournament(tx: Tx) -> bool:
    """Rank by gold value (ties by dice), then the matches: two, three or four contenders (p. 17)."""
    s = tx.state
    t = s.tournament
    if not t.ranked:
        if len(t.seats) == 2:
            _ranked(tx, list(t.seats))
            return True
        values = {seat: wealth(s, seat) for seat in t.seats}
        rolls = dict(t.rolls)
        keys = {seat: (values[seat], tuple(rolls.get(seat, ()))) for seat in t.seats}
        if len(set(keys.values())) == len(t.seats):
            _ranked(tx, sorted(t.seats, key=lambda x: keys[x]))
            return True
        tied = sorted(x for x in t.seats if list(keys.values()).count(keys[x]) > 1)
        tx.request_chance("tournament_dice", [("rolls", "dice", len(tied))], seats=tied)
        return True
    if t.fight is not None:
        return arena_phase.advance_fight(tx)
    if len(t.current) == 2:
        if len(t.entries) == 2:
            arena_phase.start_fight(tx, t.entries, tournament=True)
            return True
        chooser = t.current[len(t.entries)]
        if not arena_phase.fighter_options(s, chooser):
            other = t.current[1 - len(t.entries)] if len(t.entries) == 0 else t.current[0]
            if len(t.entries) == 0 and not arena_phase.fighter_options(s, t.current[1]):
                tx.request_chance("tournament_dice", [("rolls", "dice", 2)], seats=list(t.current), forfeit=True)
                return True
            tx.emit("TournamentMatchForfeited", seat=chooser, winner=other)
            return True
        return False
    if t.matches:
        tx.emit("TournamentMatchStarted", seats=list(t.matches[0]))
        return True
    pool = list(t.winners)
    if len(t.order) == 3 and t.stage_no == 1:
        # 'the winner of this fight meets the remaining player' (p. 17)
        tx.emit("TournamentNextRound", matches=[[pool[0], t.order[2]]])
        return True
    if len(pool) == 1:
        tx.emit("GameEnded", winners=pool, how="tournament", phase="tournament")
        return True
    nxt = [[pool[i], pool[i + 1]] for i in range(0, len(pool) - 1, 2)]
    tx.emit("TournamentNextRound", matches=nxt)
    return True


def _ranked(tx: Tx, order: list[int]) -> None:
    if len(order) == 2:
        matches = [order]
    elif len(order) == 3:
        matches = [order[:2]]
    else:
        matches = [order[:2], order[2:4]]
    tx.emit("TournamentRanked", order=order, matches=matches, values={str(x): wealth(tx.state, x) for x in order})


def ranking_dice_rolled(tx: Tx, seats: list[int], rolls: list[int]) -> None:
    """'On a tie a die decides' (p. 17): the lower roll ranks as the poorer; equal rolls roll again."""
    tx.emit("TournamentDiceRolled", rolls={str(x): r for x, r in zip(seats, rolls)})
    t = tx.state.tournament
    if t.current and not t.entries:
        # neither contender could field a fighter: the die decides the match
        a, b = seats
        if rolls[0] != rolls[1]:
            tx.emit("TournamentMatchForfeited", seat=b if rolls[0] > rolls[1] else a,
                    winner=a if rolls[0] > rolls[1] else b)


def decisions(s: GameState) -> list[Decision]:
    """'Both choose a fighter with his equipment' (p. 17)."""
    t = s.tournament
    if t is None:
        return []
    if t.fight is not None:
        return arena_phase.fight_decisions(s)
    if len(t.current) == 2 and len(t.entries) < 2:
        seat = t.current[len(t.entries)]
        options = arena_phase.entry_commands(s, seat, "choose_tournament_fighter")
        if options:
            return [Decision(
                id=f"tournament_fighter:{seat}:{len(t.winners)}:{len(t.matches)}", seat=seat, mode="turn",
                prompt="Choose your fighter and equipment for the tournament.", default=options[0],
                options=tuple(options), prompt_key="tournament_fighter",
            )]
    return []


def choose_tournament_fighter(tx: Tx, c: Command) -> None:
    """A contender's fighter and equipment for the match (p. 17)."""
    tx.emit("TournamentFighterChosen", seat=c.seat, **{k: c.args.get(k, "") for k in
                                                        ("fighter", "weapon", "armour", "special")})


HANDLERS = {"choose_tournament_fighter": choose_tournament_fighter}
