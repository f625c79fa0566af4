"""Reaction windows: schemes foiled by reactions and guards, and reactions tied to moments.

- 'Reactions can be played outside your own turn ... they need a minimum influence, and
  unlike schemes a reaction cannot be supported' (rulebook p. 7).
- 'You can foil any scheme, not only those that target you; only schemes can be foiled,
  not reactions (exceptions are on the cards)' (p. 8).
- 'A guard can only foil a scheme that targets its owner: discard it and roll a die, on 4,
  5 or 6 the scheme is foiled ... use as many guards as you have, or another reaction from
  your hand' (p. 8); 'guards are a special kind of reaction' (p. 8), so a card that foils
  a reaction foils a guard's use too (before its die is rolled).

A window asks the seats it addresses (:mod:`engine.spartacus.game.windows`: every seat that
could answer in principle, from public information) one at a time, clockwise from the
rulebook's first responder.  Every addressed seat gets the decision, whatever it holds:
a seat with nothing playable may only pass, and nobody else can tell.  An answer (a
reaction, a guard, a guard's reroll) keeps the floor with the one who gave it -- a failed
guard may be followed by another -- and asks everybody again: the window closes only when
every addressed seat has passed in a row since the last answer.

The rulebook does not say in which order the domini answer ("nicht nur während des
eigenen Zuges", p. 7): at a table anyone may speak up.  The option ``reactions`` chooses
Capua's reading.  ``in_turn`` (the default) is the one above.  ``together`` (a house rule
for games by mail, where asking one dominus after another costs a deadline each) asks every
addressed seat at once; each answer stays sealed until the last is in, then the first
answer that is not a pass, clockwise from the one who has the floor, takes effect -- the
others are dropped unseen and their cards stay in hand -- and, as above, an answer keeps
the floor with its player and asks everybody again.  The window closes when a whole round
passes.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Optional

from engine.core.types import Command, Decision, Event
from engine.spartacus.game import effects, windows
from engine.spartacus.game.state import GameState, Play, Window, thaw
from engine.spartacus.game.tx import Tx


# ----------------------------------------------------------------------------- legal answers

def reaction_targets(state: GameState, w: Window, seat: int, card: str) -> list[int]:
    """The targets ``card`` may name when ``seat`` plays it in window ``w`` (-1: no target)."""
    c = state.cards.intrigue_card(card)
    if c.type != "reaction" or w.moment not in c.moments:
        return []
    if state.player(seat).influence < c.influence:
        return []
    if not effects.affordable(state, seat, c.effects):
        return []
    if w.moment in ("scheme", "reaction"):
        if w.subject is None:
            return []
        if c.scope == "targeting_you" and (w.moment != "scheme" or w.subject.target != seat):
            return []
        return [-1]
    if w.moment == "gold_emptied":
        return [w.about] if windows.target_qualifies(state, c.requires, w.about) else []
    if w.moment == "scheme_succeeded":
        sch = w.scheme
        if c.scope == "targeting_you":
            if sch is None or sch.target != seat or sch.seat == seat:
                return []
            return [sch.seat] if windows.target_qualifies(state, c.requires, sch.seat) else []
        return [t for t in range(state.seats) if windows.target_qualifies(state, c.requires, t)]
    if w.moment == "bets_placed":
        arena = state.arena
        if arena is None or arena.fight is not None:
            return []
        return [e.seat for e in arena.entries if effects.candidates(state, e.seat, "fighter")]
    if w.moment == "fighter_died":
        return [-1]
    return []


def guard_cards(state: GameState, w: Window, seat: int) -> list[tuple[str, str]]:
    """(card, 'table'|'hand') guards ``seat`` may use against the scheme of window ``w``."""
    if w.moment != "scheme" or w.subject is None or w.subject.target != seat:
        return []
    p = state.player(seat)
    out = [(a.id, "table") for a in p.assets if a.kind == "guard" and a.ready]
    out += [(c, "hand") for c in p.hand if state.cards.intrigue_card(c).type == "guard"]
    return out


def answers(state: GameState, w: Window, seat: int) -> list[Command]:
    """Everything ``seat`` may do in window ``w``: reactions, guards, a guard reroll."""
    out: list[Command] = []
    for card in state.player(seat).hand:
        for target in reaction_targets(state, w, seat, card):
            out.append(Command(seat, "play_reaction", {"card": card, "target": target}))
    for card, _source in guard_cards(state, w, seat):
        out.append(Command(seat, "use_guard", {"card": card}))
    if w.rerollable == seat:
        for a in state.player(seat).assets:
            if a.ready and a.kind in ("gladiator", "slave") and any(
                    ab.op == "reroll_guard" for ab in state.cards.market_card(a.id).abilities):
                out.append(Command(seat, "reroll_guard", {"card": a.id}))
    return out


def together(state: GameState) -> bool:
    """Does the game ask a window's seats at once (option ``reactions: together``)?"""
    return _together(state.options)


