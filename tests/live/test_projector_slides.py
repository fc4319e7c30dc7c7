"""The projector's long tables cut into slides (`live.slides.table_slides`), worked out by
hand, and a 32-player Swiss on the projector: three standings slides of 11, 11 and 10 rows
holding every player once, two round slides of 8 tables (the site speaks Bulgarian to a
visitor who has not chosen).

The rule: at most 0.6 / (1/30 × 1.5) = 12 rows a slide (the rows have three fifths of the
screen's height, a row is 1.5 ems, the type at least a thirtieth of the height); as few
slides as that allows, all of one length but a shorter last: n rows take ⌈n / 12⌉ slides of
⌈n / ⌈n / 12⌉⌉ rows."""

import datetime
import math
import re
from types import SimpleNamespace

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from club.models import Player
from events import registry
from events.models import Entry, Tournament
from live.slides import MOST_ROWS, bracket_first_column, group_slides, table_slides
from live.views.projector import MOST_SEATS, seating_slides
from scoring.models import Match
from tests.playing import play


def lengths(count: int, most: int = MOST_ROWS) -> list[int]:
    return [len(cut) for cut in table_slides(count, most)]


def test_a_slide_holds_at_most_twelve_rows():
    assert MOST_ROWS == 12


@pytest.mark.parametrize(("count", "slides"), [
    (0, [0]),                # nothing yet: one slide that says so
    (4, [4]),                # a club night of four: one slide
    (6, [6]),                # a round robin of six
    (12, [12]),              # twelve still fit one slide
    (13, [7, 6]),            # ⌈13/12⌉ = 2 slides of ⌈13/2⌉ = 7: 7 and 6, not 12 and 1
    (16, [8, 8]),            # the 16 tables of a 32-player round: 2 slides of 8
    (25, [9, 9, 7]),         # 3 slides of ⌈25/3⌉ = 9
    (32, [11, 11, 10]),      # 32 players: 3 slides of ⌈32/3⌉ = 11
    (64, [11, 11, 11, 11, 11, 9]),  # 64 tables: 6 slides of ⌈64/6⌉ = 11
    (128, [12] * 10 + [8]),  # 128 players: 11 slides of ⌈128/11⌉ = 12, the last 128 − 120
])
def test_the_rows_of_each_slide(count, slides):
    assert lengths(count) == slides


def test_a_table_of_32_rows_starts_its_slides_at_rows_1_12_and_23():
    assert [(cut.start + 1, cut.stop) for cut in table_slides(32)] == [
        (1, 11), (12, 22), (23, 32)]


@pytest.mark.parametrize(("count", "most"), [(-1, 12), (5, 0)])
def test_a_negative_count_or_no_room_is_refused(count, most):
    with pytest.raises(ValueError):
        table_slides(count, most)


@given(count=st.integers(0, 400), most=st.integers(1, 30))
def test_every_row_once_in_order_on_as_few_slides_of_one_length(count, most):
    cuts = table_slides(count, most)
    assert [row for cut in cuts for row in cut] == list(range(count))
    assert len(cuts) == max(1, math.ceil(count / most))
    assert all(len(cut) <= most for cut in cuts)
    assert {len(cut) for cut in cuts[:-1]} <= {len(cuts[0])}
    assert len(cuts[-1]) <= len(cuts[0])


@pytest.fixture
def swiss_32(organiser, home_club) -> Tournament:
    """A public Swiss of 32 players ("Играч 01" … "Играч 32", numbers 1 to 32): round 1
    played, each match won 12:0 by seat A, round 2 paired."""
    event = Tournament.objects.create(
        name="Швейцарска", date=datetime.date(2026, 12, 19), club=home_club,
        format=Tournament.Format.SWISS, swiss_rounds=5)
    event.organisers.add(organiser)
    for number in range(1, 33):
        player = Player.objects.create(name=f"Играч {number:02d}", club=home_club)
        Entry.objects.create(tournament=event, player=player, number=number)
    event_format = registry.for_tournament(event)
    event_format.start()
    for match in Match.objects.filter(pairing__round__tournament=event):
        play(match, "A3 A3 A3 A3")
    event_format.pair_next_round(by=organiser)
    return event


def slides_of(html: str, kind: str) -> list[str]:
    return re.findall(r'<section class="slide table-slide" data-slide="' + kind
                      + r'"(.*?)</section>', html, re.S)


def names_in(slide: str) -> list[str]:
    return re.findall(r'<td class="name[^"]*">(Играч \d\d)', slide)


@pytest.mark.django_db
def test_a_32_player_swiss_shows_its_standings_on_three_slides(swiss_32):
    html = Client().get(reverse("live:projector", args=[swiss_32.pk])).content.decode()
    standings = slides_of(html, "standings")
    assert len(standings) == 3
    assert [re.search(r"<h2>([^<]*)</h2>", slide).group(1) for slide in standings] == [
        "Класиране 1–11", "Класиране 12–22", "Класиране 23–32"]
    # Each slide takes the type of the longest: 11 rows.
    assert all('data-rows="11"' in slide for slide in standings)
    rows = [names_in(slide) for slide in standings]
    assert [len(names) for names in rows] == [11, 11, 10]
    everyone = [name for names in rows for name in names]
    assert sorted(everyone) == [f"Играч {number:02d}" for number in range(1, 33)]
    # Seat A won every match of round 1: the sixteen winners (a point each) fill the first
    # slide and the first five rows of the second, the sixteen losers the rest.
    winners = set(Match.objects.filter(pairing__round__tournament=swiss_32,
                                       pairing__round__number=1)
                  .values_list("pairing__entry_a__player__name", flat=True))
    assert len(winners) == 16
    assert set(rows[0]) < winners
    assert set(rows[1][:5]) < winners and not set(rows[1][5:]) & winners
    assert not set(rows[2]) & winners


