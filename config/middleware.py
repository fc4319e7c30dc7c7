"""The site's own middleware.

`AdminFromMachineMiddleware`: the admin (`/admin/`) answers only a visitor on the machine the
site runs on (a loopback address, as `ForwardedForMiddleware` left it), unless the club sets
`ADMIN_FROM_NETWORK`; any other visitor gets the site's 404 page, as for an address that does
not exist: nothing tells the network there is an admin to try passwords on.

`SessionMarkerMiddleware`: a page drawn for a logged-in organiser names its session by a marker
that is no secret (`session_marker`: an HMAC of the session key, which it does not reveal), in
`X-Session-Marker` and in the page's <head> (`<meta name="session-marker">`); the browser keeps
the same marker in a cookie scripts may read (`MARKER_COOKIE`), which lasts as long as the
session cookie and goes when the session ends, however it ends (a log-out on the site or in the
admin, an expired session). The service worker (static/js/sw.js) and static/js/session_check.js
show a page kept for offline use only while the marker it was drawn with is the browser's
(docs/architecture.md "Offline entry").

`SiteLanguageMiddleware`: the site speaks its own language (LANGUAGE_CODE, Bulgarian) until a
visitor picks another. Django's LocaleMiddleware follows the browser's Accept-Language, which
would show a Sofia club's site in English on every English-language phone; here only the
language cookie set by the switch in the page header changes the language.

`ForwardedForMiddleware`: behind a proxy (nginx, Caddy) every request reaches the web nodes
from the proxy's address; for a request from one of `TRUSTED_PROXIES` it puts the visitor's
address, from X-Forwarded-For, in REMOTE_ADDR, which the login lock-out (django-axes), the
players' links' guess limit and the addresses written beside signatures and deals read.

`CompressedPagesMiddleware`: pages and their parts gzipped for a browser that asks (a match's
page after twenty deals is about 18 KB of HTML and 4 KB gzipped: a third of a second of each
deal on a poor club wifi, `bench/players_page.py`); Django's GZipMiddleware with its BREACH
mitigation, except for the live pages' streams, whose small messages gzip would hold back (a
stream that pushes parts gzips itself, message by message: `live.views.streams.gzipped`).
Static files come compressed from WhiteNoise already.

`DatabaseUnavailableMiddleware`: while the database cannot be reached (PostgreSQL restarting,
SQLite locked past its busy timeout) a request gets a 503 page with `Retry-After`, in the
visitor's language, instead of a 500.
"""

import ipaddress
import logging
import sys
from collections.abc import Sequence

from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.http import Http404, HttpResponse
from django.middleware.gzip import GZipMiddleware
from django.template.loader import render_to_string
from django.urls import NoReverseMatch, reverse
from django.utils import translation
from django.utils.cache import add_never_cache_headers, patch_vary_headers
from django.utils.crypto import salted_hmac
from django.utils.functional import lazy
from django.views import defaults

logger = logging.getLogger(__name__)


Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def _trusted(address: str, proxies: Sequence[Network]) -> bool:
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(parsed in network for network in proxies)


def forwarded_client(remote_addr: str, forwarded_for: str, proxies: Sequence[Network]) -> str:
    """The visitor's address: `remote_addr` (the peer of the connection), unless it is one of
    `proxies` (networks, `settings.TRUSTED_PROXIES`); then the last address of `forwarded_for`
    (the X-Forwarded-For header, "client, proxy1, proxy2") that is not a trusted proxy: each
    proxy appends the peer it saw, so what stands left of that was written by the visitor and
    could be anything. `remote_addr` again when that address is no IP address, or none is
    left."""
    if not _trusted(remote_addr, proxies):
        return remote_addr
    for hop in reversed([hop.strip() for hop in forwarded_for.split(",") if hop.strip()]):
        if not _trusted(hop, proxies):
            try:
                return str(ipaddress.ip_address(hop))
            except ValueError:
                return remote_addr
    return remote_addr


