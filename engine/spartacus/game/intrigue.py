"""The intrigue phase: drawing, then one multi-step turn per dominus from the host clockwise.

- 'At the start of the intrigue phase every player draws 3 intrigue cards ... when the deck
  is used up, the discard pile is shuffled to form a new deck' (rulebook p. 5).
- 'During his intrigue turn a player may sell cards, use special abilities or play a
  scheme, in any order' (p. 6).
- 'Guards can be put from the hand onto the table at any time' (p. 8) -- Capua offers it
  as a turn action (and in no other moment, where it could change nothing).
- 'After the turn a player may hold no more cards than his influence allows; excess cards
  must be sold' (p. 9), and again 'at the end of the phase' (p. 5) for anyone whose hand
  grew or whose influence fell after his turn.
"""

from __future__ import annotations

from itertools import combinations

from engine.core.types import Command, Decision
from engine.spartacus.game import effects, ledger, reactions
from engine.spartacus.game.errors import NotEnoughGold, NotEnoughInfluence
from engine.spartacus.game.state import GameState, Play
from engine.spartacus.game.tx import Tx

HAND_DRAW = 3


def hand_limit(state: GameState, seat: int) -> int:
    """'The hand limit depends on the current influence' (p. 5; the house card's track)."""
    p = state.player(seat)
    return state.cards.house(p.house).limit(p.influence)


def scheme_need(state: GameState, seat: int, card: str) -> int:
    """The influence a scheme needs, after this turn's bought discount (Solonius)."""
    c = state.cards.intrigue_card(card)
    discount = state.turn.discount if state.turn is not None and state.turn.seat == seat else 0
    return max(0, c.influence - discount)


# ----------------------------------------------------------------------------- draws

def advance_draw(tx: Tx) -> None:
    """Everyone draws 3, the host first."""
    tx.emit("DrawsOwed", draws=[[seat, HAND_DRAW] for seat in tx.state.clockwise(tx.state.host)])
    tx.emit("StageChanged", stage="intrigue_turns")


def advance_draws_owed(tx: Tx) -> None:
    """'When the intrigue deck is used up, its discard pile is shuffled into a new deck' (p. 5)."""
    seat, n = tx.state.draws_owed[0]
    deck = tx.state.intrigue_deck
    if deck:
        take = min(n, len(deck))
        tx.emit("IntrigueCardsDrawn", seat=seat, cards=list(deck[:take]), short=False)
        return
    if tx.state.intrigue_discard:
        tx.request_chance("shuffle_intrigue", [("order", "shuffle", len(tx.state.intrigue_discard))])
        return
    tx.emit("DrawSkipped", seat=seat)


def shuffled(tx: Tx, order: list[int]) -> None:
    """The shuffled discard pile becomes the new intrigue deck (p. 5)."""
    pile = tx.state.intrigue_discard
    tx.emit("IntrigueDeckShuffled", order=[pile[i] for i in order])


# ----------------------------------------------------------------------------- turns

def advance_turns(tx: Tx) -> bool:
    """Start the next turn, end the current one at the hand limit, or end the phase."""
    s = tx.state
    turn = s.turn
    if turn is None:
        if not s.turn_order:
            return _sell_down_at_phase_end(tx)
        tx.emit("IntrigueTurnStarted", seat=s.turn_order[0])
        return True
    if turn.support is not None and all(any(b == a for b, _ in turn.support.answers) for a in turn.support.asked):
        _support_answered(tx)
        return True
    if turn.ending and len(s.player(turn.seat).hand) <= hand_limit(s, turn.seat):
        tx.emit("IntrigueTurnEnded", seat=turn.seat)
        return True
    return False


def _sell_down_at_phase_end(tx: Tx) -> bool:
    """'At the end of the phase every player may hold only as many cards as his influence
    allows; excess cards must be sold at the end of the phase' (p. 5): a dominus whose turn
    is over but who drew cards or lost influence since sells down now, from the host
    clockwise."""
    s = tx.state
    for seat in s.clockwise(s.host):
        if len(s.player(seat).hand) > hand_limit(s, seat):
            tx.emit("PhaseHandLimitEnforced", seat=seat, limit=hand_limit(s, seat))
            return True
    return False


def turn_over(state: GameState) -> bool:
    """'When all players have had their turn, the market phase begins' (p. 9) -- and every
    hand is within its limit."""
    return state.turn is None and not state.turn_order


