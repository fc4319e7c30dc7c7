"""The standings page keeps its rendered table in the cache under the table's own content, so
a new result, another sort order or another language never shows a stale table.

Five players (PLAYER_NAMES[:5], entry numbers 1-5); round 1 of the Berger table for five:
1 rests, table 1 is 2 (Мария Георгиева) v 5 (Димитър Николов).
"""

import re

import pytest
from django.urls import reverse

from events import services
from events.models import Pairing
from tests.playing import play

pytestmark = pytest.mark.django_db


def first_row(html: str) -> list[str]:
    """The text of the first body row's cells."""
    row = re.search(r"<tbody[^>]*>\s*<tr[^>]*>(.*?)</tr>", html, re.S).group(1)
    cells = re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
    return [re.sub(r"<[^>]+>", "", cell).strip() for cell in cells]


@pytest.fixture
def started(tournament):
    services.tournament_start(tournament=tournament)
    return tournament


def standings(client, tournament, query: str = "") -> str:
    url = reverse("standings:standings", args=[tournament.pk]) + query
    return client.get(url).content.decode()


def test_a_result_shows_at_once_although_the_table_was_cached(client, started):
    client.cookies["django_language"] = "en"
    before = standings(client, started)
    assert first_row(before)[2:6] == ["0", "0", "0", "0"]  # played, won, lost, GP for
    match = Pairing.objects.get(round__tournament=started, round__number=1, table=1).match
    play(match, "A3 A3 A3 A2")  # Мария Георгиева (seat A) 11:0
    after = standings(client, started)
    # rank, player, played 1, won 1, lost 0, GP for 11, GP against 0, GP diff. +11
    assert first_row(after)[:8] == ["1", "Мария Георгиева", "1", "1", "0", "11", "0", "11"]


def test_each_sort_order_and_language_has_its_own_table(client, started):
    client.cookies["django_language"] = "en"
    assert first_row(standings(client, started, "?sort=player"))[1] == "Георги Димитров"
    assert first_row(standings(client, started, "?sort=-player"))[1] == "Мария Георгиева"
    english = standings(client, started)
    client.cookies["django_language"] = "bg"
    bulgarian = standings(client, started)
    assert ">Player<" in english and ">Играч<" not in english
    assert ">Играч<" in bulgarian


def test_the_order_says_how_the_head_to_head_counts_two_meetings(client, started):
    client.cookies["django_language"] = "en"
    english = standings(client, started)
    assert "Head-to-head (FIDE C.07, Article 6) counts only when all of them have met" in english
    assert "both meetings of a double round robin counting" in english
    assert "worked out again among the players it leaves level" in english
    client.cookies["django_language"] = "bg"
    bulgarian = standings(client, started)
    assert "в двоен кръг всеки срещу всеки се броят и двете срещи" in bulgarian
