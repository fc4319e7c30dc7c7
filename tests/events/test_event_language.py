"""An event's language (`Tournament.language`): chosen on the tournament and club night forms,
shown on the event page; the players' link pages speak it unless the visitor chose a language
with the site's switch (the language cookie); the browser's Accept-Language counts for nothing."""

import datetime

import pytest
from django.test import Client
from django.urls import reverse

from events.models import EntryMode, Tournament
from formats.club_night import services as club_nights
from scoring import rules
from tableside import table_entry
from tests.events.test_setup_views import NEW_TOURNAMENT

pytest_plugins = ["tests.tableside.table_fixtures"]

pytestmark = pytest.mark.django_db

WHO_EN, WHO_BG = "Who are you?", "Кой сте вие?"


def set_language(tournament, language):
    tournament.language = language
    tournament.save(update_fields=["language"])


def link_page(token, cookie=None, accept="en"):
    client = Client(HTTP_ACCEPT_LANGUAGE=accept)
    if cookie:
        client.cookies["django_language"] = cookie
    return client.get(f"/p/{token}/")


def test_a_new_event_speaks_the_sites_language(tournament, settings):
    assert settings.LANGUAGE_CODE == "bg"
    assert tournament.language == "bg"


def test_a_bulgarian_events_link_is_bulgarian_for_an_english_browser(started, match):
    token = table_entry.table_of(match).token
    response = link_page(token, accept="en-GB,en;q=0.9")
    page = response.content.decode()
    assert WHO_BG in page and WHO_EN not in page
    assert '<html lang="bg">' in page and response["Content-Language"] == "bg"


def test_an_english_events_link_is_english_without_a_cookie(started, match):
    set_language(started, "en")
    token = table_entry.table_of(match).token
    response = link_page(token, accept="bg")
    page = response.content.decode()
    assert WHO_EN in page and WHO_BG not in page
    assert '<html lang="en">' in page and response["Content-Language"] == "en"


@pytest.mark.parametrize("event, cookie, expected", [
    ("bg", "en", WHO_EN), ("en", "bg", WHO_BG), ("en", "xx", WHO_EN),
])
def test_the_visitors_own_choice_wins(started, match, event, cookie, expected):
    set_language(started, event)
    token = table_entry.table_of(match).token
    assert expected in link_page(token, cookie=cookie).content.decode()


def test_the_link_speaks_the_events_language_after_a_post_too(started, match):
    # The seat chosen: the match page and its refusal ("sign before the end") in English.
    set_language(started, "en")
    token = table_entry.table_of(match).token
    client = Client()
    assert client.post(f"/p/{token}/seat/", {"seat": "A"}).status_code == 302
    page = client.get(f"/p/{token}/").content.decode()
    assert "This phone:" in page
    refused = client.post(f"/p/{token}/sign/", {"seat": "A"})
    assert refused.status_code == 409
    assert "The match is not over yet (0:0, the game is to 11)" in refused.content.decode()


def test_a_wrong_token_answers_in_the_sites_language(started, match):
    page = link_page("A" * 32).content.decode()
    assert "No such match link" not in page  # the site's own language, Bulgarian


def test_the_tournament_form_stores_the_language_and_the_page_shows_it(organiser_client):
    response = organiser_client.post(reverse("events:create"),
                                     dict(NEW_TOURNAMENT, language="en"))
    assert response.status_code == 302
    tournament = Tournament.objects.get(name="Купа Варна")
    assert tournament.language == "en"
    organiser_client.cookies["django_language"] = "en"
    page = organiser_client.get(tournament.get_absolute_url()).content.decode()
    assert "Language of the players’ links and scorecards: English" in page


def test_an_older_form_without_the_language_keeps_it(organiser_client, tournament):
    set_language(tournament, "en")
    data = dict(NEW_TOURNAMENT, name=tournament.name)
    response = organiser_client.post(reverse("events:edit", args=[tournament.pk]), data)
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.language == "en"


def test_an_unknown_language_is_refused_on_the_form(organiser_client):
    response = organiser_client.post(reverse("events:create"),
                                     dict(NEW_TOURNAMENT, language="de"))
    assert response.status_code in (200, 422)
    assert not Tournament.objects.filter(name="Купа Варна").exists()


def test_the_club_night_form_stores_the_language(organiser_client, home_club):
    response = organiser_client.post(reverse("nights:create"), {
        "date": "2026-12-18", "name": "Петъчна вечер", "rules": "default", "language": "en",
        "club": home_club.pk,
    })
    assert response.status_code == 302
    night = Tournament.objects.get(name="Петъчна вечер")
    assert night.language == "en"
    page = organiser_client.get(reverse("nights:detail", args=[night.pk])).content.decode()
    assert "Английски" in page  # the organiser's page in Bulgarian names the event's language


def test_a_club_night_without_a_language_speaks_the_sites(organiser, home_club, players):
    night = club_nights.club_night_create(
        club=home_club, date=datetime.date(2026, 12, 11), name="Вечер", organiser=organiser,
        house_rules=rules.HouseRules(),
        entry_mode=EntryMode.PLAYERS_SIGN,
    )
    assert night.language == "bg"
