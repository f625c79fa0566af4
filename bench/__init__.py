"""Capua's benchmarks: each prints figures and their ratio to a floor measured in the same run."""
