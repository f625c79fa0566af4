"""What a PAX bot knows: hiding what its seat cannot see, valuing cards, judging a table.

The search (:mod:`engine.core.search`) does the thinking; this module gives it PAX sense:

- **specialise**: a card is worth most in a category the seat already leads Rome in, or
  where it will lift the seat above Rome ("3 per category where the player is stronger than
  Rome"), and a new category is worth its 2 points for being laid;
- **deny Rome**: at each round's end "the legion with the highest sum of aurei goes to
  Rome", so the bot prices what a legion would give Rome, buys a rich legion away from it
  and does not feed it the categories Rome is closest to holding;
- **primus conspiratus**: if Rome looks set to hold 4 categories, the holder of primus
  conspiratus wins with it, so intrigue is valued by the race for the title (not by
  specialising: falling behind in it is what loses the game when Rome wins), and the
  searching levels keep a drawn intrigue card and lay held intrigue at once while they
  have no safe lead (:func:`urgent_intrigue`).  At three or more seats the bot values
  that win below a win of the players (:data:`CONSPIRATOR_WIN`; at two seats it is the
  whole game whenever Rome wins): the title changes hands whenever another seat
  lays more intrigue, so chasing it rather than denying Rome hands the game to Rome far
  more often than to the chaser.

Hidden from a seat (Rulebook, Preparation: cards "neither shown to the other players nor
their number told"): the deck, the set-aside cards, Rome's hidden cards (until it peeked),
the other hands and the cards another seat is drawing, and everyone else's aurei.  The
redaction pools those cards, sorted, and gives every other seat the starting purse; a
world deals the pool out again at random.  The sizes it keeps (deck, set-aside, Rome's
hidden cards, each hand and draw) are all public or told by the visible events.
"""

from __future__ import annotations

import math
from typing import Any, Callable, TypeVar

from engine.core.records import evolve
from engine.core.search import Budget, outcome_share
from engine.core.types import Command, Decision, Outcome
from engine.pax.card_set import CATEGORIES, Card, CardSet, second_copy
from engine.pax.rules import RULES
from engine.pax.scoring import SOLO_NEEDED, with_bonuses
from engine.pax.state import PaxState, legion_value, symbol_counts
from engine.pax.table import START_AUREI

#: Search budgets per level (rollouts of ``depth`` decisions, then the evaluation; depth 0:
#: to the game's end, scored by its real outcome through :func:`reward`).  ``hard`` plays
#: its 120 worlds out to the end: the evaluation ten or sixteen decisions on cannot see what
#: specialising, denying Rome and the title are worth at the end, and a whole PAX playout
#: costs about as much as three of the short ones; a playout scores a game won or lost, so
#: 40 of them spread over the answers were too few to tell close answers apart
#: (``bench/RESULTS.md``: against normal, 120 games, 58.8 % with 40 worlds, 66.7 % with 120).
BUDGETS = {
    "normal": Budget(iterations=32, depth=10),
    "hard": Budget(iterations=120, depth=0),
}

#: How much a card gains in a category the seat leads the other players in (and loses in
#: one another player leads): measured with ``bench/bot_ladder.py`` (four easy bots: Rome
#: won 77 % of 60 games with breadth valued, 27 % with this).
SPECIALISE = 3.0

#: What a win as primus conspiratus (Rome won) is worth to the bot at three or more seats,
#: against 1 for a win of the players (at two seats: 1, see :func:`reward`).  The rulebook
#: makes both a win; the bot's preference is its game sense (with it the table keeps Rome
#: in check as real tables do; see ``bench/RESULTS.md``).
CONSPIRATOR_WIN = 0.4

#: :func:`urgent_intrigue`: how likely Rome must look to win (:func:`rome_threat`) before
#: a held intrigue card is laid at once, and the lead in intrigue symbols that is safe.
URGENT_THREAT = 0.5
INTRIGUE_MARGIN = 2
#: What taking or keeping the lead in intrigue adds to a card's worth, times the threat.
INTRIGUE_LEAD = 4.0


#: id(card set) -> (the card set, its cards by id); hashing a whole card set costs more
#: than the lookup it would save.
_BY_ID: dict[int, tuple[CardSet, dict[str, Card]]] = {}


def _cards_by_id(card_set: CardSet) -> dict[str, Card]:
    found = _BY_ID.get(id(card_set))
    if found is None or found[0] is not card_set:
        if len(_BY_ID) > 16:
            _BY_ID.clear()
        cards = card_set.cards + second_copy(card_set.cards)
        found = _BY_ID[id(card_set)] = (card_set, {c.id: c for c in cards})
    return found[1]


