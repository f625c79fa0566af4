"""Spartacus card data: the JSON decks beside this file and their loaders.

``market.json`` (62 market cards: gladiators, slaves, weapons, armour, specials) is read by
:mod:`engine.spartacus.cards.market`; every ability on it is composed from the effect
vocabulary of :mod:`engine.spartacus.cards.vocabulary`.
"""
