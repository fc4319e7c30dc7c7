"""The pass page in each state, worked out by hand from the formats' rules.

A round robin of four (draw numbers 1-4 in entry order) is paired by the FIDE Berger table:
round 1 is 1-4 at table 1 and 2-3 at table 2; round 2 is 4-3 at table 1 and 1-2 at table 2;
seat A (the first of each pair) deals first."""

import datetime
import random

import pytest
from django.test import Client

from club.models import Club
from events import registry
from events import services as event_services
from events.models import EntryMode, Tournament
from formats.club_night import services as club_nights
from passes import services
from passes.models import Arrival
from scoring import rules
from scoring import services as scoring_services
from scoring.models import Match


def round_robin(club, organiser, players, entry_mode=EntryMode.PLAYERS_SIGN) -> Tournament:
    tournament = Tournament.objects.create(
        name="Турнир на четирима", date=datetime.date(2026, 12, 5), club=club,
        format=Tournament.Format.ROUND_ROBIN, entry_mode=entry_mode, language="en",
    )
    tournament.organisers.add(organiser)
    for player in players:
        event_services.entry_add(tournament=tournament, player=player)
    return tournament


def win_to_eleven(match: Match, seat: str = "A") -> None:
    for points, reason in [(3, "capot"), (3, "capot"), (3, "capot"), (2, "schneider")]:
        scoring_services.deal_record(match=match, score=rules.quick_result(seat, points, reason),
                                     by=None)


def page(client, player) -> str:
    token = services.token_of(services.pass_make(player))
    response = client.get(f"/pass/{token}/", HTTP_COOKIE="django_language=en")
    assert response.status_code == 200
    return " ".join(response.content.decode().split())


@pytest.fixture
def four(home_club, organiser, players):
    return round_robin(home_club, organiser, players[:4]), players[:4]


def test_before_the_start_nothing_is_shown(client, four):
    _tournament, (one, *_rest) = four
    text = page(client, one)
    assert "Турнир на четирима" not in text
    assert "No event of your club is under way for you now" in text


def test_round_one_names_the_table_and_the_opponent(client, four):
    tournament, (one, two, three, four_) = four
    event_services.tournament_start(tournament=tournament, rng=random.Random(1))
    text = page(client, one)
    assert "Table 1" in text and f"against {four_.name}" in text and "You deal first." in text
    text = page(client, three)
    assert "Table 2" in text and f"against {two.name}" in text
    assert f"{two.name} deals first." in text
    text = page(client, four_)
    assert f"against {one.name}" in text and f"{one.name} deals first." in text


def test_after_a_win_the_next_round_and_the_place(client, four):
    tournament, (one, two, _three, four_) = four
    event_services.tournament_start(tournament=tournament, rng=random.Random(1))
    first = Match.objects.get(pairing__round__tournament=tournament, pairing__round__number=1,
                              pairing__table=1)
    win_to_eleven(first, "A")  # 1 beats 4, 11:0
    text = page(client, one)
    # Round 2: 1-2 at table 2, 1 in seat A.
    assert "Table 2" in text and f"against {two.name}" in text and "Round 2" in text
    # The result of round 1 and the place: the only win of the event so far, so first.
    assert f"Last match: 11:0 against {four_.name}" in text
    assert "Your place in the standings: 1" in text
    text = page(client, four_)
    # Round 2: 4-3 at table 1.
    assert "Table 1" in text and "Round 2" in text


def test_all_played_shows_the_result_and_the_place(client, four):
    tournament, (one, two, three, four_) = four
    event_services.tournament_start(tournament=tournament, rng=random.Random(1))
    for match in Match.objects.filter(pairing__round__tournament=tournament):
        if one.pk in (match.player_a_id, match.player_b_id):
            win_to_eleven(match, "A" if match.player_a_id == one.pk else "B")
    text = page(client, one)
    # Three wins of three: first whatever the other results; the last was round 3 (3-1? 1 is
    # in it either way) won 11:0.
    assert "All your matches are played." in text
    assert "Last match: 11:0" in text and "won" in text
    assert "Your place in the standings: 1" in text


def test_a_knockout_loser_is_out(client, home_club, organiser, players):
    tournament = Tournament.objects.create(
        name="Купа", date=datetime.date(2026, 12, 5), club=home_club,
        format=Tournament.Format.KNOCKOUT, entry_mode=EntryMode.PLAYERS_SIGN,
    )
    tournament.organisers.add(organiser)
    for player in players[:4]:
        event_services.entry_add(tournament=tournament, player=player)
    registry.for_tournament(tournament).start(rng=random.Random(1))
    first = Match.objects.filter(pairing__round__tournament=tournament,
                                 pairing__round__number=1).order_by("pairing__table").first()
    loser = first.player_b
    win_to_eleven(first, "A")
    text = page(client, loser)
    assert "You are out of this event." in text
    text = page(client, first.player_a)
    # The other semi-final is not played yet: no round 2 match to show.
    assert "Waiting for round 2." in text


