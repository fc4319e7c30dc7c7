"""Page query counts do not grow with players or deals (16-player double round robin)."""

import datetime

import pytest
from django.urls import reverse

from club.models import Player
from scoring import rules
from scoring import services as scoring_services
from tournaments import services
from tournaments.models import Pairing, Tournament

pytestmark = pytest.mark.django_db

PAGE_QUERY_LIMIT = 12


def started_tournament(size: int, finished_matches: int) -> Tournament:
    tournament = Tournament.objects.create(
        name=f"Турнир {size}", date=datetime.date(2026, 12, 1),
        format=Tournament.Format.DOUBLE_ROUND_ROBIN,
    )
    for number in range(1, size + 1):
        player = Player.objects.create(name=f"Играч {size}-{number}")
        services.entry_add(tournament=tournament, player=player)
    services.tournament_start(tournament=tournament)
    pairings = Pairing.objects.filter(round__tournament=tournament, match__isnull=False)
    for pairing in pairings.order_by("round__number", "table")[:finished_matches]:
        for points, reason in [(3, "capot"), (2, "schneider"), (1, "won"), (3, "capot"),
                               (2, "schneider")]:
            scoring_services.deal_record(
                match=pairing.match, score=rules.quick_result("A", points, reason), by=None
            )
    return tournament


@pytest.mark.parametrize("size, finished", [(4, 2), (16, 24)])
def test_standings_and_round_pages_use_a_fixed_number_of_queries(
    client, django_assert_max_num_queries, size, finished
):
    tournament = started_tournament(size, finished)
    with django_assert_max_num_queries(PAGE_QUERY_LIMIT):
        assert client.get(reverse("tournaments:standings", args=[tournament.pk])).status_code == 200
    with django_assert_max_num_queries(PAGE_QUERY_LIMIT):
        assert client.get(reverse("tournaments:round", args=[tournament.pk, 1])).status_code == 200
    with django_assert_max_num_queries(PAGE_QUERY_LIMIT):
        assert client.get(tournament.get_absolute_url()).status_code == 200