V = TypeVar("V")

#: Piles remembered per function of :func:`_per_pile`, all forgotten at once past it.
_MOST_PILES = 512


def _per_pile(fn: Callable[[tuple[Card, ...]], V]) -> Callable[[tuple[Card, ...]], V]:
    """``fn(pile)`` computed once per pile, the pile found by its identity.

    A search asks about the same tableaux, legions and Rome again and again: the worlds
    of one decision share every public pile, and a rollout's states share each pile until
    a card joins or leaves it.  An entry holds its pile, so the pile's ``id`` cannot pass
    to another tuple meanwhile.  The answer is shared: read only.
    """
    cache: dict[int, tuple[tuple[Card, ...], V]] = {}

    def cached(pile: tuple[Card, ...]) -> V:
        found = cache.get(id(pile))
        if found is not None and found[0] is pile:
            return found[1]
        value = fn(pile)
        if len(cache) >= _MOST_PILES:
            cache.clear()
        cache[id(pile)] = (pile, value)
        return value

    return cached


#: :func:`~engine.pax.state.symbol_counts` and :func:`~engine.pax.state.legion_value` of a pile,
#: read only.
_counts = _per_pile(symbol_counts)
_value = _per_pile(legion_value)

#: (id(open), id(hidden)) -> (open, hidden, Rome's symbols per category): see :func:`_rome_known`.
_ROME: dict[tuple[int, int], tuple[tuple[Card, ...], tuple[Card, ...], dict[str, int]]] = {}


def card_of(state: PaxState, card_id: str) -> Card:
    """The card with ``card_id``: from the card set, or wherever it lies (hand-built tables)."""
    found = _cards_by_id(state.card_set).get(card_id)
    if found is not None:
        return found
    piles = (state.deck, state.set_aside, state.rome_open, state.rome_hidden, *state.legions, *state.hands,
             *state.tableaux, *state.limbo)
    for pile in piles:
        for card in pile:
            if card.id == card_id:
                return card
    raise KeyError(card_id)


# --- hiding and dealing ---------------------------------------------------------------

def _hidden_slots(state: PaxState, seat: int) -> list[tuple[str, int]]:
    """The piles whose cards ``seat`` does not know, as (pile, other seat or -1)."""
    slots = [("deck", -1), ("set_aside", -1)]
    if not (state.phase == "ended" or seat in state.peeked):
        slots.append(("rome_hidden", -1))
    for other in range(len(state.hands)):
        if other != seat:
            slots += [("hands", other), ("limbo", other)]
    return slots


def _pile(state: PaxState, slot: tuple[str, int]) -> tuple[Card, ...]:
    name, other = slot
    value = getattr(state, name)
    return value[other] if other >= 0 else value


def _deal(state: PaxState, slots: list[tuple[str, int]], pool: list[Card]) -> PaxState:
    changes: dict[str, Any] = {}
    at = 0
    for slot in slots:
        size = len(_pile(state, slot))
        cards = tuple(pool[at:at + size])
        at += size
        name, other = slot
        if other < 0:
            changes[name] = cards
        else:
            current = list(changes.get(name, getattr(state, name)))
            current[other] = cards
            changes[name] = tuple(current)
    return evolve(state, **changes)


def redact(state: PaxState, seat: int) -> PaxState:
    """``state`` as ``seat`` knows it: unseen cards pooled in id order, other purses at the
    start amount, other start-hand choices withdrawn."""
    if not state.hands:
        return state
    slots = _hidden_slots(state, seat)
    pool = sorted((c for slot in slots for c in _pile(state, slot)), key=lambda c: c.id)
    out = _deal(state, slots, pool)
    gold = tuple(g if s == seat else START_AUREI for s, g in enumerate(state.gold))
    choices = tuple(c if s == seat else None for s, c in enumerate(state.setup_choices))
    return evolve(out, gold=gold, setup_choices=choices)


def determinize(redacted: PaxState, seat: int, rng: Any) -> PaxState:
    """One world: the redacted pool dealt out again at random."""
    if not redacted.hands:
        return redacted
    slots = _hidden_slots(redacted, seat)
    pool = [c for slot in slots for c in _pile(redacted, slot)]
    rng.shuffle(pool)
    return _deal(redacted, slots, pool)


# --- valuing --------------------------------------------------------------------------

