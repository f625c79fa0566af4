"""PAX's refusals, each named for the rule it enforces (codes are stable, machine-readable)."""

from __future__ import annotations

from engine.core.errors import BadArguments, IllegalCommand, NoSuchDecision, NotYourDecision


class NotYourTurn(NotYourDecision):
    """Another seat is to act."""

    code = "not_your_turn"


class WrongStep(NoSuchDecision):
    """The command belongs to another step of the turn (or another phase of the game)."""

    code = "wrong_step"


class AlreadyChosen(NotYourDecision):
    """The seat has already made its secret choice."""

    code = "already_chosen"


class CardNotAvailable(IllegalCommand):
    """The named card is not where the command needs it (in hand, among the drawn cards)."""

    code = "card_not_available"


class DestinationUsed(IllegalCommand):
    """Each drawn card goes to a different place: one to hand, one to a legion, one under the deck."""

    code = "destination_used"


class HandNotYetAllowed(IllegalCommand):
    """Religion look-ahead: of the first two cards one must go to a legion or under the deck."""

    code = "hand_not_yet_allowed"


class NoSuchLegion(BadArguments):
    """There is no legion card with that number."""

    code = "no_such_legion"


class EmptyLegion(IllegalCommand):
    """No cards lie under that legion."""

    code = "empty_legion"


class NotEnoughAurei(IllegalCommand):
    """The seat cannot pay the price."""

    code = "not_enough_aurei"


class ArmyLimitExceeded(IllegalCommand):
    """Army symbols may not exceed the larger of the land and the intrigue symbols."""

    code = "army_limit_exceeded"


class FleetLimitExceeded(IllegalCommand):
    """Fleet symbols may not exceed the larger of the land and the intrigue symbols."""

    code = "fleet_limit_exceeded"


class PeekNotAllowed(IllegalCommand):
    """The solo game has no look at Rome's hidden cards."""

    code = "peek_not_allowed"


class BadSetupChoice(IllegalCommand):
    """The start-hand choice does not name the right cards."""

    code = "bad_setup_choice"
