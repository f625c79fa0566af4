"""Refusals named for the Rom rule they enforce (all :class:`RuleViolation` subclasses)."""

from __future__ import annotations

from engine.core.errors import BadArguments, IllegalCommand, NotYourDecision


class BadOptions(BadArguments):
    """Game options that cannot be played (an unknown card set, an illegal custom deck)."""

    code = "bad_options"


class NotYourTurn(NotYourDecision):
    """Another player is to act."""

    code = "not_your_turn"


class DieNotAvailable(IllegalCommand):
    """The player has no such unplaced (or placed) power die."""

    code = "die_not_available"


class IllegalPlacement(IllegalCommand):
    """The die may not go on that track (full, or higher than the die it joins)."""

    code = "illegal_placement"


class MustPlace(IllegalCommand):
    """Passing is allowed only to a player who cannot place any die."""

    code = "must_place"


class CardNotUsable(IllegalCommand):
    """The senate card is not the player's, is exhausted, or is not for this moment."""

    code = "card_not_usable"


class ProvincesDoNotMatch(IllegalCommand):
    """The provinces to exhaust are not the player's, are exhausted, or show other symbols."""

    code = "provinces_do_not_match"


class BadCardTarget(IllegalCommand):
    """The card's target (a die, a player, a province, a card to discard) is not allowed."""

    code = "bad_card_target"


class LegionTooWeak(IllegalCommand):
    """The provinces' strengths add up to more than the legion's strength."""

    code = "legion_too_weak"


class OverBudget(IllegalCommand):
    """The card costs more than what is left of the black market budget."""

    code = "over_budget"


class WrongSenatePick(IllegalCommand):
    """One senate card per die, from those laid out, as many as there are."""

    code = "wrong_senate_pick"


class ArenaSetTooSmall(IllegalCommand):
    """An arena set has three cards or more (an empty set passes)."""

    code = "arena_set_too_small"


class NotInHand(IllegalCommand):
    """The arena card is not in the player's hand."""

    code = "not_in_hand"


class UnexpectedChance(BadArguments):
    """A chance resolution for another request than the one pending."""

    code = "unexpected_chance"
