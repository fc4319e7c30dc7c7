"""The site's settings, root URLs, Celery app and server entry points (a package, not an app)."""

from config.celery import app as celery_app

__all__ = ("celery_app",)
