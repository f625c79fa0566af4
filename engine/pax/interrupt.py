"""The senator window of the 5-8 player game.

Rulebook, PAX for 5-8 players, Play: "If the active player lays one or more senators, all the
other players may, in turn clockwise, lay one of their property cards from hand for a fixed
price of one aureus: no income for it; the army and fleet limit applies; an intrigue laid moves
primus conspiratus at once.  Then the next player clockwise takes a regular turn."

Who is asked is decided from public information only: every other player, since nobody else
knows whether a player holds a card they could lay or an aureus to pay with (Preparation: cards
and money are held in hand, "neither shown nor their number told").  Each is asked and answers,
by laying a card or passing (the deadline's default); nobody is passed on their behalf because of
what they hold, so whom the game waits for, the order of the answers and how the events are
batched tell the table nothing.

House rule (the window re-opens): a card laid in the window asks, clockwise from the player who
laid it, every player who has not yet laid a card in this window again, so a player who passed may
still answer a card laid after their pass (say an intrigue that moved primus conspiratus).  The
window closes once every one of them has passed in succession since the last card laid.  Each
player still lays at most one card per window ("one of their property cards").
"""

from __future__ import annotations

from engine.core.types import Command, Decision
from engine.pax import errors
from engine.pax.events import Recorder
from engine.pax.laying import INTERRUPT_LAY_COST, lay_problem, layable, settle_primus
from engine.pax.state import PaxState, find

#: The senator window exists only with two copies of the game.
MIN_SEATS = 5


def opens_after(state: PaxState, senator_laid: bool) -> bool:
    return senator_laid and state.seats >= MIN_SEATS


def addressed_after(state: PaxState, seat: int) -> list[int]:
    """The players the window asks, clockwise after ``seat``: everyone but the senator player
    and those who already laid a card in this window -- public facts only."""
    following = [(seat + i) % state.seats for i in range(1, state.seats)]
    return [s for s in following if s != state.interrupt_by and s not in state.window_laid]


def response_options(state: PaxState, seat: int) -> tuple[Command, ...]:
    """The cards ``seat`` may lay in the window (each for 1 aureus, within the limits)."""
    return tuple([Command(seat, "lay_card", {"card": c.id}) for c in layable(state, seat, INTERRUPT_LAY_COST)[0]])


def open_window(rec: Recorder, senator_seat: int) -> None:
    responders = [(senator_seat + i) % rec.state.seats for i in range(1, rec.state.seats)]
    rec.record("InterruptOpened", {"seat": senator_seat, "responders": responders})


def window_closed(state: PaxState) -> bool:
    return state.phase == "interrupt" and not state.responders


def interrupt_decision(state: PaxState) -> Decision:
    """The next player's answer: lay one card or pass.

    Private: the cards offered, and whether there are any, follow from the player's hand and
    aurei, so the decision is asked even when passing is the only answer."""
    seat = state.responders[0]
    skip = Command(seat, "pass", {})
    return Decision(
        id=f"interrupt:{state.turn}:{state.window_answers}", seat=seat, mode="interrupt",
        order=state.window_answers, private=True,
        prompt=(f"Seat {state.interrupt_by} laid a senator: you may lay one card from your hand "
                "for 1 aureus (no income), or pass."),
        prompt_key="pax.interrupt", prompt_args={"senator_seat": state.interrupt_by, "cost": INTERRUPT_LAY_COST},
        options=response_options(state, seat) + (skip,), default=skip,
    )


def _require_responder(state: PaxState, seat: int) -> None:
    if state.phase != "interrupt" or not state.responders:
        raise errors.WrongStep("no senator window is open")
    if seat != state.responders[0]:
        raise errors.NotYourTurn(f"seat {state.responders[0]} answers the senator window now")


def respond_lay(rec: Recorder, command: Command) -> None:
    """Lay one card for 1 aureus; the window then asks everyone else who may still lay again."""
    state, seat = rec.state, command.seat
    _require_responder(state, seat)
    problem = lay_problem(state, seat, command.args.get("card"), INTERRUPT_LAY_COST)
    if problem:
        raise problem
    card = find(state.hands[seat], command.args["card"])
    rec.record("CardLaid", {"seat": seat, "card": card.to_json(), "cost": INTERRUPT_LAY_COST,
                            "during": "interrupt"})
    settle_primus(rec, seat)
    again = addressed_after(rec.state, seat)
    if again != list(rec.state.responders):
        rec.record("InterruptReopened", {"seat": seat, "responders": again})


def respond_pass(rec: Recorder, command: Command) -> None:
    _require_responder(rec.state, command.seat)
    rec.record("InterruptPassed", {"seat": command.seat})