def decisions(state: GameState) -> list[Decision]:
    """The turn's dominus acts; an asked dominus answers a support request; at the end, selling down to the limit (p.
    6-9)."""
    turn = state.turn
    if turn is None:
        return []
    if turn.support is not None:
        out = []
        answered = {b for b, _ in turn.support.answers}
        for seat in turn.support.asked:
            if seat in answered:
                continue
            refuse = Command(seat, "refuse_support", {})
            out.append(Decision(
                id=f"support:{state.round}:{turn.seat}:{turn.steps}:{seat}",
                seat=seat, mode="interrupt",
                prompt=f"Seat {turn.seat} asks for your support for a scheme. Your answer is binding.",
                default=refuse, options=(Command(seat, "grant_support", {}), refuse),
                prompt_key="support", prompt_args={"asker": turn.seat},
            ))
        return out
    seat = turn.seat
    p = state.player(seat)
    if turn.ending:
        options = tuple(Command(seat, "sell_intrigue_card", {"card": c}) for c in p.hand)
        cheapest = min(p.hand, key=lambda c: (state.cards.intrigue_card(c).gold, c))
        return [Decision(
            id=f"hand_limit:{state.round}:{seat}:{turn.steps}",
            seat=seat, mode="turn",
            prompt=f"Sell intrigue cards down to your hand limit of {hand_limit(state, seat)}.",
            default=Command(seat, "sell_intrigue_card", {"card": cheapest}), options=options,
            prompt_key="hand_limit", prompt_args={"limit": hand_limit(state, seat)},
        )]
    end = Command(seat, "end_turn", {})
    options = [end] + turn_actions(state, seat)
    return [Decision(
        id=f"intrigue_turn:{state.round}:{seat}:{turn.steps}",
        seat=seat, mode="turn", prompt="Your intrigue turn: sell, use abilities, place guards, play schemes, or end.",
        default=end, options=tuple(options), prompt_key="intrigue_turn",
    )]


def turn_actions(state: GameState, seat: int) -> list[Command]:
    """'Sell cards, use special abilities or play a scheme, in any order' (p. 6)."""
    p = state.player(seat)
    turn = state.turn
    out: list[Command] = []
    for card in p.hand:
        out.append(Command(seat, "sell_intrigue_card", {"card": card}))
    for card in p.hand:
        c = state.cards.intrigue_card(card)
        if c.type == "guard":
            out.append(Command(seat, "place_guard", {"card": card}))
    others = [s for s in range(state.seats) if s != seat]
    for card in p.hand:
        c = state.cards.intrigue_card(card)
        if c.type != "scheme" or not effects.affordable(state, seat, c.effects):
            continue
        need = scheme_need(state, seat, card)
        for target in range(state.seats):
            if p.influence >= need:
                out.append(Command(seat, "play_scheme", {"card": card, "target": target}))
            elif card not in turn.asked_with:
                for k in range(1, len(others) + 1):
                    for group in combinations(others, k):
                        if p.influence + sum(state.player(g).influence for g in group) >= need:
                            out.append(Command(seat, "request_support",
                                               {"card": card, "target": target, "from": list(group)}))
    out.extend(ability_commands(state, seat))
    out.extend(market_ability_commands(state, seat))
    return out


# ----------------------------------------------------------------------------- house & card abilities

def ability_commands(state: GameState, seat: int) -> list[Command]:
    """'Each house has special rules that may only be used in the intrigue phase' (p. 6)."""
    p = state.player(seat)
    out = []
    for ab in state.cards.house(p.house).abilities:
        if ab.x_max:
            for x in range(ab.x_min, ab.x_max + 1):
                if effects.affordable(state, seat, ab.effects, x):
                    out.append(Command(seat, "use_house_ability", {"ability": ab.id, "x": x}))
        elif effects.affordable(state, seat, ab.effects):
            out.append(Command(seat, "use_house_ability", {"ability": ab.id, "x": 0}))
    return out


def market_ability_commands(state: GameState, seat: int) -> list[Command]:
    """'Many slaves and some gladiators have abilities marked (Intrigue); most need the card
    to be exhausted' (p. 6)."""
    p = state.player(seat)
    out = []
    for a in p.assets:
        m = state.cards.market_card(a.id) if a.kind != "guard" else None
        if m is None or not a.ready:
            continue
        for i, ab in enumerate(m.abilities):
            if ab.phase != "intrigue" or ab.op == "reroll_guard":
                continue
            if ab.op == "replace_hand" and not p.hand:
                continue
            if ab.op in ("peek_hand", "exhaust_peek_hand"):
                for t in range(state.seats):
                    if t != seat and state.player(t).hand:
                        out.append(Command(seat, "use_card_ability", {"card": a.id, "ability": i, "target": t}))
            else:
                out.append(Command(seat, "use_card_ability", {"card": a.id, "ability": i, "target": -1}))
    return out


def use_house_ability(tx: Tx, seat: int, ability: str, x: int) -> None:
    """'Each house has special rules that may only be used in the intrigue phase' (p. 6)."""
    tx.emit("TurnStepTaken", seat=seat)
    tx.emit("HouseAbilityUsed", seat=seat, ability=ability, x=x)
    effects.start(tx, "ability", ability, seat, seat, x=x)


