"""The lock-out page (django-axes) says how long the lock lasts: AXES_COOLOFF_MINUTES, with
the right plural in each language."""

import datetime

import pytest
from django.test import Client
from django.urls import reverse

from core.templatetags.durations import whole_minutes

LOCKED = 429  # django-axes' AXES_HTTP_RESPONSE_CODE


def lock_out(client: Client, settings) -> str:
    """Post wrong passwords until the lock-out page answers; return its text."""
    for _attempt in range(settings.AXES_FAILURE_LIMIT):
        response = client.post(reverse("login"), {"username": "maria", "password": "wrong"})
    assert response.status_code == LOCKED
    return " ".join(response.content.decode().split())


@pytest.mark.django_db
@pytest.mark.parametrize(("minutes", "english", "bulgarian"), [
    (15, "Try again in 15 minutes,", "Опитайте пак след 15 минути"),
    (1, "Try again in 1 minute,", "Опитайте пак след 1 минута"),
])
def test_the_lock_out_page_names_the_cool_off_minutes(settings, minutes, english, bulgarian):
    settings.AXES_COOLOFF_TIME = datetime.timedelta(minutes=minutes)
    assert bulgarian in lock_out(Client(), settings)
    client = Client()
    client.cookies["django_language"] = "en"
    page = lock_out(client, settings)
    assert english in page
    assert "quarter" not in page


def test_whole_minutes_rounds_a_part_minute_up():
    assert whole_minutes(datetime.timedelta(minutes=15)) == 15
    assert whole_minutes(datetime.timedelta(seconds=90)) == 2
    assert whole_minutes(None) == 0
