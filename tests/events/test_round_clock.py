"""The round clock (`events.round_clock`): an event's minutes per round; each round's start is
stored when it becomes the round being played (the event's start for round 1, the last match of
round 1 finished for round 2 of a round robin or a knockout, a Swiss round as it is paired);
the projector and the match pages give the screen's clock the end time; the control room marks
the matches still unfinished after it.

The event, unless a test makes its own: the conftest's five-player round robin (Berger: five
rounds, two matches and a bye each), started with a fixed draw of lots. The times are in the
site's zone, Europe/Sofia."""

import datetime
import random
import zoneinfo

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from club.models import Player
from events import registry, services
from events.models import Pairing, Round, Tournament
from events.round_clock import clock_of, round_started_now
from tableside import control_room, table_entry
from tests.events.test_setup_views import NEW_TOURNAMENT
from tests.playing import play

pytestmark = pytest.mark.django_db

SOFIA = zoneinfo.ZoneInfo("Europe/Sofia")
EIGHT_PM = datetime.datetime(2026, 12, 5, 20, 0, tzinfo=SOFIA)


@pytest.fixture
def started(tournament) -> Tournament:
    Tournament.objects.filter(pk=tournament.pk).update(round_minutes=45)
    tournament.refresh_from_db()
    services.tournament_start(tournament=tournament, rng=random.Random(1))
    tournament.refresh_from_db()
    return tournament


def round_of(event, number) -> Round:
    return Round.objects.get(tournament=event, number=number)


def matches_of(event, number):
    return [p.match for p in Pairing.objects.filter(
        round__tournament=event, round__number=number, match__isnull=False).order_by("table")]


def started_at(event, number, at) -> None:
    Round.objects.filter(tournament=event, number=number).update(started_at=at)


def test_the_first_round_starts_with_the_event_and_the_others_wait(tournament):
    before = timezone.now()
    services.tournament_start(tournament=tournament, rng=random.Random(1))
    after = timezone.now()
    assert before <= round_of(tournament, 1).started_at <= after
    assert [r.started_at for r in tournament.rounds.filter(number__gt=1)] == [None] * 4


def test_the_next_round_starts_when_the_last_match_of_the_round_finishes(started):
    first, second = matches_of(started, 1)
    play(first, "A3 A3 A2 A3")  # 11:0
    assert round_of(started, 2).started_at is None  # round 1 is still being played
    before = timezone.now()
    play(second, "B3 B3 B2 B3")
    assert before <= round_of(started, 2).started_at <= timezone.now()


def test_a_start_once_written_stays(started):
    started_at(started, 1, EIGHT_PM)
    assert round_started_now(started.pk, now=EIGHT_PM + datetime.timedelta(hours=1)) is None
    assert round_of(started, 1).started_at == EIGHT_PM


def test_the_clock_ends_its_minutes_after_the_start():
    clock = clock_of(Round(started_at=EIGHT_PM), 45)
    assert clock.ends_at == datetime.datetime(2026, 12, 5, 20, 45, tzinfo=SOFIA)
    assert not clock.is_up(datetime.datetime(2026, 12, 5, 20, 44, 59, tzinfo=SOFIA))
    assert clock.is_up(datetime.datetime(2026, 12, 5, 20, 45, tzinfo=SOFIA))
    assert clock_of(Round(started_at=EIGHT_PM), None) is None  # no minutes per round
    assert clock_of(Round(started_at=None), 45) is None  # not started


@pytest.mark.parametrize(("minutes", "valid"), [
    (None, True), (1, True), (300, True), (0, False), (301, False)])
def test_the_minutes_per_round_are_from_1_to_300(started, organiser_client, minutes, valid):
    data = dict(NEW_TOURNAMENT, name=started.name,
                round_minutes="" if minutes is None else str(minutes))
    response = organiser_client.post(reverse("events:edit", args=[started.pk]), data)
    assert response.status_code == (302 if valid else 422)
    expected = minutes if valid else 45
    assert Tournament.objects.get(pk=started.pk).round_minutes == expected


def clock_of_page(html: str) -> str:
    start = html.index("data-round-clock")
    return html[start:html.index("</p>", start)]


@pytest.mark.parametrize(("language", "time_up"), [("en", "time is up"),
                                                   ("bg", "времето изтече")])
