"""Club nights: the services, the night's standings by hand, and each write view's
four tests (works; wrong method; outsider and visitor refused; bad input writes nothing)."""

import datetime
import random
from functools import partial

import pytest
from django.test import Client
from django.urls import reverse

from club import services as club_services
from club.models import Club, Player
from events import services
from events.errors import TournamentError
from events.models import Entry, Pairing, Round, Tournament
from formats.club_night import selectors as club_night_selectors
from formats.club_night import services as club_nights
from scoring import rules
from scoring.models import Match
from standings import selectors as standings_selectors
from tests.concurrency import run_at_once
from tests.playing import play
from tests.services import require_vendor

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
    from core.messages import user_message

    pair(night, cast, "Иван", "Мария", 2)
    with pytest.raises(TournamentError) as error:
        pair(night, cast, "Иван", "Георги", 4)
    message = user_message(error.value)
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
    assert (unfinished.status, unfinished.game_points_a, unfinished.game_points_b) == (
        "playing", 0, 1
    )
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


def test_unpair_of_a_pairing_already_taken_back_is_refused_not_a_crash(night, cast):
    mistake = pair(night, cast, "Георги", "Елена", 2)
    club_nights.club_night_unpair(pairing=mistake, by=None)
    with pytest.raises(TournamentError) as error:  # the same stale pairing, a second time
        club_nights.club_night_unpair(pairing=mistake, by=None)
    assert error.value.code == "pairing_removed"


def test_player_for_name_reuses_the_register():
    existing = Player.objects.create(name="Стоян Колев")
    assert club_services.player_for_name(name="Стоян Колев", club=None) == existing
    new = club_services.player_for_name(name="Радка Пенева", club=None)
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
             row.game_points_against) for entry, row in standings_selectors.standings(night)]
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


# --- pages ------------------------------------------------------------------------------------


def night_url(name: str, night: Tournament, *args) -> str:
    return reverse(name, args=[night.pk, *args])


def test_the_night_page_is_public_and_shows_matches_and_standings(client, night, cast):
    play(pair(night, cast, "Иван", "Мария", 1).match, "A3 A3 A3 A2")
    play(pair(night, cast, "Георги", "Елена", 4).match, "B2")
    response = client.get(night_url("nights:detail", night))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Клубна вечер 11.12.2026" in html
    assert [p.table for p in response.context["current"]] == [4]
    assert [p.table for p in response.context["finished"]] == [1]
    assert "11 : 0" in html and "0 : 2" in html
    assert response.context["form"] is None  # no pairing form for visitors
    standings = [row["player"] for row in response.context["table"].data.data]
    assert standings[0] == "Иван Петров"
    assert reverse("clubs:player", args=[cast["Иван"].pk]) in html


def test_the_organiser_gets_the_pairing_form_with_the_next_free_table(
    organiser_client, night, cast
):
    pair(night, cast, "Иван", "Мария", 1)
    pair(night, cast, "Георги", "Елена", 2)
    response = organiser_client.get(night_url("nights:detail", night))
    form = response.context["form"]
    assert form["table"].value() == 3
    labels = [label for _value, label in form.fields["player_a"].choices]
    assert "Иван Петров (играе на маса 1)" in [str(label) for label in labels]


def test_a_round_robin_has_no_night_page_and_a_night_redirects_from_its_event_page(
    client, tournament, night
):
    assert client.get(night_url("nights:detail", tournament)).status_code == 404
    response = client.get(night.get_absolute_url())
    assert response.status_code == 302
    assert response.url == night_url("nights:detail", night)


def test_a_private_night_is_hidden_from_visitors(client, organiser_client, night):
    night.is_public = False
    night.save()
    assert client.get(night_url("nights:detail", night)).status_code == 404
    assert organiser_client.get(night_url("nights:detail", night)).status_code == 200


def test_the_match_page_of_a_night_leads_back_to_the_night(client, night, cast):
    match = pair(night, cast, "Иван", "Мария", 1).match
    html = client.get(reverse("matches:entry", args=[match.pk])).content.decode()
    assert night_url("nights:detail", night) in html


