"""Offline entry (README "Offline entry"): the service worker, the web app manifest, and the
organiser's queued-deal sync.

* `/sw.js` -- `static/js/sw.js` served from the site's root, so its scope covers `/m/` and
  `/p/`; `Service-Worker-Allowed: /` says so, `Cache-Control: no-cache` makes the browser check
  for a new version at every visit.
* `/manifest.webmanifest` -- the app's name in the active language (Bulgarian or English),
  its icons (`static/icons/`), colours and start page.
* `matches:deal_sync` -- a deal the organiser's phone kept while offline, answered in JSON
  (`tournaments.offline_sync`).
"""

from functools import cache

from django.contrib.staticfiles import finders
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse, JsonResponse
from django.templatetags.static import static
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from scoring import rules, services
from scoring.forms import DealQuickForm
from tournaments import offline_sync
from tournaments.access import pairing_for_organiser

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


@require_GET
def manifest(request):
    """The web app manifest in the active language: installing the site as an app opens the
    home page, or offline the last match page visited (`static/js/sw.js`)."""
    icons = [
        {"src": static(f"icons/icon-{size}.png"), "sizes": f"{size}x{size}",
         "type": "image/png", "purpose": "any"}
        for size in (192, 512)
    ]
    data = {
        "name": _("Santase club"), "short_name": _("Santase"),
        "description": _("Deals, matches and standings of a Santase (66) club."),
        "lang": get_language(), "start_url": "/?source=app", "scope": "/",
        "display": "standalone", "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR, "icons": icons,
    }
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False})
    response["Content-Type"] = "application/manifest+json"
    response["Vary"] = "Cookie, Accept-Language"
    return response


@require_POST
def deal_sync(request, match_pk: int):
    """A deal the organiser's phone kept offline (the quick form's fields), recorded by
    `scoring.services.deal_record` under its deal number: JSON (`tournaments.offline_sync`).
    Anyone who may not change the match: 403 or 404 as JSON, nothing written."""
    if not request.user.is_authenticated:
        return offline_sync.login_needed()
    try:
        pairing = pairing_for_organiser(request, match_pk)
    except (Http404, PermissionDenied) as error:
        status = 404 if isinstance(error, Http404) else 403
        return JsonResponse({"result": "refused", "message": _(
            "This match cannot be changed from this account.")}, status=status)
    match = pairing.match
    form = DealQuickForm(request.POST, match=match)
    if not form.is_valid():
        return offline_sync.invalid(form)
    number = form.cleaned_data["number"]
    try:
        deal = services.deal_record(match=match, score=form.score, by=request.user,
                                    number=number)
    except rules.InvalidDeal as error:
        status = 409 if error.code == "match_finished" else 422
        return offline_sync.refused(error, match=match, number=number, status=status)
    except services.RecordingError as error:
        status = 422 if error.code == "deal_number_out_of_range" else 409
        return offline_sync.refused(error, match=match, number=number, status=status)
    return offline_sync.stored(deal, number, match.pk)
