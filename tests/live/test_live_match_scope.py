"""The match-level live pages' version is the match's own (`live.versions`): the match page
(`matches:entry`, polled by its organiser) and the players' page (`/p/<token>/`, polled by a
seated phone) keep their ETag while another match of the club changes (the next poll is a 304),
and change it for everything they show: a deal, an undo or a correction in this match, a
signature, a dispute, an approval, a link renewed, a deal waiting for confirmation, one of its
players renamed, its event renamed or set to other house rules or another entry mode, a
withdrawal in the event. The unchanged poll still costs one query for the version."""

import datetime
import random

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from events import services
from events.models import Entry, EntryMode, Pairing, Tournament
from ratings.models import PlayerRating
from scoring import rules
from scoring import services as scoring_services
from tableside import table_entry
from tests.tableside.test_table_entry import enter, quick, set_mode

pytest_plugins = ["tests.tableside.table_fixtures"]

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("empty_cache")]

POLL = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def other(started):
    """Round 1's match at table 2: the other table of the club."""
    return Pairing.objects.get(round__tournament=started, round__number=1, table=2).match


@pytest.fixture
def another_event(organiser, home_club, players):
    """A second event of the club, running, with its own match."""
    event = Tournament.objects.create(name="Зимна купа", date=datetime.date(2026, 12, 6),
                                      club=home_club, format=Tournament.Format.ROUND_ROBIN)
    event.organisers.add(organiser)
    for number, player in enumerate(players[:3], start=1):
        Entry.objects.create(tournament=event, player=player, number=number)
    services.tournament_start(tournament=event, rng=random.Random(1))
    return event


class Page:
    """One match-level live page of `match`, polled as its visitor does."""

    def __init__(self, kind: str, match, organiser_client):
        self.kind, self.match = kind, match
        if kind == "match":
            self.client, self.url = organiser_client, reverse("matches:entry", args=[match.pk])
        else:
            token = table_entry.table_of(match).token
            self.client, self.url = Client(), f"/p/{token}/"
            assert self.client.post(f"{self.url}seat/", {"seat": "B"}).status_code == 302

    def poll(self, etag: str | None = None):
        headers = dict(POLL, **({"HTTP_IF_NONE_MATCH": etag} if etag else {}))
        return self.client.get(self.url, **headers)

    def etag(self) -> str:
        response = self.poll()
        assert response.status_code == 200
        return response["ETag"]


@pytest.fixture(params=["match", "players"])
def page(request, match, organiser_client) -> Page:
    return Page(request.param, match, organiser_client)


def deal(match, number: int = 1) -> None:
    """Seat A wins deal `number` for 2 game points, entered by the organiser."""
    scoring_services.deal_record(match=match, score=rules.quick_result("A", 2, "schneider"),
                                 by=None, number=number)


def finished(match) -> None:
    """11:0 for seat A, entered by the phone of seat A: the result waits for the signatures."""
    enter(match, "A3 A3 A3 A2")


def assert_unchanged(page: Page, etag: str) -> None:
    response = page.poll(etag)
    assert response.status_code == 304, page.kind
    assert response.content == b""


def assert_changed(page: Page, etag: str):
    response = page.poll(etag)
    assert response.status_code == 200, page.kind
    assert response["ETag"] != etag
    return response


# --- what happens elsewhere leaves the page alone ----------------------------------------------


def test_a_deal_in_another_match_leaves_the_etag(page, other):
    etag = page.etag()
    deal(other)
    enter(other, "B1", start=2)  # and one from its phones
    assert_unchanged(page, etag)


def test_a_signature_dispute_or_renewal_at_another_table_leaves_the_etag(page, other,
                                                                        organiser):
    finished(other)
    etag = page.etag()
    table_entry.result_sign(match=other, seat="A", address="10.0.0.8")
    table_entry.result_dispute(match=other, seat="B", text="Deal 3 was mine")
    table_entry.link_renew(match=other, by=organiser)
    assert_unchanged(page, etag)


def test_a_player_of_another_match_renamed_leaves_the_etag(page, other):
    etag = page.etag()
    outsider = {other.player_a_id, other.player_b_id} - {page.match.player_a_id,
                                                         page.match.player_b_id}
    player = other.player_a if other.player_a_id in outsider else other.player_b
    player.name = "Друго Име"
    player.save()
    assert_unchanged(page, etag)


def test_another_event_renamed_or_played_leaves_the_etag(page, another_event):
    etag = page.etag()
    another_event.name = "Лятна купа"
    another_event.save()
    deal(Pairing.objects.filter(round__tournament=another_event, match__isnull=False)[0].match)
    assert_unchanged(page, etag)


# --- what this page shows changes its ETag ------------------------------------------------------


