"""Live pages (`live.versions`): an htmx poll of the match page, a round, the standings, the
bracket, a club night and the projector carries an ETag; the same poll with that ETag in
If-None-Match is a 304 with no body after at most three queries; a deal entered, the language
or the visitor (organiser or not) gives another ETag. A page loaded in full is not conditional."""

import random

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from events import services
from events.models import Tournament
from formats.club_night import services as club_nights
from formats.knockout import services as knockout
from scoring import rules
from scoring import services as scoring_services
from scoring.models import Match

pytestmark = pytest.mark.django_db

POLL = {"HTTP_HX_REQUEST": "true"}


def round_robin(tournament) -> tuple[Tournament, Match]:
    services.tournament_start(tournament=tournament, rng=random.Random(1))
    return tournament, Match.objects.filter(pairing__round__tournament=tournament).first()


def knockout_cup(tournament) -> tuple[Tournament, Match]:
    tournament.format = Tournament.Format.KNOCKOUT
    tournament.save()
    knockout.knockout_start(tournament=tournament, rng=random.Random(1))
    return tournament, Match.objects.filter(pairing__round__tournament=tournament).first()


def club_night(tournament) -> tuple[Tournament, Match]:
    night = club_nights.club_night_create(
        club=tournament.club, date=tournament.date, name="Клубна вечер",
        organiser=tournament.organisers.get(), house_rules=rules.HouseRules(),
    )
    entries = list(tournament.entries.select_related("player"))
    pairing = club_nights.club_night_pair(
        night=night, player_a=entries[0].player, player_b=entries[1].player, table=1, by=None
    )
    return night, pairing.match


# page -> (how the event is built, the address of its live page)
PAGES = {
    "standings": (round_robin, lambda t, m: reverse("standings:standings", args=[t.pk])),
    "round": (round_robin, lambda t, m: reverse("events:round", args=[t.pk, 1])),
    "match": (round_robin, lambda t, m: reverse("matches:entry", args=[m.pk])),
    "bracket": (knockout_cup, lambda t, m: reverse("knockout:bracket", args=[t.pk])),
    "night": (club_night, lambda t, m: reverse("nights:detail", args=[t.pk])),
    "projector": (round_robin, lambda t, m: reverse("live:projector", args=[t.pk])),
    "projector, knockout": (
        knockout_cup, lambda t, m: reverse("live:projector", args=[t.pk])),
}


@pytest.fixture(params=list(PAGES))
def live_page(request, tournament) -> tuple[str, Tournament, Match]:
    build, address = PAGES[request.param]
    event, match = build(tournament)
    return address(event, match), event, match


def deal(match: Match) -> None:
    """Seat A wins a deal for 2 game points (a schneider)."""
    scoring_services.deal_record(match=match, score=rules.quick_result("A", 2, "schneider"),
                                 by=None)


def test_an_unchanged_poll_is_a_304_with_no_body(live_page):
    url, _, _ = live_page
    client = Client()
    first = client.get(url, **POLL)
    assert first.status_code == 200
    assert first["Cache-Control"] in ("private, no-cache", "no-cache, private")
    assert "HX-Request" in first["Vary"]
    again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"], **POLL)
    assert again.status_code == 304
    assert again.content == b""
    assert again["ETag"] == first["ETag"]


def test_a_deal_entered_changes_the_etag(live_page):
    url, _, match = live_page
    client = Client()
    before = client.get(url, **POLL)["ETag"]
    deal(match)
    after = client.get(url, HTTP_IF_NONE_MATCH=before, **POLL)
    assert after.status_code == 200
    assert after["ETag"] != before


def test_each_language_has_its_own_etag(live_page):
    url, _, _ = live_page
    bulgarian, english = Client(), Client()
    english.cookies["django_language"] = "en"
    etag = bulgarian.get(url, **POLL)["ETag"]
    assert english.get(url, **POLL)["ETag"] != etag
    assert english.get(url, HTTP_IF_NONE_MATCH=etag, **POLL).status_code == 200


def test_an_organiser_and_a_spectator_have_different_etags(live_page, organiser_client):
    url, _, _ = live_page
    etag = Client().get(url, **POLL)["ETag"]
    assert organiser_client.get(url, **POLL)["ETag"] != etag
    assert organiser_client.get(url, HTTP_IF_NONE_MATCH=etag, **POLL).status_code == 200


@pytest.mark.parametrize("who", ["spectator", "organiser"])
def test_an_unchanged_poll_costs_one_query(live_page, who, organiser_client):
    url, _, _ = live_page
    client = organiser_client if who == "organiser" else Client()
    etag = client.get(url, **POLL)["ETag"]
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url, HTTP_IF_NONE_MATCH=etag, **POLL)
    assert response.status_code == 304
    # The version query alone, and an organiser's user (the session comes from the cache).
    assert len(queries) == (2 if who == "organiser" else 1), [q["sql"] for q in queries]


def test_a_page_loaded_in_full_is_rendered_every_time(live_page):
    url, _, _ = live_page
    response = Client().get(url)
    assert response.status_code == 200
    assert not response.has_header("ETag")
    assert b"data-live" in response.content


def test_a_private_event_polled_by_a_visitor_is_404_and_tells_no_etag(live_page, outsider_client,
                                                                      organiser_client):
    url, event, _ = live_page
    Tournament.objects.filter(pk=event.pk).update(is_public=False)
    for client in (Client(), outsider_client):
        response = client.get(url, **POLL)
        assert response.status_code == 404
        assert not response.has_header("ETag")
    assert organiser_client.get(url, **POLL).status_code == 200