def test_the_projector_and_the_match_pages_give_the_end_time(started, language, time_up):
    started_at(started, 1, EIGHT_PM)
    match = matches_of(started, 1)[0]
    phone = Client()
    phone.cookies["django_language"] = language
    token = table_entry.table_of(match).token
    assert phone.post(f"/p/{token}/seat/", {"seat": "A"}).status_code == 302
    visitor = Client()
    visitor.cookies["django_language"] = language
    for url, client in ((reverse("live:projector", args=[started.pk]), visitor),
                        (reverse("matches:entry", args=[match.pk]), visitor),
                        (f"/p/{token}/", phone)):
        clock = clock_of_page(client.get(url).content.decode())
        # 20:00 Sofia (UTC+2 in December) and 45 minutes: 20:45, 18:45 UTC.
        assert 'data-ends="2026-12-05T20:45:00+02:00"' in clock, url
        assert ">20:45</time>" in clock, url
        assert f'data-time-up="{time_up}"' in clock, url


def test_no_clock_without_minutes_or_before_the_round_starts(started):
    Tournament.objects.filter(pk=started.pk).update(round_minutes=None)
    started_at(started, 1, EIGHT_PM)
    html = Client().get(reverse("live:projector", args=[started.pk])).content.decode()
    assert "data-round-clock" not in html
    Tournament.objects.filter(pk=started.pk).update(round_minutes=45)
    html = Client().get(reverse("events:round", args=[started.pk, 2])).content.decode()
    assert "data-round-clock" not in html  # round 2 has not started


def test_the_control_room_marks_the_unfinished_matches_after_the_time(started):
    started_at(started, 1, EIGHT_PM)
    first, second = matches_of(started, 1)
    play(first, "A3 A3 A2 A3")  # over: 11:0
    play(second, "A3")  # still being played
    started.refresh_from_db()

    def marked(now):
        rows = control_room.control_rows(started, now=now, idle_after=240)
        return {row.match.pk: row.overtime for row in rows}

    assert marked(EIGHT_PM + datetime.timedelta(minutes=44, seconds=59)) == {
        first.pk: False, second.pk: False}
    assert marked(EIGHT_PM + datetime.timedelta(minutes=45)) == {
        first.pk: False, second.pk: True}


def test_the_control_room_page_shows_the_mark(started, organiser_client):
    started_at(started, 1, timezone.now() - datetime.timedelta(minutes=50))
    first, second = matches_of(started, 1)
    play(first, "A3 A3 A2 A3")  # over; the other match has not started: not over either
    organiser_client.cookies["django_language"] = "en"
    html = organiser_client.get(reverse("control:room", args=[started.pk])).content.decode()

    def row(match) -> str:
        start = html.rindex("<li", 0, html.index(f'data-match="{match.pk}"'))
        return html[start:html.index("</li>", start)]

    assert "control-row state-not_started overtime" in row(second)
    assert "data-overtime-at" in row(second)
    assert "past the round's time" in row(second)
    assert "hidden" not in row(second).split("overtime-mark")[1][:20]
    assert "data-overtime-at" not in row(first) and "overtime-mark" not in row(first)


def test_a_swiss_round_starts_as_it_is_paired(organiser, home_club):
    from tests.formats.test_swiss_services import NAMES as SWISS_NAMES
    from tests.formats.test_swiss_services import finish_round

    event = Tournament.objects.create(
        name="Швейцарска купа", date=datetime.date(2026, 12, 5), club=home_club,
        format=Tournament.Format.SWISS, swiss_rounds=3, round_minutes=30)
    for name in SWISS_NAMES[:4]:
        services.entry_add(tournament=event, player=Player.objects.create(name=name))
    registry.for_tournament(event).start()
    assert round_of(event, 1).started_at is not None
    finish_round(event, 1)
    assert not Round.objects.filter(tournament=event, number=2).exists()  # not paired yet
    before = timezone.now()
    registry.for_tournament(Tournament.objects.get(pk=event.pk)).pair_next_round(by=organiser)
    assert before <= round_of(event, 2).started_at <= timezone.now()


def test_a_knockouts_next_round_starts_when_its_round_is_over(organiser, home_club):
    event = Tournament.objects.create(
        name="Купа на елиминации", date=datetime.date(2026, 12, 5), club=home_club,
        format=Tournament.Format.KNOCKOUT, round_minutes=30)
    for name in ("Анна", "Борис", "Валя", "Галя"):
        services.entry_add(tournament=event, player=Player.objects.create(name=name))
    registry.for_tournament(event).start()
    assert round_of(event, 1).started_at is not None
    assert round_of(event, 2).started_at is None  # the final waits for both semifinals
    semifinals = matches_of(event, 1)
    play(semifinals[0], "A3 A3 A3 A2")
    assert round_of(event, 2).started_at is None
    play(semifinals[1], "A3 A3 A3 A2")
    assert round_of(event, 2).started_at is not None
