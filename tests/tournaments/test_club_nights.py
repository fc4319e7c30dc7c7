"""Club nights (issue 7): the services and the night's standings by hand."""

import datetime
import random

import pytest

from club.models import Player
from scoring import rules
from scoring.models import Match
from tests.tournaments.playing import play
from tournaments import club_nights, selectors, services
from tournaments.models import Entry, Pairing, Round, Tournament
from tournaments.services import TournamentError

pytestmark = pytest.mark.django_db

NIGHT_DATE = datetime.date(2026, 12, 11)


def counts() -> tuple[int, ...]:
    return (Tournament.objects.count(), Round.objects.count(), Entry.objects.count(),
            Pairing.objects.count(), Match.objects.count(), Player.objects.count())


@pytest.fixture
def night(organiser, home_club) -> Tournament:
    return club_nights.club_night_create(
        club=home_club, date=NIGHT_DATE, name="Клубна вечер 11.12.2026", organiser=organiser,
        house_rules=rules.HouseRules(),
    )


@pytest.fixture
def cast(players) -> dict[str, Player]:
    return {player.name.split()[0]: player for player in players}


def pair(night, cast, a: str, b: str, table: int, by=None) -> Pairing:
    return club_nights.club_night_pair(
        night=night, player_a=cast[a], player_b=cast[b], table=table, by=by
    )


# --- services ---------------------------------------------------------------------------------


def test_create_opens_a_running_night_with_one_round(organiser, home_club):
    night = club_nights.club_night_create(
        club=home_club, date=NIGHT_DATE, name="Петък", organiser=organiser,
        house_rules=rules.HouseRules.preset("pagat"),
    )
    assert night.format == Tournament.Format.CLUB_NIGHT
    assert night.status == Tournament.Status.RUNNING
    assert night.tie_breaks == ["game_point_difference", "game_points_scored"]
    assert night.house_rules() == rules.HouseRules.preset("pagat")
    assert list(night.organisers.all()) == [organiser]
    assert list(night.rounds.values_list("number", flat=True)) == [1]


def test_create_for_a_club_one_does_not_organise_is_refused(outsider, home_club):
    before = counts()
    with pytest.raises(TournamentError) as error:
        club_nights.club_night_create(
            club=home_club, date=NIGHT_DATE, name="Чужда", organiser=outsider,
            house_rules=rules.HouseRules(),
        )
    assert error.value.code == "not_club_organiser"
    assert counts() == before


def test_anyone_logged_in_may_hold_a_night_with_no_club(outsider):
    night = club_nights.club_night_create(
        club=None, date=NIGHT_DATE, name="У дома", organiser=outsider,
        house_rules=rules.HouseRules(),
    )
    assert night.club is None and list(night.organisers.all()) == [outsider]


def test_pairing_enters_players_on_first_appearance_and_starts_the_match(night, cast, organiser):
    night.set_house_rules(rules.HouseRules.preset("pagat"))
    night.save()
    first = pair(night, cast, "Иван", "Мария", 3, by=organiser)
    second = pair(night, cast, "Георги", "Елена", 1)
    entries = {e.player.name.split()[0]: e.number for e in night.entries.select_related("player")}
    assert entries == {"Иван": 1, "Мария": 2, "Георги": 3, "Елена": 4}
    match = first.match
    assert (match.player_a, match.player_b) == (cast["Иван"], cast["Мария"])
    assert match.first_dealer == "A"
    assert match.status == Match.Status.SCHEDULED
    assert match.house_rules() == rules.HouseRules.preset("pagat")
    assert (first.round.number, first.table, second.table) == (1, 3, 1)
    assert match.history.first().history_user == organiser


def test_tables_are_reused_and_players_play_again_once_their_match_is_over(night, cast):
    first = pair(night, cast, "Иван", "Мария", 1)
    play(first.match, "A3 A3 A3 A2")
    again = pair(night, cast, "Мария", "Иван", 1)  # same table, same players, seats swapped
    assert again.table == first.table
    assert night.entries.count() == 2  # their entries are reused
    assert Pairing.objects.filter(round__tournament=night, table=1).count() == 2


@pytest.mark.parametrize("status", ["scheduled", "playing"])
def test_a_player_whose_match_is_unfinished_cannot_be_paired(night, cast, status):
    busy = pair(night, cast, "Иван", "Мария", 2)
    if status == "playing":
        play(busy.match, "A1")
    before = counts()
    with pytest.raises(TournamentError) as error:
        pair(night, cast, "Георги", "Мария", 5)
    assert error.value.code == "player_busy"
    assert error.value.params == {"name": "Мария Георгиева", "table": 2}
    assert counts() == before


def test_the_busy_message_names_the_player_and_table(night, cast):
    from tournaments.messages import tournament_error_message

    pair(night, cast, "Иван", "Мария", 2)
    with pytest.raises(TournamentError) as error:
        pair(night, cast, "Иван", "Георги", 4)
    message = tournament_error_message(error.value)
    assert "Иван Петров" in message and "2" in message


def test_a_table_with_an_unfinished_match_is_refused(night, cast):
    pair(night, cast, "Иван", "Мария", 2)
    with pytest.raises(TournamentError) as error:
        pair(night, cast, "Георги", "Елена", 2)
    assert error.value.code == "table_busy"
    assert error.value.params["table"] == 2


