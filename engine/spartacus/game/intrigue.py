"""The intrigue phase: drawing, then one multi-step turn per dominus from the host clockwise.

- 'At the start of the intrigue phase every player draws 3 intrigue cards ... when the deck
  is used up, the discard pile is shuffled to form a new deck' (rulebook p. 5).
- 'During his intrigue turn a player may sell cards, use special abilities or play a
  scheme, in any order' (p. 6).
- 'Guards can be put from the hand onto the table at any time' (p. 8): a free action of
  every dominus holding one, in every phase, also while selling down to the hand limit.
- 'Should a player not have enough influence, he may ask another player for support ...
  it is not necessary to show the scheme, nor must one tell the truth' (p. 6): a free
  action of the turn's dominus, with any card and any group, as often as he likes; once
  all have answered, he plays with the support promised or keeps the card.
- 'After the turn a player may hold no more cards than his influence allows; excess cards
  must be sold' (p. 9), and again 'at the end of the phase' (p. 5) for anyone whose hand
  grew or whose influence fell after his turn.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Optional

from engine.core.memo import once_per_state
from engine.core.types import Command, Decision
from engine.spartacus.game import effects, ledger, windows
from engine.spartacus.game.cards import CardSet, card_key
from engine.spartacus.game.errors import IllegalCommand, NotEnoughGold, NotEnoughInfluence, NotYourCard
from engine.spartacus.game.state import GameState, Play, SupportRequest
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
        if support_complete(turn.support):
            return [_supported_decision(state)]
        out = []
        answered = {b for b, _ in turn.support.answers}
        for seat in turn.support.asked:
            if seat in answered:
                continue
            refuse = Command(seat, "refuse_support", {})
            out.append(Decision(
                id=f"support:{state.round}:{turn.seat}:{turn.steps}:{seat}",
                seat=seat, mode="interrupt",
                prompt=f"Seat {turn.seat} asks for your support for a scheme"
                       + (f" they call {state.cards.intrigue_card(turn.support.claim).name}"
                          if turn.support.claim else "") + ". Your answer is binding.",
                default=refuse, options=(Command(seat, "grant_support", {}), refuse),
                prompt_key="support",
                prompt_args={"asker": turn.seat, **({"claim": turn.support.claim} if turn.support.claim else {})},
            ))
        return out
    seat = turn.seat
    p = state.player(seat)
    if turn.ending:
        options = tuple(Command(seat, "sell_intrigue_card", {"card": c}) for c in p.hand)
        options += tuple(guard_placings(state, seat))  # a guard laid out leaves the hand too (p. 8)
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
    out: list[Command] = []
    for card in p.hand:
        out.append(Command(seat, "sell_intrigue_card", {"card": card}))
    out.extend(guard_placings(state, seat))
    for card in p.hand:
        c = state.cards.intrigue_card(card)
        if c.type != "scheme" or not effects.affordable(state, seat, c.effects):
            continue
        if p.influence >= scheme_need(state, seat, card):
            for target in range(state.seats):
                out.append(Command(seat, "play_scheme", {"card": card, "target": target}))
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


def guard_placings(state: GameState, seat: int) -> list[Command]:
    """'Guards can be put from the hand onto the table at any time' (p. 8)."""
    p = state.player(seat)
    return [Command(seat, "place_guard", {"card": c}) for c in p.hand if state.cards.intrigue_card(c).type == "guard"]


def free_decisions(state: GameState) -> list[Decision]:
    """'Guards can be put from the hand onto the table at any time' (p. 8): a free action in
    every phase.  It blocks nobody.  Every dominus holding cards has it, whether or not a
    guard is among them (the hand's size is public, its cards are not), so its existence
    tells nobody anything; its options, the guards in hand, may be none (``private``)."""
    guards = _guard_keys(state.cards)
    return [_guard_decision(p.seat, p.hand, guards) for p in state.players if p.hand]


@once_per_state
def _guard_keys(cards: CardSet) -> frozenset[str]:
    """The guards among the intrigue cards (frozen data, found by identity like a state)."""
    return frozenset(c.id for c in cards.intrigue if c.type == "guard")


@lru_cache(maxsize=1024)
def _guard_decision(seat: int, hand: tuple[str, ...], guards: frozenset[str]) -> Decision:
    """The guard-placing decision of ``seat`` holding ``hand``: asked on every step, and
    the same few hands recur, so each is built once."""
    options = tuple(Command(seat, "place_guard", {"card": c}) for c in hand if card_key(c) in guards)
    return Decision(
        id=f"place_guard:{seat}", seat=seat, mode="free",
        prompt="Put a guard from your hand on your table (you may, at any time).",
        default=options[0] if options else Command(seat, "place_guard", {}), options=options,
        prompt_key="place_guard", private=True,
    )


def place_guard(tx: Tx, seat: int, card: str) -> None:
    """'Guards can be put from the hand onto the table at any time; once there they cannot go back' (p. 8)."""
    if tx.state.turn is not None and tx.state.turn.seat == seat:
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

def support_complete(req: SupportRequest) -> bool:
    """Has every dominus asked given an answer?"""
    answered = {b for b, _ in req.answers}
    return all(a in answered for a in req.asked)


def granted(req: SupportRequest) -> tuple[int, ...]:
    """The domini who promised their support."""
    return tuple(b for b, g in req.answers if g)


def support_decisions(state: GameState) -> list[Decision]:
    """'If your influence is not enough, you may ask other players for support' (p. 6):
    a free action of the turn's dominus, whenever no request is open.  Any intrigue card
    in hand may be named and any group asked, again after a refusal and even when their
    influence could not cover the card: 'the card need not be shown, nor need the truth
    be told' (p. 6), so asking reveals nothing the table could not also get from a bluff."""
    turn = state.turn
    if state.stage != "intrigue_turns" or turn is None or turn.ending or turn.support is not None:
        return []
    if state.prompts or state.windows or state.resolutions or state.chance is not None:
        return []
    seat = turn.seat
    hand = list(state.player(seat).hand)
    others = [x for x in range(state.seats) if x != seat]
    if not hand or not others:
        return []
    return [Decision(
        id=f"request_support:{state.round}:{seat}:{turn.steps}", seat=seat, mode="free",
        prompt="Ask other domini to support a scheme with their influence.",
        command_type="request_support",
        default=Command(seat, "request_support", {"card": hand[0], "target": seat, "from": others[:1]}),
        schema={
            "type": "object", "additionalProperties": False, "required": ["card", "target", "from"],
            "properties": {
                "card": {"type": "string", "enum": hand},
                "target": {"type": "integer", "enum": list(range(state.seats))},
                "from": {"type": "array", "uniqueItems": True, "minItems": 1, "maxItems": len(others),
                         "items": {"type": "integer", "enum": others}},
                # what the asker says the scheme is: any scheme of the set, told to the asked
                # (true or not: 'nor need the truth be told', p. 6); nothing when left out
                "claim": {"type": "string", "enum": scheme_names(state)},
            },
        },
        prompt_key="request_support", order=1, private=True,
    )]


def _supported_decision(state: GameState) -> Decision:
    """Every dominus asked has answered: the asker plays the scheme with the support
    promised (if it now suffices) or keeps the card -- a choice, so that neither the
    answers nor the outcome tell the table what the card needs."""
    turn = state.turn
    req = turn.support
    seat = turn.seat
    keep = Command(seat, "keep_scheme", {})
    options = [keep]
    if _supported_play_legal(state, seat, req):
        options.append(Command(seat, "play_scheme", {"card": req.card, "target": req.target}))
    return Decision(
        id=f"supported:{state.round}:{seat}:{turn.steps}", seat=seat, mode="turn",
        prompt="Everyone asked has answered: play the scheme with the support promised, or keep the card.",
        default=keep, options=tuple(options), prompt_key="supported",
        prompt_args={"granted": list(granted(req))},
        # whether playing is possible follows from the hidden card: never answered for the asker
        private=True,
    )


def _supported_play_legal(state: GameState, seat: int, req: SupportRequest) -> bool:
    if req.card not in state.player(seat).hand:
        return False
    c = state.cards.intrigue_card(req.card)
    if c.type != "scheme" or not effects.affordable(state, seat, c.effects):
        return False
    total = state.player(seat).influence + sum(state.player(x).influence for x in granted(req))
    return total >= scheme_need(state, seat, req.card)


def play_scheme_command(tx: Tx, seat: int, card: str, target: int) -> None:
    """``play_scheme``: with the support promised when it answers a completed request."""
    turn = tx.state.turn
    req = turn.support if turn is not None else None
    if req is not None and support_complete(req):
        if card != req.card or target != req.target:
            raise IllegalCommand("play the scheme you asked support for, or keep it")
        play_scheme(tx, seat, card, target, granted(req))
        return
    play_scheme(tx, seat, card, target)


def keep_scheme(tx: Tx, seat: int) -> None:
    """The asker does not play: the card stays in hand, and nobody learns why."""
    tx.emit("SupportedSchemeKept", seat=seat)


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
    play = Play(card=card, seat=seat, target=target, kind="scheme", supporters=tuple(supporters))
    if not windows.open_scheme_window(tx, play):  # nobody could foil it: it takes effect at once
        effects.start(tx, "scheme", card, seat, target, play=play)


def scheme_names(state: GameState) -> list[str]:
    """Every scheme of the card set, by card (public: the set is known to all)."""
    return sorted([c.id for c in state.cards.intrigue if c.type == "scheme"])


def request_support(tx: Tx, seat: int, card: str, target: int, asked: list[int],
                    claim: Optional[str] = None) -> None:
    """'Should a player not have enough influence, he may ask another player for support
    ... It is not necessary to show the scheme to ask for support, nor must one tell the
    truth about one's plans' (p. 6).  'A scheme may be supported by any number of other
    players' (p. 6): any group may be asked, as often as the dominus likes.  ``claim`` is
    the scheme the asker says it is -- told to the asked, true or not."""
    s = tx.state
    turn = s.turn
    if turn is None or turn.seat != seat or turn.ending or turn.support is not None:
        raise IllegalCommand("ask for support during your own intrigue turn, one request at a time")
    if card not in s.player(seat).hand:
        raise NotYourCard("name an intrigue card in your hand")
    if not asked or len(set(asked)) != len(asked) or any(x == seat or not 0 <= x < s.seats for x in asked):
        raise IllegalCommand("ask one or more other domini")
    if not 0 <= target < s.seats:
        raise IllegalCommand("name a dominus as the target")
    if claim is not None and claim not in scheme_names(s):
        raise IllegalCommand("say which scheme it is with the name of a scheme of the card set, or say nothing")
    tx.emit("TurnStepTaken", seat=seat)
    said = {"claim": claim} if claim is not None else {}
    tx.emit("SupportRequested", seat=seat, card=card, target=target, asked=sorted(asked), **said)


def answer_support(tx: Tx, seat: int, grant: bool) -> None:
    """'Once support is promised it may not be withdrawn under any circumstances' (p. 6)."""
    tx.emit("SupportAnswered", seat=tx.state.turn.seat, by=seat, granted=grant)

