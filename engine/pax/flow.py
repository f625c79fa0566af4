"""What happens between turns: the senator window, round end, a new round, the game's end."""

from __future__ import annotations

from engine.pax import interrupt
from engine.pax.events import Recorder
from engine.pax.state import legion_value, next_seat
from engine.pax.turn import DECK_EXHAUSTED_AUREI, begin_drawing, peek_allowed


def start_first_round(rec: Recorder) -> None:
    """Rulebook, Preparation: "One card from the deck is laid face up under each legion card.
    The start player begins"."""
    rec.record("RoundStarted", {"round": 1, "start_seat": rec.state.start_seat})
    _fill_empty_legions(rec)
    start_turn(rec, rec.state.start_seat)


def start_turn(rec: Recorder, seat: int) -> None:
    """Begin ``seat``'s turn.

    Rulebook, End of the game: "If the deck runs out during a round, players who cannot draw a
    card get 2 aurei before their actions and carry out the rest (buy, lay and income)" -- such
    a player goes straight to buying.  In the solo game there is no choice (no peek), so the
    cards are drawn at once."""
    rec.record("TurnStarted", {"seat": seat, "turn": rec.state.turn + 1, "round": rec.state.round})
    if not rec.state.deck:
        rec.record("DeckExhaustedAureiTaken", {"seat": seat, "aurei": DECK_EXHAUSTED_AUREI})
    elif not peek_allowed(rec.state):
        begin_drawing(rec)


def after_turn(rec: Recorder, senator_laid: bool) -> None:
    """Rulebook, Play: "then the next player clockwise takes a turn" -- after the senator window
    if one opens (5-8 players)."""
    if interrupt.opens_after(rec.state, senator_laid):
        interrupt.open_window(rec, rec.state.active_seat)
        after_interrupt(rec)
    else:
        _next_turn(rec)


def after_interrupt(rec: Recorder) -> None:
    """Close the senator window once every responder has answered, then play on."""
    if interrupt.window_closed(rec.state):
        rec.record("InterruptClosed", {"seat": rec.state.interrupt_by})
        _next_turn(rec)


def _next_turn(rec: Recorder) -> None:
    """Rulebook, End of round: "When every player has had one turn, the round ends"."""
    following = next_seat(rec.state, rec.state.active_seat)
    if following == rec.state.start_seat:
        end_round(rec)
    else:
        start_turn(rec, following)


def legion_to_clear(legions) -> int | None:
    """Rulebook, End of round: "The legion with the most valuable cards (highest sum of aurei)
    is cleared [...] on a tie the lower legion (I, II, III...) is cleared".  1-based; None when
    every legion is empty."""
    best, best_value = None, 0
    for number, cards in enumerate(legions, start=1):
        value = legion_value(cards)
        if value > best_value:
            best, best_value = number, value
    return best


def end_round(rec: Recorder) -> None:
    """Clear the richest legion into Rome, pass the start to primus conspiratus, refill.

    Rulebook, New round: "The player with primus conspiratus becomes the new start player [...]
    if nobody has laid intrigue yet, the start player does not change."  End of the game: "If
    the deck cannot fill all empty legions at the start of a round, the game ends at once"."""
    state = rec.state
    number = legion_to_clear(state.legions)
    if number is not None:
        rec.record("LegionCleared", {"legion": number,
                                     "cards": [c.to_json() for c in state.legions[number - 1]]})
    rec.record("RoundEnded", {"round": state.round})
    state = rec.state
    empty = sum(1 for cards in state.legions if not cards)
    if len(state.deck) < empty:
        end_game(rec, "deck_exhausted")
        return
    start = state.primus if state.primus is not None else state.start_seat
    rec.record("RoundStarted", {"round": state.round + 1, "start_seat": start})
    _fill_empty_legions(rec)
    start_turn(rec, start)


def _fill_empty_legions(rec: Recorder) -> None:
    state = rec.state
    empty = [n for n, cards in enumerate(state.legions, start=1) if not cards]
    if empty:
        rec.record("LegionsRefilled", {"cards": [{"legion": n, "card": c.to_json()}
                                                 for n, c in zip(empty, state.deck)]})


def end_game(rec: Recorder, reason: str) -> None:
    """Rulebook, Winner: "The 3 cards laid face down at the start are revealed"."""
    rec.record("GameEnded", {"reason": reason,
                             "rome_hidden": [c.to_json() for c in rec.state.rome_hidden]})
