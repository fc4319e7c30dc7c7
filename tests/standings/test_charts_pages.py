"""The pictures and the cross-table on the pages: the race of a round robin and its cross-table
(`selectors.standings_race`, `selectors.tournament_cross_table`), the rating chart on the
player page, the match-race partial.

A round robin of four (players[:4], entry numbers 1-4), FIDE Berger rounds:
round 1: 1–4, 2–3; round 2: 4–3, 1–2; round 3: 2–4, 3–1. Results:
- round 1: 1 beats 4 11:0, 2 beats 3 11:5. Wins 1, 1, 0, 0; 1 and 2 have not met: game-point
  difference +11 v +6 → 1, 2; 3 (−6) before 4 (−11). Places: 1, 2, 3, 4 for entries 1-4.
- round 2: 4 beats 3 11:9, 2 beats 1 11:3. Wins 1, 2, 0, 1: 2 first; 1 and 4 level, 1 beat
  4 → 1 second, 4 third; 3 fourth.
- round 3: 4 beats 2 11:10, 3 beats 1 11:2. Wins 1, 2, 1, 2: 4 beat 2 → 4 first, 2 second;
  3 beat 1 → 3 third, 1 fourth.
So the race, in final order: 4 (4, 3, 1), 2 (2, 1, 2), 3 (3, 4, 3), 1 (1, 2, 4).
"""

import datetime
import re

import pytest
from django.core.cache import cache
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from club.models import Player, Season
from core import charts
from events import services
from events.models import Entry, Pairing, Tournament
from ratings.models import RatingHistory
from scoring.match_sheet import match_sheet
from standings import selectors
from tests.playing import play

draw = charts.standings_race

pytestmark = pytest.mark.django_db


