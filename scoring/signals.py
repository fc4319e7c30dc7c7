"""Signals `scoring` sends across the layer boundary (docs/architecture.md "What may import
what").

All are sent inside the recording transaction, so a receiver's writes (a bracket advancing)
commit or roll back with the deal that caused them, and an exception a receiver raises
(`scoring.services.ConfirmationRequired`) rolls the deal back. Argument: `match` (a locked
`Match`).
"""

from django.dispatch import Signal

match_finished = Signal()
"""A match has just reached its game target, or was forfeited."""

match_reopened = Signal()
"""A finished match is playing again, or has another winner, after an undo or a correction.
Also sends `confirmed`: the organiser has seen and accepted what the change undoes; and `by`:
the user who made the change (None: a player at the table, a script)."""

match_rescored = Signal()
"""A finished match keeps its winner but not its score, after a correction of a deal. Also
sends `by`: the user who made the change (None: a script)."""
