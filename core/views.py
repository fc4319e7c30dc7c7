"""Offline entry (docs/architecture.md "Offline entry"): the service worker and the web app
manifest. (The organiser's queued-deal sync, `matches:deal_sync`, is `tableside.views.offline`.)

* `/sw.js` -- `static/js/sw.js` served from the site's root, so its scope covers `/m/` and
  `/p/`; `Service-Worker-Allowed: /` says so, `Cache-Control: no-cache` makes the browser check
  for a new version at every visit.
* `/manifest.webmanifest` -- the app's name in the active language (Bulgarian or English),
  its icons (`static/icons/`), colours and start page.
"""

import re
from functools import cache

from django.contrib.staticfiles import finders
from django.http import HttpResponse, JsonResponse
from django.templatetags.static import static
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

THEME_COLOUR = "#9b1c1c"


"""The site's accent (`--accent` in static/css/site.css): the app's title bar."""


BACKGROUND_COLOUR = "#fbfaf7"


"""The page background (`--bg`): the splash screen while the app opens."""


@cache
def _worker_source() -> bytes:
    with open(finders.find("js/sw.js"), "rb") as source:
        return source.read()


@require_GET
def service_worker(request):
    """The service worker script (`static/js/sw.js`) at `/sw.js`."""
    response = HttpResponse(_worker_source(), content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"
    return response


PASS_START = re.compile(r"/pass/[A-Za-z0-9_-]{22,64}/")
"""A start address the manifest takes: a player's pass page."""


def _start(request) -> str:
    start = request.GET.get("start", "")
    return start if PASS_START.fullmatch(start) else "/?source=app"


@require_GET
def manifest(request):
    """The web app manifest in the active language: installing the site as an app opens the
    home page, or offline the last match page visited (`static/js/sw.js`). A player's pass
    page names itself as `?start=/pass/<token>/`: saved to the home screen from there, the app
    opens on the pass (any other `start` is ignored)."""
    icons = [
        {"src": static(f"icons/icon-{size}.png"), "sizes": f"{size}x{size}",
         "type": "image/png", "purpose": "any"}
        for size in (192, 512)
    ]
    data = {
        "name": _("Santase club"), "short_name": _("Santase"),
        "description": _("Deals, matches and standings of a Santase (66) club."),
        "lang": get_language(), "start_url": _start(request), "scope": "/",
        "display": "standalone", "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR, "icons": icons,
    }
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False})
    response["Content-Type"] = "application/manifest+json"
    response["Vary"] = "Cookie, Accept-Language"
    return response