def test_a_club_night_offers_im_here(client, home_club, organiser, players):
    night = club_nights.club_night_create(
        club=home_club, date=datetime.date(2026, 12, 5), name="Вечер", organiser=organiser,
        house_rules=rules.HouseRules.preset("default"), language="en",
    )
    one = players[0]
    text = page(client, one)
    assert ">I'm here<" in text
    token = services.token_of(services.pass_make(one))
    assert client.post(f"/pass/{token}/here/{night.pk}/").status_code == 302
    assert Arrival.objects.filter(tournament=night, player=one).count() == 1
    client.post(f"/pass/{token}/here/{night.pk}/")  # again: still one
    assert Arrival.objects.filter(tournament=night, player=one).count() == 1
    text = page(client, one)
    assert "You are here since" in text
    # The night's page lists them for the organiser, until they are paired.
    organiser_client = Client()
    organiser_client.force_login(organiser)
    organiser_client.cookies["django_language"] = "en"
    night_page = organiser_client.get(f"/t/{night.pk}/night/").content.decode()
    assert "Here, not at a table" in night_page and one.name in night_page
    club_nights.club_night_pair(night=night, player_a=one, player_b=players[1], table=3,
                                by=organiser)
    text = page(client, one)
    assert "Table 3" in text and f"against {players[1].name}" in text


def test_an_event_of_another_club_is_not_arrived_at(client, players, organiser):
    other = Club.objects.create(name="Друг")
    other.organisers.add(organiser)
    night = club_nights.club_night_create(
        club=other, date=datetime.date(2026, 12, 5), name="Чужд вечер", organiser=organiser,
        house_rules=rules.HouseRules.preset("default"),
    )
    token = services.token_of(services.pass_make(players[0]))
    assert client.post(f"/pass/{token}/here/{night.pk}/").status_code == 404
    assert not Arrival.objects.exists()


def test_the_pass_page_names_itself_as_the_apps_start(client, players):
    token = services.token_of(services.pass_make(players[0]))
    html = client.get(f"/pass/{token}/").content.decode()
    manifest_url = f"/manifest.webmanifest?start=/pass/{token}/"
    assert f'rel="manifest" href="{manifest_url}"' in html
    assert client.get(manifest_url).json()["start_url"] == f"/pass/{token}/"
    # Anything else is not taken as a start.
    assert client.get("/manifest.webmanifest?start=https://evil.example/").json()[
        "start_url"] == "/?source=app"


def test_the_pass_speaks_the_clubs_event_language_unless_chosen(home_club, organiser, players):
    tournament = round_robin(home_club, organiser, players[:4])  # language "en"
    event_services.tournament_start(tournament=tournament, rng=random.Random(1))
    token = services.token_of(services.pass_make(players[0]))
    assert Client().get(f"/pass/{token}/")["Content-Language"] == "en"
    chosen = Client()
    chosen.cookies["django_language"] = "bg"
    response = chosen.get(f"/pass/{token}/")
    assert response["Content-Language"] == "bg" and "Маса 1" in response.content.decode()


def test_after_a_night_match_the_result_and_the_place(client, home_club, organiser, players):
    night = club_nights.club_night_create(
        club=home_club, date=datetime.date(2026, 12, 5), name="Вечер", organiser=organiser,
        house_rules=rules.HouseRules.preset("default"), language="en",
    )
    one, two, three, four_ = players[:4]
    first = club_nights.club_night_pair(night=night, player_a=one, player_b=two, table=1,
                                        by=organiser).match
    club_nights.club_night_pair(night=night, player_a=three, player_b=four_, table=2,
                                by=organiser)
    win_to_eleven(first, "B")  # 2 beats 1, 11:0; table 2 not played yet
    text = page(client, two)
    assert f"Last match: 11:0 against {one.name}" in text and "won" in text
    # The night's only win: first. 1 has lost by 11 and is last, behind 3 and 4 (no match
    # over: 0 wins, difference 0).
    assert "Your place in the standings: 1" in text
    text = page(client, one)
    assert f"Last match: 0:11 against {two.name}" in text and "lost" in text
    assert "Your place in the standings: 4" in text
    assert ">I'm here<" in text  # and they may say they are here for the next pairing


def test_im_here_at_a_closed_night_is_refused_and_the_page_still_follows(client, home_club,
                                                                         organiser, players):
    night = club_nights.club_night_create(
        club=home_club, date=datetime.date(2026, 12, 5), name="Вечер", organiser=organiser,
        house_rules=rules.HouseRules.preset("default"), language="en",
    )
    club_nights.club_night_close(night=night)
    token = services.token_of(services.pass_make(players[0]))
    response = client.post(f"/pass/{token}/here/{night.pk}/", HTTP_COOKIE="django_language=en")
    assert response.status_code == 409
    html = response.content.decode()
    assert "This club night is over." in html and not Arrival.objects.exists()
    # Its live part is fetched from the pass's address, not the post's (405 to a GET).
    assert f'id="pass-live" data-live hx-get="/pass/{token}/"' in html
