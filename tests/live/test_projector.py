"""The projector (`live.views`): one full-screen page per event, no header or
controls, no login for a public event, 404 for a private one except for its organisers; the
round in play with tables and scores, then the standings, or a knockout's bracket; `?every=`
sets the rotation."""

import random

import pytest
from django.test import Client
from django.urls import reverse

from events import services
from events.models import Tournament
from formats.club_night import services as club_nights
from formats.knockout import services as knockout
from live.views.projector import rotation_seconds
from scoring import rules
from scoring.models import Match
from tests.playing import play


@pytest.mark.parametrize(("value", "seconds"), [
    (None, 20), ("", 20), ("30", 30), ("5", 5), ("600", 600), ("4", 20), ("601", 20),
    ("abc", 20), ("-10", 20), ("2.5", 20),
])
def test_rotation_seconds_from_5_to_600_else_20(value, seconds):
    assert rotation_seconds(value) == seconds


def projector(tournament, client=None, query=""):
    return (client or Client()).get(
        reverse("live:projector", args=[tournament.pk]) + query)


@pytest.fixture
def started(tournament) -> Tournament:
    services.tournament_start(tournament=tournament, rng=random.Random(1))
    return tournament


@pytest.mark.django_db
def test_a_public_round_robin_shows_the_round_in_play_then_the_standings(started):
    round_one = Match.objects.filter(pairing__round__tournament=started,
                                     pairing__round__number=1)
    for match in round_one:
        play(match, "A3 A3 A3 A3")  # 12:0, every match of round 1 won by seat A
    response = projector(started)
    assert response.status_code == 200
    html = response.content.decode()
    assert 'class="site-header"' not in html and "<form" not in html
    assert 'data-every="20"' in html
    # Round 1 is over, so round 2 is the one in play: its matches at 0 : 0.
    round_two = started.rounds.get(number=2)
    assert response.context["round"] == round_two
    assert [p.pk for p in response.context["pairings"]] == [
        p.pk for p in round_two.pairings.order_by("table")]
    assert html.count("0 : 0") == round_two.pairings.filter(match__isnull=False).count()
    # Standings: each winner of round 1 played one match and won it.
    winners = {m.player_a.name for m in round_one}
    rows = response.context["standings"]
    assert {row["player"] for row in rows if row["won"] == 1} == winners
    assert 'data-slide="standings"' in html and 'data-slide="bracket"' not in html


@pytest.mark.django_db
def test_every_sets_the_rotation(started):
    assert 'data-every="45"' in projector(started, query="?every=45").content.decode()


@pytest.mark.django_db
def test_a_private_event_is_404_except_for_its_organisers(started, organiser_client,
                                                          outsider_client):
    Tournament.objects.filter(pk=started.pk).update(is_public=False)
    assert projector(started).status_code == 404
    assert projector(started, outsider_client).status_code == 404
    assert projector(started, organiser_client).status_code == 200


@pytest.mark.django_db
def test_a_knockout_shows_its_bracket_not_standings(tournament):
    tournament.format = Tournament.Format.KNOCKOUT
    tournament.save()
    knockout.knockout_start(tournament=tournament, rng=random.Random(1))
    html = projector(tournament).content.decode()
    assert 'data-slide="bracket"' in html and 'data-slide="standings"' not in html
    assert 'id="bracket-board"' in html
    # The board does not poll by itself here: the projector's slides poll as a whole.
    assert html.count("hx-trigger") == 1


@pytest.mark.django_db
def test_a_club_night_shows_only_its_matches_in_play(tournament):
    night = club_nights.club_night_create(
        club=tournament.club, date=tournament.date, name="Вечер",
        organiser=tournament.organisers.get(), house_rules=rules.HouseRules(),
    )
    people = [entry.player for entry in tournament.entries.all()]
    over = club_nights.club_night_pair(night=night, player_a=people[0], player_b=people[1],
                                       table=1, by=None)
    play(over.match, "A3 A3 A3 A3")
    playing = club_nights.club_night_pair(night=night, player_a=people[2],
                                          player_b=people[3], table=2, by=None)
    response = projector(night)
    assert [p.pk for p in response.context["pairings"]] == [playing.pk]


@pytest.mark.django_db
def test_the_event_page_links_to_the_projector_once_started(tournament):
    def linked() -> bool:
        html = Client().get(reverse("events:detail", args=[tournament.pk])).content
        return reverse("live:projector", args=[tournament.pk]) in html.decode()

    assert not linked()
    services.tournament_start(tournament=tournament, rng=random.Random(1))
    assert linked()


@pytest.mark.django_db
def test_the_club_night_page_links_to_the_projector(tournament):
    night = club_nights.club_night_create(
        club=tournament.club, date=tournament.date, name="Вечер",
        organiser=tournament.organisers.get(), house_rules=rules.HouseRules(),
    )
    html = Client().get(reverse("nights:detail", args=[night.pk])).content.decode()
    assert reverse("live:projector", args=[night.pk]) in html
