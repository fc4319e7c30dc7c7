"""Page query counts do not grow with players or deals (16-player double round robin), and
what an htmx deal post costs, query by query."""

import datetime
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
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


def test_an_htmx_deal_post_costs_five_queries(organiser, organiser_client, home_club):
    """Deal 3 of a running match, posted with htmx from a page that lists deals 1 and 2, as
    the quick form sends it. Counted by hand (scoring.services.deal_record_locked,
    tournaments.access.pairing_for_organiser_locked, views.matches._deal_saved):

    1. the match row locked, with its players, pairing, round, tournament and whether the user
       organises it (the access check and the lock in one query);
    2. the match's deals (winner, game points, reason), which the rules score;
    3. the new deal inserted;
    4. its history row (django-simple-history: who entered it);
    5. the match's score updated.

    Nothing more: the session and the user come from the cache (cached_db sessions,
    club.auth.CachedModelBackend), the answer is drawn from what the service returns (the
    new row and its change of the history, the chances line left as the page has it). The
    view's transaction is a savepoint here, inside the test's own transaction (SAVEPOINT and
    RELEASE, not queries; on a server, its BEGIN and COMMIT)."""
    tournament = started_tournament(4, 0)
    tournament.organisers.add(organiser)
    match = Pairing.objects.filter(round__tournament=tournament, match__isnull=False).first().match
    for seat in "AB":
        scoring_services.deal_record(match=match, score=rules.quick_result(seat, 1, "won"),
                                     by=organiser)
    page = organiser_client.get(reverse("matches:entry", args=[match.pk])).content.decode()
    shown = re.search(r'name="shown" value="([0-9a-f]+)"', page).group(1)
    with CaptureQueriesContext(connection) as queries:
        response = organiser_client.post(
            reverse("matches:deal_add", args=[match.pk]),
            {"number": 3, "winner": "A", "reason": "won", "shown": shown},
            HTTP_HX_REQUEST="true",
        )
    assert response["HX-Retarget"] == "#match-head"  # the lean answer, not the whole panel
    sql = [query["sql"] for query in queries.captured_queries]
    assert [statement.split()[0] for statement in sql] == [
        "SAVEPOINT", "SELECT", "SELECT", "INSERT", "INSERT", "UPDATE", "RELEASE",
    ]
    tables = [re.findall(r'(?:FROM|INTO|UPDATE) "(\w+)"', statement)[-1]
              for statement in sql[1:6]]  # the last: the lock's access check is a subquery
    assert tables == [
        "scoring_match", "scoring_deal", "scoring_deal", "scoring_historicaldeal",
        "scoring_match",
    ]
    assert "tournaments_tournament_organisers" in sql[1]  # the access check, in the lock
    if connection.features.has_select_for_update:  # PostgreSQL; SQLite locks the whole file
        assert sql[1].endswith('FOR UPDATE OF "scoring_match"')
