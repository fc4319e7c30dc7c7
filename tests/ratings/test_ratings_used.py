"""Ratings used where they matter (issue "Ratings across every event", part 2): recomputed
once an event ends (`rating_services.ratings_recompute_on_commit`, after the commit), seeds of a
knockout by rating, the rating column of the season ladder, the rating and its history on the
player page, and each player's chance to win on the match page before the match."""

import datetime
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from club.models import Player
from events import services
from events.errors import TournamentError
from events.models import Entry, Pairing, Tournament
from formats.club_night import services as club_nights
from formats.knockout import services as knockout
from ratings import services as rating_services
from ratings.models import PlayerRating, RatingHistory
from ratings.periods import PROVISIONAL_MATCHES
from scoring import services as scoring_services
from scoring.models import Match
from tests.playing import play
from tests.standings.test_seasons_views import season  # noqa: F401  (a fixture)

pytestmark = pytest.mark.django_db

ELEVEN_NIL = {"A": "A3 A3 A3 A2", "B": "B3 B3 B3 B2"}


def english(client):
    client.cookies["django_language"] = "en"
    return client


def stored():
    """The stored ratings, by player id: (rating, deviation, volatility, matches, won, lost)."""
    return {r.player_id: (r.rating, r.deviation, r.volatility, r.matches, r.won, r.lost)
            for r in PlayerRating.objects.all()}


def computed():
    """What the record gives now, in the same shape (`rating_services.ratings_compute`)."""
    return {r.player: (r.rating, r.deviation, r.volatility, r.matches, r.won, r.lost)
            for r in rating_services.ratings_compute().players}


def rate_by_hand(player, rating, deviation, matches=PROVISIONAL_MATCHES):
    return PlayerRating.objects.create(
        player=player, rating=rating, deviation=deviation, volatility=0.06, matches=matches,
        won=matches // 2, lost=matches - matches // 2, computed_at=timezone.now(),
    )


# --- recomputed when an event ends ------------------------------------------------------------


def matches_of(tournament):
    return [p.match for p in Pairing.objects.filter(round__tournament=tournament,
                                                    match__isnull=False)
            .select_related("match", "entry_a", "entry_b").order_by("round__number", "table")]


def lower_number_wins(match) -> str:
    pairing = Pairing.objects.select_related("entry_a", "entry_b").get(match=match)
    return "A" if pairing.entry_a.number < pairing.entry_b.number else "B"


@pytest.fixture
def league(tournament):
    """The conftest round robin (five players, draw numbers 1-5), started: 10 matches."""
    services.tournament_start(tournament=tournament)
    return tournament


def test_finishing_a_round_robin_rates_its_players_after_the_commit(
    league, players, django_capture_on_commit_callbacks
):
    *first, last = matches_of(league)
    assert len(first) == 9
    for match in first:  # the lower draw number wins every match
        play(match, ELEVEN_NIL[lower_number_wins(match)])
    assert not PlayerRating.objects.exists()  # nothing has finished yet

    with django_capture_on_commit_callbacks() as callbacks:
        play(last, ELEVEN_NIL[lower_number_wins(last)])
        league.refresh_from_db()
        assert league.status == Tournament.Status.FINISHED
        assert not PlayerRating.objects.exists()
    assert callbacks and not PlayerRating.objects.exists()  # started once committed, not inside
    for callback in callbacks:
        callback()

    assert stored() == computed()
    # Draw number 1 won all four matches, 5 lost all four; each number beat every higher one.
    by_number = [PlayerRating.objects.get(player=player).rating for player in players[:5]]
    assert by_number == sorted(by_number, reverse=True) and len(set(by_number)) == 5
    assert by_number[0] > 1500 > by_number[4]
    assert PlayerRating.objects.get(player=players[0]).won == 4
    assert set(RatingHistory.objects.values_list("tournament_id", flat=True)) == {league.pk}


