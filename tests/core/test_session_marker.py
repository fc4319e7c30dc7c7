"""The session marker (config.middleware.SessionMarkerMiddleware): a logged-in organiser's page
names its session by a marker that is no secret, in `X-Session-Marker`, in its <head>, and in a
cookie scripts may read, which lives as long as the session cookie and goes when the session
ends, however it ends; the service worker shows a kept page only while the markers agree
(static/js/sw.js, tests/core/test_service_worker.py)."""

import re

import pytest
from django.conf import settings
from django.contrib.sessions.models import Session
from django.core.cache import cache
from django.test import Client

pytestmark = pytest.mark.django_db

MARKER = re.compile(r"[0-9a-f]{20}")


@pytest.fixture
def chief(django_user_model):
    return django_user_model.objects.create_superuser("chief", password="pass-chief-1")


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def page_marker(answer) -> str | None:
    found = re.search(r'<meta name="session-marker" content="([^"]*)">', answer.content.decode())
    return found and found[1]


def test_a_logged_in_page_names_its_session_three_ways(chief):
    client = logged_in(chief)
    answer = client.get("/")
    marker = answer.headers["X-Session-Marker"]
    assert MARKER.fullmatch(marker)
    assert page_marker(answer) == marker
    cookie = answer.cookies["session_marker"]
    assert cookie.value == marker
    assert not cookie["httponly"]  # read by the page's scripts and the service worker
    assert cookie["max-age"] == settings.SESSION_COOKIE_AGE  # as long as the session
    assert client.session.session_key not in marker
    assert 'src="/static/js/session_check.js"' in answer.content.decode()
    # Set once: the next page carries the same marker and sets no cookie again.
    again = client.get("/")
    assert again.headers["X-Session-Marker"] == marker
    assert "session_marker" not in again.cookies


def test_a_visitor_has_no_marker():
    answer = Client().get("/")
    assert answer.headers.get("X-Session-Marker", "") == ""
    assert "session_marker" not in answer.cookies
    assert page_marker(answer) is None
    assert "session_check.js" not in answer.content.decode()


def test_each_login_is_a_new_marker(chief):
    first = logged_in(chief).get("/").headers["X-Session-Marker"]
    second = logged_in(chief).get("/").headers["X-Session-Marker"]
    assert first != second


def gone(answer) -> bool:
    cookie = answer.cookies.get("session_marker")
    return cookie is not None and cookie.value == "" and cookie["max-age"] == 0


@pytest.mark.parametrize("address", ["/accounts/logout/", "/admin/logout/"])
def test_a_log_out_takes_the_marker_away(chief, address):
    client = logged_in(chief)
    client.get("/")
    answer = client.post(address)
    assert answer.headers["X-Session-Marker"] == ""
    assert gone(answer)


def test_an_expired_session_takes_the_marker_away_at_the_next_answer(chief):
    client = logged_in(chief)
    client.get("/")
    Session.objects.all().delete()  # expired and cleared on the server
    cache.clear()  # the cached_db engine's copy too
    answer = client.get("/")
    assert answer.headers["X-Session-Marker"] == ""
    assert gone(answer)
    assert page_marker(answer) is None
