"""Refusals named for the Spartacus rule they enforce."""

from __future__ import annotations

from engine.core.errors import IllegalCommand, RuleViolation


class NotEnoughGold(RuleViolation):
    """The dominus lacks the gold this needs."""

    code = "not_enough_gold"


class NotEnoughInfluence(RuleViolation):
    """'Each scheme requires a minimum influence' (rulebook p. 6); reactions cannot be supported."""

    code = "not_enough_influence"


class CardNotReady(RuleViolation):
    """'Exhausted cards cannot be used in any way' (rulebook p. 17)."""

    code = "card_not_ready"


class NotYourCard(RuleViolation):
    """The card is not in the dominus's hand or on their table."""

    code = "not_your_card"


class PropertyLocked(RuleViolation):
    """'Only in the market do gladiators, slaves, equipment or guards change owner' (p. 9)."""

    code = "property_locked"


class GoldHidden(RuleViolation):
    """A dominus who has hidden their gold has ended trading (p. 10)."""

    code = "gold_hidden"


class BadBet(RuleViolation):
    """'A bet is 1 to 3 gold ... never bet against your own fighter' (p. 12)."""

    code = "bad_bet"


class BadTrade(RuleViolation):
    """A trade offer that names cards or gold its parties do not have."""

    code = "bad_trade"


class ChampionSpared(RuleViolation):
    """'Executing a champion is forbidden' (p. 13)."""

    code = "champion_spared"


__all__ = [
    "NotEnoughGold", "NotEnoughInfluence", "CardNotReady", "NotYourCard", "PropertyLocked",
    "GoldHidden", "BadBet", "BadTrade", "ChampionSpared", "IllegalCommand",
]