def test_a_player_against_themselves_and_table_zero_are_refused(night, cast):
    for a, b, table, code in [("Иван", "Иван", 1, "same_player"), ("Иван", "Мария", 0,
                                                                   "bad_table")]:
        with pytest.raises(TournamentError) as error:
            pair(night, cast, a, b, table)
        assert error.value.code == code
    assert not Match.objects.exists()


def test_a_round_robin_is_not_paired_this_way(tournament, cast):
    with pytest.raises(TournamentError) as error:
        pair(tournament, cast, "Иван", "Мария", 1)
    assert error.value.code == "not_club_night"


def test_the_night_stays_open_when_every_match_is_over(night, cast):
    play(pair(night, cast, "Иван", "Мария", 1).match, "A3 A3 A3 A2")
    night.refresh_from_db()
    assert night.status == Tournament.Status.RUNNING


def test_close_leaves_unfinished_matches_as_they_are(night, cast):
    done = pair(night, cast, "Иван", "Мария", 1).match
    play(done, "A3 A3 A3 A2")
    unfinished = pair(night, cast, "Георги", "Елена", 2).match
    play(unfinished, "B1")
    club_nights.club_night_close(night=night)
    night.refresh_from_db()
    unfinished.refresh_from_db()
    assert night.status == Tournament.Status.FINISHED
    assert (unfinished.status, unfinished.points_a, unfinished.points_b) == ("playing", 0, 1)
    play(unfinished, "B3 B3 B3 B1")  # it can still be finished; the night stays closed
    night.refresh_from_db()
    assert night.status == Tournament.Status.FINISHED
    with pytest.raises(TournamentError) as error:
        pair(night, cast, "Иван", "Георги", 3)
    assert error.value.code == "night_closed"
    with pytest.raises(TournamentError) as error:
        club_nights.club_night_close(night=night)
    assert error.value.code == "night_closed"


def test_unpair_takes_back_a_pairing_without_deals(night, cast):
    kept = pair(night, cast, "Иван", "Мария", 1)
    mistake = pair(night, cast, "Георги", "Елена", 2)
    club_nights.club_night_unpair(pairing=mistake, by=None)
    assert list(Pairing.objects.all()) == [kept]
    assert not Match.objects.filter(pk=mistake.match_id).exists()
    assert Match.history.filter(id=mistake.match_id, history_type="-").exists()
    assert set(night.entries.values_list("player__name", flat=True)) == {
        "Иван Петров", "Мария Георгиева"
    }
    play(kept.match, "A1")
    with pytest.raises(TournamentError) as error:
        club_nights.club_night_unpair(pairing=kept, by=None)
    assert error.value.code == "match_has_deals"
    assert Pairing.objects.filter(pk=kept.pk).exists()


def test_player_for_name_reuses_the_register():
    existing = Player.objects.create(name="Стоян Колев")
    assert club_nights.player_for_name(name="Стоян Колев", club=None) == existing
    new = club_nights.player_for_name(name="Радка Пенева", club=None)
    assert new.pk != existing.pk and new.club is None


def test_the_nights_standings_by_hand(night, cast):
    # 1. Иван beats Мария 11-10     2. Елена beats Георги 11-1
    # 3. Мария beats Георги 11-2    4. Иван beats Елена 11-9
    # 5. Димитър - Светла: one deal, still playing (does not count)
    play(pair(night, cast, "Иван", "Мария", 1).match, "B3 B3 B3 A3 A3 A3 B1 A2")
    play(pair(night, cast, "Георги", "Елена", 2).match, "B3 B3 A1 B3 B2")
    play(pair(night, cast, "Мария", "Георги", 1).match, "A3 A3 B2 A3 A2")
    play(pair(night, cast, "Иван", "Елена", 2).match, "A1 B3 A3 B3 A3 B3 A2 A2")
    play(pair(night, cast, "Димитър", "Светла", 3).match, "A1")
    rows = [(entry.player.name.split()[0], row.rank, row.won, row.game_points_for,
             row.game_points_against) for entry, row in selectors.standings(night)]
    # Иван: 2 wins.  Мария and Елена: 1 win, difference +8 each (21-13, 20-12): Мария scored
    # more (21).  Димитър, Светла: 0 wins, 0-0.  Георги: 0 wins, 3-22 (-19).
    assert rows == [
        ("Иван", 1, 2, 22, 19),
        ("Мария", 2, 1, 21, 13),
        ("Елена", 3, 1, 20, 12),
        ("Димитър", 4, 0, 0, 0),
        ("Светла", 4, 0, 0, 0),
        ("Георги", 6, 0, 3, 22),
    ]


def test_round_robin_start_still_gives_each_match_of_a_round_its_own_table(tournament):
    # The database no longer holds (round, table) unique (club nights reuse tables); the
    # round-robin schedule keeps it: 8 players, double round robin, 14 rounds of 4 tables.
    for player in Player.objects.exclude(entries__tournament=tournament):
        services.entry_add(tournament=tournament, player=player)
    tournament.format = Tournament.Format.DOUBLE_ROUND_ROBIN
    tournament.save()
    services.tournament_start(tournament=tournament, rng=random.Random(7))
    for round_ in tournament.rounds.all():
        tables = list(round_.pairings.values_list("table", flat=True))
        assert sorted(tables) == [1, 2, 3, 4], round_.number
