"""WSGI entry point (gunicorn club.wsgi): Django's handler behind the gate that answers the
unchanged polls of visitors without a session (`club.poll_gate`).

Once the site is loaded (its apps, and its URL patterns with every view they import), what it
loaded lives as long as the process: `gc.freeze()` moves it out of the garbage collector's
reach, so a full collection, which a busy worker runs every few hundred requests, no longer
walks some 140,000 objects that can never be garbage (docs/speed.md, "Session 12")."""

import gc
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "club.settings")
django_application = get_wsgi_application()

from django.urls import get_resolver  # noqa: E402  (needs the apps loaded)

from club.poll_gate import UnchangedPollGate  # noqa: E402

application = UnchangedPollGate(django_application)

get_resolver().url_patterns  # noqa: B018  (imports every view now, before the freeze)
gc.collect()
gc.freeze()
