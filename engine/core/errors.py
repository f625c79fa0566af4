"""Errors named for the rule they enforce.

Every refusal of a command is a :class:`RuleViolation` with a machine-readable ``code``;
the service maps them to HTTP 409 (or 422 for :class:`BadArguments`).
"""

from __future__ import annotations


class RuleViolation(Exception):
    """A command the rules do not allow in this state."""

    code = "rule_violation"

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code:
            self.code = code


class NotYourDecision(RuleViolation):
    """The seat has no open decision that takes this command."""

    code = "not_your_decision"


class NoSuchDecision(RuleViolation):
    """No open decision (for anyone) takes a command of this type."""

    code = "no_such_decision"


class IllegalCommand(RuleViolation):
    """The command is of the right kind but not among the legal answers."""

    code = "illegal_command"


class BadArguments(RuleViolation):
    """The command's arguments do not fit the decision's schema."""

    code = "bad_arguments"


class GameOver(RuleViolation):
    """The game has ended; nothing more can be done."""

    code = "game_over"
