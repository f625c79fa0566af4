"""Capua's tests.  A package, so test folders never shadow ``engine`` or ``service``."""
