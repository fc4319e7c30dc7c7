"""Club page, season ladder page, the Season model and admin, and the demo."""

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.urls import reverse

from club.models import Club, Season
from events.models import Tournament
from formats.club_night import services as club_nights
from scoring import rules
from scoring import services as scoring_services
from scoring.models import Match
from server import demo
from standings import selectors
from tests.playing import play

pytestmark = pytest.mark.django_db

WINTER = (datetime.date(2026, 12, 1), datetime.date(2027, 2, 28))


def night_on(date, organiser, club, *, public=True, name=None):
    night = club_nights.club_night_create(
        club=club, date=date, name=name or f"Вечер {date:%d.%m.%Y}", organiser=organiser,
        house_rules=rules.HouseRules(),
    )
    if not public:
        night.is_public = False
        night.save()
    return night


def pair(night, a, b, table=1):
    return club_nights.club_night_pair(night=night, player_a=a, player_b=b, table=table, by=None)


@pytest.fixture
def season(organiser, home_club, players) -> Season:
    """The winter season, min 2 matches. Counted (public, the club's, within the dates):
      a. 1 Dec (first day): Иван beats Мария 11-2
      b. 1 Dec: Мария beats Георги 11-0
      c. 1 Dec: Георги - Иван forfeited to Иван, 0-11
      d. 28 Feb (last day): Елена beats Иван 11-9
    Not counted: a private night (Мария beats Иван), a night on 1 Mar (Георги beats Елена),
    another club's night (Иван beats Георги), and a match still being played (Мария - Елена).
    """
    ivan, maria, georgi, elena = players[:4]
    first = night_on(WINTER[0], organiser, home_club)
    play(pair(first, ivan, maria).match, "A3 A3 B2 A3 A2")
    play(pair(first, maria, georgi, 2).match, "A3 A3 A3 A2")
    forfeit = pair(first, georgi, ivan, 3).match
    scoring_services.match_forfeit(match=forfeit, winner="B", by=None)
    play(pair(first, maria, elena, 4).match, "A1")
    last = night_on(WINTER[1], organiser, home_club)
    play(pair(last, elena, ivan).match, "A1 B3 A3 B3 A3 B3 A2 A2")
    private = night_on(datetime.date(2027, 1, 5), organiser, home_club, public=False)
    play(pair(private, maria, ivan).match, "A3 A3 A3 A2")
    after = night_on(datetime.date(2027, 3, 1), organiser, home_club)
    play(pair(after, georgi, elena).match, "A3 A3 A3 A2")
    other_club = Club.objects.create(name="Клуб Варна")
    other_club.organisers.add(organiser)
    elsewhere = night_on(datetime.date(2027, 1, 10), organiser, other_club)
    play(pair(elsewhere, ivan, georgi).match, "A3 A3 A3 A2")
    return Season.objects.create(club=home_club, name="Зима 2026/27", starts=WINTER[0],
                                 ends=WINTER[1], min_matches=2)


def season_page(client, season):
    return client.get(reverse("clubs:season", args=[season.club_id, season.pk]))


def test_the_season_table_by_hand(client, season):
    # Иван:   a W 11-2, c W 11-0 (forfeit), d L 9-11 -> 3 played, 2 won, 66.7 %, 31-13 = +18
    # Мария:  a L 2-11, b W 11-0                     -> 2 played, 1 won, 50.0 %, 13-11 = +2
    # Георги: b L 0-11, c L 0-11 (forfeit)           -> 2 played, 0 won,  0.0 %, 0-22 = -22
    # Елена:  d W 11-9                               -> 1 played: not yet ranked (min 2)
    response = season_page(client, season)
    assert response.status_code == 200

    def rows(table):
        return [(r["rank"], r["player"].split()[0], r["played"], r["won"], str(r["win_percent"]),
                 r["gp_diff"]) for r in table.data.data]

    assert rows(response.context["ranked"]) == [
        (1, "Иван", 3, 2, "66.7", 18),
        (2, "Мария", 2, 1, "50.0", 2),
        (3, "Георги", 2, 0, "0.0", -22),
    ]
    assert rows(response.context["unranked"]) == [("", "Елена", 1, 1, "100.0", 2)]
    assert (response.context["matches"], response.context["forfeits"]) == (4, 1)
    assert [e.name for e in response.context["events"]] == ["Вечер 01.12.2026",
                                                            "Вечер 28.02.2027"]


