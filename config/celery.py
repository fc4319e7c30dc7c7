"""The Celery app: settings come from Django's (CELERY_*), tasks from each app's tasks.py.

With no CELERY_BROKER_URL the tasks run eagerly inside the web process (see settings).
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("club")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
