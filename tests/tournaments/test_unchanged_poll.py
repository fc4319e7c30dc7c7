"""An unchanged poll is answered by `club.middleware.UnchangedPollMiddleware`, before the
middleware below it and the view's decorators: the same 304 as the view would give, and only
to a visitor the page would let in (the ETag names the visitor and their rights)."""

from unittest import mock

import pytest
from django.contrib.messages.middleware import MessageMiddleware
from django.test import Client
from django.urls import reverse

from tests.tournaments.test_control_room import event, poll, room, still_clock  # noqa: F401
from tests.tournaments.test_live import POLL, live_page  # noqa: F401
from tests.tournaments.test_table_views import phone, token  # noqa: F401
from tests.tournaments.test_table_views import poll as players_poll
from tournaments import live

pytest_plugins = ["tests.tournaments.table_fixtures"]
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("empty_cache")]


def test_an_unchanged_poll_runs_none_of_the_middleware_below(live_page):  # noqa: F811
    url, _, _ = live_page
    client = Client()
    with mock.patch.object(MessageMiddleware, "process_request", autospec=True,
                           side_effect=MessageMiddleware.process_request) as messages:
        first = client.get(url, **POLL)
        assert messages.call_count == 1  # a poll that renders goes the whole way
        again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"], **POLL)
    assert again.status_code == 304 and again["ETag"] == first["ETag"]
    assert messages.call_count == 1
    assert "HX-Request" in again["Vary"] and "Cookie" in again["Vary"]
    assert again["Cache-Control"] in ("private, no-cache", "no-cache, private")


def test_a_page_loaded_in_full_with_an_etag_is_still_drawn(live_page):  # noqa: F811
    url, _, _ = live_page
    client = Client()
    etag = client.get(url, **POLL)["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 200  # not htmx


def test_the_organisers_etag_gets_a_signed_out_visitor_the_login_page(
        event, organiser_client, still_clock):  # noqa: F811
    etag = poll(organiser_client, event)["ETag"]
    answer = Client().get(room(event), HTTP_IF_NONE_MATCH=etag, **POLL)
    assert answer.status_code == 302
    assert answer["Location"].startswith(reverse("login"))


def test_a_seated_phones_etag_gets_an_unseated_phone_the_question_who_are_you(token):  # noqa: F811
    seated = phone(token, "A")
    etag = players_poll(seated, token)["ETag"]
    assert players_poll(seated, token, etag).status_code == 304
    unseated = Client()
    unseated.cookies["django_language"] = "en"
    answer = players_poll(unseated, token, etag)
    assert answer.status_code == 200
    assert "Who are you?" in answer.content.decode()


def test_the_players_304_says_its_language(token):  # noqa: F811
    seated = phone(token, "B", language="bg")
    etag = players_poll(seated, token)["ETag"]
    answer = players_poll(seated, token, etag)
    assert answer.status_code == 304 and answer["Content-Language"] == "bg"


def test_a_changed_live_poll_works_its_etag_out_once(live_page):  # noqa: F811
    """Asked by the middleware (no 304: the page changed), then by the view: one fingerprint."""
    url, _, _ = live_page
    with mock.patch.object(live, "_page_etag", wraps=live._page_etag) as page_etag:
        answer = Client().get(url, HTTP_IF_NONE_MATCH='"an-older-page"', **POLL)
    assert answer.status_code == 200 and answer["ETag"] != '"an-older-page"'
    assert page_etag.call_count == 1


def test_a_changed_players_poll_works_its_etag_out_once(token):  # noqa: F811
    seated = phone(token, "A")
    with mock.patch.object(live, "players_etag", wraps=live.players_etag) as players_etag:
        answer = players_poll(seated, token, '"an-older-page"')
    assert answer.status_code == 200 and answer["ETag"] != '"an-older-page"'
    assert players_etag.call_count == 1
