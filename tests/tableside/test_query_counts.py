"""Page query counts do not grow with players or deals (16-player double round robin); an
unchanged live poll and an htmx deal post cost the queries counted by hand."""

import datetime
import re

import pytest
from django.db import connection
from django.test import Client, TestCase
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from club.models import Player
from events import services
from events.models import EntryMode, Pairing, Tournament
from scoring import rules
from scoring import services as scoring_services
from tableside import table_entry

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
        assert client.get(reverse("standings:standings", args=[tournament.pk])).status_code == 200
    with django_assert_max_num_queries(PAGE_QUERY_LIMIT):
        assert client.get(reverse("events:round", args=[tournament.pk, 1])).status_code == 200
    with django_assert_max_num_queries(PAGE_QUERY_LIMIT):
        assert client.get(tournament.get_absolute_url()).status_code == 200


# --- the players' page, counted by hand -------------------------------------------------


def _seated_phone(tournament) -> tuple[Client, str]:
    """A phone at table 1 of round 1 of `tournament` (its players enter: players_sign), seat A
    chosen; the page's address."""
    tournament.entry_mode = EntryMode.PLAYERS_SIGN
    tournament.save(update_fields=["entry_mode"])
    match = Pairing.objects.get(round__tournament=tournament, round__number=1, table=1).match
    token = table_entry.table_of(match).token
    phone = Client()
    assert phone.post(f"/p/{token}/seat/", {"seat": "A"}).status_code == 302
    return phone, f"/p/{token}/"


def test_the_phone_page_reads_five_queries(django_assert_num_queries):
    """The link with its match and players, the event's mode and language, the deals, the
    pairing with its round and event, and whether the organiser corrected a deal (the
    corrections the players read); the match's version comes with the match."""
    phone, url = _seated_phone(started_tournament(4, 2))
    with django_assert_num_queries(5):
        response = phone.get(url)
    assert response.status_code == 200 and b"sse-connect=" in response.content


def test_an_htmx_deal_post_costs_eight_queries(organiser, organiser_client, home_club):
    """Deal 3 of a running match, posted with htmx from a page that lists deals 1 and 2, as
    the quick form sends it. Counted by hand (scoring.services.deal_record_locked,
    events.access.pairing_for_organiser_locked, views.matches._deal_saved):

    0. the signed-in user (the session comes from the cache);
    1. the match row locked, with its players, pairing, round, tournament and whether the user
       organises it (the access check and the lock in one query);
    2. the match's deals (winner, game points, reason), which the rules score;
    3. the new deal inserted;
    4. its history row (django-simple-history: who entered it);
    5. the match's score updated;
    and once that has committed, in a short transaction of its own:
    6. 7. the match's and its event's versions moved on (`events.versions`: what the live
       pages' streams follow), and on PostgreSQL a NOTIFY that wakes their watchers.

    Nothing more: the answer is drawn from what the service returns (the
    new row and its change of the history, the chances line left as the page has it). The
    transactions are savepoints here, inside the test's own transaction (SAVEPOINT and
    RELEASE, not queries; on a server, BEGIN and COMMIT), and the commit's callbacks run when
    the request is over."""
    tournament = started_tournament(4, 0)
    tournament.organisers.add(organiser)
    match = Pairing.objects.filter(round__tournament=tournament, match__isnull=False).first().match
    for seat in "AB":
        scoring_services.deal_record(match=match, score=rules.quick_result(seat, 1, "won"),
                                     by=organiser)
    page = organiser_client.get(reverse("matches:entry", args=[match.pk])).content.decode()
    shown = re.search(r'name="shown" value="([0-9a-f]+)"', page).group(1)
    with (CaptureQueriesContext(connection) as queries,
          TestCase.captureOnCommitCallbacks(execute=True)):
        response = organiser_client.post(
            reverse("matches:deal_add", args=[match.pk]),
            {"number": 3, "winner": "A", "reason": "won", "shown": shown},
            HTTP_HX_REQUEST="true",
        )
    assert response["HX-Retarget"] == "#match-head"  # the lean answer, not the whole panel
    sql = [query["sql"] for query in queries.captured_queries
           if not query["sql"].startswith("NOTIFY")]
    notices = len(queries.captured_queries) - len(sql)
    assert notices == (1 if connection.vendor == "postgresql" else 0)
    assert [statement.split()[0] for statement in sql] == [
        "SELECT", "SAVEPOINT", "SELECT", "SELECT", "INSERT", "INSERT", "UPDATE", "RELEASE",
        "SAVEPOINT", "UPDATE", "UPDATE", "RELEASE",
    ]
    assert '"auth_user"' in sql[0]
    sql = sql[1:]
    sql = [statement for statement in sql if not statement.startswith(("SAVEPOINT", "RELEASE"))]
    tables = [re.findall(r'(?:FROM|INTO|UPDATE) "(\w+)"', statement)[-1]
              for statement in sql[:7]]  # the last: the lock's access check is a subquery
    assert tables == [
        "scoring_match", "scoring_deal", "scoring_deal", "scoring_historicaldeal",
        "scoring_match", "scoring_match", "events_tournament",
    ]
    assert "game_points_a" in sql[4] and "version" in sql[5] and "version" in sql[6]
    assert "events_tournament_organisers" in sql[0]  # the access check, in the lock
    if connection.features.has_select_for_update:  # PostgreSQL; SQLite locks the whole file
        assert sql[0].endswith('FOR UPDATE OF "scoring_match"')
