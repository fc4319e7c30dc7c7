"""Ratings from the record: which matches count (`selectors.rating_periods`), storing them
(`rating_services`, the Celery task) and the `ratings` command after an imported season."""

import csv
import datetime
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import translation

from club.models import Club, Player
from events.models import Entry, Pairing, Round, Tournament
from ratings import selectors
from ratings import services as rating_services
from ratings.glicko2 import Rating, Result, rate
from ratings.models import PlayerRating, RatingHistory
from ratings.periods import RatedMatch, RatingPeriod
from ratings.tasks import recompute_ratings
from scoring import services as scoring_services
from scoring.models import Match
from tests.concurrency import run_at_once
from tests.playing import play
from tests.services import require_vendor

FIXTURES = Path(__file__).parent.parent / "fixtures"
# season_round_robin.csv: six players, one round robin of 5 rounds; each match is won 11:1
# by the player earlier in this list, so Анна wins 5, Борис 4, ... Емил 0.
SEASON = ["Анна Иванова", "Борис Петров", "Вера Колева", "Галин Стоев", "Деница Митева",
          "Емил Христов"]
A_WINS = "B1 A3 A3 A2 A3"
B_WINS = "A1 B3 B3 B2 B3"

pytestmark = pytest.mark.django_db


def event(name, date, *, public=True, club=None):
    return Tournament.objects.create(
        name=name, date=date, format=Tournament.Format.ROUND_ROBIN, is_public=public,
        status=Tournament.Status.RUNNING, club=club,
    )


def meet(tournament, a: Player, b: Player, deals: str | None = None, *, table=1) -> Match:
    """A match of `tournament` between `a` (seat A) and `b`, played out if `deals` is given."""
    round_, _ = Round.objects.get_or_create(tournament=tournament, number=1)
    entries = [Entry.objects.get_or_create(tournament=tournament, player=p)[0] for p in (a, b)]
    match = Match.objects.create(player_a=a, player_b=b)
    Pairing.objects.create(round=round_, table=table, entry_a=entries[0], entry_b=entries[1],
                           match=match)
    if deals:
        play(match, deals)
    match.refresh_from_db()
    return match


@pytest.fixture
def cast(players):
    return players[:4]


def test_finished_matches_of_public_events_by_date_then_id(cast):
    ivan, maria, georgi, elena = cast
    later = event("Later", datetime.date(2026, 12, 12))
    earlier = event("Earlier", datetime.date(2026, 12, 5))
    same_day = event("Same day", datetime.date(2026, 12, 12))
    hidden = event("Private", datetime.date(2026, 12, 1), public=False)
    first = meet(later, ivan, maria, A_WINS)
    second = meet(earlier, georgi, elena, B_WINS)
    meet(same_day, maria, elena, A_WINS)
    meet(hidden, ivan, elena, A_WINS)  # private: not rated
    forfeited = meet(earlier, ivan, georgi, table=2)
    scoring_services.match_forfeit(match=forfeited, winner="A", by=None)  # forfeit: not rated
    meet(earlier, maria, ivan, "A3 A3", table=3)  # unfinished: not rated
    assert first.status == second.status == Match.Status.FINISHED

    assert selectors.rating_periods() == [
        RatingPeriod(earlier.pk, (RatedMatch(georgi.pk, elena.pk, "B"),)),
        RatingPeriod(later.pk, (RatedMatch(ivan.pk, maria.pk, "A"),)),
        RatingPeriod(same_day.pk, (RatedMatch(maria.pk, elena.pk, "A"),)),
    ]


def test_recompute_stores_the_ratings_and_the_history(cast):
    ivan, maria, *_ = cast
    cup = event("Cup", datetime.date(2026, 12, 5))
    meet(cup, ivan, maria, A_WINS)
    # By the paper: two newcomers (1500/350/0.06), one game each.
    winner = rate(Rating(), [Result(Rating(), 1)])
    loser = rate(Rating(), [Result(Rating(), 0)])

    assert rating_services.player_ratings_recompute() == 2

    stored = {r.player_id: r for r in PlayerRating.objects.all()}
    assert (stored[ivan.pk].rating, stored[ivan.pk].deviation) == (winner.rating,
                                                                   winner.deviation)
    assert (stored[maria.pk].rating, stored[maria.pk].volatility) == (loser.rating,
                                                                      loser.volatility)
    assert (stored[ivan.pk].matches, stored[ivan.pk].won, stored[ivan.pk].lost) == (1, 1, 0)
    assert stored[ivan.pk].provisional
    assert set(RatingHistory.objects.values_list("player_id", "tournament_id", "matches")) == {
        (ivan.pk, cup.pk, 1), (maria.pk, cup.pk, 1),
    }


def stored_ratings():
    return list(PlayerRating.objects.order_by("player_id").values_list(
        "player_id", "rating", "deviation", "volatility", "matches", "won", "lost"))