@lru_cache(maxsize=64)
def _together(options: tuple) -> bool:
    return dict(options).get("reactions", "in_turn") == "together"


def decisions(state: GameState) -> list[Decision]:
    """The open questions of the innermost window: its current responder's, or with
    ``reactions: together`` those of every addressed seat that has not yet answered this
    round (which seats have answered is public, what they answered is not)."""
    if not together(state):
        d = decision(state)
        return [d] if d is not None else []
    w = state.windows[-1]
    answered = {a[0] for a in w.answers}
    out = []
    for position in range(len(w.order)):
        seat = w.order[(w.index + position) % len(w.order)]
        if seat not in answered:
            out.append(_ask(state, w, seat, id=f"react:{w.id}:{seat}:r{w.round}", order=position,
                            group=f"react:{w.id}:r{w.round}"))
    return out


def decision(state: GameState) -> Optional[Decision]:
    """The interrupt decision of the window's current responder.

    Every addressed seat is asked, even with nothing to play (then passing is its only
    option): the decision's existence, addressing and timing are public, its options follow
    from the seat's hand (``private``) -- unless that hand is empty, when anyone can tell
    them from the table."""
    w = state.windows[-1]
    if w.passes >= len(w.order):
        return None
    return _ask(state, w, w.order[w.index], id=f"react:{w.id}:{w.index}:{state.seq}", order=w.index)


def _ask(state: GameState, w: Window, seat: int, *, id: str, order: int, group: Optional[str] = None) -> Decision:
    passing = Command(seat, "pass_reaction", {})
    return Decision(
        id=id,
        seat=seat,
        mode="interrupt",
        prompt=_prompt(state, w),
        default=passing,
        options=tuple([passing] + answers(state, w, seat)),
        order=order,
        group=group,
        prompt_key=f"react_{w.moment}",
        # the target is public (a scheme names it aloud); standing orders such as "pass
        # unless I am the target" match on it
        prompt_args={"window": w.id, "moment": w.moment,
                     "target": w.subject.target if w.subject is not None else None,
                     "by": w.subject.seat if w.subject is not None else None,
                     "subject": w.subject.kind if w.subject is not None else None},
        # with an empty hand (its size is public) the options follow from the table alone
        private=bool(state.player(seat).hand),
    )


def _prompt(state: GameState, w: Window) -> str:
    if w.moment == "scheme" and w.subject is not None:
        name = state.cards.intrigue_card(w.subject.card).name
        return f"Seat {w.subject.seat} plays {name} on seat {w.subject.target}: react or pass."
    if w.moment == "reaction" and w.subject is not None and w.subject.kind == "guard":
        return f"Seat {w.subject.seat} uses a guard against the scheme: react or pass."
    if w.moment == "reaction" and w.subject is not None:
        return f"Seat {w.subject.seat} plays {state.cards.intrigue_card(w.subject.card).name}: react or pass."
    if w.moment == "gold_emptied":
        return f"Seat {w.about} is left without gold: react or pass."
    if w.moment == "scheme_succeeded":
        return "A scheme has succeeded: react or pass."
    if w.moment == "bets_placed":
        return "The bets are placed: react or pass."
    if w.moment == "fighter_died":
        return "A fighter died in the arena: react or pass."
    return "React or pass."


def advance(tx: Tx) -> bool:
    """Close the innermost window once every addressed seat has passed in a row since the
    last answer; False while a responder must decide."""
    w = tx.state.windows[-1]
    if together(tx.state):
        if len(w.answers) < len(w.order):
            return False
        _end_round(tx, w)
        return True
    if w.passes < len(w.order):
        return False
    _close(tx, w)
    return True


def _end_round(tx: Tx, w: Window) -> None:
    """Every addressed seat has answered (``reactions: together``): the first answer that
    is not a pass, clockwise from the floor, takes effect and asks everybody again; the
    others are dropped unseen.  An answer no longer legal (the card went meanwhile) counts
    as a pass.  A round of passes closes the window.  ``WindowRoundEnded`` tells the table
    whose answer took effect (-1: nobody's), all that the round shows of the sealed answers."""
    given = {seat: Command(seat, kind, thaw(args)) for seat, kind, args in w.answers}
    for position in range(len(w.order)):
        seat = w.order[(w.index + position) % len(w.order)]
        answer = given.get(seat)
        if answer is None or answer.type == "pass_reaction" or answer not in answers(tx.state, w, seat):
            continue
        tx.emit("WindowRoundEnded", window=w.id, seat=seat)
        _APPLY[answer.type](tx, answer)
        return
    tx.emit("WindowRoundEnded", window=w.id, seat=-1)  # the sealed round is over: everybody passed
    _close(tx, w)


