"""The senator window of the 5-8 player game.

Rulebook, 5-8 players: "If the active player lays one or more senators, every other player in
turn clockwise may lay one card from hand for a fixed 1 aureus: no income for it; the army and
fleet limit applies; an intrigue laid moves primus conspiratus at once"."

A responder who cannot lay anything is passed at once with the very event a voluntary pass
records, so the log never tells who holds what or how much.
"""

from __future__ import annotations

from engine.core.types import Command, Decision
from engine.pax import errors
from engine.pax.events import Recorder
from engine.pax.laying import INTERRUPT_LAY_COST, lay_problem, settle_primus
from engine.pax.state import PaxState, find

#: The senator window exists only with two copies of the game.
MIN_SEATS = 5


def opens_after(state: PaxState, senator_laid: bool) -> bool:
    return senator_laid and state.seats >= MIN_SEATS


def response_options(state: PaxState, seat: int) -> tuple[Command, ...]:
    """The cards ``seat`` may lay in the window (each for 1 aureus, within the limits)."""
    return tuple(
        Command(seat, "lay_card", {"card": c.id}) for c in state.hands[seat]
        if lay_problem(state, seat, c.id, INTERRUPT_LAY_COST) is None
    )


def open_window(rec: Recorder, senator_seat: int) -> None:
    state = rec.state
    responders = [(senator_seat + i) % state.seats for i in range(1, state.seats)]
    rec.record("InterruptOpened", {"seat": senator_seat, "responders": responders})
    pass_the_helpless(rec)


def pass_the_helpless(rec: Recorder) -> None:
    """Pass every responder at the head of the queue who has no legal response."""
    while rec.state.responders and not response_options(rec.state, rec.state.responders[0]):
        rec.record("InterruptPassed", {"seat": rec.state.responders[0]})


def window_closed(state: PaxState) -> bool:
    return state.phase == "interrupt" and not state.responders


def interrupt_decision(state: PaxState) -> Decision:
    seat = state.responders[0]
    skip = Command(seat, "pass", {})
    return Decision(
        id=f"interrupt:{state.turn}:{seat}", seat=seat, mode="interrupt",
        order=state.seats - len(state.responders),
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
    state, seat = rec.state, command.seat
    _require_responder(state, seat)
    problem = lay_problem(state, seat, command.args.get("card"), INTERRUPT_LAY_COST)
    if problem:
        raise problem
    card = find(state.hands[seat], command.args["card"])
    rec.record("CardLaid", {"seat": seat, "card": card.to_json(), "cost": INTERRUPT_LAY_COST,
                            "during": "interrupt"})
    settle_primus(rec, seat)
    pass_the_helpless(rec)


def respond_pass(rec: Recorder, command: Command) -> None:
    _require_responder(rec.state, command.seat)
    rec.record("InterruptPassed", {"seat": command.seat})
    pass_the_helpless(rec)
