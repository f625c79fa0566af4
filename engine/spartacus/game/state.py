"""The state of a Spartacus game: frozen dataclasses holding tuples, nothing else.

``GameState.stage`` names where the game stands; the sub-records hold what that stage
needs.  Interrupts sit on top of any stage: ``chance`` (dice or a shuffle owed by the
service), ``prompts`` (a choice one dominus owes to finish an effect), ``windows`` (reaction
windows) and ``resolutions`` (card effects being carried out).  Windows and resolutions
form one stack: each carries a stamp from ``seq`` (``Window.id``, ``Resolution.opened``)
and the one opened last is served first, so a window opened in the middle of an effect
(a dominus left without gold by it) is answered before the effect goes on.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from engine.core.records import evolve  # noqa: F401 - the game's modules take it from here
from engine.spartacus.game.cards import CardSet, card_key

WIN_INFLUENCE = 12


@dataclass(frozen=True)
class Asset:
    """A property card on a dominus's table (gladiator, slave, equipment or guard)."""

    id: str
    kind: str  # gladiator | slave | weapon | armour | special | guard
    exhausted: bool = False
    injured: bool = False
    favour: int = 0
    champion: bool = False

    @property
    def ready(self) -> bool:
        return not self.exhausted and not self.injured

    @property
    def key(self) -> str:
        return card_key(self.id)


@dataclass(frozen=True)
class Player:
    seat: int
    house: str = ""
    influence: int = 0
    gold: int = 0
    hand: tuple[str, ...] = ()
    assets: tuple[Asset, ...] = ()
    gold_hidden: bool = False
    # Gold set aside until a reveal (rulebook p. 10, 12, 4): ``committed`` is a secret answer
    # not yet revealed (a bid in the closed fist, the bets, the upkeep payment), shown to its
    # owner only; ``staked`` is a tied bidder's stake lying on the table, public.  Gifts,
    # trades and card effects use only the rest (:attr:`free_gold`).
    committed: int = 0
    staked: int = 0

    @property
    def free_gold(self) -> int:
        """Gold not set aside: what the dominus may give, trade, bid or lose to a card."""
        return max(0, self.gold - self.committed - self.staked)

    def asset(self, card: str) -> Optional[Asset]:
        for a in self.assets:
            if a.id == card:
                return a
        return None

    def of_kind(self, kind: str, *, ready_only: bool = False) -> tuple[Asset, ...]:
        return tuple(a for a in self.assets if matches_kind(a.kind, kind) and (a.ready or not ready_only))


def matches_kind(asset_kind: str, kind: str) -> bool:
    """``fighter`` is a gladiator or a slave (p. 11); ``equipment`` any weapon, armour or special card."""
    if kind == "fighter":
        return asset_kind in ("gladiator", "slave")
    if kind == "equipment":
        return asset_kind in ("weapon", "armour", "special")
    return asset_kind == kind


@dataclass(frozen=True)
class ChanceNeed:
    """Chance the service owes: ``draws`` is ((name, kind, n), ...) with kind dice/shuffle/pick."""

    id: str
    purpose: str
    draws: tuple[tuple[str, str, int], ...]
    data: tuple = ()  # frozen key/value pairs

    def get(self, key: str, default: Any = None) -> Any:
        return thaw(dict(self.data).get(key, default))


@dataclass(frozen=True)
class Prompt:
    """A choice ``seat`` owes to continue an effect: pick one of ``options`` (or 'done')."""

    seat: int
    kind: str  # discard_property | exhaust_property | injure | favour | discard_hand | replace_hand | release | replace_fighter | thumbs...
    options: tuple[str, ...]
    remaining: int = 1
    optional: bool = False  # may stop early with "done"
    reason: str = ""
    seq: int = 0


@dataclass(frozen=True)
class Play:
    """A scheme or reaction card on its way to resolution."""

    card: str
    seat: int
    target: int  # a seat, or -1 when the card has no target
    kind: str  # scheme | reaction
    window: int = 0  # for a reaction: the window it answers
    supporters: tuple[int, ...] = ()
    extra: tuple = ()  # frozen key/value pairs (fighter position for Rigging the Match)


