"""The site's middleware (config.middleware): an unreachable database is a 503 with Retry-After in
the visitor's language, never a 500."""

import socket

import pytest
from django.db import InterfaceError, OperationalError, connection
from django.test import Client
from django.urls import path

from config.middleware import RETRY_AFTER_SECONDS, database_unavailable
from tests.services import require_postgresql

REFUSED = 'connection to server at "127.0.0.1", port 5432 failed: Connection refused'


def db_down(request):
    raise OperationalError(REFUSED)


def connection_closed(request):
    raise InterfaceError("connection already closed")


def sqlite_locked(request):
    raise OperationalError("database is locked")


def broken(request):
    raise ValueError("a bug, not the database")


urlpatterns = [
    path("down/", db_down),
    path("closed/", connection_closed),
    path("locked/", sqlite_locked),
    path("broken/", broken),
]

BUSY = {
    "bg": "Базата данни на сайта не отговаря в момента (може би се рестартира или е заета). "
          "Опитайте отново след 10 секунди.",
    "en": "The site's database is not answering just now (it may be restarting or busy). "
          "Try again in 10 seconds.",
}


def answer(url, language=None, **headers):
    client = Client(raise_request_exception=False)
    if language:
        client.cookies["django_language"] = language
    return client.get(url, **headers)


def text(response) -> str:
    return response.content.decode().replace("&#x27;", "'")


def test_retry_after_is_ten_seconds():
    assert RETRY_AFTER_SECONDS == 10


@pytest.mark.urls(__name__)
@pytest.mark.parametrize("url", ["/down/", "/closed/", "/locked/"])
def test_a_view_that_meets_no_database_answers_503_in_bulgarian(url):
    # No database mark: the 503 page itself must ask the database nothing.
    response = answer(url)
    assert response.status_code == 503
    assert response["Retry-After"] == "10"
    assert response["Content-Language"] == "bg"
    assert "no-cache" in response["Cache-Control"]
    html = text(response)
    assert '<html lang="bg">' in html
    assert "Сървърът е зает" in html
    assert BUSY["bg"] in html


@pytest.mark.urls(__name__)
def test_the_503_speaks_the_visitors_language():
    response = answer("/down/", language="en")
    assert response.status_code == 503
    assert response["Content-Language"] == "en"
    assert BUSY["en"] in text(response)
    assert BUSY["bg"] not in text(response)


@pytest.mark.urls(__name__)
def test_an_htmx_post_gets_the_503_too():
    client = Client(raise_request_exception=False, enforce_csrf_checks=False)
    response = client.post("/down/", {"number": 3}, HTTP_HX_REQUEST="true")
    assert response.status_code == 503
    assert response["Retry-After"] == "10"


@pytest.mark.urls(__name__)
def test_any_other_error_is_still_a_500():
    assert answer("/broken/").status_code == 500


@pytest.mark.parametrize("error, unavailable", [
    (OperationalError(REFUSED), True),
    (OperationalError("server closed the connection unexpectedly"), True),
    (OperationalError("database is locked"), True),
    (InterfaceError("connection already closed"), True),
    (OperationalError("no such table: tournaments_tournament"), False),  # a missing migration
    (OperationalError("no such column: scoring_deal.details"), False),
    (ValueError("x"), False),
])
def test_which_errors_mean_the_database_is_unavailable(error, unavailable):
    assert database_unavailable(error) is unavailable


class QueryBeforeTheView:
    """A middleware whose own query meets an unreachable database (outside any view)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        raise OperationalError(REFUSED)


def test_outside_a_view_the_500_handler_answers_503(settings):
    settings.DEBUG = False
    settings.MIDDLEWARE = [*settings.MIDDLEWARE, f"{__name__}.QueryBeforeTheView"]
    response = answer("/", language="en")
    assert response.status_code == 503
    assert response["Retry-After"] == "10"
    assert BUSY["en"] in text(response)


@pytest.mark.django_db
def test_every_page_loads_the_busy_note_from_a_file_with_the_sentence_in_its_language(client):
    html = client.get("/").content.decode()
    assert (
        '<script src="/static/js/server_busy.js" data-message="Не е записано: сървърът е '
        'зает. Натиснете бутона отново след малко." defer></script>' in html
    )
    client.cookies["django_language"] = "en"
    html = client.get("/").content.decode()
    assert 'data-message="Not saved: the server is busy. Tap the button again in a moment."' in html


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]  # free once the socket is closed: nothing listens


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_postgresql_out_of_reach_is_a_503(client):
    require_postgresql()
    port, options = connection.settings_dict["PORT"], connection.settings_dict["OPTIONS"]
    pooled = options.pop("pool", None)  # the pool's open connections would still answer
    connection.close()
    connection.close_pool()
    connection.settings_dict["PORT"] = closed_port()
    try:
        response = client.get("/")  # the home page lists the tournaments: its query fails
    finally:
        connection.close()
        connection.settings_dict["PORT"] = port
        if pooled is not None:
            options["pool"] = pooled
    assert response.status_code == 503
    assert response["Retry-After"] == "10"
    assert BUSY["bg"] in text(response)
