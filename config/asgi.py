"""ASGI entry point: `uvicorn config.asgi:application` (`make run`), gunicorn with uvicorn
workers (`manage.py serve_club`). Django's async views stream the live pages' events.

Once the site is loaded (its apps, and its URL patterns with every view they import), what it
loaded lives as long as the process: `gc.freeze()` moves it out of the garbage collector's
reach, so a full collection no longer walks objects that can never be garbage."""

import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_asgi_application()

from django.urls import get_resolver  # noqa: E402  (needs the apps loaded)

get_resolver().url_patterns  # noqa: B018  (imports every view now, before the freeze)
gc.collect()
gc.freeze()
