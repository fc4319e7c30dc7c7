"""Signals `scoring` sends across the layer boundary (DESIGN.md "Layering").

Both are sent inside the recording transaction, so a receiver's writes (a bracket advancing)
commit or roll back with the deal that caused them. Argument: `match` (a locked `Match`).
"""

from django.dispatch import Signal

match_finished = Signal()
"""A match has just reached its game target, or was forfeited."""

match_reopened = Signal()
"""A finished match is playing again, after an undo or a correction."""