def _rome_known(state: PaxState) -> dict[str, int]:
    """Rome's symbols per category (read only), once per pair of its piles."""
    open_, hidden = state.rome_open, state.rome_hidden
    key = (id(open_), id(hidden))
    found = _ROME.get(key)
    if found is not None and found[0] is open_ and found[1] is hidden:
        return found[2]
    counts = symbol_counts(open_ + hidden)
    if len(_ROME) >= _MOST_PILES:
        _ROME.clear()
    _ROME[key] = (open_, hidden, counts)
    return counts


def card_value(state: PaxState, seat: int, card: Card) -> float:
    """What laying ``card`` is worth to ``seat`` (in points, roughly).

    Rulebook, Winner: "2 per category laid; 3 per category where the player is stronger
    than Rome; 1 per fleet and army symbol"; solo: categories stronger than Rome, all 7 laid.
    """
    mine = _counts(state.tableaux[seat])
    rome = _rome_known(state)
    cat = card.category
    value = 0.25 * card.symbols
    if cat == "intrigue" and not state.solo:
        return value + _intrigue_value(state, seat, card, mine)
    if not state.solo:
        # specialise where no other player does: a category is denied to Rome only by one
        # player stronger than it, and two players sharing it out seldom get there
        others = max((_counts(t)[cat] for s, t in enumerate(state.tableaux) if s != seat), default=0)
        if 0 < mine[cat] and others <= mine[cat]:
            value += SPECIALISE
        elif others > mine[cat]:
            value -= SPECIALISE
    elif mine[cat] == 0:
        value += 2.0
    gap = rome[cat] - mine[cat]
    if 0 <= gap < card.symbols:
        value += 3.0  # lifts the seat above Rome
        if not state.solo and _rome_holds(state, cat):
            value += 4.0 * rome_threat(state)  # breaks one of Rome's categories for the table
    elif gap >= card.symbols:
        value += 3.0 * card.symbols / (gap + 1) / 2  # on the way there
    else:
        value += 0.4  # already ahead: a margin against Rome's later cards
    if cat in ("fleet", "army") and not state.solo:
        value += card.symbols
    return value


def _intrigue_value(state: PaxState, seat: int, card: Card, mine: dict[str, int]) -> float:
    """What an intrigue card is worth in the race for primus conspiratus.

    Rulebook, Winner: if Rome holds 4 categories "the player with primus conspiratus wins";
    the title "stays until another player has more intrigue".  Intrigue is no category to
    specialise in or leave to another player: falling behind in it is what loses the game
    when Rome wins, so a card that takes or keeps the lead is worth most, one that closes
    the gap a share of that, and one on top of a safe lead little."""
    threat = rome_threat(state)
    have = mine["intrigue"]
    others = max((_counts(t)["intrigue"] for s, t in enumerate(state.tableaux) if s != seat), default=0)
    value = 1.0 + 3.0 * threat
    if have > others + INTRIGUE_MARGIN + 1:
        return value * 0.3  # a safe lead already
    if have + card.symbols > others:
        return value + INTRIGUE_LEAD * threat  # takes or keeps the title
    return value + INTRIGUE_LEAD * threat * card.symbols / (others - have + 1)


def _rome_holds(state: PaxState, category: str) -> bool:
    """Rulebook, Winner: Rome holds a category with "as many or more symbols than any player"."""
    rome = _rome_known(state)[category]
    return all(_counts(t)[category] <= rome for t in state.tableaux)


def rome_threat(state: PaxState) -> float:
    """How likely Rome is to hold 4 categories, from the categories it holds now."""
    rome = with_bonuses(_rome_known(state))
    players = [with_bonuses(_counts(t)) for t in state.tableaux]
    holds = sum(1 for c in CATEGORIES if all(rome[c] >= p[c] for p in players))
    return 1 / (1 + math.exp(-(holds - 3.5) * 1.3))


def rome_gain(state: PaxState, card: Card) -> float:
    """How much ``card`` would help Rome hold its category against the best player."""
    rome = _rome_known(state)
    best = max((_counts(t)[card.category] for t in state.tableaux), default=0)
    if rome[card.category] >= best + 3:
        return 0.2  # Rome holds it anyway
    if rome[card.category] + card.symbols >= best:
        return 2.0
    return 0.5


def _clears_next(state: PaxState, legion: int, extra: int) -> bool:
    """Whether legion ``legion`` (0-based), with ``extra`` more aurei of cards, is the one
    that goes to Rome at the round's end ("ties: the lower legion")."""
    values = [_value(cards) for cards in state.legions]
    values[legion] += extra
    top = max(values)
    return values.index(top) == legion and top > 0


