"""A deal that commits after a later deal of another table still reaches the event's pages:
PostgreSQL hands out ids at insert, not at commit (`tournaments.live_commits`)."""

import threading

import pytest
from django.db import transaction
from django.test import Client
from django.urls import reverse

from scoring import rules
from scoring import services as scoring_services
from tests.concurrency import run_at_once
from tests.services import require_postgresql
from tests.tournaments.test_query_counts import started_tournament
from tournaments import live_commits
from tournaments.models import Pairing

POLL = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "live-round"}


def _round_one(tournament):
    return [pairing.match for pairing in Pairing.objects.filter(
        round__tournament=tournament, round__number=1).order_by("table")]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_deal_committed_late_moves_the_round_pages_version():
    require_postgresql()
    tournament = started_tournament(4, 0)
    first, second = _round_one(tournament)
    url = reverse("tournaments:round", args=[tournament.pk, 1])
    spectator = Client()
    inserted, release = threading.Event(), threading.Event()
    seen: dict[str, str] = {}

    def slow_table():
        """Table 1's deal: its rows get the lower ids, and it commits last."""
        with transaction.atomic():
            scoring_services.deal_record(
                match=first, score=rules.quick_result("A", 3, "capot"), by=None)
            inserted.set()
            assert release.wait(20)
        return "committed"

    def other_table_then_poll():
        assert inserted.wait(20)
        scoring_services.deal_record(
            match=second, score=rules.quick_result("B", 1, "won"), by=None)
        seen["etag"] = spectator.get(url, **POLL)["ETag"]
        release.set()
        return "polled"

    assert run_at_once(slow_table, other_table_then_poll, barrier=False) == [
        "committed", "polled"]
    # The poll saw table 2 at 0:1 and table 1 still 0:0; table 1's 3:0 must not be a 304.
    response = spectator.get(url, HTTP_IF_NONE_MATCH=seen["etag"], **POLL)
    assert response.status_code == 200
    assert response["ETag"] != seen["etag"]


@pytest.mark.django_db(transaction=True)
def test_a_transaction_counts_once_and_only_when_it_commits():
    tournament = started_tournament(4, 0)
    match = _round_one(tournament)[0]
    counted = live_commits.commits_counted()
    assert isinstance(counted, int)  # the set-up's own commits were counted
    # One deal writes the deal, its history and the match's score, in one transaction.
    scoring_services.deal_record(match=match, score=rules.quick_result("A", 1, "won"), by=None)
    assert live_commits.commits_counted() == counted + 1
    with transaction.atomic():  # two deals in one transaction: one commit
        for points, reason in [(2, "schneider"), (1, "won")]:
            scoring_services.deal_record(
                match=match, score=rules.quick_result("B", points, reason), by=None)
    assert live_commits.commits_counted() == counted + 2
    with pytest.raises(RuntimeError), transaction.atomic():  # rolled back: not counted
        scoring_services.deal_record(match=match, score=rules.quick_result("A", 1, "won"),
                                     by=None)
        raise RuntimeError
    assert live_commits.commits_counted() == counted + 2
    assert match.deals.count() == 3
