"""The gate in front of Django's handler (`club.poll_gate`): an unchanged poll of a visitor
without a session is the same 304 Django gives, without Django's handler; every other request
is Django's to answer, and Django answers it as before."""

import ipaddress
from unittest import mock

import pytest
from django.core import signals
from django.core.cache import cache
from django.core.handlers.wsgi import WSGIHandler
from django.db import OperationalError, close_old_connections
from django.test import Client, RequestFactory

from club.poll_gate import UnchangedPollGate
from tests.tournaments.test_live import POLL, deal, live_page  # noqa: F401
from tests.tournaments.test_table_views import phone, token  # noqa: F401
from tests.tournaments.test_table_views import poll as players_poll
from tournaments import live
from tournaments.views.table import GUESS_LIMIT

pytest_plugins = ["tests.tournaments.table_fixtures"]
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("empty_cache")]


class Spy:
    """Django's WSGI application, counting the requests the gate hands to it. Its middleware
    is built at the first request, with the settings the test has set by then (as a server
    builds it at its first request with the site's)."""

    def __init__(self):
        self.calls = 0
        self.django = None

    def __call__(self, environ, start_response):
        self.calls += 1
        if self.django is None:
            self.django = WSGIHandler()
        return self.django(environ, start_response)


def send(gate, url: str, **headers) -> tuple[int, dict, bytes]:
    """(status code, headers, body) of a GET of `url` through `gate`, as gunicorn calls it,
    but with the test's database connection kept open, as Django's test client keeps it (a
    request's end closes it otherwise)."""
    environ = RequestFactory().get(url, **headers).environ
    answer = {}

    def start_response(status, response_headers):
        answer["status"] = int(status.split()[0])
        answer["headers"] = dict(response_headers)

    for signal in (signals.request_started, signals.request_finished):
        signal.disconnect(close_old_connections)
    try:
        response = gate(environ, start_response)
        body = b"".join(response)
        getattr(response, "close", lambda: None)()
    finally:
        for signal in (signals.request_started, signals.request_finished):
            signal.connect(close_old_connections)
    return answer["status"], answer["headers"], body


def cookies(client: Client) -> str:
    return "; ".join(f"{name}={morsel.value}" for name, morsel in client.cookies.items())


@pytest.fixture
def gate():
    return UnchangedPollGate(Spy())


def test_an_unchanged_spectators_poll_is_answered_without_django(gate, live_page):  # noqa: F811
    url, _, _ = live_page
    status, first, _ = send(gate, url, **POLL)
    assert status == 200 and gate.application.calls == 1  # a poll that renders: Django's
    status, headers, body = send(gate, url, HTTP_IF_NONE_MATCH=first["ETag"], **POLL)
    assert (status, body, gate.application.calls) == (304, b"", 1)
    assert headers["ETag"] == first["ETag"]
    assert headers["Cache-Control"] in ("private, no-cache", "no-cache, private")
    assert {"HX-Request", "Cookie"} <= {v.strip() for v in headers["Vary"].split(",")}
    assert headers["Content-Language"] == "bg"  # the site's language: no cookie chose another


def test_the_gates_304_is_the_one_django_gives(gate, live_page):  # noqa: F811
    url, _, _ = live_page
    client = Client()
    etag = client.get(url, **POLL)["ETag"]
    by_django = client.get(url, HTTP_IF_NONE_MATCH=etag, **POLL)
    status, headers, _ = send(gate, url, HTTP_IF_NONE_MATCH=etag, **POLL)
    assert (status, headers["ETag"]) == (by_django.status_code, by_django["ETag"]) == (304, etag)
    assert gate.application.calls == 0


def test_a_changed_page_is_djangos_to_draw(gate, live_page):  # noqa: F811
    url, _, match = live_page
    _, first, _ = send(gate, url, **POLL)
    deal(match)
    status, headers, body = send(gate, url, HTTP_IF_NONE_MATCH=first["ETag"], **POLL)
    assert status == 200 and headers["ETag"] != first["ETag"] and body
    assert gate.application.calls == 2


def test_a_poll_with_a_session_cookie_is_djangos(gate, live_page, organiser_client):  # noqa: F811
    url, _, _ = live_page
    etag = organiser_client.get(url, **POLL)["ETag"]
    status, _, _ = send(gate, url, HTTP_IF_NONE_MATCH=etag, HTTP_COOKIE=cookies(organiser_client),
                        **POLL)
    assert status == 304 and gate.application.calls == 1  # Django's own 304, for the organiser


def test_a_private_events_page_is_refused_by_django(gate, live_page):  # noqa: F811
    url, event, _ = live_page
    etag = Client().get(url, **POLL)["ETag"]
    event.is_public = False
    event.save()
    status, _, _ = send(gate, url, HTTP_IF_NONE_MATCH=etag, **POLL)
    assert status == 404 and gate.application.calls == 1


def test_a_host_not_allowed_is_left_to_django(gate, live_page, settings):  # noqa: F811
    url, _, _ = live_page
    settings.ALLOWED_HOSTS = ["club.example"]
    etag = Client(HTTP_HOST="club.example").get(url, **POLL)["ETag"]
    headers = dict(HTTP_IF_NONE_MATCH=etag, HTTP_HOST="evil.example", **POLL)
    status, _, _ = send(gate, url, **headers)
    assert gate.application.calls == 1
    assert status == Client().get(url, **headers).status_code


def test_while_the_database_fails_django_answers(gate, live_page):  # noqa: F811
    url, _, _ = live_page
    etag = Client().get(url, **POLL)["ETag"]
    with mock.patch.object(live, "_version", side_effect=OperationalError("gone")):
        status, _, _ = send(gate, url, HTTP_IF_NONE_MATCH=etag, **POLL)
    assert status == 503 and gate.application.calls == 1


def test_a_seated_phones_unchanged_poll_passes_the_gate_in_the_links_language(gate, token):  # noqa: F811
    seated = phone(token, "A", language="en")
    etag = players_poll(seated, token)["ETag"]
    status, headers, _ = send(gate, f"/p/{token}/", HTTP_IF_NONE_MATCH=etag,
                              HTTP_COOKIE=cookies(seated), **POLL)
    assert (status, headers["ETag"], gate.application.calls) == (304, etag, 0)
    assert headers["Content-Language"] == "en"


def test_a_wrong_token_goes_to_django_and_counts_as_a_guess(gate, token):  # noqa: F811
    status, _, _ = send(gate, "/p/a-wrong-token-number-00/", HTTP_IF_NONE_MATCH='"any"', **POLL)
    assert status == 404 and gate.application.calls == 1
    assert cache.get("players:wrong-tokens:127.0.0.1") == 1


def test_behind_a_proxy_the_guess_limit_is_the_forwarded_visitors(gate, settings, token):  # noqa: F811
    settings.TRUSTED_PROXIES = [ipaddress.ip_network("127.0.0.1")]
    seated = phone(token, "B", language="en")
    etag = players_poll(seated, token)["ETag"]
    cache.set("players:wrong-tokens:198.51.100.7", GUESS_LIMIT)
    headers = dict(HTTP_IF_NONE_MATCH=etag, HTTP_COOKIE=cookies(seated), **POLL)
    status, _, _ = send(gate, f"/p/{token}/", HTTP_X_FORWARDED_FOR="198.51.100.7", **headers)
    assert status == 429 and gate.application.calls == 1  # the guesser: Django refuses it
    status, _, _ = send(gate, f"/p/{token}/", HTTP_X_FORWARDED_FOR="203.0.113.9", **headers)
    assert status == 304 and gate.application.calls == 1  # another visitor: the gate's 304
