"""The event's announcement (`events.announcements`, `events:announcement`): the organiser
sets it from the control room, every live page of the event shows it, clearing it removes it;
a text with a control or invisible character, or too long, is refused with 422 in the user's
language and nothing is written. Only the event's organisers may set it.

The event: the conftest's five-player round robin, started with a fixed draw of lots; round 1
has two matches (tables 1 and 2) and a bye."""

import datetime
import random

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from events import services
from events.announcements import announcement_set
from events.models import Pairing, Tournament
from tableside import table_entry

pytestmark = pytest.mark.django_db

ROUND_3 = "Round 3 starts at 20:15"
ROUND_3_BG = "Кръг 3 започва в 20:15"


@pytest.fixture
def started(tournament) -> Tournament:
    services.tournament_start(tournament=tournament, rng=random.Random(1))
    tournament.refresh_from_db()
    return tournament


def in_language(client: Client, language: str) -> Client:
    client.cookies["django_language"] = language
    return client


def post(client: Client, event: Tournament, text: str):
    return client.post(reverse("events:announcement", args=[event.pk]), {"text": text})


def stored(event: Tournament) -> tuple[str, datetime.datetime | None]:
    event = Tournament.objects.get(pk=event.pk)
    return event.announcement, event.announced_at


def test_the_organiser_sets_it_and_goes_back_to_the_control_room(started, organiser_client):
    before = timezone.now()
    response = post(organiser_client, started, f"  {ROUND_3}  ")
    assert response.status_code == 302
    assert response["Location"] == reverse("control:room", args=[started.pk])
    text, at = stored(started)
    assert text == ROUND_3  # the surrounding spaces go
    assert before <= at <= timezone.now()


def test_clearing_it_removes_it_and_its_time(started, organiser_client):
    post(organiser_client, started, ROUND_3_BG)
    assert stored(started)[0] == ROUND_3_BG
    assert post(organiser_client, started, "").status_code == 302
    assert stored(started) == ("", None)
    assert "data-announcement" not in organiser_client.get(
        reverse("live:projector", args=[started.pk])).content.decode()


def test_the_service_keeps_the_time_it_is_given(started):
    at = datetime.datetime(2026, 12, 5, 18, 40, tzinfo=datetime.UTC)
    announcement_set(tournament=started, text=ROUND_3, by=None, now=at)
    assert stored(started) == (ROUND_3, at)


@pytest.mark.parametrize(("text", "english", "bulgarian"), [
    ("Round 3\x00 starts", "control or invisible character U+0000",
     "управляващия или невидимия знак U+0000"),
    ("Round 3 \u202estarts", "control or invisible character U+202E",
     "управляващия или невидимия знак U+202E"),
    ("x" * 201, "201 characters long; at most 200 fit",
     "дълъг 201 знака; побират се най-много 200"),
])
@pytest.mark.parametrize("language", ["en", "bg"])
def test_a_refused_text_is_422_in_the_users_language_and_writes_nothing(
        started, organiser_client, text, english, bulgarian, language):
    announcement_set(tournament=started, text=ROUND_3, by=None)
    before = stored(started)
    history = started.history.count()
    response = post(in_language(organiser_client, language), started, text)
    assert response.status_code == 422
    page = response.content.decode()
    assert (english if language == "en" else bulgarian) in page
    assert stored(started) == before
    assert started.history.count() == history


def test_two_hundred_characters_fit(started, organiser_client):
    assert post(organiser_client, started, "я" * 200).status_code == 302
    assert stored(started)[0] == "я" * 200


def test_the_service_refuses_before_writing(started):
    with pytest.raises(ValidationError):
        announcement_set(tournament=started, text="a\u202eb", by=None)
    assert stored(started) == ("", None)


def test_only_its_organisers_may_set_it(started, outsider_client):
    assert post(Client(), started, ROUND_3).status_code == 302  # to the log-in page
    assert post(outsider_client, started, ROUND_3).status_code == 403
    assert stored(started) == ("", None)


def test_the_control_room_offers_the_form_with_the_current_text(started, organiser_client):
    announcement_set(tournament=started, text=ROUND_3, by=None)
    page = organiser_client.get(reverse("control:room", args=[started.pk])).content.decode()
    assert f'action="{reverse("events:announcement", args=[started.pk])}"' in page
    assert f'value="{ROUND_3}"' in page


def test_every_live_page_of_the_event_shows_it(started, organiser_client):
    announcement_set(tournament=started, text=ROUND_3_BG, by=None)
    match = Pairing.objects.get(round__tournament=started, round__number=1, table=1).match
    token = table_entry.table_of(match).token
    phone = Client()
    assert phone.post(f"/p/{token}/seat/", {"seat": "A"}).status_code == 302
    pages = {
        "projector": Client().get(reverse("live:projector", args=[started.pk])),
        "round": Client().get(reverse("events:round", args=[started.pk, 1])),
        "standings": Client().get(reverse("standings:standings", args=[started.pk])),
        "match (public)": Client().get(reverse("matches:entry", args=[match.pk])),
        "match (organiser)": organiser_client.get(reverse("matches:entry", args=[match.pk])),
        "control room": organiser_client.get(reverse("control:room", args=[started.pk])),
        "players' link": phone.get(f"/p/{token}/"),
    }
    for kind, response in pages.items():
        assert response.status_code == 200, kind
        page = response.content.decode()
        assert "data-announcement" in page and ROUND_3_BG in page, kind


def test_the_live_parts_carry_it_too(started, organiser_client):
    """What a live region fetches again (an htmx GET) holds the announcement: the pages show
    it without a reload."""
    announcement_set(tournament=started, text=ROUND_3, by=None)
    match = Pairing.objects.get(round__tournament=started, round__number=1, table=1).match
    htmx = {"HTTP_HX_REQUEST": "true"}
    for url in (reverse("live:projector", args=[started.pk]),
                reverse("events:round", args=[started.pk, 1]),
                reverse("standings:standings", args=[started.pk]),
                reverse("matches:entry", args=[match.pk])):
        page = organiser_client.get(url, **htmx).content.decode()
        assert "<html" not in page and ROUND_3 in page, url
