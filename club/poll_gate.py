"""Unchanged polls of visitors without a session, answered in front of Django's handler.

A club room's screens are spectators and the players' phones: none of them is signed in, and
between two deals of its own match nearly every poll they send is unchanged. Such a poll's
answer is settled by one query (`tournaments.live`), yet served by Django it went through the
handler and eight middlewares first, which cost more than the query (`bench/live_polls.py`:
a bare view 0.9 ms, the server alone 0.3 ms). `UnchangedPollGate` wraps the WSGI application
(`club.wsgi`) and, for an htmx GET with If-None-Match from a visitor with no session cookie,
asks the view's own `unchanged_poll` (`club.middleware.UnchangedPollMiddleware.unchanged`) with
only what that needs set as the middleware would set it: the visitor's address
(`use_forwarded_client`), an anonymous user and the site's language (`site_language`). A 304
goes straight back, with the headers Django's would carry for the poll (ETag, Cache-Control,
Vary, Content-Language) and those of Django's `SecurityMiddleware` (HSTS, nosniff, referrer
and opener policies); anything else (a changed page, a refusal, a host not allowed, a
plain-HTTP request where the site is HTTPS, a database error, a session cookie) is handed to
Django as if the gate were not there, and Django answers it as it always has. The gate decides
nothing itself: the ETag, the visibility check and the 304 are the view's, so a poll gets the
same answer either way, only cheaper.
"""

import logging

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.core import signals
from django.core.handlers.wsgi import WSGIRequest
from django.db import DatabaseError
from django.middleware.security import SecurityMiddleware

from club.middleware import (
    UnchangedPollMiddleware,
    language_headers,
    site_language,
    use_forwarded_client,
)

logger = logging.getLogger(__name__)


class UnchangedPollGate:
    """WSGI middleware around `application` (Django's WSGI handler): see the module."""

    def __init__(self, application):
        self.application = application

    def __call__(self, environ, start_response):
        response = None
        if (environ.get("REQUEST_METHOD") == "GET" and "HTTP_HX_REQUEST" in environ
                and "HTTP_IF_NONE_MATCH" in environ):
            response = self.unchanged(environ)
        if response is None:
            return self.application(environ, start_response)
        start_response(f"{response.status_code} {response.reason_phrase}",
                       list(response.items()))
        return []

    @staticmethod
    def unchanged(environ):
        """The 304 of the poll `environ` when the view's `unchanged_poll` gives one to a
        visitor with no session; else None (Django answers)."""
        try:
            # A copy: WSGIRequest writes the decoded path back into the environ it is given,
            # and Django's handler, should the poll go on to it, decodes the environ again.
            request = WSGIRequest(environ.copy())
            if settings.SESSION_COOKIE_NAME in request.COOKIES:
                return None  # signed in, or may be: the user is part of the ETag
            request.get_host()
            security = SecurityMiddleware(_no_view)  # reads its settings when built
            if security.process_request(request) is not None:
                return None  # plain HTTP where the site is HTTPS: Django's redirect
        except Exception:  # a host not allowed (DisallowedHost), a malformed request: Django's
            return None    # handler answers it as it answers any such request
        signals.request_started.send(sender=UnchangedPollGate, environ=environ)
        try:
            use_forwarded_client(request, settings.TRUSTED_PROXIES)
            request.user = AnonymousUser()
            request.LANGUAGE_CODE = site_language(request)
            response = UnchangedPollMiddleware.unchanged(request)
        except DatabaseError:
            return None  # Django answers it: its 503 while the database is away
        except Exception:
            logger.exception("unchanged poll of %s: left to Django", request.path)
            return None
        finally:
            signals.request_finished.send(sender=UnchangedPollGate)
        if response is None or response.status_code != 304:
            return None
        return security.process_response(request,
                                         language_headers(response, request.LANGUAGE_CODE))


def _no_view(request):
    raise AssertionError("the gate only asks SecurityMiddleware's process_request/response")
