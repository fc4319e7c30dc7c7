"""A tournament belongs to a club from its creation form and from the import, so the club
page and the season ladder list it."""

import datetime
from io import StringIO
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from club.models import Club, Season
from events import services
from events.models import Tournament
from scoring.models import Match
from tests.events.test_setup_views import NEW_TOURNAMENT
from tests.playing import play

pytestmark = pytest.mark.django_db

FIXTURES = Path(__file__).parent.parent / "fixtures"
ANNA, BORIS, VERA = "Анна Иванова", "Борис Петров", "Вера Колева"


@pytest.fixture
def winter(home_club) -> Season:
    return Season.objects.create(
        club=home_club, name="Зима 2026", starts=datetime.date(2026, 12, 1),
        ends=datetime.date(2027, 2, 28), min_matches=1,
    )


def club_events(client, club) -> list[str]:
    response = client.get(reverse("clubs:club", args=[club.pk]))
    return [event.name for event in response.context["events"]]


def ladder(client, season) -> list[tuple]:
    response = client.get(reverse("clubs:season", args=[season.club_id, season.pk]))
    return [(row["player"], row["rank"], row["played"], row["won"], row["gp_diff"])
            for row in response.context["ranked"].data.data]


def test_a_created_tournament_is_on_its_clubs_page_and_in_the_season_ladder(
    organiser_client, client, home_club, players, winter
):
    form = organiser_client.get(reverse("events:create")).context["form"]
    assert form["club"].value() == home_club.pk  # the organiser's only club
    response = organiser_client.post(reverse("events:create"),
                                     dict(NEW_TOURNAMENT, club=home_club.pk))
    assert response.status_code == 302
    tournament = Tournament.objects.get(name="Купа Варна")
    assert tournament.club == home_club
    ivan, maria, georgi = players[:3]
    for player in (ivan, maria, georgi):
        services.entry_add(tournament=tournament, player=player)
    services.tournament_start(tournament=tournament)
    # Иван beats both 11-0; Мария beats Георги 11-0.
    winners = {frozenset({ivan.pk, maria.pk}): ivan, frozenset({ivan.pk, georgi.pk}): ivan,
               frozenset({maria.pk, georgi.pk}): maria}
    for match in Match.objects.filter(pairing__round__tournament=tournament):
        winner = winners[frozenset({match.player_a_id, match.player_b_id})]
        play(match, "A3 A3 A3 A2" if match.player_a_id == winner.pk else "B3 B3 B3 B2")

    assert club_events(client, home_club) == ["Купа Варна"]
    assert ladder(client, winter) == [
        ("Иван Петров", 1, 2, 2, 22),
        ("Мария Георгиева", 2, 2, 1, 0),
        ("Георги Димитров", 3, 2, 0, -22),
    ]


def test_the_create_form_offers_only_the_clubs_the_user_organises(outsider_client, home_club):
    form = outsider_client.get(reverse("events:create")).context["form"]
    assert list(form.fields["club"].queryset) == [] and form["club"].value() is None
    response = outsider_client.post(reverse("events:create"),
                                    dict(NEW_TOURNAMENT, club=home_club.pk))
    assert response.status_code == 422
    assert "club" in response.context["form"].errors
    assert not Tournament.objects.exists()


def test_staff_may_create_an_event_for_any_club(admin_client, home_club):
    admin_client.post(reverse("events:create"), dict(NEW_TOURNAMENT, club=home_club.pk))
    assert Tournament.objects.get().club == home_club


def test_editing_keeps_the_club_for_an_organiser_of_the_event_but_not_of_the_club(
    outsider, outsider_client, tournament, home_club
):
    tournament.organisers.add(outsider)
    data = dict(NEW_TOURNAMENT, name="Купа Пловдив", club=home_club.pk)
    response = outsider_client.post(reverse("events:edit", args=[tournament.pk]), data)
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.club == home_club


# --- the import ---------------------------------------------------------------------------------


def csv_upload(name="good.csv"):
    return SimpleUploadedFile(name, (FIXTURES / name).read_bytes(), content_type="text/csv")


# good.csv (worked out in test_importing.py): one win each; game-point difference Анна +6,
# Борис -2, Вера -4; so the ladder (win share, then difference) is Анна, Борис, Вера.
IMPORTED_LADDER = [(ANNA, 1, 2, 1, 6), (BORIS, 2, 2, 1, -2), (VERA, 3, 2, 1, -4)]


def test_an_imported_tournament_is_on_its_clubs_page_and_in_the_season_ladder(
    organiser_client, client, home_club, winter, django_capture_on_commit_callbacks
):
    form = organiser_client.get(reverse("data:import")).context["form"]
    assert form["club"].value() == home_club.pk
    response = organiser_client.post(reverse("data:import_preview"), {
        "file": csv_upload(), "name": "Купа Бургас", "date": "2026-12-05", "rules": "default",
        "club": home_club.pk,
    })
    assert response.status_code == 200
    assert home_club.name in response.content.decode()
    job = response.context["job"]
    with django_capture_on_commit_callbacks(execute=True):  # the import task, eagerly
        response = organiser_client.post(reverse("data:import_confirm"), {"job": job.pk})
    assert response.status_code == 302
    tournament = Tournament.objects.get()
    assert tournament.club == home_club
    assert set(tournament.entries.values_list("player__club", flat=True)) == {home_club.pk}
    assert club_events(client, home_club) == ["Купа Бургас"]
    assert ladder(client, winter) == IMPORTED_LADDER


def test_the_import_refuses_a_club_the_user_does_not_organise(outsider_client, home_club):
    response = outsider_client.post(reverse("data:import_preview"), {
        "file": csv_upload(), "name": "Купа Бургас", "date": "2026-12-05", "rules": "default",
        "club": home_club.pk,
    })
    assert response.status_code == 422
    assert "club" in response.context["form"].errors
    assert not Tournament.objects.exists()


def test_the_import_command_gives_the_tournament_the_organisers_club(
    organiser, client, home_club, winter
):
    out = StringIO()
    call_command("import_tournament", str(FIXTURES / "good.csv"), "--name", "Купа Бургас",
                 "--date", "2026-12-05", "--organiser", "organiser", stdout=out)
    assert Tournament.objects.get().club == home_club
    assert club_events(client, home_club) == ["Купа Бургас"]
    assert ladder(client, winter) == IMPORTED_LADDER


def test_the_import_command_takes_the_club_by_id(organiser, home_club):
    other = Club.objects.create(name="Клуб Варна")
    home_club.organisers.remove(organiser)
    call_command("import_tournament", str(FIXTURES / "good.csv"), "--name", "А",
                 "--organiser", "organiser", stdout=StringIO())  # no club of theirs: none
    call_command("import_tournament", str(FIXTURES / "good.csv"), "--name", "Б",
                 "--club", str(other.pk), stdout=StringIO())
    assert dict(Tournament.objects.values_list("name", "club")) == {"А": None, "Б": other.pk}
    with pytest.raises(CommandError, match="There is no club with id 999999"):
        call_command("import_tournament", str(FIXTURES / "good.csv"), "--name", "В",
                     "--club", "999999", stdout=StringIO())
    assert Tournament.objects.count() == 2