def test_recomputing_twice_gives_identical_ratings(cast):
    ivan, maria, georgi, elena = cast
    one = event("One", datetime.date(2026, 11, 5))
    two = event("Two", datetime.date(2026, 12, 5))
    meet(one, ivan, maria, A_WINS)
    meet(one, georgi, elena, B_WINS, table=2)
    meet(two, maria, georgi, A_WINS)
    meet(two, elena, ivan, A_WINS, table=2)

    recompute_ratings.delay()  # eager in tests, as without a broker
    first = stored_ratings()
    history = list(RatingHistory.objects.order_by("pk").values_list(
        "player_id", "tournament_id", "rating", "deviation"))
    assert recompute_ratings.delay().get() == 4

    assert len(first) == 4
    assert stored_ratings() == first
    assert list(RatingHistory.objects.order_by("pk").values_list(
        "player_id", "tournament_id", "rating", "deviation")) == history


def test_a_forfeit_later_in_the_record_is_not_rated(cast):
    ivan, maria, *_ = cast
    cup = event("Cup", datetime.date(2026, 12, 5))
    match = meet(cup, ivan, maria, "A3")
    scoring_services.match_forfeit(match=match, winner="B", by=None)
    assert rating_services.player_ratings_recompute() == 0
    assert not PlayerRating.objects.exists()


# --- the command after importing a season ---------------------------------------------------


def ratings_csv(**options) -> list[dict]:
    out = StringIO()
    call_command("ratings", format="csv", stdout=out, **options)
    return list(csv.DictReader(StringIO(out.getvalue())))


def import_season(club=None) -> Tournament:
    out = StringIO()
    call_command(
        "import_tournament", str(FIXTURES / "season_round_robin.csv"), name="Сезон 2026",
        date="2026-12-05", stdout=out, **({"club": club.pk} if club else {}),
    )
    return Tournament.objects.get(pk=int(out.getvalue().split()[-1]))


def test_after_importing_a_season_every_player_is_rated_most_wins_first():
    import_season()
    rows = ratings_csv()

    assert {"player", "rating", "deviation", "matches", "volatility", "provisional"} <= set(
        rows[0])
    assert [row["player"] for row in rows] == SEASON
    assert [row["won"] for row in rows] == ["5", "4", "3", "2", "1", "0"]
    assert {row["matches"] for row in rows} == {"5"}
    assert {row["provisional"] for row in rows} == {"yes"}  # 5 matches, fewer than 10
    ratings = [float(row["rating"]) for row in rows]
    assert ratings == sorted(ratings, reverse=True) and len(set(ratings)) == 6
    assert ratings[0] > 1500 > ratings[-1]
    # Every opponent was a newcomer (1500/350) at the start of the one rating period, so the
    # ratings are symmetric about 1500: Анна's gain is Емил's loss.
    assert ratings[0] - 1500 == pytest.approx(1500 - ratings[-1], abs=0.1)


def test_the_command_twice_prints_the_same():
    import_season()
    first, second = StringIO(), StringIO()
    call_command("ratings", stdout=first)
    call_command("ratings", stdout=second)
    assert first.getvalue() == second.getvalue()
    lines = first.getvalue().splitlines()
    assert lines[0].split() == ["player", "rating", "deviation", "volatility", "matches",
                                "won", "lost", "provisional"]
    assert set(lines[1]) == {"-", " "}
    assert lines[2].startswith("Анна Иванова ") and lines[-1].startswith("Емил Христов ")
    # Numbers are right-aligned: every row ends in the same column as the header.
    assert len({len(line) for line in lines[:2]}) == 1


def test_club_lists_only_its_players():
    plovdiv = Club.objects.create(name="Пловдив")
    import_season(plovdiv)
    other = Club.objects.create(name="София")
    stranger, guest = (Player.objects.create(name=n, club=other) for n in ("Стоян", "Гост"))
    meet(event("Sofia", datetime.date(2026, 12, 6)), stranger, guest, A_WINS)

    assert [row["player"] for row in ratings_csv(club=plovdiv.pk)] == SEASON
    assert [row["player"] for row in ratings_csv(club=other.pk)] == ["Стоян", "Гост"]
    assert len(ratings_csv()) == 8


@pytest.mark.parametrize("language, message", [
    ("en", "There is no club with id 999999; the clubs' ids are in the admin."),
    ("bg", "Няма клуб с номер 999999; номерата на клубовете са в администрацията."),
])
def test_an_unknown_club_is_refused_in_the_users_language(language, message):
    with translation.override(language), pytest.raises(CommandError) as error:
        call_command("ratings", club=999999, stdout=StringIO())
    assert str(error.value) == message


# --- two recomputations at once -------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "vendor", [pytest.param("postgresql", marks=pytest.mark.postgres), "sqlite"]
)
def test_two_recomputations_at_once_both_succeed(vendor):
    require_vendor(vendor)
    import_season()
    recompute = rating_services.player_ratings_recompute
    outcomes = run_at_once(recompute, recompute)

    assert outcomes == [6, 6]
    assert PlayerRating.objects.count() == 6
    assert RatingHistory.objects.count() == 6