def use_card_ability(tx: Tx, seat: int, card: str, index: int, target: int) -> None:
    """Pietros: '(Intrigue) exhaust this card for 1 gold'; Indus: 'look at a random hand card
    of an opponent' (p. 6, p. 17)."""
    ab = tx.state.cards.market_card(card).abilities[index]
    tx.emit("TurnStepTaken", seat=seat)
    if ab.exhaust:
        tx.emit("CardExhausted", seat=seat, card=card, reason="ability")
    if ab.op in ("peek_hand", "exhaust_peek_hand"):
        tx.emit("CardAbilityUsed", seat=seat, card=card, target=target)
        tx.request_chance("peek", [("card", "pick", len(tx.state.player(target).hand))], seat=seat, target=target)
    elif ab.op == "replace_hand":
        tx.emit("CardAbilityUsed", seat=seat, card=card, target=-1)
        effects.start(tx, "market_ability", card, seat, seat, x=index)
    else:
        tx.emit("CardAbilityUsed", seat=seat, card=card, target=-1)
        ledger.gain_gold(tx, seat, ab.amount or 1, "ability")


def peeked(tx: Tx, seat: int, target: int, index: int) -> None:
    """Indus: 'look at a random hand card of an opponent' (p. 6); only the looker sees it."""
    hand = tx.state.player(target).hand
    if hand:
        tx.emit("HandCardPeeked", seat=seat, at=target, card=hand[min(index, len(hand) - 1)])


# ----------------------------------------------------------------------------- plain actions

def sell(tx: Tx, seat: int, card: str) -> None:
    """'Intrigue cards can be sold for the gold value on the card' (p. 6)."""
    tx.emit("TurnStepTaken", seat=seat)
    tx.emit("IntrigueCardSold", seat=seat, card=card, gold=tx.state.cards.intrigue_card(card).gold)


def place_guard(tx: Tx, seat: int, card: str) -> None:
    """'Guards can be put from the hand onto the table at any time; once there they cannot go back' (p. 8)."""
    tx.emit("TurnStepTaken", seat=seat)
    tx.emit("GuardPlaced", seat=seat, card=card)


def end_turn(tx: Tx, seat: int) -> None:
    """'After the turn a player may hold no more cards than his influence allows: excess cards must be sold' (p. 9)."""
    tx.emit("TurnStepTaken", seat=seat)
    if len(tx.state.player(seat).hand) > hand_limit(tx.state, seat):
        tx.emit("HandLimitEnforced", seat=seat, limit=hand_limit(tx.state, seat))
    else:
        tx.emit("IntrigueTurnEnded", seat=seat)


# ----------------------------------------------------------------------------- schemes & support

def play_scheme(tx: Tx, seat: int, card: str, target: int, supporters: tuple[int, ...] = ()) -> None:
    """'When playing the card, say which dominus is its target; you may target yourself' (p. 6)."""
    s = tx.state
    c = s.cards.intrigue_card(card)
    total = s.player(seat).influence + sum(s.player(x).influence for x in supporters)
    if total < scheme_need(s, seat, card):
        raise NotEnoughInfluence(f"{c.name} needs {scheme_need(s, seat, card)} influence")
    if not effects.affordable(s, seat, c.effects):
        raise NotEnoughGold(f"{c.name}: its costs cannot be paid")
    if not supporters:
        tx.emit("TurnStepTaken", seat=seat)
    tx.emit("SchemePlayed", seat=seat, card=card, target=target, supporters=list(supporters))
    reactions.open_scheme_window(
        tx, Play(card=card, seat=seat, target=target, kind="scheme", supporters=tuple(supporters))
    )


def request_support(tx: Tx, seat: int, card: str, target: int, asked: list[int]) -> None:
    """'A player short of influence may ask others for support ... the card need not be shown,
    nor need the truth be told' (p. 6).  Capua lets each card be put to one request per turn."""
    tx.emit("TurnStepTaken", seat=seat)
    tx.emit("SupportRequested", seat=seat, card=card, target=target, asked=sorted(asked))


def answer_support(tx: Tx, seat: int, granted: bool) -> None:
    """'Once support is promised it may not be withdrawn under any circumstances' (p. 6)."""
    tx.emit("SupportAnswered", seat=tx.state.turn.seat, by=seat, granted=granted)


def _support_answered(tx: Tx) -> None:
    s = tx.state
    turn = s.turn
    req = turn.support
    supporters = tuple(b for b, g in req.answers if g)
    total = s.player(turn.seat).influence + sum(s.player(x).influence for x in supporters)
    c = s.cards.intrigue_card(req.card)
    if total >= scheme_need(s, turn.seat, req.card) and effects.affordable(s, turn.seat, c.effects) \
            and req.card in s.player(turn.seat).hand:
        play_scheme(tx, turn.seat, req.card, req.target, supporters)
    else:
        tx.emit("SupportFellShort", seat=turn.seat)