class ForwardedForMiddleware:
    """REMOTE_ADDR becomes `forwarded_client(...)` for a request from a trusted proxy; without
    `TRUSTED_PROXIES` (no proxy) nothing changes, and a client cannot claim an address."""

    def __init__(self, get_response):
        self.get_response = get_response
        self.proxies = list(settings.TRUSTED_PROXIES)

    def __call__(self, request):
        use_forwarded_client(request, self.proxies)
        return self.get_response(request)


def use_forwarded_client(request, proxies: Sequence[Network]) -> None:
    """Put `forwarded_client(...)` in `request.META["REMOTE_ADDR"]`; nothing without
    `proxies` (`settings.TRUSTED_PROXIES`)."""
    if proxies:
        request.META["REMOTE_ADDR"] = forwarded_client(
            request.META.get("REMOTE_ADDR", ""), request.META.get("HTTP_X_FORWARDED_FOR", ""),
            proxies)


class AdminFromMachineMiddleware:
    """404 (`Http404`) for a request under the admin's address from anywhere but the site's
    own machine (`from_this_machine`), unless `settings.ADMIN_FROM_NETWORK`. Sets
    `request.admin_here` (bool): whether the admin answers this visitor (the page header
    offers its link only then). Must come after `ForwardedForMiddleware`."""

    def __init__(self, get_response):
        self.get_response = get_response
        self.everywhere = settings.ADMIN_FROM_NETWORK
        self.proxies = list(settings.TRUSTED_PROXIES)

    def __call__(self, request):
        request.admin_here = self.everywhere or from_this_machine(request, self.proxies)
        if not request.admin_here and _under_admin(request.path_info):
            raise Http404("The admin answers on the site's own machine only.")
        return self.get_response(request)


def _under_admin(path: str) -> bool:
    try:
        prefix = reverse("admin:index")
    except NoReverseMatch:  # a URL configuration without the admin
        return False
    return path.startswith(prefix)


def from_this_machine(request, proxies: Sequence[Network]) -> bool:
    """Whether `request` comes from the machine the site runs on: REMOTE_ADDR (the visitor's
    address, after `use_forwarded_client`) is a loopback address. Without `proxies` a request
    carrying X-Forwarded-For or Forwarded came through a proxy nobody declared, whose own
    loopback address says nothing of the visitor: not this machine."""
    try:
        address = ipaddress.ip_address(request.META.get("REMOTE_ADDR", ""))
    except ValueError:
        return False
    if getattr(address, "ipv4_mapped", None):
        address = address.ipv4_mapped
    if not address.is_loopback:
        return False
    forwarded = "HTTP_X_FORWARDED_FOR" in request.META or "HTTP_FORWARDED" in request.META
    return bool(proxies) or not forwarded


MARKER_COOKIE = "session_marker"
MARKER_HEADER = "X-Session-Marker"


def session_marker(request) -> str:
    """The marker of `request`'s session (20 hex characters, from the session key and the
    SECRET_KEY, which it does not reveal) while an organiser is logged in, else ""."""
    user = getattr(request, "user", None)
    session = getattr(request, "session", None)
    if user is None or not user.is_authenticated or session is None or not session.session_key:
        return ""
    return salted_hmac("config.middleware.session_marker", session.session_key).hexdigest()[:20]


