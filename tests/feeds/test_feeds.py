"""The feeds, read as a calendar program and a club's website read them: the .ics parsed by
the `icalendar` library, the Atom by `xml.etree`. Only public events and their matches appear,
in date order (calendars) and newest first (results); UIDs stay the same from one reading to
the next; an unknown club or player, or a player seen only in private events, is a 404."""

import datetime
import xml.etree.ElementTree as ET

import icalendar
import pytest
from django.conf import settings
from django.urls import reverse

from club.models import Club, Player
from events import services
from events.models import Entry, Pairing, Tournament
from feeds import selectors
from formats.club_night import services as club_nights
from scoring import rules
from scoring import services as scoring_services
from scoring.models import Match
from tests.playing import play

pytestmark = pytest.mark.django_db

ATOM = {"atom": "http://www.w3.org/2005/Atom"}
VENUE = 'Читалище "Светлина", зала 2; ет. 1'


def at(day: int, hour: int, minute: int = 0) -> datetime.datetime:
    return datetime.datetime(2026, 12, day, hour, minute, tzinfo=datetime.UTC)


def finished_at(match: Match, when: datetime.datetime) -> Match:
    """The match's finishing time, set by hand so the order of the feed is known."""
    Match.objects.filter(pk=match.pk).update(finished_at=when)
    return match


def night_on(day: int, organiser, club, *, public: bool = True) -> Tournament:
    night = club_nights.club_night_create(
        club=club, date=datetime.date(2026, 12, day), name=f"Вечер {day}.12",
        organiser=organiser, house_rules=rules.HouseRules(),
    )
    if not public:
        Tournament.objects.filter(pk=night.pk).update(is_public=False)
    return night


def pair(night, a, b, table):
    return club_nights.club_night_pair(night=night, player_a=a, player_b=b, table=table,
                                       by=None).match


@pytest.fixture
def season(organiser, home_club, players, tournament):
    """The home club's December:

    1 Dec, club night (public): table 1 Иван beats Мария 11:7 (finished 19:00); table 2
      Георги loses to Елена 0:11 (19:30); table 3 Димитър beats Светла by forfeit; table 4
      Николай – Йорданка still playing.
    5 Dec, "Купа Пловдив" (public round robin, venue with a comma and a semicolon): round 1,
      table 1 finished 11:0 at 10:00.
    10 Dec, club night (private): Иван beats Елена 11:0 (finished 20:00, the latest of all).
    12 Dec, "Купа Варна" of another club (public), Иван entered.
    """
    ivan, maria, georgi, elena, dimitar, svetla, nikolay, yordanka = players
    night = night_on(1, organiser, home_club)
    first = pair(night, ivan, maria, 1)
    play(first, "A3 B3 A3 B2 A3 B2 A2")
    finished_at(first, at(1, 19))
    second = pair(night, georgi, elena, 2)
    play(second, "B3 B3 B3 B2")
    finished_at(second, at(1, 19, 30))
    forfeited = pair(night, dimitar, svetla, 3)
    play(forfeited, "A3")
    scoring_services.match_forfeit(match=forfeited, winner="A", by=None)
    finished_at(forfeited, at(1, 21))
    play(pair(night, nikolay, yordanka, 4), "A3")

    Tournament.objects.filter(pk=tournament.pk).update(venue=VENUE)
    services.tournament_start(tournament=tournament)
    cup_match = Pairing.objects.get(round__tournament=tournament, round__number=1,
                                    table=1).match
    play(cup_match, "A3 A3 A3 A2")
    finished_at(cup_match, at(5, 10))

    private = night_on(10, organiser, home_club, public=False)
    hidden = pair(private, ivan, elena, 1)
    play(hidden, "A3 A3 A3 A2")
    finished_at(hidden, at(10, 20))

    rival = Club.objects.create(name="Клуб Варна", city="Варна")
    away = Tournament.objects.create(
        name="Купа Варна", date=datetime.date(2026, 12, 12), club=rival,
        format=Tournament.Format.SWISS,
    )
    Entry.objects.create(tournament=away, player=ivan, number=1)
    return {"night": night, "cup": Tournament.objects.get(pk=tournament.pk),
            "cup_match": cup_match, "private": private, "away": away}


