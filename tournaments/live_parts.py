"""The live parts a changed poll sends, rendered once per version and shared
(`tournaments.live.live`).

While an event is played, every spectator's poll of its round, standings or projector finds a
new version and would render the whole page afresh: a hundred screens, a hundred renders of the
same table. Instead the first poll of a version renders the page and keeps the live part it
swaps in (the element htmx names in `HX-Target`) in Django's cache alias "live", under a key
made of the poll's ETag (the version, the page and its objects, the query string, the language
and the visitor: `live._page_etag`), that element's id, the host and the database; every other
poll with that ETag gets the part from the cache, without a render. A new version is a new
key, so a part is never stale and nothing has to invalidate it; a part lives
`settings.CACHES["live"]["TIMEOUT"]` seconds at most.

A part is shared only when it holds nothing of its visitor's own: a part that carries a CSRF
token (a form, an organiser's buttons) is not kept, so such a poll renders as before. The
access checks run before the cache is read (the ETag's version query answers 404 for what the
visitor may not see), and an organiser's ETag is not a spectator's.
"""

import re

from django.conf import settings
from django.core.cache import caches
from django.http import HttpResponse

from tournaments.pure.fingerprints import fingerprint

CACHE = "live"
"""The cache alias the parts are kept in (club/settings.py: apart from the sessions, so the
parts never push one out)."""


def element(html: str, element_id: str) -> str | None:
    """The element of `html` whose id is `element_id`, from its start tag to its end tag, or
    None when there is none or its end cannot be found. The site's pages are Django templates
    (every value escaped) with no inline script or style (the CSP forbids them), so a tag's
    name seen in the text is a tag: counting the start and end tags of that name finds the
    end."""
    start = re.search(rf'<([a-z][a-z0-9]*)\b[^<>]*\sid="{re.escape(element_id)}"', html)
    if start is None:
        return None
    depth = 0
    for tag in re.finditer(rf"<(/?){start.group(1)}\b[^<>]*>", html[start.start():]):
        depth += -1 if tag.group(1) else 1
        if depth == 0:
            return html[start.start():start.start() + tag.end()]
    return None


def shareable(part: str) -> bool:
    """Whether `part` may be sent to any visitor with the same ETag: it holds no CSRF token
    (no form, no htmx header carrying one)."""
    return "csrf" not in part.lower()


def _key(request, etag: str) -> str | None:
    target = request.headers.get("HX-Target", "")
    if not target or request.method != "GET":
        return None
    database = settings.DATABASES["default"]
    return "part:" + fingerprint(etag, target, request.get_host(), database["ENGINE"],
                                 database.get("HOST", ""), str(database["NAME"]))


def cached(request, etag: str) -> HttpResponse | None:
    """The part this htmx GET poll swaps in (its `HX-Target`) as a 200 answer, when a poll with
    the same (quoted) ETag `etag` has kept it; else None."""
    key = _key(request, etag)
    part = key and caches[CACHE].get(key)
    return HttpResponse(part) if part else None


def keep(request, etag: str, response) -> None:
    """Keep the part of the 200 HTML answer `response` that this htmx GET poll swaps in, for
    the other polls with ETag `etag`, unless it is not `shareable`."""
    key = _key(request, etag)
    if (key is None or response.status_code != 200 or response.streaming
            or not response.get("Content-Type", "").startswith("text/html")):
        return
    part = element(response.content.decode(response.charset), request.headers["HX-Target"])
    if part is not None and shareable(part):
        caches[CACHE].set(key, part)