class SessionMarkerMiddleware:
    """`request.session_marker` (lazy: `session_marker`) for the page's templates; on the
    answer, `X-Session-Marker` and the `MARKER_COOKIE` kept to the session: set, with the
    session cookie's lifetime, when the session is an organiser's; deleted when it is not any
    more. Requests that never touch the session (static files, streams) are left alone. Comes
    before SessionMiddleware, so it sees the session cookie that answer sets."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request.session_marker = lazy(lambda: session_marker(request), str)()
        response = self.get_response(request)
        session = getattr(request, "session", None)
        if session is None or not (session.accessed or MARKER_COOKIE in request.COOKIES):
            return response
        marker = session_marker(request)
        response.headers[MARKER_HEADER] = marker
        kept = request.COOKIES.get(MARKER_COOKIE, "")
        session_cookie = response.cookies.get(settings.SESSION_COOKIE_NAME)
        if marker and (kept != marker or session_cookie is not None):
            age = (None if settings.SESSION_EXPIRE_AT_BROWSER_CLOSE
                   else session.get_expiry_age())
            response.set_cookie(MARKER_COOKIE, marker, max_age=age, path="/", samesite="Lax",
                                secure=settings.SESSION_COOKIE_SECURE, httponly=False)
        elif not marker and kept:
            response.delete_cookie(MARKER_COOKIE, path="/", samesite="Lax")
        return response


class SiteLanguageMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        language = site_language(request)
        translation.activate(language)
        request.LANGUAGE_CODE = language
        return language_headers(self.get_response(request), language)


def site_language(request) -> str:
    """The language code `request` is answered in: its language cookie's, when that is one
    of `settings.LANGUAGES`, else the site's own (`settings.LANGUAGE_CODE`)."""
    language = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
    return language if language in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE


def language_headers(response, language: str):
    """`response` with what an answer in `language` carries: `Vary: Cookie` (the cookie
    chooses the language) and its Content-Language, unless the view set one."""
    patch_vary_headers(response, ("Cookie",))
    response.headers.setdefault("Content-Language", language)
    return response


RETRY_AFTER_SECONDS = 10  # a PostgreSQL restart takes a few seconds


def database_unavailable(exception: BaseException) -> bool:
    """Whether `exception` says the database cannot be reached or is busy just now (worth
    trying again in a few seconds), not that the code or the schema is wrong.

    `django.db.InterfaceError` (a connection closed under us) and `django.db.OperationalError`
    (cannot connect, the server restarting or shutting down, SQLite's "database is locked"),
    except SQLite's "no such table" and "no such column", which are OperationalError too but
    mean a missing migration: those stay 500s.
    """
    if isinstance(exception, InterfaceError):
        return True
    if isinstance(exception, OperationalError):
        return not str(exception).startswith(("no such table", "no such column"))
    return False


def database_unavailable_response() -> HttpResponse:
    """503 with `Retry-After` (seconds) and a short page in the active language. It asks the
    database nothing: no user, no session, no messages (`render_to_string` without the
    request, so no context processor runs either)."""
    html = render_to_string("503.html", {"retry_after": RETRY_AFTER_SECONDS})
    response = HttpResponse(html, status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    add_never_cache_headers(response)
    return response


class DatabaseUnavailableMiddleware:
    """A view that meets an unreachable database (`database_unavailable`) answers 503 with
    `Retry-After` instead of a 500. The exception is logged as a warning. An htmx form keeps
    what was entered (htmx does not swap a 503 in) and `static/js/server_busy.js` says "not
    saved, tap Save again"; the deal number each deal form sends makes sending it again safe.

    Errors raised outside a view (a middleware's own query) reach `config.urls.handler500`,
    which gives the same answer when DEBUG is off.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not database_unavailable(exception):
            return None
        logger.warning("Database unavailable for %s %s: %s", request.method, request.path,
                       exception)
        return database_unavailable_response()


def server_error(request):
    """`handler500`: the 503 of `database_unavailable_response` when the error being handled
    is an unreachable database (raised outside a view, e.g. by a middleware's query, where
    `DatabaseUnavailableMiddleware` cannot see it), else Django's own 500 page."""
    if database_unavailable(sys.exc_info()[1]):
        return database_unavailable_response()
    return defaults.server_error(request)


class CompressedPagesMiddleware(GZipMiddleware):
    """Django's GZipMiddleware, but never for a server-sent-events stream."""

    def process_response(self, request, response):
        if response.get("Content-Type", "").startswith("text/event-stream"):
            return response
        return super().process_response(request, response)
