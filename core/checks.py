"""System checks of the site's own settings.

A check, unlike a warning raised while the settings load, runs once per management command:
`runserver` imports the settings in its reloader and again in the serving child, gunicorn in
each worker, and a warning in settings.py printed once in each of them.
"""

from django.conf import settings
from django.core.checks import Tags, Warning, register


@register(Tags.security)
def development_secret_key(app_configs, **kwargs) -> list[Warning]:
    """Warn (core.W001) while SECRET_KEY is the development default of settings.py.

    Only reachable with DEBUG on: with DEBUG off the settings refuse to load with that key.
    """
    if settings.SECRET_KEY != settings.DEVELOPMENT_SECRET_KEY:
        return []
    return [
        Warning(
            "SECRET_KEY is the development default: fine on your laptop, never on a server.",
            hint="Set SECRET_KEY to a long random string (docs/deployment.md, Configuration).",
            id="core.W001",
        )
    ]
