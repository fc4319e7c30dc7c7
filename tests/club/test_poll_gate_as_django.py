"""The gate (`club.poll_gate`) against Django alone, with the environ a WSGI server builds: a
path Django decodes, a plain-HTTP poll of an HTTPS site, and the security headers of its 304.
Found by trying to break the gate (3 December 2026)."""

import pytest
from django.core import signals
from django.core.handlers.wsgi import WSGIHandler
from django.db import close_old_connections
from django.test import Client, RequestFactory
from django.urls import set_script_prefix

from club.poll_gate import UnchangedPollGate
from club.wsgi import django_application
from tests.club.test_poll_gate import Spy, send
from tests.tournaments.test_live import POLL, live_page  # noqa: F401

pytest_plugins = ["tests.tournaments.table_fixtures"]
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("empty_cache")]


def as_gunicorn(app, path: str, script_name: str = "", **headers):
    """The status of a GET of `path` through `app` with the environ a WSGI server builds: the
    URL's bytes in PATH_INFO / SCRIPT_NAME decoded as ISO-8859-1 (PEP 3333). (RequestFactory's
    own `.environ` has been through WSGIRequest already, so it hides this.) An exception out of
    the application is what gunicorn turns into its bare 500."""
    environ = dict(RequestFactory().get("/", **headers).environ)
    environ["PATH_INFO"] = path.encode().decode("iso-8859-1")
    environ["SCRIPT_NAME"] = script_name.encode().decode("iso-8859-1")
    answer = {}

    def start_response(status, response_headers):
        answer["status"] = int(status.split()[0])

    for signal in (signals.request_started, signals.request_finished):
        signal.disconnect(close_old_connections)
    try:
        b"".join(app(environ, start_response))
    except Exception as error:  # noqa: BLE001
        return f"500 ({error!r})"
    finally:
        for signal in (signals.request_started, signals.request_finished):
            signal.connect(close_old_connections)
        set_script_prefix("/")  # Django's handler keeps a request's prefix for the thread
    return answer["status"]


@pytest.mark.parametrize("path", ["/p/тест/", "/t/1/стойки/"])
def test_a_non_latin1_path_is_djangos_404_not_a_crash(path):
    poll = dict(HTTP_IF_NONE_MATCH='"x"', **POLL)
    assert as_gunicorn(django_application, path, **poll) == 404
    # Were the gate's WSGIRequest given the server's environ itself, it would write the decoded
    # path back into it, and Django's handler would decode it again: UnicodeEncodeError.
    assert as_gunicorn(UnchangedPollGate(django_application), path, **poll) == 404


def test_a_plain_http_poll_is_redirected_as_django_redirects_it(live_page, settings):  # noqa: F811
    url, _, _ = live_page
    etag = Client().get(url, secure=True, **POLL)["ETag"]
    settings.SECURE_SSL_REDIRECT = True  # HTTPS=true: the default once DEBUG is off
    by_django = Client().get(url, HTTP_IF_NONE_MATCH=etag, **POLL)
    assert by_django.status_code == 301
    django_now = WSGIHandler()  # Django's handler, its middleware built with these settings
    assert as_gunicorn(django_now, url, HTTP_IF_NONE_MATCH=etag, **POLL) == 301
    gated = as_gunicorn(UnchangedPollGate(django_now), url, HTTP_IF_NONE_MATCH=etag, **POLL)
    assert gated == 301  # Django's redirect to https, not the gate's 304


def test_a_poll_under_a_non_latin1_prefix_gets_djangos_answer(live_page):  # noqa: F811
    url, _, _ = live_page
    etag = Client().get(url, **POLL)["ETag"]
    poll = dict(HTTP_IF_NONE_MATCH=etag, **POLL)
    by_django = as_gunicorn(django_application, url, script_name="/клуб", **poll)
    assert by_django == 200  # another prefix, another ETag: the page is drawn
    assert as_gunicorn(UnchangedPollGate(django_application), url, script_name="/клуб",
                       **poll) == by_django


def test_the_gates_304_over_https_carries_djangos_security_headers(live_page, settings):  # noqa: F811
    url, _, _ = live_page
    settings.SECURE_HSTS_SECONDS = 31536000
    etag = Client().get(url, secure=True, **POLL)["ETag"]
    gate = UnchangedPollGate(Spy())
    status, headers, body = send(gate, url, secure=True, HTTP_IF_NONE_MATCH=etag, **POLL)
    assert (status, body, gate.application.calls) == (304, b"", 0)  # the gate's own 304
    assert headers["Strict-Transport-Security"] == "max-age=31536000"
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "same-origin"