def legion_worth(state: PaxState, seat: int, legion: int) -> float:
    cards = state.legions[legion]
    # a bought card need never be laid: one for another player's category is worth nothing
    worth = sum(max(0.0, card_value(state, seat, c)) for c in cards) * 0.8
    if _clears_next(state, legion, 0):
        worth += sum(rome_gain(state, c) for c in cards) * 0.6  # bought away from Rome
    return worth


# --- the rollout policy ---------------------------------------------------------------

def _option_score(state: PaxState, seat: int, command: Command) -> float:
    args = command.args
    kind = command.type
    if kind == "keep_card":
        return card_value(state, seat, card_of(state, args["card"]))
    if kind == "assign_card":
        card = card_of(state, args["card"])
        if args["to"] == "hand":
            return card_value(state, seat, card) + 1.0
        if args["to"] == "deck":
            return 0.6
        legion = int(args["legion"]) - 1
        score = 0.5
        if _clears_next(state, legion, card.price):
            score -= rome_gain(state, card)
        return score
    if kind == "buy_legion":
        legion = int(args["legion"]) - 1
        price = _value(state.legions[legion])
        return legion_worth(state, seat, legion) - 0.7 * price
    if kind == "skip_buy":
        return 0.5
    if kind == "lay_card":
        card = card_of(state, args["card"])
        cost = len(state.laid_this_turn) if state.phase == "turn" else 1
        income_loss = 1.5 if card.category == "intrigue" and state.phase == "turn" else 0.0
        # near the end aurei buy little more, and a card in hand scores nothing
        thrift = 0.3 if len(state.deck) < 6 * state.seats else 0.8
        return card_value(state, seat, card) + 0.5 - thrift * (cost + income_loss)
    if kind in ("take_income", "pass"):
        return 1.0
    if kind == "draw_cards":
        return 1.0
    if kind == "peek_rome":
        return 0.0
    return 0.0


def policy(state: PaxState, decision: Decision, rng: Any) -> Command:
    """A quick answer: the option with the best card sense, ties broken at random."""
    options = decision.options or (decision.default,)
    best, best_score = options[0], -1e9
    for command in options:
        score = _option_score(state, decision.seat, command) + rng.random() * 0.3
        if score > best_score:
            best, best_score = command, score
    return best


def _end_near(state: PaxState) -> bool:
    """Whether this round may be the game's last: the deck will not last another round of
    draws ("If the deck cannot fill all empty legions at the start of a round, the game ends
    at once")."""
    return len(state.deck) < 3 * state.seats + len(state.legions)


def _race_open(state: PaxState, seat: int, held: int = 0) -> bool:
    """Whether primus conspiratus is worth a card now: Rome looks set to win (or the game may
    end before the seat's next turn) and the seat, counting ``held`` intrigue symbols in
    hand, does not lead the others by a safe margin."""
    if state.solo:
        return False
    if not _end_near(state) and rome_threat(state) < URGENT_THREAT:
        return False
    mine = _counts(state.tableaux[seat])["intrigue"] + held
    others = max((_counts(t)["intrigue"] for s, t in enumerate(state.tableaux) if s != seat), default=0)
    return mine <= others + INTRIGUE_MARGIN


def urgent_intrigue(state: PaxState, seat: int) -> list[Command]:
    """The answers that keep ``seat`` in the race for primus conspiratus, best first (none:
    no hurry).

    Rulebook, Winner: when Rome holds 4 categories "the player with primus conspiratus
    wins", and the title "stays until another player has more intrigue".  When Rome looks
    set to win, or the game may end before the seat's next turn, intrigue decides the game:
    a drawn intrigue card goes to the hand, else under the deck (one under a legion goes to
    whoever buys it, or to Rome), and a held one is laid at once (in hand it scores
    nothing), while the seat does not lead the others by a safe margin."""
    if state.solo or state.phase != "turn" or state.active_seat != seat:
        return []
    if state.step == "lay":
        held = sorted((c for c in state.hands[seat] if c.category == "intrigue"), key=lambda c: (-c.symbols, c.id))
        if not held or not (_race_open(state, seat) or _end_near(state)):
            return []
        return [Command(seat, "lay_card", {"card": c.id}) for c in held]
    if state.step == "draw":
        drawn = sorted((c for c in state.limbo[seat] if c.category == "intrigue"), key=lambda c: (-c.symbols, c.id))
        held = sum(c.symbols for c in state.hands[seat] if c.category == "intrigue")
        if not drawn or not _race_open(state, seat, held):
            return []
        return [Command(seat, "assign_card", {"card": c.id, "to": to}) for to in ("hand", "deck") for c in drawn]
    return []


