"""Revision scripts, one per schema change, oldest first by their ``down_revision`` chain."""
