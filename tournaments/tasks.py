"""Celery tasks of the tournaments app: adapters that take ids and call one service.

Each task lives beside its service; this module imports them so that Celery's autodiscovery
(`app.autodiscover_tasks()` in `club/celery.py` imports each app's `tasks`) registers them.
"""

from celery import shared_task

from tournaments import rating_services
from tournaments.printing.jobs import build_print_job

__all__ = ["build_print_job", "recompute_ratings"]


@shared_task
def recompute_ratings() -> int:
    """Recompute and store every player's rating from the record
    (`rating_services.player_ratings_recompute`); return the number of players rated.

    Started after the commit whenever an event's results are settled
    (`rating_services.ratings_recompute_on_commit`); may also run from a schedule. Safe to run
    twice at once (the second waits).
    """
    return rating_services.player_ratings_recompute()