def candidates(state: PaxState, decision: Decision, rng: Any) -> list[Command]:
    options = list(decision.options or (decision.default,))
    for urgent in urgent_intrigue(state, decision.seat):
        if urgent in options:
            return [urgent]
    options.sort(key=lambda c: -_option_score(state, decision.seat, c))
    return options


# --- judging a table ------------------------------------------------------------------

def _points(state: PaxState, seat: int, rome: dict[str, int]) -> float:
    mine = with_bonuses(_counts(state.tableaux[seat]))
    laid = sum(1 for c in CATEGORIES if mine[c])
    stronger = sum(1 for c in CATEGORIES if mine[c] > rome[c])
    return 2 * laid + 3 * stronger + mine["fleet"] + mine["army"] + (1 if state.primus == seat else 0)


def evaluate(state: PaxState, seat: int) -> float:
    """A share of a win, from the table as it would score now, softened for what is to come."""
    rome = with_bonuses(_rome_known(state))
    if state.solo:
        mine = with_bonuses(_counts(state.tableaux[0]))
        stronger = sum(1 for c in CATEGORIES if mine[c] > rome[c])
        laid = sum(1 for c in CATEGORIES if mine[c])
        margin = stronger - SOLO_NEEDED[state.solo_level] + 0.3 * (laid - len(CATEGORIES)) + 0.5
        return 1 / (1 + math.exp(-1.5 * margin))
    players = [with_bonuses(_counts(t)) for t in state.tableaux]
    holds = sum(1 for c in CATEGORIES if all(rome[c] >= p[c] for p in players))
    # early on Rome "holds" every category nobody has laid yet: the table as it stands
    # says less the more of the deck is still to come
    played = 1.0 - len(state.deck) / max(1, state.total_cards)
    p_rome = 1 / (1 + math.exp(-(holds - 3.5) * 1.6 * played))
    points = [_points(state, s, rome) for s in range(state.seats)]
    best_other = max(p for s, p in enumerate(points) if s != seat)
    p_lead = 1 / (1 + math.exp(-(points[seat] - best_other) / (2.5 + 6.0 * (1.0 - played))))
    # primus conspiratus may still change hands: the title is worth less the earlier it is
    if_rome = CONSPIRATOR_WIN * (0.4 + 0.5 * played) if state.primus == seat else 0.0
    return p_rome * if_rome + (1 - p_rome) * p_lead


def reward(outcome: Outcome, seat: int) -> float:
    """A finished game's worth to ``seat``: its share of a players' win, or
    :data:`CONSPIRATOR_WIN` for the primus conspiratus when Rome won at a table of three
    or more (at two seats the title is the whole game whenever Rome wins: a full win)."""
    share = outcome_share(outcome, seat)
    if share and outcome.detail.get("rome_won") and len(outcome.ranking) > 2:
        return share * CONSPIRATOR_WIN
    return share


class PaxKnowledge:
    """The :class:`engine.core.search.Knowledge` of PAX."""

    budgets = BUDGETS
    #: The search overrules the card sense's favourite only by this much mean score: ten
    #: decisions on, the table cannot show what specialising and denying Rome are worth
    #: by the game's end (four normal bots, first trials: Rome won 5 of 7 games with no
    #: trust, 3 of 5 with 0.05, 2 of 4 with 0.15; the measured rate is in ``bench/RESULTS.md``).
    trust = 0.15

    def redact(self, state: PaxState, seat: int) -> PaxState:
        return redact(state, seat)

    def determinize(self, redacted: PaxState, seat: int, rng: Any) -> PaxState:
        return determinize(redacted, seat, rng)

    def candidates(self, state: PaxState, decision: Decision, rng: Any) -> list[Command]:
        return candidates(state, decision, rng)

    def policy(self, state: PaxState, decision: Decision, rng: Any) -> Command:
        return policy(state, decision, rng)

    def evaluate(self, state: PaxState, seat: int) -> float:
        return evaluate(state, seat)

    def reward(self, outcome: Outcome, seat: int) -> float:
        return reward(outcome, seat)

    def fold(self, state: PaxState, command: Command) -> PaxState:
        """The state after ``command`` (a listed option, or chance), each event folded once:
        the rules fold as they decide (``decide_and_fold``), where ``decide`` and ``apply``
        would fold every event twice."""
        return RULES.decide_and_fold(state, command)[0]


KNOWLEDGE = PaxKnowledge()