def chunks(points: int) -> list[int]:
    """`points` as deals of 3, then the rest: 11 → 3 3 3 2."""
    return [3] * (points // 3) + ([points % 3] if points % 3 else [])


def result(tournament, number: int, winner: int, loser: int, won: int, lost: int) -> None:
    """Play the match of entries `winner` and `loser` (draw numbers) in round `number`: the
    loser's game points first, then the winner's."""
    pairing = Pairing.objects.select_related("entry_a", "entry_b", "match").get(
        round__tournament=tournament, round__number=number,
        entry_a__number__in=[winner, loser], entry_b__number__in=[winner, loser],
    )
    seat = "A" if pairing.entry_a.number == winner else "B"
    other = "B" if seat == "A" else "A"
    play(pairing.match, " ".join([f"{other}{p}" for p in chunks(lost)]
                                 + [f"{seat}{p}" for p in chunks(won)]))


@pytest.fixture
def four(organiser, home_club, players) -> Tournament:
    tournament = Tournament.objects.create(
        name="Купа на четиримата", date=datetime.date(2026, 12, 5), club=home_club,
        format=Tournament.Format.ROUND_ROBIN,
    )
    tournament.organisers.add(organiser)
    for number, player in enumerate(players[:4], start=1):
        Entry.objects.create(tournament=tournament, player=player, number=number)
    services.tournament_start(tournament=tournament)
    return tournament


def play_rounds(tournament, up_to: int) -> None:
    rounds = {
        1: [(1, 4, 11, 0), (2, 3, 11, 5)],
        2: [(4, 3, 11, 9), (2, 1, 11, 3)],
        3: [(4, 2, 11, 10), (3, 1, 11, 2)],
    }
    for number in range(1, up_to + 1):
        for winner, loser, won, lost in rounds[number]:
            result(tournament, number, winner, loser, won, lost)


def test_the_race_gives_each_players_place_after_every_round(four):
    play_rounds(four, 3)
    race = selectors.standings_race(four)
    assert [(row.entry.number, row.places) for row in race] == [
        (4, (4, 3, 1)), (2, (2, 1, 2)), (3, (3, 4, 3)), (1, (1, 2, 4)),
    ]


def test_the_race_stops_at_the_last_round_with_a_result(four):
    play_rounds(four, 1)
    result(four, 2, 4, 3, 11, 9)  # half of round 2: wins 1, 1, 0, 1
    # After round 2 so far: 1 (+11) , 2 (+6) and 4 (−11 + 2 = −9) on one win; 1 beat 4, but
    # 2 has met neither: head-to-head not applied; difference → 1, 2, 4; 3 (−8) fourth.
    race = selectors.standings_race(four)
    assert [(row.entry.number, row.places) for row in race] == [
        (1, (1, 1)), (2, (2, 2)), (4, (4, 3)), (3, (3, 4)),
    ]


def test_no_result_no_race(four):
    assert selectors.standings_race(four) == []


def test_the_cross_table_cells_in_standings_order(four):
    play_rounds(four, 3)
    table = selectors.tournament_cross_table(four, 1)
    grid = [[None if cell is None else [str(m) for m in cell] for cell in row.cells]
            for row in table.rows]
    # Order 4, 2, 3, 1; each cell from the row player's side.
    names = [player.name for player in four.club.players.order_by("pk")][:4]
    assert [line.name for line in table.lines] == [names[3], names[1], names[2], names[0]]
    assert [(line.number, line.rank, line.won) for line in table.lines] == [
        (1, 1, 2), (2, 2, 2), (3, 3, 1), (4, 4, 1)]
    assert grid == [
        [None, ["11:10"], ["11:9"], ["0:11"]],
        [["10:11"], None, ["11:5"], ["11:3"]],
        [["9:11"], ["5:11"], None, ["11:2"]],
        [["11:0"], ["3:11"], ["2:11"], None],
    ]


def test_the_standings_page_draws_the_race_and_links_the_cross_table(client, four):
    play_rounds(four, 2)
    client.cookies["django_language"] = "en"
    html = client.get(reverse("standings:standings", args=[four.pk])).content.decode()
    assert '<svg class="chart"' in html and "Place after each round" in html
    assert reverse("standings:crosstable", args=[four.pk]) in html
    client.cookies["django_language"] = "bg"
    html = client.get(reverse("standings:standings", args=[four.pk])).content.decode()
    assert "Място след всеки кръг" in html


def race_drawn(html: str) -> list[tuple[str, list[tuple[str, str]]]]:
    """Each line of the race chart in `html`: the player's name and its points (x, y)."""
    return [(name, [tuple(point.split(",")) for point in points.split()])
            for name, points in re.findall(
                r'<g><title>([^<]*)</title><polyline points="([^"]*)"', html)]


@pytest.fixture
def drawn(monkeypatch) -> list:
    """One item each time the race chart is drawn (`charts.standings_race`), none kept from
    an earlier test (the cache of this process outlives a test)."""
    cache.clear()
    calls = []
    monkeypatch.setattr(charts, "standings_race",
                        lambda *args, **kwargs: calls.append(1) or draw(*args, **kwargs))
    return calls


def test_the_race_chart_follows_a_result_that_moves_a_place(client, four, drawn):
    names = [player.name for player in four.club.players.order_by("pk")][:4]
    url = reverse("standings:standings", args=[four.pk])
    play_rounds(four, 1)
    result(four, 2, 4, 3, 11, 9)
    # Places (see `test_the_race_stops_at_the_last_round_with_a_result`): 1 (1, 1), 2 (2, 2),
    # 4 (4, 3), 3 (3, 4); round 1 at x 36, round 2 at x 236; place p at y 16 + (p − 1)·20.
    assert race_drawn(client.get(url).content.decode()) == [
        (names[0], [("36", "16"), ("236", "16")]), (names[1], [("36", "36"), ("236", "36")]),
        (names[3], [("36", "76"), ("236", "56")]), (names[2], [("36", "56"), ("236", "76")]),
    ]
    assert len(drawn) == 1
    # Round 2's other match: 2 beats 1 11:3. Wins 1, 2, 0, 1: 2 first; 1 and 4 on one win,
    # 1 beat 4 → 1 second, 4 third; 3 fourth. 1 and 2 change places after round 2.
    result(four, 2, 2, 1, 11, 3)
    assert race_drawn(client.get(url).content.decode()) == [
        (names[1], [("36", "36"), ("236", "16")]), (names[0], [("36", "16"), ("236", "36")]),
        (names[3], [("36", "76"), ("236", "56")]), (names[2], [("36", "56"), ("236", "76")]),
    ]
    assert len(drawn) == 2


def test_a_result_that_moves_no_place_reuses_the_race_chart(client, four, drawn):
    url = reverse("standings:standings", args=[four.pk])
    client.cookies["django_language"] = "en"
    play_rounds(four, 1)
    result(four, 2, 4, 3, 11, 9)
    before = race_drawn(client.get(url).content.decode())
    # Round 2's other match the other way: 1 beats 2 11:3. Wins 2, 1, 0, 1: 1 first; 2 and 4
    # on one win and have not met: difference 2 +6 − 8 = −2, 4 −11 + 2 = −9 → 2, 4; 3 (no
    # win) fourth. The same places as before it: the chart is the one drawn before.
    result(four, 2, 1, 2, 11, 3)
    html = client.get(url).content.decode()
    assert race_drawn(html) == before
    assert len(drawn) == 1
    assert first_cells(html)[:4] == ["1", "2", "2", "0"]  # the table shows the new result
    # Another language draws its own (its labels).
    client.cookies["django_language"] = "bg"
    assert "Място след всеки кръг" in client.get(url).content.decode()
    assert len(drawn) == 2


def first_cells(html: str) -> list[str]:
    """The text of the first body row's cells after the player's name: played, won, lost,
    GP for, ... (the rank and the name left out)."""
    row = re.search(r"<tbody[^>]*>\s*<tr[^>]*>(.*?)</tr>", html, re.S).group(1)
    cells = [re.sub(r"<[^>]+>", "", cell).strip()
             for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
    return cells[:1] + cells[2:]


def test_the_cross_table_page(client, four):
    play_rounds(four, 3)
    client.cookies["django_language"] = "en"
    response = client.get(reverse("standings:crosstable", args=[four.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    first = re.search(r"<tbody>\s*<tr>(.*?)</tr>", html, re.S).group(1)
    cells = [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>",
                                                                   first, re.S)]
    # Елена Стоянова (4): her cells against 4, 2, 3, 1, wins, game points, rank.
    assert cells == ["", "11:10", "11:9", "0:11", "2", "22:30", "1"]  # 11+9+10 against; rank


def test_a_knockout_has_no_cross_table_and_a_private_event_is_hidden(client, four, home_club):
    knockout = Tournament.objects.create(
        name="Елиминации", date=datetime.date(2026, 12, 6), club=home_club,
        format=Tournament.Format.KNOCKOUT,
    )
    assert client.get(reverse("standings:crosstable", args=[knockout.pk])).status_code == 404
    four.is_public = False
    four.save()
    assert client.get(reverse("standings:crosstable", args=[four.pk])).status_code == 404
    assert client.post(reverse("standings:crosstable", args=[four.pk])).status_code in (404, 405)


def test_the_player_page_draws_the_rating_history(client, four, players):
    ivan = players[0]
    other = Tournament.objects.create(name="Зимна купа", date=datetime.date(2026, 12, 20),
                                      club=four.club)
    RatingHistory.objects.create(player=ivan, tournament=four, rating=1500, deviation=350,
                                 volatility=0.06, matches=3)
    RatingHistory.objects.create(player=ivan, tournament=other, rating=1600, deviation=200,
                                 volatility=0.06, matches=6)
    client.cookies["django_language"] = "en"
    html = client.get(reverse("clubs:player", args=[ivan.pk])).content.decode()
    # The hand-worked line of tests/core/test_charts.py: same ratings, same scale.
    assert 'points="122.5,96 267.5,80"' in html
    assert "05.12.26" in html and "20.12.26" in html and "Rating over time" in html
    html = client.get(reverse("clubs:player", args=[players[1].pk])).content.decode()
    assert "<svg" not in html  # no rated event, no picture


def test_a_name_is_escaped_in_the_pictures(client, four, players):
    Player.objects.filter(pk=players[3].pk).update(name='<script>x</script> & "Co"')
    play_rounds(four, 1)
    html = client.get(reverse("standings:standings", args=[four.pk])).content.decode()
    assert "<script>x</script>" not in html
    assert "&lt;script&gt;x&lt;/script&gt; &amp; &quot;Co&quot;" in html


def test_the_match_race_partial(four):
    play_rounds(four, 1)
    pairing = Pairing.objects.select_related("match__player_a", "match__player_b").get(
        round__tournament=four, round__number=1, entry_a__number=1)  # 1 v 4: A3 A3 A3 A2
    match = pairing.match
    with translation.override("en"):
        html = render_to_string("tableside/partials/chart_match_race.html", {
            "match": match, "rows": match_sheet(match).rows,
        })
    # 4 deals: x = 40 + 75·deal; y = 192 − points·160/11: 3 → 148.4, 6 → 104.7,
    # 9 → 61.1, 11 → 32.
    assert ('points="40,192 115,192 115,148.4 190,148.4 190,104.7 265,104.7 265,61.1 '
            '340,61.1 340,32"') in html
    assert "the target, 11" in html


def test_the_match_page_draws_the_running_score(client, four):
    play_rounds(four, 1)
    match = Pairing.objects.get(round__tournament=four, round__number=1, entry_a__number=1).match
    html = client.get(reverse("matches:entry", args=[match.pk])).content.decode()
    # The same four deals as above, on the public match page.
    assert ('points="40,192 115,192 115,148.4 190,148.4 190,104.7 265,104.7 265,61.1 '
            '340,61.1 340,32"') in html


def test_the_season_cross_table_follows_the_ladder(client, four):
    # The four's three rounds in a season. Ladder: win percentage, then game-point difference:
    # 2 (2 of 3, 32:19, +13) and 4 (2 of 3, 22:30, −8); 3 (1 of 3, 25:24, +1) and 1 (1 of 3,
    # 16:22, −6). So 2, 4, 3, 1.
    play_rounds(four, 3)
    season = Season.objects.create(club=four.club, name="Зима", min_matches=1,
                                   starts=datetime.date(2026, 12, 1),
                                   ends=datetime.date(2027, 2, 28))
    table = selectors.season_cross_table(season)
    names = [player.name for player in four.club.players.order_by("pk")][:4]
    assert [(line.name, line.rank) for line in table.lines] == [
        (names[1], 1), (names[3], 2), (names[2], 3), (names[0], 4)]
    assert [[None if c is None else [str(m) for m in c] for c in line.row.cells]
            for line in table.lines][0] == [None, ["10:11"], ["11:5"], ["11:3"]]
    client.cookies["django_language"] = "en"
    html = client.get(reverse("clubs:season", args=[four.club.pk, season.pk])).content.decode()
    url = reverse("clubs:season_crosstable", args=[four.club.pk, season.pk])
    assert url in html
    html = client.get(url).content.decode()
    assert "Cross-table" in html and "10:11" in html