def test_the_season_page_says_how_it_counts(client, season):
    client.cookies["django_language"] = "en"
    html = season_page(client, season).content.decode()
    assert "Not yet ranked (fewer than 2 matches)" in html
    assert "A forfeit counts as a match played" in html
    assert "66.7" in html and "+18" in html
    assert reverse("clubs:player", args=[selectors.season_results(season)[1][0].player_a]) \
        in html


def test_win_percent_is_shown_with_a_decimal_comma_in_bulgarian(client, season):
    html = season_page(client, season).content.decode()
    assert "66,7" in html


def test_a_season_with_nothing_played_and_a_season_of_another_club(client, home_club):
    empty = Season.objects.create(club=home_club, name="Лято", starts=datetime.date(2027, 6, 1),
                                  ends=datetime.date(2027, 8, 31))
    response = season_page(client, empty)
    assert response.status_code == 200
    assert response.context["unranked"] is None and not response.context["ranked"].data.data
    other = Club.objects.create(name="Клуб Русе")
    assert client.get(reverse("clubs:season", args=[other.pk, empty.pk])).status_code == 404
    assert client.get(reverse("clubs:season", args=[home_club.pk, 999999])).status_code == 404


def test_the_club_page_lists_seasons_public_events_and_players(client, organiser_client, season):
    response = client.get(reverse("clubs:club", args=[season.club_id]))
    assert response.status_code == 200
    html = response.content.decode()
    assert reverse("clubs:season", args=[season.club_id, season.pk]) in html
    events = {e.name for e in response.context["events"]}
    assert "Вечер 01.12.2026" in events and "Вечер 05.01.2027" not in events  # private
    organiser_events = {e.name for e in organiser_client.get(
        reverse("clubs:club", args=[season.club_id])).context["events"]}
    assert "Вечер 05.01.2027" in organiser_events
    assert "Иван Петров" in html
    assert client.get(reverse("clubs:club", args=[999999])).status_code == 404


def test_a_season_cannot_end_before_it_starts(home_club):
    season = Season(club=home_club, name="Наобратно", starts=WINTER[1], ends=WINTER[0])
    with pytest.raises(ValidationError):
        season.full_clean()
    with pytest.raises(IntegrityError), transaction.atomic():
        season.save()


def test_seasons_are_made_in_the_admin(client, django_user_model, home_club):
    admin = django_user_model.objects.create_superuser("boss", password="pass-boss-1")
    client.force_login(admin)
    response = client.post(reverse("admin:club_season_add"), {
        "club": home_club.pk, "name": "Пролет 2027", "starts": "2027-03-01",
        "ends": "2027-05-31", "min_matches": "4",
    })
    assert response.status_code == 302
    assert Season.objects.get().min_matches == 4
    assert client.get(reverse("admin:club_season_changelist")).status_code == 200


def test_the_demo_has_a_closed_club_night_and_a_season_and_loads_twice(client):
    demo.load_demo()
    demo.load_demo()
    night = Tournament.objects.get(name=demo.DEMO_CLUB_NIGHT)
    assert night.format == "club_night" and night.status == "finished"
    assert night.rounds.get().pairings.count() == len(demo.DEMO_CLUB_NIGHT_PAIRINGS) == 7
    assert {p.match.status for p in night.rounds.get().pairings.all()} == {"finished"}
    season = Season.objects.get(name=demo.DEMO_SEASON)
    response = season_page(client, season)
    events = {e.name for e in response.context["events"]}
    assert {demo.DEMO_CLUB_NIGHT, demo.DEMO_TOURNAMENT} <= events  # other demo events may join
    # The tournament's four finished rounds (16 matches) and the night's 7, at least.
    over = Match.objects.filter(pairing__round__tournament__name__in=events,
                                status__in=["finished", "forfeited"])
    assert response.context["matches"] == over.count() >= 23
    ranked = {r["player"] for r in response.context["ranked"].data.data}
    unranked = {r["player"]: r["played"] for r in response.context["unranked"].data.data}
    assert unranked[demo.DEMO_GUEST] == 1  # the guest played once
    assert {"Иван Петров", "Мария Георгиева"} <= ranked
    assert client.get(reverse("nights:detail", args=[night.pk])).status_code == 200
