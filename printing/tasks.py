"""Celery tasks of this app, found by Celery's autodiscovery (`config/celery.py`); each is
defined beside its service."""

from printing.jobs import build_print_job

__all__ = ["build_print_job"]
