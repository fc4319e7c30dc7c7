"""Signals `events` sends to the apps above it.

`results_changed(sender=Tournament, tournament=...)`: an event has just finished, or a result
of a finished event changed (a correction, which may reopen it). Sent inside the transaction
that made the change; `ratings` recomputes once it commits."""

from django.dispatch import Signal

results_changed = Signal()
