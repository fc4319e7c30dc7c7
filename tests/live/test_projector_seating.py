"""The projector's seating slide (`live.views.projector`): as soon as a round is paired, who
sits where, table by table, first among the slides while no match of the round is over; gone
once one is. Its columns (`seating_columns`) worked out by hand for a 16:9 screen.

The event: a round robin of four players, draw numbers 1 Иван Петров, 2 Мария Георгиева,
3 Георги Димитров, 4 Елена Стоянова. The Berger table's round 1 for four players is 1–4, 2–3:
table 1 Иван Петров (seat A) – Елена Стоянова, table 2 Мария Георгиева – Георги Димитров."""

import datetime
import re

import pytest
from django.test import Client
from django.urls import reverse

from events import services
from events.models import Entry, Tournament
from live.views.projector import seating_columns
from scoring.models import Match
from tests.playing import play


@pytest.fixture
def four(organiser, home_club, players) -> Tournament:
    event = Tournament.objects.create(
        name="Четворка", date=datetime.date(2026, 12, 5), club=home_club,
        format=Tournament.Format.ROUND_ROBIN)
    event.organisers.add(organiser)
    for number, player in enumerate(players[:4], start=1):
        Entry.objects.create(tournament=event, player=player, number=number)
    services.tournament_start(tournament=event)
    return event


def seating_rows(html: str) -> list[tuple[str, str, str]]:
    slide = html[html.index('data-slide="seating"'):]
    slide = slide[:slide.index("</section>")]
    return re.findall(r'<span class="seat-no"[^>]*>([^<]*)</span><span class="seat-names">'
                      r'<span class="seat-a">([^<]*)</span><span class="seat-b">([^<]*)</span>',
                      slide)


@pytest.mark.django_db
def test_the_first_round_is_seated_by_the_berger_table(four):
    html = Client().get(reverse("live:projector", args=[four.pk])).content.decode()
    assert seating_rows(html) == [("1", "Иван Петров", "Елена Стоянова"),
                                  ("2", "Мария Георгиева", "Георги Димитров")]
    # The first slide: before projector.js runs, the first section is the one shown.
    assert html.index('data-slide="seating"') < html.index('data-slide="round"')


@pytest.mark.django_db
def test_the_seating_goes_once_a_match_of_the_round_is_over(four):
    match = Match.objects.filter(pairing__round__tournament=four,
                                 pairing__round__number=1).first()
    play(match, "A3 A3")  # 6:0, still being played
    assert 'data-slide="seating"' in Client().get(
        reverse("live:projector", args=[four.pk])).content.decode()
    play(match, "A3 A2")  # 11:0: over
    assert 'data-slide="seating"' not in Client().get(
        reverse("live:projector", args=[four.pk])).content.decode()


@pytest.mark.parametrize(("tables", "columns"), [(1, 1), (2, 1), (4, 1), (8, 2), (16, 2),
                                                 (25, 3)])
def test_the_columns_give_the_largest_type(tables, columns):
    # The slide has 0.74 × 9 = 6.66 of the height and 0.94 × 16 = 15.04 of the width; a row
    # takes 2.6 ems, a column 18 ems. 16 tables: 1 column 6.66/16/2.6 = 0.160; 2 columns
    # min(6.66/8/2.6 = 0.320, 15.04/2/18 = 0.418) = 0.320; 3 columns min(0.427, 0.279) =
    # 0.279; 4 columns min(0.640, 0.209) = 0.209. Two.
    # 4 tables: 1 column min(0.640, 0.836) = 0.640; 2 columns min(1.281, 0.418) = 0.418. One.
    # 8 tables: 1 column 0.320; 2 columns min(0.640, 0.418) = 0.418. Two.
    # 25 tables: 2 columns 6.66/13/2.6 = 0.197; 3 columns min(0.285, 0.279) = 0.279. Three.
    assert seating_columns(tables) == columns
