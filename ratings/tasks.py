"""Celery tasks of this app, found by Celery's autodiscovery (`config/celery.py`); each is
defined beside its service."""

from ratings.services import recompute_ratings

__all__ = ["recompute_ratings"]