@dataclass(frozen=True)
class Window:
    """A reaction window: the addressed seats in ``order`` answer one at a time, round and
    round from ``index``, until ``passes`` (passes in a row since the last answer) reaches
    the number of addressed seats.

    With the option ``reactions: together`` every addressed seat is asked at once instead:
    ``answers`` holds the round's sealed answers (seat, command type, frozen args), the
    first answer clockwise from ``index`` that is not a pass takes effect when the last is
    in, and ``round`` counts the rounds."""

    id: int
    moment: str
    order: tuple[int, ...]
    index: int = 0
    passes: int = 0
    subject: Optional[Play] = None
    about: int = -1  # the seat the moment concerns (left without gold, died fighter's owner...)
    scheme: Optional[Play] = None  # for scheme_succeeded: the scheme that succeeded
    rerollable: int = -1  # seat whose last guard roll failed and may still be rerolled
    answers: tuple = ()  # reactions together: ((seat, command type, frozen args), ...) of this round
    round: int = 0  # reactions together: rounds asked so far in this window


@dataclass(frozen=True)
class Resolution:
    """Card or ability effects being carried out, step by step."""

    source: str  # scheme | reaction | ability | market_ability
    card: str  # intrigue instance, or house ability id, or market card instance
    actor: int
    target: int
    step: int = 0
    x: int = 0
    window: int = 0  # reactions: the window answered
    progress: int = 0  # how much of the current step's count is done (multi-choice effects)
    play: Optional[Play] = None
    opened: int = 0  # stamp from ``GameState.seq``: windows and resolutions nest by it


@dataclass(frozen=True)
class Sealed:
    """A simultaneous secret decision: who must answer and the (hidden) answers so far."""

    key: str
    seats: tuple[int, ...]
    answers: tuple[tuple[int, tuple], ...] = ()

    def answered(self, seat: int) -> bool:
        for s, _ in self.answers:
            if s == seat:
                return True
        return False

    @property
    def complete(self) -> bool:
        answered = {s for s, _ in self.answers}
        for s in self.seats:
            if s not in answered:
                return False
        return True

    def answer(self, seat: int) -> dict:
        """The seat's answer as the JSON object it submitted (lists thawed back to lists)."""
        for s, a in self.answers:
            if s == seat:
                return thaw(a)
        return {}


@dataclass(frozen=True)
class SupportRequest:
    card: str
    target: int
    asked: tuple[int, ...]
    answers: tuple[tuple[int, bool], ...] = ()
    claim: Optional[str] = None  # the scheme the asker says it is (told to all, true or not)


@dataclass(frozen=True)
class Turn:
    seat: int
    steps: int = 0
    discount: int = 0
    asked_with: tuple[str, ...] = ()  # cards already put to a support request this turn
    ending: bool = False  # end_turn given; selling down to the hand limit
    support: Optional[SupportRequest] = None
    peeks: tuple = ()  # (card, seat) looked at this turn: private to the turn's dominus


@dataclass(frozen=True)
class Offer:
    id: int
    frm: int
    to: int
    give: tuple[str, ...]
    take: tuple[str, ...]
    gold: int  # > 0 the proposer pays, < 0 the recipient pays


@dataclass(frozen=True)
class Auction:
    host: bool  # the host auction (dice on failure) or a market card
    lot: str  # market card instance ('' for the host auction)
    bidders: tuple[int, ...]
    stakes: tuple[tuple[int, int], ...] = ()
    round: int = 1

    def stake(self, seat: int) -> int:
        return dict(self.stakes).get(seat, 0)


@dataclass(frozen=True)
class Market:
    offers: tuple[Offer, ...] = ()
    next_offer: int = 1
    lots: tuple[str, ...] = ()  # face-down lots still to auction
    auction: Optional[Auction] = None
    lots_laid: bool = False
    host_done: bool = False
    hidden_at: tuple[tuple[int, int], ...] = ()  # gold when hidden (for the left-without-gold moment)


@dataclass(frozen=True)
class Entry:
    """A fighter sent to the arena with its equipment."""

    seat: int
    fighter: str
    weapon: str = ""
    armour: str = ""
    special: str = ""

    def cards(self) -> tuple[str, ...]:
        return tuple(c for c in (self.fighter, self.weapon, self.armour, self.special) if c)


@dataclass(frozen=True)
class Arena:
    honoured: bool = False
    invited: tuple[int, ...] = ()  # in invitation order
    declined: tuple[int, ...] = ()
    entries: tuple[Entry, ...] = ()  # I then II
    awaiting: int = -1  # seat that must answer the current invitation
    tribute_paid: bool = False
    bets: tuple[tuple[int, tuple], ...] = ()  # revealed bets: seat -> ((bet, amount), ...)
    bets_done: bool = False
    bets_window: bool = False
    fight: Any = None  # the arena's fight state
    result: tuple = ()  # frozen FightResult json
    settled: bool = False
    verdict_done: bool = False
    done: bool = False