def test_a_correction_that_reopens_a_finished_event_recomputes_and_so_does_finishing_again(
    league, players, django_capture_on_commit_callbacks
):
    matches = matches_of(league)
    for match in matches[:-1]:
        play(match, ELEVEN_NIL[lower_number_wins(match)])
    last = matches[-1]
    winner = lower_number_wins(last)
    with django_capture_on_commit_callbacks(execute=True):
        play(last, ELEVEN_NIL[winner])
    finished = stored()
    assert sum(row[3] for row in finished.values()) == 2 * 10

    with django_capture_on_commit_callbacks(execute=True):  # the last deal undone: reopened
        scoring_services.deal_undo_last(match=last, by=None)
    league.refresh_from_db()
    assert league.status == Tournament.Status.RUNNING
    assert stored() == computed()
    assert sum(row[3] for row in stored().values()) == 2 * 9  # the reopened match is not rated

    loser = "B" if winner == "A" else "A"  # the other player comes back: 9:0 becomes 9:11
    with django_capture_on_commit_callbacks(execute=True):
        play(last, " ".join([f"{loser}3"] * 3 + [f"{loser}2"]))
    league.refresh_from_db()
    last.refresh_from_db()
    assert league.status == Tournament.Status.FINISHED and last.winner == loser
    assert stored() == computed() != finished
    assert sum(row[3] for row in stored().values()) == 2 * 10