@pytest.mark.django_db
def test_a_32_player_round_takes_two_slides_of_eight_tables(swiss_32):
    html = Client().get(reverse("live:projector", args=[swiss_32.pk])).content.decode()
    rounds = slides_of(html, "round")
    assert [re.search(r"<h2>([^<]*)</h2>", slide).group(1) for slide in rounds] == [
        "Кръг 2 · маси 1–8", "Кръг 2 · маси 9–16"]
    tables = [re.findall(r'<td class="num">(\d+)</td>', slide) for slide in rounds]
    assert tables == [[str(n) for n in range(1, 9)], [str(n) for n in range(9, 17)]]
    assert all('data-rows="8"' in slide for slide in rounds)
    # Every player sits at one table of one slide.
    seated = [name for slide in rounds for name in names_in(slide)]
    assert sorted(seated) == [f"Играч {number:02d}" for number in range(1, 33)]
    # The slides are told apart across a swap by their kind and part.
    assert 'data-slide="round" data-part="1"' in html
    assert 'data-slide="round" data-part="2"' in html


@pytest.mark.django_db
def test_a_short_table_is_one_slide_with_no_rows_in_its_title(tournament):
    registry.for_tournament(tournament).start()
    html = Client().get(reverse("live:projector", args=[tournament.pk])).content.decode()
    standings = slides_of(html, "standings")
    assert len(standings) == 1
    assert "<h2>Класиране</h2>" in standings[0]


@pytest.mark.parametrize(("matches", "first"), [
    ([], 0),                 # no bracket yet
    ([1], 0),                # two players: the final
    ([4, 2, 1], 0),          # 8 players: the whole bracket
    ([8, 4, 2, 1], 0),       # 16 players: the whole bracket, 8 matches in its first column
    ([16, 8, 4, 2, 1], 1),   # 32 players: from the round of 16 on
    ([32, 16, 8, 4, 2, 1], 2),  # 64 players: from the round of 16 on
    ([64, 32, 16, 8, 4, 2, 1], 3),  # 128 players: from the round of 16 on
])
def test_the_bracket_slide_starts_at_the_first_round_of_eight_matches_at_most(matches, first):
    assert bracket_first_column(matches) == first


@pytest.mark.parametrize(("sizes", "groups", "lines", "columns"), [
    # 8 groups of 4: a table 4 + 2 = 6 lines, (12 + 2) // 6 = 2 a column, 4 a slide.
    ([4] * 8, [4, 4], 12, 2),
    # 3 groups of 8: 10 lines, one a column, 2 a slide: 2 slides of ⌈3/2⌉ = 2 groups, then 1.
    ([8, 8, 8], [2, 1], 10, 2),
    # 2 groups of 3: 5 lines, 2 a column; both on one slide, one column of two.
    ([3, 3], [2], 10, 1),
    # 32 groups of 4 (128 players): 4 a slide, 8 slides.
    ([4] * 32, [4] * 8, 12, 2),
    # 3 groups of 5 and one of 6 (21 players): the largest, 8 lines, one a column.
    ([6, 5, 5, 5], [2, 2], 8, 2),
])
def test_the_group_tables_on_their_slides(sizes, groups, lines, columns):
    cuts, column_lines, grid_columns = group_slides(sizes)
    assert [len(cut) for cut in cuts] == groups
    assert (column_lines, grid_columns) == (lines, columns)


def test_no_groups_is_refused():
    with pytest.raises(ValueError):
        group_slides([])


def test_a_seating_slide_holds_at_most_sixteen_tables():
    # The seating's rows are 2.6 ems on 0.74 × 9 = 6.66 ninths of the height, its columns
    # 18 ems on 0.94 × 16 = 15.04: 16 tables in 2 columns of 8 take type of 6.66 / 8 / 2.6 =
    # 0.320 ninths of the height, at least the 9 / 30 = 0.3 of the smallest type; 17 tables
    # take 2 columns of 9, 6.66 / 9 / 2.6 = 0.285 (3 columns of 6: min(0.427, 15.04 / 3 / 18
    # = 0.279)), less.
    assert MOST_SEATS == 16


def test_the_seating_of_64_tables_takes_four_slides_of_16():
    tables = [SimpleNamespace(table=number) for number in range(1, 65)]
    slides = seating_slides(tables)
    assert [(slide["first"], slide["last"]) for slide in slides] == [
        (1, 16), (17, 32), (33, 48), (49, 64)]
    # Each in 2 columns of 8 (`seating_columns`: 16 tables, two columns).
    assert {(slide["columns"], slide["rows"]) for slide in slides} == {(2, 8)}


def test_a_seating_of_16_tables_is_one_slide():
    tables = [SimpleNamespace(table=number) for number in range(1, 17)]
    assert [(slide["first"], slide["last"]) for slide in seating_slides(tables)] == [(1, 16)]