@dataclass(frozen=True)
class Tournament:
    seats: tuple[int, ...]  # contenders
    order: tuple[int, ...] = ()  # poorest first after the gold-value ranking
    rolls: tuple[tuple[int, int], ...] = ()
    matches: tuple[tuple[int, int], ...] = ()  # matches still to fight
    winners: tuple[int, ...] = ()  # winners of the matches fought so far
    current: tuple[int, ...] = ()  # the two seats fighting now
    entries: tuple[Entry, ...] = ()
    fight: Any = None
    ranked: bool = False
    stage_no: int = 1  # 1: the first matches; each TournamentNextRound adds one


@dataclass(frozen=True)
class GameState:
    cards: CardSet = field(repr=False)
    seats: int
    options: tuple  # frozen key/value pairs
    stage: str = "setup_roll"
    round: int = 0
    host: int = -1
    players: tuple[Player, ...] = ()
    intrigue_deck: tuple[str, ...] = ()
    intrigue_discard: tuple[str, ...] = ()
    market_deck: tuple[str, ...] = ()
    market_discard: tuple[str, ...] = ()
    chance: Optional[ChanceNeed] = None
    seq: int = 0  # counter for chance ids, windows and prompts
    prompts: tuple[Prompt, ...] = ()
    windows: tuple[Window, ...] = ()
    resolutions: tuple[Resolution, ...] = ()
    sealed: Optional[Sealed] = None
    draws_owed: tuple[tuple[int, int], ...] = ()
    # setup
    chooser_order: tuple[int, ...] = ()
    # upkeep
    heal_rolls: tuple[tuple[str, int], ...] = ()  # card -> roll (this upkeep)
    # intrigue
    turn_order: tuple[int, ...] = ()
    turn: Optional[Turn] = None
    market: Optional[Market] = None
    arena: Optional[Arena] = None
    tournament: Optional[Tournament] = None
    fight_plans: tuple[tuple[int, tuple], ...] = ()  # seat -> frozen fight plan for the next fight (private)
    winners: tuple[int, ...] = ()
    finish: str = ""  # how the game ended

    def option(self, name: str, default: Any = None) -> Any:
        return dict(self.options).get(name, default)

    def player(self, seat: int) -> Player:
        return self.players[seat]

    def with_player(self, seat: int, **changes: Any) -> "GameState":
        players = list(self.players)
        players[seat] = evolve(players[seat], **changes)
        return evolve(self, players=tuple(players))

    def owner_of(self, card: str) -> int:
        for p in self.players:
            if p.asset(card) is not None:
                return p.seat
        return -1

    def clockwise(self, start: int) -> tuple[int, ...]:
        """Every seat, clockwise from ``start`` (seat numbers increase clockwise)."""
        return tuple((start + i) % self.seats for i in range(self.seats))


def active_fight(state: GameState) -> Any:
    """The fight under way: the round's games or a tournament match (None between fights)."""
    if state.tournament is not None and state.tournament.fight is not None:
        return state.tournament.fight
    if state.arena is not None and state.arena.fight is not None:
        return state.arena.fight
    return None


def ready_count(state: GameState, seat: int, kind: str) -> int:
    """Ready cards of ``kind``; a ready slave that 'counts as two slaves' counts twice."""
    total = 0
    for a in state.player(seat).of_kind(kind, ready_only=True):
        weight = 1
        if a.kind == "slave" and kind == "slave":
            for ab in state.cards.market_card(a.id).abilities:
                if ab.op == "counts_as_slaves":
                    weight = max(weight, ab.amount or 2)
        total += weight
    return total


def freeze(mapping: Any) -> tuple:
    """A JSON object as nested tuples (frozen, picklable, comparable)."""
    if isinstance(mapping, dict):
        return tuple(sorted((k, freeze(v)) for k, v in mapping.items()))
    if isinstance(mapping, list):
        return ("__list__",) + tuple(freeze(v) for v in mapping)
    return mapping


def thaw(value: Any) -> Any:
    """The JSON value a :func:`freeze` made."""
    if isinstance(value, tuple):
        if value and value[0] == "__list__":
            return [thaw(v) for v in value[1:]]
        return {k: thaw(v) for k, v in value}
    return value
