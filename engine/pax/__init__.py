"""PAX: slaves in revolt play for power against Rome.  The rules object is
:data:`engine.pax.rules.RULES`; cards are data files in ``engine/pax/cards/``."""