def test_home_offers_a_new_club_night_to_logged_in_users_only(client, organiser_client):
    url = reverse("nights:create")
    assert url in organiser_client.get(reverse("events:home")).content.decode()
    assert url not in client.get(reverse("events:home")).content.decode()


# create ---------------------------------------------------------------------------------------

NEW_NIGHT = {"date": "2026-12-18", "name": "Петъчна вечер", "rules": "default"}


def test_create_view_opens_the_night(organiser_client, organiser, home_club):
    response = organiser_client.get(reverse("nights:create"))
    assert response.context["form"]["club"].value() == home_club.pk  # their only club
    response = organiser_client.post(
        reverse("nights:create"), dict(NEW_NIGHT, club=home_club.pk)
    )
    night = Tournament.objects.get(name="Петъчна вечер")
    assert response.status_code == 302
    assert response.url == night_url("nights:detail", night)
    assert (night.club, night.date, night.format) == (
        home_club, datetime.date(2026, 12, 18), "club_night"
    )
    assert list(night.organisers.all()) == [organiser]


def test_create_view_names_an_unnamed_night_by_its_date(organiser_client):
    organiser_client.post(reverse("nights:create"), dict(NEW_NIGHT, name="  "))
    assert Tournament.objects.get().name.endswith(" 18.12.2026")


def test_create_view_refuses_other_methods(organiser_client):
    assert organiser_client.put(reverse("nights:create")).status_code == 405
    assert organiser_client.delete(reverse("nights:create")).status_code == 405


def test_create_view_refuses_visitors_and_another_clubs_night(client, outsider_client, home_club):
    response = client.post(reverse("nights:create"), NEW_NIGHT)
    assert response.status_code == 302 and "/accounts/login/" in response.url
    response = outsider_client.post(reverse("nights:create"),
                                    dict(NEW_NIGHT, club=home_club.pk))
    assert response.status_code == 422
    assert not Tournament.objects.exists()
    # With no club, an outsider may hold their own night.
    assert outsider_client.post(reverse("nights:create"), NEW_NIGHT).status_code == 302


def test_create_view_with_bad_input_writes_nothing(organiser_client):
    response = organiser_client.post(reverse("nights:create"),
                                     dict(NEW_NIGHT, date="31.02.2026", rules="street"))
    assert response.status_code == 422
    assert set(response.context["form"].errors) == {"date", "rules"}
    assert not Tournament.objects.exists()


# pair -----------------------------------------------------------------------------------------


def test_pair_view_pairs_a_registered_player_with_a_newcomer(organiser_client, night, cast,
                                                             home_club):
    response = organiser_client.post(night_url("nights:pair", night), {
        "player_a": cast["Иван"].pk, "new_name_b": "  Стоян   Колев ", "table": "4",
    })
    assert response.status_code == 302
    assert response.url == night_url("nights:detail", night)
    pairing = Pairing.objects.select_related("entry_b__player").get()
    assert pairing.table == 4
    assert pairing.entry_b.player.name == "Стоян Колев"
    assert pairing.entry_b.player.club == home_club
    page = organiser_client.get(response.url).content.decode()
    assert "Стоян Колев" in page


def test_pair_view_refuses_get(organiser_client, night):
    assert organiser_client.get(night_url("nights:pair", night)).status_code == 405


def test_pair_view_refuses_outsiders_and_visitors(client, outsider_client, night, cast):
    data = {"player_a": cast["Иван"].pk, "player_b": cast["Мария"].pk, "table": "1"}
    assert outsider_client.post(night_url("nights:pair", night), data).status_code == 403
    response = client.post(night_url("nights:pair", night), data)
    assert response.status_code == 302 and "/accounts/login/" in response.url
    assert not Pairing.objects.exists()


@pytest.mark.parametrize("data, field", [
    ({"player_b": "M", "table": "1"}, "player_a"),  # seat A empty
    ({"player_a": "I", "new_name_a": "Нов", "player_b": "M", "table": "1"}, "player_a"),
    ({"player_a": "I", "player_b": "I", "table": "1"}, "__all__"),
    ({"player_a": "I", "player_b": "M", "table": "0"}, "table"),
    ({"player_a": "I", "player_b": "M"}, "table"),
])
def test_pair_view_with_bad_input_writes_nothing(organiser_client, night, cast, data, field):
    ids = {"I": cast["Иван"].pk, "M": cast["Мария"].pk}
    data = {key: ids.get(value, value) for key, value in data.items()}
    before = counts()
    response = organiser_client.post(night_url("nights:pair", night), data)
    assert response.status_code == 422
    assert field in response.context["form"].errors
    assert counts() == before