def test_a_deal_that_finishes_nothing_starts_no_recomputation(
    league, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        play(matches_of(league)[0], "A3 A3 A3 A2")
    assert not PlayerRating.objects.exists()


def test_closing_a_club_night_rates_it_and_a_match_ending_after_it_too(
    organiser, home_club, players, django_capture_on_commit_callbacks
):
    from scoring import rules

    ivan, maria, georgi = players[:3]
    night = club_nights.club_night_create(
        club=home_club, date=datetime.date(2026, 12, 1), name="Вечер", organiser=organiser,
        house_rules=rules.HouseRules(),
    )
    pair = club_nights.club_night_pair
    play(pair(night=night, player_a=ivan, player_b=maria, table=1, by=None).match,
         ELEVEN_NIL["A"])
    late = pair(night=night, player_a=georgi, player_b=ivan, table=2, by=None).match
    assert not PlayerRating.objects.exists()

    with django_capture_on_commit_callbacks(execute=True):
        club_nights.club_night_close(night=night)
    assert stored() == computed()
    assert set(stored()) == {ivan.pk, maria.pk}

    with django_capture_on_commit_callbacks(execute=True):  # finished after the close
        play(late, ELEVEN_NIL["A"])
    assert stored() == computed()
    assert PlayerRating.objects.get(player=georgi).won == 1


# --- seeding a knockout by rating -------------------------------------------------------------


@pytest.fixture
def cup(organiser, home_club, players) -> Tournament:
    """A draft knockout of six players seeded in the order of `players` (conftest)."""
    tournament = Tournament.objects.create(
        name="Купа", date=datetime.date(2026, 12, 12), club=home_club,
        format=Tournament.Format.KNOCKOUT,
    )
    tournament.organisers.add(organiser)
    for seed, player in enumerate(players[:6], start=1):
        Entry.objects.create(tournament=tournament, player=player, number=seed)
    return tournament


def seeds(tournament) -> list[str]:
    return list(tournament.entries.order_by("number").values_list("player__name", flat=True))


def by_rating_url(tournament):
    return reverse("events:seed_by_rating", args=[tournament.pk])


@pytest.fixture
def rated(players):
    """Иван 1600/100, Мария 1700/80, Георги 1600/60 (as Иван, better known), Светла 1450/300
    provisional; Елена and Димитър never rated."""
    ivan, maria, georgi, _elena, _dimitar, svetla = players[:6]
    rate_by_hand(ivan, 1600, 100)
    rate_by_hand(maria, 1700, 80)
    rate_by_hand(georgi, 1600, 60)
    rate_by_hand(svetla, 1450, 300, matches=2)


def test_seed_by_rating(organiser_client, cup, rated):
    response = english(organiser_client).post(by_rating_url(cup), follow=True)
    assert response.status_code == 200
    # Rated: Мария 1700, Георги 1600/60, Иван 1600/100, Светла 1450 (provisional counts);
    # unrated by name: Димитър Николов, Елена Стоянова.
    assert seeds(cup) == ["Мария Георгиева", "Георги Димитров", "Иван Петров",
                          "Светла Иванова", "Димитър Николов", "Елена Стоянова"]
    assert ("Seeded by rating. Rated players: 4; without a rating, seeded after them by name: "
            "2.") in response.content.decode()


def test_seed_by_rating_says_so_in_bulgarian(organiser_client, cup, rated):
    html = organiser_client.post(by_rating_url(cup), follow=True).content.decode()
    assert ("Поставени по рейтинг. С рейтинг: 4; без рейтинг, поставени след тях по име: "
            "2.") in html


def test_the_knockout_players_page_offers_it_and_a_round_robins_does_not(
    organiser_client, cup, tournament
):
    assert by_rating_url(cup) in organiser_client.get(
        reverse("events:players", args=[cup.pk])).content.decode()
    assert by_rating_url(tournament) not in organiser_client.get(
        reverse("events:players", args=[tournament.pk])).content.decode()


def test_seed_by_rating_refuses_get_outsiders_and_visitors(
    client, outsider_client, organiser_client, cup, rated
):
    assert organiser_client.get(by_rating_url(cup)).status_code == 405
    assert outsider_client.post(by_rating_url(cup)).status_code == 403
    response = client.post(by_rating_url(cup))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    assert seeds(cup)[0] == "Иван Петров"


def test_seed_by_rating_after_the_start_or_of_a_round_robin_changes_nothing(
    organiser_client, cup, tournament, rated
):
    knockout.knockout_start(tournament=cup)
    response = english(organiser_client).post(by_rating_url(cup), follow=True)
    assert "The tournament has started; its players and draw are fixed." in (
        response.content.decode())
    assert seeds(cup)[0] == "Иван Петров"
    with pytest.raises(TournamentError) as refused:
        knockout.seeds_by_rating(tournament=tournament)
    assert refused.value.code == "not_knockout"
    assert list(tournament.entries.order_by("number").values_list("player_id", flat=True)) == [
        player.pk for player in Player.objects.order_by("pk")[:5]
    ]


# --- the season ladder, the player page, the match page --------------------------------------


def test_the_season_ladder_shows_ratings(client, season, players):  # noqa: F811
    ivan, maria = players[:2]
    rate_by_hand(ivan, 1623.4, 80, matches=12)
    rate_by_hand(maria, 1547.5, 150, matches=3)
    response = english(client).get(reverse("clubs:season", args=[season.club_id, season.pk]))
    html = response.content.decode()
    assert 'title="Rating over every event (Glicko-2)"' in html
    cells = [str(row.get_cell("rating")) for row in response.context["ranked"].rows]
    # Иван, Мария, Георги (never rated) in ladder order.
    assert cells == [
        "1623",
        '1548<abbr class="provisional" title="Provisional: fewer than 10 rated matches">?</abbr>',
        "–",
    ]


def history_row(player, tournament, rating, deviation, matches):
    RatingHistory.objects.create(player=player, tournament=tournament, rating=rating,
                                 deviation=deviation, volatility=0.06, matches=matches)


def test_the_player_page_shows_the_rating_and_its_history(client, players, home_club):
    ivan = players[0]
    autumn = Tournament.objects.create(name="Есенна купа", date=datetime.date(2026, 10, 3),
                                       club=home_club)
    winter = Tournament.objects.create(name="Зимна купа", date=datetime.date(2026, 12, 5),
                                       club=home_club)
    history_row(ivan, winter, 1612.6, 90, 11)
    history_row(ivan, autumn, 1580.2, 120, 6)
    rate_by_hand(ivan, 1612.6, 90, matches=11)
    html = english(client).get(reverse("clubs:player", args=[ivan.pk])).content.decode()
    # 1612.6 ± 2 x 90 = 1612.6 ± 180: between 1432.6 and 1792.6.
    assert "<strong>1613</strong> ± 180" in html
    assert "Between 1433 and 1793 with about 95 % probability" in html
    assert "Rated from 11 matches." in html and '<span class="provisional">' not in html
    # Newest first; the change since the event before (the first: since 1500).
    winter_at, autumn_at = html.index("Зимна купа"), html.index("Есенна купа")
    assert winter_at < autumn_at
    assert "1613 <span class=\"meta\">± 90</span></td>\n          <td class=\"num\">+33" in html
    assert "1580 <span class=\"meta\">± 120</span></td>\n          <td class=\"num\">+80" in html
    assert "05.12.2026" in html


def test_a_provisional_and_an_unrated_player_on_their_page(client, players):
    ivan, maria = players[:2]
    rate_by_hand(ivan, 1480, 200, matches=3)
    html = english(client).get(reverse("clubs:player", args=[ivan.pk])).content.decode()
    assert "<strong>1480</strong> ± 400 <span class=\"provisional\">provisional</span>" in html
    assert "Rated from 3 matches; provisional until 10 rated matches." in html
    html = english(client).get(reverse("clubs:player", args=[maria.pk])).content.decode()
    assert "Not rated yet: a rating comes with the first finished match of a public event." in html


@pytest.fixture
def match(league) -> Match:
    return matches_of(league)[0]


def test_the_match_page_gives_each_players_chance_before_the_match(client, match):
    rate_by_hand(match.player_a, 1700, 50)
    rate_by_hand(match.player_b, 1500, 50)
    url = reverse("matches:entry", args=[match.pk])
    html = english(client).get(url).content.decode()
    # tests/ratings/test_periods.py: 1700/50 against 1500/50 wins with 0.75461.
    names = match.player_a.name, match.player_b.name
    assert f"Chance to win by rating: {names[0]} 75% · {names[1]} 25%" in html
    play(match, ELEVEN_NIL["B"])
    assert "Chance to win" not in english(client).get(url).content.decode()


def test_a_deal_saved_with_htmx_leaves_the_chances_line_as_the_page_has_it(
    organiser_client, match
):
    """Ratings do not change while a match is played: the answer to deal 2 reads none and
    sends an empty element that htmx replaces with the page's own line (hx-preserve)."""
    rate_by_hand(match.player_a, 1700, 50)
    rate_by_hand(match.player_b, 1500, 50)
    url = reverse("matches:entry", args=[match.pk])
    play(match, "A3")  # deal 1: 3:0
    html = english(organiser_client).get(url).content.decode()
    assert '<p id="match-chances" class="match-chances meta"' in html
    shown = re.search(r'name="shown" value="([0-9a-f]+)"', html).group(1)
    response = organiser_client.post(
        reverse("matches:deal_add", args=[match.pk]),
        {"number": 2, "winner": "B", "reason": "won", "shown": shown}, HTTP_HX_REQUEST="true")
    answer = response.content.decode()
    assert response["HX-Retarget"] == "#match-head"
    assert '<span id="match-chances" hx-preserve hidden></span>' in answer
    assert "Chance to win" not in answer


def test_the_chances_in_bulgarian_and_not_without_both_ratings(client, match):
    rate_by_hand(match.player_a, 1500, 50, matches=2)
    url = reverse("matches:entry", args=[match.pk])
    assert "Chance to win" not in english(client).get(url).content.decode()
    rate_by_hand(match.player_b, 1700, 50)
    client.cookies["django_language"] = "bg"
    html = client.get(url).content.decode()
    names = match.player_a.name, match.player_b.name
    assert f"Шанс за победа по рейтинг: {names[0]} 25 % · {names[1]} 75 %" in html
    assert "(временен рейтинг)" in html
