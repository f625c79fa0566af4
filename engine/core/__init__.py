"""The kernel every game uses: commands, events, decisions, chance-as-data, views."""

from engine.core.types import (
    Command,
    Event,
    Decision,
    Pending,
    Outcome,
    Viewer,
    SPECTATOR,
)
from engine.core.chance import ChanceRequest, Shuffle, Dice, Pick, draw_outcome, check_outcome
from engine.core.errors import (
    RuleViolation,
    NotYourDecision,
    NoSuchDecision,
    IllegalCommand,
    BadArguments,
    GameOver,
)
from engine.core.game import Rules, forced_answer, match_decision, replay, step

__all__ = [
    "Command", "Event", "Decision", "Pending", "Outcome", "Viewer", "SPECTATOR",
    "ChanceRequest", "Shuffle", "Dice", "Pick", "draw_outcome", "check_outcome",
    "RuleViolation", "NotYourDecision", "NoSuchDecision", "IllegalCommand", "BadArguments",
    "GameOver", "Rules", "forced_answer", "match_decision", "replay", "step",
]
