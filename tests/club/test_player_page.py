"""The player page: history newest first across events, head-to-head by hand,
private events only for their organisers, a fixed number of queries."""

import datetime

import pytest
from django.db.models import Q
from django.urls import reverse

from events import services
from formats.club_night import services as club_nights
from scoring import rules
from scoring import services as scoring_services
from tests.playing import play

pytestmark = pytest.mark.django_db


def night_on(day: int, organiser, club, *, public=True):
    night = club_nights.club_night_create(
        club=club, date=datetime.date(2026, 12, day), name=f"Вечер {day}.12",
        organiser=organiser, house_rules=rules.HouseRules(),
    )
    if not public:
        night.is_public = False
        night.save()
    return night


def pair(night, a, b, table):
    return club_nights.club_night_pair(night=night, player_a=a, player_b=b, table=table, by=None)


@pytest.fixture
def evenings(organiser, home_club, players):
    """Иван's evenings:
    1 Dec (table 1): beats Мария 11-2; (table 2) loses to Георги 9-11.
    8 Dec (table 3): beats Мария by forfeit 11-4 (Мария had 4); (table 1): vs Георги, playing 3-0.
    10 Dec, private: beats Елена 11-0.
    """
    ivan, maria, georgi, elena = players[:4]
    first = night_on(1, organiser, home_club)
    play(pair(first, ivan, maria, 1).match, "A3 A3 B2 A3 A2")
    play(pair(first, georgi, ivan, 2).match, "A1 B3 A3 B3 A3 B3 A2 A2")
    second = night_on(8, organiser, home_club)
    forfeited = pair(second, maria, ivan, 3).match
    play(forfeited, "A3 A1")
    scoring_services.match_forfeit(match=forfeited, winner="B", by=None)
    play(pair(second, ivan, georgi, 1).match, "A3")
    private = night_on(10, organiser, home_club, public=False)
    play(pair(private, ivan, elena, 1).match, "A3 A3 A3 A2")
    return ivan


def page(client, player):
    return client.get(reverse("clubs:player", args=[player.pk]))


def test_history_newest_first_from_the_players_side(client, evenings):
    response = page(client, evenings)
    assert response.status_code == 200
    rows = [(r["tournament"].name, r["pairing"].table, r["opponent"].name.split()[0],
             r["own"], r["other"], r["won"], r["forfeit"], r["match"].status)
            for r in response.context["rows"]]
    assert rows == [
        ("Вечер 8.12", 1, "Георги", 3, 0, False, False, "playing"),
        ("Вечер 8.12", 3, "Мария", 11, 4, True, True, "forfeited"),
        ("Вечер 1.12", 2, "Георги", 9, 11, False, False, "finished"),
        ("Вечер 1.12", 1, "Мария", 11, 2, True, False, "finished"),
    ]
    assert "Вечер 10.12" not in response.content.decode()  # private
    client.cookies["django_language"] = "en"
    html = page(client, evenings).content.decode()
    assert html.count("won by forfeit") == 1 and html.count("playing") >= 1


def test_head_to_head_by_hand(client, evenings):
    # Мария: 2 played, 2 won, 11+11 = 22 for, 2+4 = 6 against.
    # Георги: 1 played (the playing match does not count), lost 9-11.
    response = page(client, evenings)
    rows = [(r["opponent"].split()[0], r["played"], r["won"], r["lost"], r["gp_for"],
             r["gp_against"]) for r in response.context["h2h"].data.data]
    assert rows == [("Мария", 2, 2, 0, 22, 6), ("Георги", 1, 0, 1, 9, 11)]
    assert (response.context["played"], response.context["won"]) == (3, 2)


def test_private_events_show_to_their_organisers_only(client, outsider_client, organiser_client,
                                                      evenings):
    def events(c):
        return {r["tournament"].name for r in page(c, evenings).context["rows"]}

    assert "Вечер 10.12" not in events(client)
    assert "Вечер 10.12" not in events(outsider_client)
    assert "Вечер 10.12" in events(organiser_client)
    h2h = page(organiser_client, evenings).context["h2h"].data.data
    assert ("Елена Стоянова", 1) in [(r["opponent"], r["played"]) for r in h2h]


def test_a_round_robin_shows_its_round_and_unplayed_rounds_are_left_out(client, tournament):
    services.tournament_start(tournament=tournament)
    ivan = tournament.entries.get(number=1).player
    pairing = tournament.rounds.get(number=2).pairings.exclude(match=None).get(
        Q(entry_a__player=ivan) | Q(entry_b__player=ivan)
    )
    play(pairing.match, "A3 A3 A3 A2")
    client.cookies["django_language"] = "en"
    response = page(client, ivan)
    assert [r["pairing"].round.number for r in response.context["rows"]] == [2]
    assert "round 2" in response.content.decode()


def test_a_player_without_matches_and_an_unknown_player(client, players):
    response = page(client, players[7])
    assert response.status_code == 200
    assert response.context["rows"] == [] and response.context["h2h"] is None
    assert client.get(reverse("clubs:player", args=[999999])).status_code == 404


@pytest.mark.parametrize("matches", [3, 30])
def test_the_page_uses_a_fixed_number_of_queries(
    client, organiser_client, organiser, home_club, players, django_assert_max_num_queries,
    matches,
):
    ivan, others = players[0], players[1:]
    for index in range(matches):
        night = night_on(1 + index % 28, organiser, home_club, public=index % 5 != 0)
        play(pair(night, ivan, others[index % len(others)], 1).match, "A3 A3 A3 A2")
    for viewer in (client, organiser_client):
        # (session, user,) player, matches, rating, its history, the rating chart's points
        with django_assert_max_num_queries(7):
            response = page(viewer, ivan)
        assert response.status_code == 200
    assert len(response.context["rows"]) == matches


def test_a_long_history_comes_fifty_matches_a_page_newest_first(
    client, organiser, home_club, players
):
    ivan, maria = players[:2]
    for index in range(55):  # one evening a day from 1 January, Иван beats Мария 11:0
        night = club_nights.club_night_create(
            club=home_club, date=datetime.date(2026, 1, 1) + datetime.timedelta(days=index),
            name=f"Вечер {index}", organiser=organiser, house_rules=rules.HouseRules(),
        )
        play(pair(night, ivan, maria, 1).match, "A3 A3 A3 A2")
    first = page(client, ivan)
    assert [r["tournament"].name for r in first.context["rows"]][:2] == ["Вечер 54", "Вечер 53"]
    assert len(first.context["rows"]) == 50
    assert "55 matches" in english(client, ivan)  # the record still counts all 55
    url = reverse("clubs:player", args=[ivan.pk])
    second = client.get(url + "?page=2")
    assert [r["tournament"].name for r in second.context["rows"]] == [
        "Вечер 4", "Вечер 3", "Вечер 2", "Вечер 1", "Вечер 0"
    ]
    assert client.get(url + "?page=abc").context["rows"][0]["tournament"].name == "Вечер 54"
    assert len(client.get(url + "?page=99").context["rows"]) == 5  # past the end: the last


def english(client, player) -> str:
    client.cookies["django_language"] = "en"
    return page(client, player).content.decode()