def test_pair_view_refuses_a_busy_player_and_keeps_no_newcomer(organiser_client, night, cast):
    pair(night, cast, "Иван", "Мария", 2)
    before = counts()
    response = organiser_client.post(night_url("nights:pair", night), {
        "new_name_a": "Стоян Колев", "player_b": cast["Иван"].pk, "table": "3",
    })
    assert response.status_code == 409
    assert response.context["error"]
    assert "Иван Петров" in response.context["error"]
    assert response.context["form"]["new_name_a"].value() == "Стоян Колев"  # kept for a retry
    assert counts() == before  # Стоян Колев was not registered either
    # The refusal's page goes on following the night from the night's own address, not the
    # post's (which answers GET with 405).
    detail = night_url("nights:detail", night)
    assert f'id="live-night" data-live hx-get="{detail}"' in response.content.decode()


# close and take back --------------------------------------------------------------------------


def test_close_view_closes_the_night(organiser_client, night):
    response = organiser_client.post(night_url("nights:close", night))
    assert response.status_code == 302
    night.refresh_from_db()
    assert night.status == Tournament.Status.FINISHED
    page = organiser_client.get(night_url("nights:detail", night))
    assert page.context["form"] is None


def test_close_view_refuses_get(organiser_client, night):
    assert organiser_client.get(night_url("nights:close", night)).status_code == 405
    night.refresh_from_db()
    assert night.status == Tournament.Status.RUNNING


def test_close_view_refuses_outsiders_and_visitors(client, outsider_client, night):
    assert outsider_client.post(night_url("nights:close", night)).status_code == 403
    response = client.post(night_url("nights:close", night))
    assert response.status_code == 302 and "/accounts/login/" in response.url
    night.refresh_from_db()
    assert night.status == Tournament.Status.RUNNING


def test_close_view_on_a_closed_night_or_a_round_robin_writes_nothing(
    organiser_client, night, tournament
):
    club_nights.club_night_close(night=night)
    assert organiser_client.post(night_url("nights:close", night)).status_code == 409
    assert organiser_client.post(night_url("nights:close", tournament)).status_code == 404
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.DRAFT


def test_take_back_view_removes_the_pairing(organiser_client, night, cast):
    match = pair(night, cast, "Иван", "Мария", 1).match
    response = organiser_client.post(night_url("nights:unpair", night, match.pk))
    assert response.status_code == 302
    assert not Pairing.objects.exists() and not Match.objects.exists()


def test_taking_back_the_same_pairing_twice_says_so_the_second_time(
    organiser_client, night, cast
):
    match = pair(night, cast, "Иван", "Мария", 1).match
    url = night_url("nights:unpair", night, match.pk)
    assert organiser_client.post(url).status_code == 302
    response = organiser_client.post(url)  # a second tap, after the first was answered
    assert response.status_code == 409
    assert "Тази двойка вече е отменена." in response.content.decode()
    # A match that never was: not found.
    assert organiser_client.post(night_url("nights:unpair", night, 999999)).status_code == 404


def test_take_back_view_refuses_get(organiser_client, night, cast):
    match = pair(night, cast, "Иван", "Мария", 1).match
    assert organiser_client.get(night_url("nights:unpair", night, match.pk)).status_code == 405
    assert Pairing.objects.exists()


def test_take_back_view_refuses_outsiders_and_visitors(client, outsider_client, night, cast):
    match = pair(night, cast, "Иван", "Мария", 1).match
    url = night_url("nights:unpair", night, match.pk)
    assert outsider_client.post(url).status_code == 403
    response = client.post(url)
    assert response.status_code == 302 and "/accounts/login/" in response.url
    assert Pairing.objects.exists()


def test_take_back_view_refuses_a_match_with_deals(organiser_client, night, cast):
    match = pair(night, cast, "Иван", "Мария", 1).match
    play(match, "A1")
    response = organiser_client.post(night_url("nights:unpair", night, match.pk))
    assert response.status_code == 409
    assert Pairing.objects.exists()
    assert organiser_client.post(night_url("nights:unpair", night, 999999)).status_code == 404


