"""WSGI entry point (gunicorn club.wsgi): Django's handler behind the gate that answers the
unchanged polls of visitors without a session (`club.poll_gate`)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "club.settings")
django_application = get_wsgi_application()

from club.poll_gate import UnchangedPollGate  # noqa: E402  (needs the apps loaded)

application = UnchangedPollGate(django_application)