def english(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def read_calendar(client, url: str) -> icalendar.Calendar:
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    return icalendar.Calendar.from_ical(response.content)


def vevents(calendar: icalendar.Calendar) -> list[icalendar.Event]:
    return list(calendar.walk("VEVENT"))


def read_atom(client, club) -> ET.Element:
    response = client.get(reverse("feeds:club_results", args=[club.pk]))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/atom+xml")
    return ET.fromstring(response.content)


def test_club_calendar_lists_its_public_events_and_club_nights_by_date(client, home_club,
                                                                       season):
    calendar = read_calendar(client, reverse("feeds:club_calendar", args=[home_club.pk]))
    assert str(calendar["X-WR-CALNAME"]) == "Клуб Пловдив"
    night, cup = vevents(calendar)  # not the private night of 10 Dec, nor Купа Варна
    assert str(night["SUMMARY"]) == "Вечер 1.12"
    assert "LOCATION" not in night
    assert str(night["URL"]) == f"http://testserver/t/{season['night'].pk}/"
    assert str(cup["SUMMARY"]) == "Купа Пловдив"
    assert str(cup["LOCATION"]) == VENUE
    assert str(cup["URL"]) == f"http://testserver/t/{season['cup'].pk}/"


def test_an_event_is_all_day_on_its_date(client, home_club, season):
    calendar = read_calendar(client, reverse("feeds:club_calendar", args=[home_club.pk]))
    cup = vevents(calendar)[1]
    assert cup["DTSTART"].dt == datetime.date(2026, 12, 5)
    assert cup["DTEND"].dt == datetime.date(2026, 12, 6)  # the end is not part of the event
    assert b"DTSTART;VALUE=DATE:20261205" in calendar.to_ical()


def test_uids_are_the_sites_own_and_the_same_at_every_reading(client, home_club, season,
                                                             settings):
    settings.SITE_URL = "https://santase.example.org"
    settings.ALLOWED_HOSTS = ["testserver", "192.168.1.10"]
    url = reverse("feeds:club_calendar", args=[home_club.pk])
    first = client.get(url).content
    again = client.get(url, HTTP_HOST="192.168.1.10").content  # the club's wifi address
    uids = [str(event["UID"]) for event in vevents(icalendar.Calendar.from_ical(first))]
    assert uids == [f"event-{season['night'].pk}@santase.example.org",
                    f"event-{season['cup'].pk}@santase.example.org"]
    assert [str(event["UID"]) for event in
            vevents(icalendar.Calendar.from_ical(again))] == uids
    assert client.get(url).content == first


def test_player_calendar_lists_the_public_events_they_are_entered_in(client, players,
                                                                     season):
    ivan, maria = players[:2]
    calendar = read_calendar(client, reverse("feeds:player_calendar", args=[ivan.pk]))
    assert str(calendar["X-WR-CALNAME"]) == "Иван Петров"
    # 1 Dec night, 5 Dec cup, 12 Dec in Varna; not the private night of 10 Dec.
    assert [(str(e["SUMMARY"]), e["DTSTART"].dt) for e in vevents(calendar)] == [
        ("Вечер 1.12", datetime.date(2026, 12, 1)),
        ("Купа Пловдив", datetime.date(2026, 12, 5)),
        ("Купа Варна", datetime.date(2026, 12, 12)),
    ]
    calendar = read_calendar(client, reverse("feeds:player_calendar", args=[players[7].pk]))
    assert [str(e["SUMMARY"]) for e in vevents(calendar)] == ["Вечер 1.12"]  # Йорданка
    calendar = read_calendar(client, reverse("feeds:player_calendar", args=[maria.pk]))
    assert [str(e["SUMMARY"]) for e in vevents(calendar)] == ["Вечер 1.12", "Купа Пловдив"]


def test_results_are_the_finished_matches_of_public_events_newest_first(client, home_club,
                                                                        season):
    feed = read_atom(english(client), home_club)
    assert feed.findtext("atom:title", namespaces=ATOM) == "Клуб Пловдив: results"
    cup = season["cup_match"]
    entries = feed.findall("atom:entry", ATOM)
    # Not the private night's 11:0 (the latest), the forfeit or the match being played.
    assert [e.findtext("atom:title", namespaces=ATOM) for e in entries] == [
        f"{cup.player_a.name} – {cup.player_b.name} 11:0 (Купа Пловдив, round 1)",
        "Георги Димитров – Елена Стоянова 0:11 (Вечер 1.12, table 2)",
        "Иван Петров – Мария Георгиева 11:7 (Вечер 1.12, table 1)",
    ]
    night_matches = {m.pairing.table: m.pk for m in
                     Match.objects.filter(pairing__round__tournament=season["night"])}
    assert [e.find("atom:link", ATOM).get("href") for e in entries] == [
        f"http://testserver/m/{cup.pk}/", f"http://testserver/m/{night_matches[2]}/",
        f"http://testserver/m/{night_matches[1]}/",
    ]
    assert entries[1].findtext("atom:updated", namespaces=ATOM) == "2026-12-01T19:30:00+00:00"


def test_results_speak_the_sites_language_by_default(client, home_club, season):
    titles = [e.findtext("atom:title", namespaces=ATOM)
              for e in read_atom(client, home_club).findall("atom:entry", ATOM)]
    assert titles[0].endswith("11:0 (Купа Пловдив, кръг 1)")
    assert titles[1] == "Георги Димитров – Елена Стоянова 0:11 (Вечер 1.12, маса 2)"


def test_results_keep_only_the_latest(client, home_club, season, monkeypatch):
    monkeypatch.setattr(selectors, "RESULTS_IN_FEED", 2)
    entries = read_atom(english(client), home_club).findall("atom:entry", ATOM)
    assert [e.findtext("atom:title", namespaces=ATOM).split(" (")[1] for e in entries] == [
        "Купа Пловдив, round 1)", "Вечер 1.12, table 2)",
    ]


def test_a_club_with_only_private_events_has_empty_feeds(client, organiser, players):
    club = Club.objects.create(name="Клуб Русе")
    club.organisers.add(organiser)
    night = night_on(3, organiser, club, public=False)
    play(pair(night, players[0], players[1], 1), "A3 A3 A3 A2")
    calendar = read_calendar(client, reverse("feeds:club_calendar", args=[club.pk]))
    assert vevents(calendar) == []
    assert read_atom(client, club).findall("atom:entry", ATOM) == []


def test_an_organiser_reads_the_public_feed_too(organiser_client, home_club, season):
    """A feed is what anyone may read, whoever fetches it: an organiser who subscribes does
    not put the private events into a calendar others may see."""
    calendar = read_calendar(organiser_client,
                             reverse("feeds:club_calendar", args=[home_club.pk]))
    assert [str(e["SUMMARY"]) for e in vevents(calendar)] == ["Вечер 1.12", "Купа Пловдив"]
    assert len(read_atom(organiser_client, home_club).findall("atom:entry", ATOM)) == 3


def test_names_are_escaped_by_each_format(client, organiser, home_club, players):
    name = 'Купа "Асо & Поп" <66>, финал; 2\\3'
    night = night_on(2, organiser, home_club)
    Tournament.objects.filter(pk=night.pk).update(name=name)
    play(pair(night, players[0], players[1], 1), "A3 A3 A3 A2")
    calendar = read_calendar(client, reverse("feeds:club_calendar", args=[home_club.pk]))
    assert str(vevents(calendar)[0]["SUMMARY"]) == name
    entry = read_atom(english(client), home_club).find("atom:entry", ATOM)
    assert entry.findtext("atom:title", namespaces=ATOM) == (
        f"Иван Петров – Мария Георгиева 11:0 ({name}, table 1)"
    )
    # The summary is HTML: the name in it is escaped once more, to read as text.
    assert "&lt;66&gt;" in entry.findtext("atom:summary", namespaces=ATOM)


def test_unknown_ids_and_hidden_players_are_404(client, home_club, season, outsider):
    assert client.get(reverse("feeds:club_calendar", args=[999999])).status_code == 404
    assert client.get(reverse("feeds:club_results", args=[999999])).status_code == 404
    assert client.get(reverse("feeds:player_calendar", args=[999999])).status_code == 404
    hidden = Player.objects.create(name="Таен Гост")
    secret = Tournament.objects.create(
        name="Закрит турнир", date=datetime.date(2026, 12, 20), club=home_club,
        format=Tournament.Format.ROUND_ROBIN, is_public=False,
    )
    Entry.objects.create(tournament=secret, player=hidden, number=1)
    assert client.get(reverse("feeds:player_calendar", args=[hidden.pk])).status_code == 404


def test_feeds_are_read_only(client, home_club):
    for name in ("feeds:club_calendar", "feeds:club_results"):
        assert client.post(reverse(name, args=[home_club.pk])).status_code == 405


def test_the_club_and_player_pages_link_their_feeds(client, home_club, players):
    english(client)
    page = client.get(reverse("clubs:club", args=[home_club.pk])).content.decode()
    results = reverse("feeds:club_results", args=[home_club.pk])
    assert (f'<link rel="alternate" type="application/atom+xml" title="Клуб Пловдив: results" '
            f'href="{results}">') in page
    assert f'<a href="{reverse("feeds:club_calendar", args=[home_club.pk])}">Calendar (iCal)</a>' \
        in page
    assert f'<a href="{results}">Results (Atom)</a>' in page
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "bg"
    page = client.get(reverse("clubs:player", args=[players[0].pk])).content.decode()
    assert (f'<a href="{reverse("feeds:player_calendar", args=[players[0].pk])}">'
            "Календар (iCal)</a>") in page
