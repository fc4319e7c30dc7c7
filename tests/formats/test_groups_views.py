"""The pages of groups, then a knockout: the form's group fields, the group tables (sizes
shown, players going on marked), the group of each pairing on the round page, the organiser's
"start the knockout now" with its confirmation, and the bad input that writes nothing. The
event is the hand-worked one of test_groups_services."""

import datetime
import random
import re

import pytest
from django.urls import reverse

from club.models import Player
from events.models import Entry, Tournament
from formats.groups import services as groups
from scoring.models import Match
from tests.events.test_setup_views import NEW_TOURNAMENT
from tests.formats.test_groups_services import NAMES, play_groups_by_seed

pytestmark = pytest.mark.django_db


def english(client):
    client.cookies["django_language"] = "en"
    return client


@pytest.fixture
def draft(organiser, home_club) -> Tournament:
    tournament = Tournament.objects.create(
        name="Купа по групи", date=datetime.date(2026, 12, 12), club=home_club,
        format=Tournament.Format.GROUPS_KNOCKOUT, group_count=3, group_advance=2,
    )
    tournament.organisers.add(organiser)
    for seed, name in enumerate(NAMES[:12], start=1):
        player, _ = Player.objects.get_or_create(name=name, club=home_club)
        Entry.objects.create(tournament=tournament, number=seed, player=player)
    return tournament


@pytest.fixture
def running(draft) -> Tournament:
    groups.groups_start(tournament=draft, rng=random.Random(1))
    draft.refresh_from_db()
    return draft


def test_the_form_needs_the_group_numbers_for_a_group_stage(organiser_client):
    data = {**NEW_TOURNAMENT, "format": "groups_knockout", "name": "Групи"}
    response = english(organiser_client).post(reverse("events:create"), data)
    assert response.status_code == 422
    assert "A group stage needs this number" in response.content.decode()
    assert not Tournament.objects.filter(name="Групи").exists()
    response = organiser_client.post(
        reverse("events:create"), {**data, "group_count": "3", "group_advance": "2"})
    assert response.status_code == 302
    made = Tournament.objects.get(name="Групи")
    assert (made.group_count, made.group_advance) == (3, 2)


def test_a_round_robin_keeps_no_group_numbers(organiser_client):
    organiser_client.post(reverse("events:create"),
                          {**NEW_TOURNAMENT, "group_count": "3", "group_advance": "2"})
    made = Tournament.objects.get(name=NEW_TOURNAMENT["name"])
    assert (made.group_count, made.group_advance) == (None, None)


def test_starting_with_too_few_players_per_group_writes_nothing(organiser_client, draft):
    draft.group_count = 5
    draft.save()
    response = english(organiser_client).post(reverse("events:start", args=[draft.pk]))
    assert response.status_code == 409
    assert ("12 players cannot make 5 groups of at least 3 players"
            in response.content.decode())
    draft.refresh_from_db()
    assert draft.status == Tournament.Status.DRAFT and not draft.rounds.exists()


def test_start_goes_to_the_group_tables(organiser_client, draft):
    response = english(organiser_client).post(reverse("events:start", args=[draft.pk]))
    assert response.status_code == 302
    assert response.url == reverse("groups:detail", args=[draft.pk])
    page = english(organiser_client).get(response.url).content.decode()
    for letter in "ABC":
        assert f"Group {letter} · 4 players" in page
    assert "Start the knockout now" in page


def test_the_round_page_names_the_group_of_each_pairing(client, running):
    page = english(client).get(reverse("events:round", args=[running.pk, 1])).content.decode()
    assert "<th>Group</th>" in page
    assert page.count("<td>A</td>") == 2 and page.count("<td>C</td>") == 2


def test_the_group_tables_mark_who_goes_on_and_show_the_bracket(client, running):
    play_groups_by_seed(running)
    page = english(client).get(reverse("groups:detail", args=[running.pk])).content.decode()
    assert page.count('class="goes-on"') == 6
    assert "Quarterfinal" in page and "bracket-board" in page
    # The marks beside the names are group places: A1 has a bye, C2 meets B2, C1 meets A2.
    marks = re.findall(r'<span class="seed">(\w*)</span>', page)
    assert marks[:8] == ["A1", "", "C2", "B2", "B1", "", "C1", "A2"]
    assert "Start the knockout now" not in page
    assert reverse("data:standings_csv", args=[running.pk]) in page


def test_start_the_knockout_asks_then_closes_the_open_matches(organiser_client, running):
    url = reverse("groups:knockout_start", args=[running.pk])
    response = english(organiser_client).post(url)
    assert response.status_code == 409
    page = response.content.decode()
    assert "Group matches not over yet: 18." in page
    assert "Close them and start the knockout" in page
    assert not running.rounds.filter(stage="knockout").exists()
    response = organiser_client.post(url, {"confirm": "1"})
    assert response.status_code == 302
    assert Match.objects.filter(status=Match.Status.UNPLAYED).count() == 18
    assert running.rounds.filter(stage="knockout").count() == 3


def test_start_the_knockout_is_for_organisers_and_posts_only(
        client, outsider_client, organiser_client, running):
    url = reverse("groups:knockout_start", args=[running.pk])
    assert organiser_client.get(url).status_code == 405
    assert outsider_client.post(url, {"confirm": "1"}).status_code == 403
    response = client.post(url, {"confirm": "1"})
    assert response.status_code == 302 and reverse("login") in response["Location"]
    assert not running.rounds.filter(stage="knockout").exists()


def test_other_formats_have_no_group_page(client, tournament):
    assert client.get(reverse("groups:detail", args=[tournament.pk])).status_code == 404


def test_the_group_page_reads_a_fixed_number_of_queries(
        client, running, django_assert_max_num_queries):
    """Group tables (two queries), the bracket (one), matches in play, the session: the same
    for 12 players as for any other number."""
    play_groups_by_seed(running)
    with django_assert_max_num_queries(12):
        assert client.get(reverse("groups:detail", args=[running.pk])).status_code == 200