@pytest.mark.parametrize("matches", [3, 30])
def test_the_night_page_uses_a_fixed_number_of_queries(
    organiser_client, night, players, django_assert_max_num_queries, matches
):
    for index in range(matches):
        a, b = players[index % 8], players[(index + 1 + index // 8) % 8]
        if a == b:
            b = players[(index + 2) % 8]
        match = club_nights.club_night_pair(night=night, player_a=a, player_b=b, table=1,
                                            by=None).match
        if index < matches - 1:
            play(match, "A3 A3 A3 A2")
    with django_assert_max_num_queries(13):  # 13th: the tables other events use tonight
        response = organiser_client.get(night_url("nights:detail", night))
    assert len(response.context["finished"]) == matches - 1
    assert len(response.context["current"]) == 1


# --- two organisers pair the same player at two tables at the same moment --------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "vendor", [pytest.param("postgresql", marks=pytest.mark.postgres), "sqlite"]
)
def test_two_organisers_pairing_one_player_at_once_pair_them_once(vendor, night, cast):
    require_vendor(vendor)
    def pair_ivan(opponent, table):
        pair(night, cast, "Иван", opponent, table)
        return "paired"

    outcomes = run_at_once(partial(pair_ivan, "Мария", 1), partial(pair_ivan, "Георги", 2))

    assert sorted(outcomes) == ["paired", "player_busy"]
    assert Pairing.objects.filter(round__tournament=night).count() == 1
    assert night.entries.count() == 2


def test_a_nights_settings_can_be_edited(organiser_client, night):
    from tests.events.test_setup_views import NEW_TOURNAMENT

    data = dict(NEW_TOURNAMENT, name="Петъчна вечер", date="2026-12-11", format="club_night",
                tie_break_1="game_point_difference", tie_break_2="game_points_scored",
                tie_break_3="", tie_break_4="", tie_break_5="")
    response = organiser_client.post(reverse("events:edit", args=[night.pk]), data)
    assert response.status_code == 302
    night.refresh_from_db()
    assert (night.name, night.format) == ("Петъчна вечер", "club_night")


# --- two organisers type the same newcomers at once ------------------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("with_club", [True, False], ids=["club", "no-club"])
@pytest.mark.parametrize(
    "vendor", [pytest.param("postgresql", marks=pytest.mark.postgres), "sqlite"]
)
def test_two_organisers_pairing_the_same_new_names_at_once_make_one_player_each(
    vendor, with_club, organiser, home_club, django_user_model
):
    require_vendor(vendor)
    second = django_user_model.objects.create_user("second", password="pass-second-1")
    home_club.organisers.add(second)
    night = club_nights.club_night_create(
        club=home_club if with_club else None, date=NIGHT_DATE, name="Петък",
        organiser=organiser, house_rules=rules.HouseRules(),
    )
    night.organisers.add(second)
    def post(client, table):
        return client.post(night_url("nights:pair", night), {
            "new_name_a": "Стоян Колев", "new_name_b": "Радка Пенева", "table": str(table),
        }).status_code

    clients = [Client(), Client()]
    clients[0].force_login(organiser)
    clients[1].force_login(second)
    statuses = run_at_once(partial(post, clients[0], 1), partial(post, clients[1], 2))

    # One pairing is made; the other finds both newcomers already playing at its table: 409.
    assert sorted(statuses, key=str) == [302, 409]
    assert Player.objects.filter(name="Стоян Колев").count() == 1
    assert Player.objects.filter(name="Радка Пенева").count() == 1
    assert Pairing.objects.filter(round__tournament=night).count() == 1


# --- a player in an unfinished match of another event the same evening -----------------------


@pytest.fixture
def winter_cup(organiser, home_club, cast) -> Tournament:
    """A round robin the same evening as the night: Иван, Мария, Георги, Елена by draw number.
    FIDE Berger round 1 of 4 players is 1–4, 2–3: Иван – Елена at table 1, Мария – Георги at
    table 2."""
    cup = Tournament.objects.create(name="Зимен турнир 2026", date=NIGHT_DATE, club=home_club,
                                    format=Tournament.Format.ROUND_ROBIN)
    cup.organisers.add(organiser)
    for number, name in enumerate(["Иван", "Мария", "Георги", "Елена"], start=1):
        Entry.objects.create(tournament=cup, player=cast[name], number=number)
    services.tournament_start(tournament=cup, rng=random.Random(1))
    return cup


def cup_match(cup, cast, a: str, b: str) -> Match:
    return Match.objects.get(pairing__round__tournament=cup, player_a=cast[a], player_b=cast[b])


def test_the_pairing_form_names_another_events_table_with_the_event(
    organiser_client, night, cast, winter_cup
):
    response = organiser_client.get(night_url("nights:detail", night))
    labels = [str(label) for _value, label in response.context["form"].fields["player_a"].choices]
    assert "Иван Петров (незавършена среща: Маса 1 · Зимен турнир 2026)" in labels
    assert "Мария Георгиева (незавършена среща: Маса 2 · Зимен турнир 2026)" in labels
    assert "Светла Иванова" in labels  # not in the round robin


def test_pairing_a_player_busy_in_another_event_is_allowed_with_a_warning(
    organiser_client, night, cast, winter_cup
):
    # Table 3: the round robin uses tables 1 and 2 tonight (a pairing there is asked about).
    response = organiser_client.post(night_url("nights:pair", night), {
        "player_a": cast["Иван"].pk, "player_b": cast["Светла"].pk, "table": "3",
    }, follow=True)
    assert response.status_code == 200
    assert Pairing.objects.filter(round__tournament=night, table=3).exists()
    warnings = [str(m) for m in response.context["messages"] if m.level_tag == "warning"]
    assert warnings == [
        "Иван Петров има и незавършена среща в друго събитие: Маса 1 · Зимен турнир 2026. "
        "Двойката е съставена въпреки това; уверете се, че играчът не е очакван там."
    ]
    assert warnings[0] in response.content.decode()


def test_the_warning_in_english(organiser_client, night, cast, winter_cup):
    organiser_client.cookies["django_language"] = "en"
    response = organiser_client.post(night_url("nights:pair", night), {
        "player_a": cast["Светла"].pk, "player_b": cast["Мария"].pk, "table": "3",
    }, follow=True)
    warnings = [str(m) for m in response.context["messages"] if m.level_tag == "warning"]
    assert warnings == [
        "Мария Георгиева also has an unfinished match in another event: Table 2 · Зимен турнир "
        "2026. The pairing is made all the same; make sure the player is not expected there."
    ]


def test_which_matches_of_other_events_count(organiser, outsider, night, cast, winter_cup,
                                             home_club):
    found = club_night_selectors.matches_elsewhere(night, organiser)
    assert {cast[name].pk: (found[cast[name].pk].table, found[cast[name].pk].round_number)
            for name in ("Иван", "Мария", "Георги", "Елена")} == {
        cast["Иван"].pk: (1, 1), cast["Мария"].pk: (2, 1), cast["Георги"].pk: (2, 1),
        cast["Елена"].pk: (1, 1),
    }
    assert cast["Светла"].pk not in found
    # Иван's round-1 match is over: his next one there is round 2 (4–3, 1–2: Иван – Мария at
    # table 2).
    play(cup_match(winter_cup, cast, "Иван", "Елена"), "A3 A3 A3 A2")
    found = club_night_selectors.matches_elsewhere(night, organiser)
    assert (found[cast["Иван"].pk].table, found[cast["Иван"].pk].round_number) == (2, 2)
    # Tonight's own matches are not "elsewhere".
    pair(night, cast, "Димитър", "Светла", 5)
    assert cast["Димитър"].pk not in club_night_selectors.matches_elsewhere(night, organiser)
    # Another day's event counts only for a match being played (deals entered).
    Tournament.objects.filter(pk=winter_cup.pk).update(
        date=NIGHT_DATE + datetime.timedelta(days=1)
    )
    assert club_night_selectors.matches_elsewhere(night, organiser) == {}
    play(cup_match(winter_cup, cast, "Мария", "Георги"), "A1")
    assert set(club_night_selectors.matches_elsewhere(night, organiser)) == {cast["Мария"].pk,
                                                                    cast["Георги"].pk}
    # A private event is named only to those who may see it.
    Tournament.objects.filter(pk=winter_cup.pk).update(is_public=False)
    assert club_night_selectors.matches_elsewhere(night, outsider) == {}


def test_the_player_page_shows_a_round_robin_table_with_its_round(client, cast, winter_cup):
    play(cup_match(winter_cup, cast, "Иван", "Елена"), "A1")
    html = client.get(reverse("clubs:player", args=[cast["Иван"].pk])).content.decode()
    assert "Зимен турнир 2026" in html and "кръг 1 · маса 1" in html


# --- a table another running event of the club uses tonight -----------------------------------

# The winter cup's round 1 (FIDE Berger, 4 players: 1–4, 2–3) holds table 1 (Иван – Елена) and
# table 2 (Мария – Георги) tonight.
CUP_TABLE_1 = "Иван Петров – Елена Стоянова"
CUP_TABLE_2 = "Мария Георгиева – Георги Димитров"


def tables(night) -> dict[int, tuple[str, int, str]]:
    return {table: (used.tournament.name, used.round_number, used.players)
            for table, used in club_night_selectors.tables_elsewhere(night).items()}


def test_the_tables_of_another_events_running_round(night, cast, winter_cup):
    assert tables(night) == {1: ("Зимен турнир 2026", 1, CUP_TABLE_1),
                             2: ("Зимен турнир 2026", 1, CUP_TABLE_2)}
    # Table 1's match is over; round 1 still runs at table 2 (round 2 waits for it).
    play(cup_match(winter_cup, cast, "Иван", "Елена"), "A3 A3 A3 A2")
    assert tables(night) == {2: ("Зимен турнир 2026", 1, CUP_TABLE_2)}
    # Round 1 over: round 2 runs, 4–3 at table 1, 1–2 at table 2.
    play(cup_match(winter_cup, cast, "Мария", "Георги"), "B3 B3 B3 B2")
    assert tables(night) == {
        1: ("Зимен турнир 2026", 2, "Елена Стоянова – Георги Димитров"),
        2: ("Зимен турнир 2026", 2, "Иван Петров – Мария Георгиева"),
    }


def test_which_events_tables_count(night, cast, winter_cup, organiser, home_club):
    # A match being played holds its table whatever its round: Иван – Мария (round 2, table 2)
    # started before round 1 is over.
    play(cup_match(winter_cup, cast, "Иван", "Мария"), "A1")
    assert tables(night)[2] == ("Зимен турнир 2026", 1, CUP_TABLE_2)  # round 1's, found first
    play(cup_match(winter_cup, cast, "Мария", "Георги"), "B3 B3 B3 B2")
    assert tables(night)[2] == ("Зимен турнир 2026", 2, "Иван Петров – Мария Георгиева")
    # Another evening's event holds none of tonight's tables, even with a match in play (a
    # match left unfinished some other night).
    Tournament.objects.filter(pk=winter_cup.pk).update(date=NIGHT_DATE + datetime.timedelta(1))
    assert tables(night) == {}
    # Another club's event, or a finished one, holds none of this club's tables.
    other_club = Club.objects.create(name="Клуб Варна", city="Варна")
    Tournament.objects.filter(pk=winter_cup.pk).update(club=other_club, date=NIGHT_DATE)
    assert tables(night) == {}
    Tournament.objects.filter(pk=winter_cup.pk).update(
        club=home_club, status=Tournament.Status.FINISHED
    )
    assert tables(night) == {}
    # A night of no club has no club's tables to share.
    no_club = club_nights.club_night_create(
        club=None, date=NIGHT_DATE, name="Вечер", organiser=organiser,
        house_rules=rules.HouseRules(),
    )
    Tournament.objects.filter(pk=winter_cup.pk).update(status=Tournament.Status.RUNNING)
    assert tables(no_club) == {}


def test_another_club_night_of_the_club_the_same_evening_counts(night, cast, organiser,
                                                                 home_club):
    upstairs = club_nights.club_night_create(
        club=home_club, date=NIGHT_DATE, name="Горе", organiser=organiser,
        house_rules=rules.HouseRules(),
    )
    pair(upstairs, cast, "Димитър", "Светла", 4)
    assert tables(night) == {4: ("Горе", 1, "Димитър Николов – Светла Иванова")}
    with pytest.raises(TournamentError) as refused:
        pair(night, cast, "Иван", "Мария", 4, by=organiser)
    assert refused.value.code == "table_elsewhere"


def test_pairing_at_a_table_in_use_elsewhere_waits_for_confirmation(night, cast, winter_cup,
                                                                     organiser):
    before = counts()
    with pytest.raises(TournamentError) as refused:
        pair(night, cast, "Светла", "Димитър", 1, by=organiser)
    assert (refused.value.code, refused.value.params) == ("table_elsewhere", {
        "table": 1, "event": "Зимен турнир 2026", "players": CUP_TABLE_1,
    })
    assert counts() == before
    pairing = club_nights.club_night_pair(
        night=night, player_a=cast["Светла"], player_b=cast["Димитър"], table=1, by=organiser,
        table_confirmed=True,
    )
    assert (pairing.table, pairing.match.status) == (1, Match.Status.SCHEDULED)
    # A free table needs no confirmation.
    assert pair(night, cast, "Николай", "Йорданка", 3, by=organiser).table == 3


def test_an_event_the_organiser_may_not_see_is_not_named(night, cast, winter_cup, outsider):
    Tournament.objects.filter(pk=winter_cup.pk).update(is_public=False)
    night.organisers.add(outsider)
    with pytest.raises(TournamentError) as refused:
        pair(night, cast, "Светла", "Димитър", 2, by=outsider)
    assert (refused.value.code, refused.value.params) == ("table_elsewhere_private",
                                                          {"table": 2})


def test_the_pair_view_asks_before_a_table_in_use_elsewhere(organiser_client, night, cast,
                                                            winter_cup):
    data = {"player_a": cast["Светла"].pk, "player_b": cast["Димитър"].pk, "table": "2"}
    before = counts()
    response = organiser_client.post(night_url("nights:pair", night), data)
    assert response.status_code == 409
    assert counts() == before
    assert response.context["table_question"] == (
        "Маса 2 се използва тази вечер от друго събитие на клуба, Зимен турнир 2026: "
        "Мария Георгиева – Георги Димитров. Започнете мача на маса 2 въпреки това само ако "
        "онази среща не се играе там; иначе изберете друга маса."
    )
    html = response.content.decode()
    assert ('<button type="submit" name="confirm_table" value="2" class="button secondary">'
            "Започни мача на маса 2 въпреки това</button>") in html
    assert response.context["form"]["player_a"].value() == str(cast["Светла"].pk)  # kept
    # The confirmation of table 2 does not cover another table in use: table 1 is asked too.
    response = organiser_client.post(night_url("nights:pair", night),
                                     {**data, "table": "1", "confirm_table": "2"})
    assert response.status_code == 409 and "Маса 1 се използва" in response.context[
        "table_question"]
    assert counts() == before
    # Confirmed: the match starts at table 2.
    response = organiser_client.post(night_url("nights:pair", night),
                                     {**data, "confirm_table": "2"})
    assert response.status_code == 302
    assert Pairing.objects.get(round__tournament=night).table == 2


def test_the_table_question_in_english(organiser_client, night, cast, winter_cup):
    organiser_client.cookies["django_language"] = "en"
    response = organiser_client.post(night_url("nights:pair", night), {
        "player_a": cast["Светла"].pk, "player_b": cast["Димитър"].pk, "table": "1",
    })
    assert response.status_code == 409
    assert response.context["table_question"] == (
        "Table 1 is in use tonight by another event of the club, Зимен турнир 2026: "
        "Иван Петров – Елена Стоянова. Start the match at table 1 all the same only if that "
        "match is not played there; otherwise choose another table."
    )
    assert "Start the match at table 1 all the same</button>" in response.content.decode()


def test_the_form_suggests_a_table_free_everywhere(organiser_client, night, cast, winter_cup):
    # Tables 1 and 2: the cup; table 3: tonight's own match. Next free: 4.
    pair(night, cast, "Светла", "Димитър", 3)
    response = organiser_client.get(night_url("nights:detail", night))
    assert response.context["form"].initial["table"] == 4