def _close(tx: Tx, w: Window) -> None:
    """The window closes.  When the pass (or the sealed round of passes) that closed it is the
    last event of the command, that event says so (``closed``): no ``WindowClosed`` follows."""
    closed = Event("WindowClosed", {"window": w.id, "moment": w.moment})
    last = tx.last()
    if last is not None and last.type in ("ReactionPassed", "WindowRoundEnded") and last.data.get("window") == w.id:
        tx.say_with_last(closed, closed=True, moment=w.moment)
    else:
        tx.emit_event(closed)
    if w.moment == "scheme" and w.subject is not None:
        effects.start(tx, "scheme", w.subject.card, w.subject.seat, w.subject.target, play=w.subject)
    elif w.moment == "reaction" and w.subject is not None:
        if w.subject.kind == "guard":
            _roll_guard(tx, w.subject.seat, w.subject.window)
        else:
            _resolve_reaction(tx, w.subject)


def _resolve_reaction(tx: Tx, play: Play) -> None:
    effects.start(tx, "reaction", play.card, play.seat, play.target, window=play.window, play=play)


def _roll_guard(tx: Tx, seat: int, window: int) -> None:
    tx.request_chance("guard", [("die", "dice", 1)], window=window, seat=seat)


# ----------------------------------------------------------------------------- commands

def answer(tx: Tx, command: Command) -> None:
    """A window's answer: applied at once, or with ``reactions: together`` sealed until
    every addressed seat has answered (only its player sees what it is)."""
    if together(tx.state):
        w = tx.state.windows[-1]
        tx.emit("ReactionAnswered", window=w.id, seat=command.seat,
                answer={"type": command.type, "args": dict(command.args)})
        return
    _APPLY[command.type](tx, command)


def pass_reaction(tx: Tx, seat: int) -> None:
    """The responder lets the moment go."""
    w = tx.state.windows[-1]
    tx.emit("ReactionPassed", window=w.id, seat=seat)


def play_reaction(tx: Tx, seat: int, card: str, target: int) -> None:
    """'A reaction card is shown when played and then discarded' (p. 7); it may itself be answered."""
    w = tx.state.windows[-1]
    tx.emit("ReactionPlayed", window=w.id, seat=seat, card=card, target=target)
    play = Play(card=card, seat=seat, target=target, kind="reaction", window=w.id)
    if not windows.open_reaction_window(tx, play):
        _resolve_reaction(tx, play)


def use_guard(tx: Tx, seat: int, card: str) -> None:
    """'The guard card is discarded and the player rolls a die ... even a failed guard is
    discarded' (p. 8).  'Guards are a special kind of reaction' (p. 8): before the die is
    rolled, a card that foils reactions may foil the guard's use."""
    w = tx.state.windows[-1]
    source = "table" if tx.state.player(seat).asset(card) is not None else "hand"
    tx.emit("GuardUsed", window=w.id, seat=seat, card=card, source=source)
    play = Play(card=card, seat=seat, target=w.subject.target if w.subject is not None else seat, kind="guard",
                window=w.id)
    if not windows.open_reaction_window(tx, play):
        _roll_guard(tx, seat, w.id)


def reroll_guard(tx: Tx, seat: int, card: str) -> None:
    """A card that may 'reroll a failed guard roll' (Mira): exhaust it and roll again."""
    w = tx.state.windows[-1]
    tx.emit("GuardRerolled", window=w.id, seat=seat, card=card)
    tx.emit("CardExhausted", seat=seat, card=card, reason="reroll_guard")
    _roll_guard(tx, seat, w.id)


def guard_rolled(tx: Tx, seat: int, window: int, roll: int) -> None:
    """'On 4, 5 or 6 the guard foiled the scheme; on 1, 2 or 3 it failed' (p. 8)."""
    foiled = roll >= 4
    tx.emit("GuardRolled", window=window, seat=seat, roll=roll, foiled=foiled)
    if foiled:
        for w in tx.state.windows:
            if w.id == window and w.subject is not None:
                tx.emit("SchemeFoiled", window=w.id, card=w.subject.card, seat=w.subject.seat, by=seat)


_APPLY = {
    "pass_reaction": lambda tx, c: pass_reaction(tx, c.seat),
    "play_reaction": lambda tx, c: play_reaction(tx, c.seat, c.args["card"], c.args["target"]),
    "use_guard": lambda tx, c: use_guard(tx, c.seat, c.args["card"]),
    "reroll_guard": lambda tx, c: reroll_guard(tx, c.seat, c.args["card"]),
}