def test_a_deal_in_this_match_changes_the_etag(page):
    etag = page.etag()
    deal(page.match)
    assert "+2" in assert_changed(page, etag).content.decode()


def test_a_deal_from_the_phones_changes_the_etag(page):
    etag = page.etag()
    enter(page.match, "A3")
    assert_changed(page, etag)


def test_an_undo_changes_the_etag(page):
    deal(page.match)
    etag = page.etag()
    scoring_services.deal_undo_last(match=page.match, by=None, number=1)
    assert_changed(page, etag)


def test_an_organisers_correction_changes_the_etag(page):
    deal(page.match)
    etag = page.etag()
    scoring_services.deal_correct(deal=page.match.deals.get(), score=quick("B3"), by=None,
                                  reason="wrong winner")
    assert_changed(page, etag)


def test_a_signature_a_dispute_and_an_approval_each_change_the_etag(page, organiser):
    finished(page.match)
    etag = page.etag()
    table_entry.result_sign(match=page.match, seat="A", address="10.0.0.7")
    etag = assert_changed(page, etag)["ETag"]
    table_entry.result_dispute(match=page.match, seat="B", text="Deal 2 was mine")
    etag = assert_changed(page, etag)["ETag"]
    table_entry.result_approve(match=page.match, by=organiser)
    assert_changed(page, etag)


def test_a_deal_waiting_for_confirmation_changes_the_etag(page):
    set_mode(page.match.pairing.round.tournament, EntryMode.PLAYERS_CONFIRM_EACH)
    etag = page.etag()
    enter(page.match, "A3")  # pending: no deal yet, only the table and its event
    assert page.match.deals.count() == 0
    assert_changed(page, etag)


def test_a_link_renewal_changes_the_etag_and_the_old_link_is_gone(page, organiser):
    etag = page.etag()
    table_entry.link_renew(match=page.match, by=organiser)
    if page.kind == "players":
        assert page.poll(etag).status_code == 404
    else:
        assert_changed(page, etag)


@pytest.mark.parametrize("seat", ["A", "B"])
def test_a_player_of_this_match_renamed_changes_the_etag(page, seat):
    etag = page.etag()
    player = page.match.player(seat)
    player.name = "Ново Име"
    player.save()
    assert "Ново Име" in assert_changed(page, etag).content.decode()


def test_the_event_renamed_changes_the_etag(page):
    etag = page.etag()
    event = page.match.pairing.round.tournament
    event.name = "Купа Пловдив 2026"
    event.save()
    assert_changed(page, etag)


def test_a_withdrawal_in_the_event_changes_the_etag(page, organiser):
    event = page.match.pairing.round.tournament
    playing = {page.match.player_a_id, page.match.player_b_id}
    entry = event.entries.exclude(player_id__in=playing).first()
    etag = page.etag()
    services.entry_withdraw(entry=entry, by=organiser)
    assert_changed(page, etag)


@pytest.mark.parametrize("change", ["house rules", "entry mode"])
def test_the_house_rules_or_the_entry_mode_changed_change_the_etag(page, change):
    event = page.match.pairing.round.tournament
    etag = page.etag()
    if change == "entry mode":
        set_mode(event, EntryMode.PLAYERS_TRUSTED)
    else:
        event.game_target = 7
        event.save(update_fields=["game_target"])
    assert_changed(page, etag)


# --- still one query ---------------------------------------------------------------------------


def test_the_match_version_is_one_query(match, other):
    """A spectator's unchanged poll of the match page: the version query alone, also after
    the club played on."""
    client, url = Client(), reverse("matches:entry", args=[match.pk])
    etag = client.get(url, **POLL)["ETag"]
    deal(other)
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url, HTTP_IF_NONE_MATCH=etag, **POLL)
    assert response.status_code == 304
    assert len(queries) == 1, [query["sql"] for query in queries]


def test_the_match_closed_unplayed_changes_the_etag(page):
    """A group stage ended early closes its unfinished matches unplayed (`groups`): no deal,
    no entry, no table event changes, only the match row."""
    deal(page.match)
    etag = page.etag()
    scoring_services.match_close_unplayed(match=page.match, by=None)
    assert_changed(page, etag)


def test_the_match_moved_to_another_table_changes_the_etag(page):
    etag = page.etag()
    Pairing.objects.filter(match=page.match).update(table=9)
    assert_changed(page, etag)


def test_ratings_computed_change_the_etag(page):
    """The match page shows each player's chance from the ratings (`selectors.match_chances`),
    which are written anew, as a whole, when an event ends."""
    etag = page.etag()
    for player in (page.match.player_a, page.match.player_b):
        PlayerRating.objects.create(player=player, rating=1500, deviation=60, volatility=0.06,
                                    matches=30, won=15, lost=15, computed_at=timezone.now())
    assert_changed(page, etag)
