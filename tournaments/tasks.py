"""Celery tasks of the tournaments app: adapters that take ids and call one service.

Each task lives beside its service; this module imports them so that Celery's autodiscovery
(`app.autodiscover_tasks()` in `club/celery.py` imports each app's `tasks`) registers them.
"""

from tournaments.printing.jobs import build_print_job

__all__ = ["build_print_job"]
