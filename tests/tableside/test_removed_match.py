"""A deal posted from a stale page to a knockout match that a correction upstream removed:
409 with the "match removed" message (both languages), never a 404 page or a 500, and nothing
written. Anyone who may not organise the event still gets 404 (nothing said about it).

Six players (the bracket of test_knockout_services): quarterfinal 4-5 is table 1 of round 1;
its winner meets seed 1 in semifinal 1. 4 wins 11:0, the semifinal 1 v 4 gets its match; then
the organiser undoes the quarterfinal's last deal: the semifinal has no deal yet, so its match
is removed at once.
"""

import datetime
import random

import pytest
from django.urls import reverse

from club.models import Player
from events.models import Entry, Tournament
from formats.knockout import services as knockout
from scoring import services as scoring_services
from scoring.models import Deal, Match
from tests.formats.test_knockout_services import NAMES, at, play

pytestmark = pytest.mark.django_db

REMOVED_EN = "This match no longer exists: a correction earlier in the bracket removed it."
REMOVED_BG = "Този мач вече не съществува: поправка по-рано в схемата го премахна."
DEAL = {"winner": "A", "reason": "won", "number": 1}
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def running(organiser, home_club) -> Tournament:
    """The organiser's six-player knockout, started."""
    tournament = Tournament.objects.create(
        name="Купа на клуба", date=datetime.date(2026, 12, 12), club=home_club,
        format=Tournament.Format.KNOCKOUT,
    )
    tournament.organisers.add(organiser)
    for seed, name in enumerate(NAMES[:6], start=1):
        player = Player.objects.create(name=name, club=home_club)
        Entry.objects.create(tournament=tournament, number=seed, player=player)
    knockout.knockout_start(tournament=tournament, rng=random.Random(1))
    return tournament


def semifinal_after_quarterfinal(tournament) -> Match:
    quarterfinal = at(tournament, 1, 1).match
    play(quarterfinal, "A")
    return at(tournament, 2, 0).match


def undo_quarterfinal(tournament) -> None:
    scoring_services.deal_undo_last(match=at(tournament, 1, 1).match, by=None)


def test_a_deal_for_a_match_removed_upstream_is_409_with_the_message(organiser_client,
                                                                      running):
    semifinal = semifinal_after_quarterfinal(running)
    undo_quarterfinal(running)
    assert not Match.objects.filter(pk=semifinal.pk).exists()
    url = reverse("matches:deal_add", args=[semifinal.pk])

    for language, message in [("en", REMOVED_EN), ("bg", REMOVED_BG)]:
        organiser_client.cookies["django_language"] = language
        response = organiser_client.post(url, DEAL)
        assert response.status_code == 409
        html = response.content.decode()
        assert message in html
        assert reverse("knockout:bracket", args=[running.pk]) in html

    response = organiser_client.post(url, DEAL, **HTMX)
    assert response.status_code == 409
    assert 'id="match-panel"' in response.content.decode()  # replaces the stale panel
    assert not Deal.objects.filter(match_id=semifinal.pk).exists()


def test_an_undo_for_a_match_removed_upstream_is_409_too(organiser_client, running):
    semifinal = semifinal_after_quarterfinal(running)
    undo_quarterfinal(running)
    organiser_client.cookies["django_language"] = "en"
    response = organiser_client.post(
        reverse("matches:deal_undo", args=[semifinal.pk]), {"number": 1}
    )
    assert response.status_code == 409
    assert REMOVED_EN in response.content.decode()


def test_a_removed_match_is_still_404_for_an_outsider(outsider_client, running):
    semifinal = semifinal_after_quarterfinal(running)
    undo_quarterfinal(running)
    response = outsider_client.post(reverse("matches:deal_add", args=[semifinal.pk]), DEAL)
    assert response.status_code == 404
