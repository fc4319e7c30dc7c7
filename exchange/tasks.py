"""Celery tasks of this app, found by Celery's autodiscovery (`config/celery.py`); each is
defined beside its service."""

from exchange.import_jobs import run_import_job

__all__ = ["run_import_job"]
