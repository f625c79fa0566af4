"""The state of one fight: frozen dataclasses of tuples, so it pickles and nests anywhere.

``phase`` says what the fight waits for:

==================  ===========================================================================
``start``           nothing yet: the first step records ``FightBegan`` (once both players are
                    ``ready``: in a duel each first sets a plan or chooses to fight blow by blow)
``round_start``     a round begins (``RoundStarted``)
``nets``            fighters with a ready net declare, in secret, whether they throw it
``initiative_roll`` chance: both fighters' speed dice
``order``           the initiative winner chooses to move first or second
``turn``            the active fighter moves and/or attacks, or ends its turn
``attack_roll``     chance: attack dice against defence dice
``reroll``          fighters with rerolls choose, in secret, which of their dice to reroll
``reroll_roll``     chance: the chosen dice
``settle``          the roll is final: initiative is decided, or the attack is resolved (once
                    every once-per-fight power that may change it has been chosen or not)
``wounds``          the next fighter owed wounds removes dice
``round_end``       both turns done (``FatigueStruck`` from the fatigue round on)
``round_over``      the round's fatigue is taken (``RoundEnded``)
``ended``           a fighter has an attribute at 0 (``FightEnded``)
``over``            the fight has a result
==================  ===========================================================================
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from engine.core.records import evolve  # noqa: F401 - the fight's modules take it from here
from engine.spartacus.arena.board import ARENA, Board, Hex
from engine.spartacus.arena.fighters import Fighter
from engine.spartacus.arena.plan import FightPlan

#: From the end of this round on, fatigue costs each fighter a die per round (see
#: ``docs/spartacus-arena.md``, "Fatigue"): a fight always ends.
FATIGUE_ROUND = 12


@dataclass(frozen=True)
class SideState:
    """Fighter I (``index`` 0, start hex I) or fighter II (``index`` 1) during the fight."""

    index: int
    seat: int
    fighter: Fighter
    dice: tuple[int, int, int]
    position: Hex
    used: tuple[str, ...] = ()
    plan: Optional[FightPlan] = None

    @property
    def total(self) -> int:
        return sum(self.dice)

    @property
    def attack(self) -> int:
        return self.dice[0]

    @property
    def defence(self) -> int:
        return self.dice[1]

    @property
    def speed(self) -> int:
        return self.dice[2]


@dataclass(frozen=True)
class Roll:
    """A roll in progress: the initiative roll (both sides roll speed) or an attack (the
    attacker rolls ``pools[attacker]``, the defender ``pools[defender]``).  ``dice`` and
    ``allowance`` are per side; ``choices`` holds the secret reroll choices until revealed."""

    purpose: str
    number: int
    pools: tuple[str, str]
    counts: tuple[int, int]
    attacker: int = -1
    style: str = ""
    source: str = ""
    dice: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
    allowance: tuple[int, int] = (0, 0)
    choices: tuple[Optional[tuple[int, ...]], Optional[tuple[int, ...]]] = (None, None)
    powers: tuple[tuple[str, bool], ...] = ()  # once-per-fight powers chosen (or not) for this attack

    @property
    def defender(self) -> int:
        return 1 - self.attacker


@dataclass(frozen=True)
class SettledRoll:
    """The last roll of the fight once final: the initiative (``winner`` -1 on a tie, which
    is rolled again) or an attack with the wounds it dealt to each side.  Every die in a
    fight is public; the pages draw it so a player sees what the wounds they owe came from."""

    purpose: str  # initiative | attack
    round: int
    dice: tuple[tuple[int, ...], tuple[int, ...]]  # per side, sorted high to low
    attacker: int = -1
    style: str = ""
    source: str = ""
    winner: int = -1
    wounds: tuple[int, int] = (0, 0)  # dealt to fighter I, fighter II

    def to_json(self) -> dict:
        return {"purpose": self.purpose, "round": self.round, "dice": [list(d) for d in self.dice],
                "attacker": self.attacker if self.attacker >= 0 else None, "style": self.style,
                "source": self.source, "winner": self.winner if self.winner >= 0 else None,
                "wounds": list(self.wounds)}


@dataclass(frozen=True)
class WoundDue:
    side: int
    count: int
    reason: str  # attack | counter | fatigue


@dataclass(frozen=True)
class FightResult:
    """How the fight ended; ``kind`` is what the bets pay on ("Die Wetten")."""

    winner: int
    loser: int
    winner_seat: int
    loser_seat: int
    winner_card: str
    loser_card: str
    kind: str  # defeated | injured | decapitated
    zeros: tuple[str, ...]
    rounds: int
    cause: str  # wounds | fatigue
    exhausted: tuple[str, ...] = ()  # equipment copies exhausted in the fight (thrown nets)

    def to_json(self) -> dict:
        return {"winner": self.winner, "loser": self.loser, "winner_seat": self.winner_seat,
                "loser_seat": self.loser_seat, "winner_card": self.winner_card,
                "loser_card": self.loser_card, "kind": self.kind, "zeros": list(self.zeros),
                "rounds": self.rounds, "cause": self.cause, "exhausted": list(self.exhausted)}


@dataclass(frozen=True)
class FightState:
    fight_id: str
    sides: tuple[SideState, SideState]
    board: Board = ARENA
    fatigue_round: int = FATIGUE_ROUND
    phase: str = "start"
    round: int = 0
    attempt: int = 0
    initiative: int = -1
    first: int = -1
    active: int = -1
    turn: int = 0
    moved: bool = False
    attacked: bool = False
    staying: bool = False  # the attack of this turn ends it ("attack and stay")
    ready: tuple[bool, bool] = (True, True)  # a duel waits until both players said how they fight
    nets: tuple[Optional[bool], Optional[bool]] = (False, False)
    roll: Optional[Roll] = None
    last_roll: Optional[SettledRoll] = None
    rolls: int = 0
    chances: int = 0
    attacks: int = 0
    wounds: tuple[WoundDue, ...] = ()
    wound_steps: int = 0
    after_wounds: str = ""
    ended_by: str = ""
    result: Optional[FightResult] = None

    def side_of_seat(self, seat: int) -> Optional[int]:
        for s in self.sides:
            if s.seat == seat:
                return s.index
        return None

    def with_side(self, side: SideState) -> "FightState":
        sides = list(self.sides)
        sides[side.index] = side
        return evolve(self, sides=(sides[0], sides[1]))

    def other(self, index: int) -> SideState:
        return self.sides[1 - index]
