"""The import meets the club's register by name and by the name written another way
("иван петров", "ИВАН  ПЕТРОВ", "Ivan Petrov" for Иван Петров): the preview lists the names
it matched, and the import enters those players instead of making new ones."""

import datetime
import html
from io import StringIO

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.urls import reverse
from django.utils import translation

from club.models import Player
from events.models import Tournament
from exchange.importing import import_plan_apply, names_matched, parse_deal_log
from scoring import rules

pytestmark = pytest.mark.django_db

TYPED = ["иван петров", "ИВАН  ПЕТРОВ", "Ivan Petrov"]
HEADER = "round,table,player_a,player_b,deal,winner,game_points,reason"


def deal_log(first: str, second: str, third: str) -> bytes:
    """Two matches, each won 11:0 by seat A in four deals (capot 3, capot 3, capot 3,
    schneider 2): round 1 `first` - `second`, round 2 `third` - `first`."""
    rows = [HEADER]
    for round_, (a, b) in enumerate([(first, second), (third, first)], start=1):
        for deal, (points, reason) in enumerate(
            [(3, "capot"), (3, "capot"), (3, "capot"), (2, "schneider")], start=1
        ):
            rows.append(f"{round_},1,{a},{b},{deal},A,{points},{reason}")
    return "\n".join(rows).encode()


def imported(data: bytes, *, club, organiser=None) -> Tournament:
    plan = parse_deal_log(data)
    assert plan.errors == []
    return import_plan_apply(plan=plan, name="Купа", date=datetime.date(2026, 12, 5),
                             house_rules=rules.HouseRules(), organiser=organiser, club=club)


def entered(tournament: Tournament) -> list[Player]:
    return [entry.player for entry in tournament.entries.order_by("number")]


@pytest.mark.parametrize("typed", TYPED)
def test_the_import_enters_the_register_player_for_a_name_written_another_way(
    typed, home_club, players, organiser
):
    ivan, maria = players[0], players[1]
    tournament = imported(deal_log(typed, "Мария Георгиева", "Стоян Колев"), club=home_club,
                          organiser=organiser)
    ivan_, maria_, stoyan = entered(tournament)
    assert (ivan_, maria_) == (ivan, maria)
    assert (stoyan.name, stoyan.club) == ("Стоян Колев", home_club)
    assert Player.objects.count() == len(players) + 1  # Стоян Колев only


@pytest.mark.parametrize("typed", TYPED)
def test_names_matched_lists_the_name_with_its_player(typed, home_club, players):
    file_name = " ".join(typed.split())  # the reader tidies the spaces of a name
    names = names_matched([file_name, "Мария Георгиева", "Стоян Колев"], club=home_club)
    assert names.matched == [(file_name, players[0])]
    assert names.unmatched == []
    assert set(names.players) == {file_name, "Мария Георгиева"}


def test_several_players_alike_leave_the_name_a_new_player(home_club, players):
    latin = Player.objects.create(name="Ivan Petrov", club=home_club)
    names = names_matched(["иван петров", "Стоян Колев"], club=home_club)
    assert names.matched == []
    assert names.unmatched == [("иван петров", [latin, players[0]])]
    tournament = imported(deal_log("иван петров", "Мария Георгиева", "Стоян Колев"),
                          club=home_club)
    assert entered(tournament)[0].name == "иван петров"
    assert Player.objects.count() == len(players) + 1 + 2


def test_two_names_of_the_file_for_one_player_are_two_players(home_club, players):
    """The file has Иван Петров (exactly the register's) and "Ivan Petrov": two names of a
    file are two players, so "Ivan Petrov" cannot be him too, and is added new."""
    ivan = players[0]
    names = names_matched(["Иван Петров", "Ivan Petrov", "Мария Георгиева"], club=home_club)
    assert names.matched == []
    assert names.unmatched == [("Ivan Petrov", [ivan])]
    names = names_matched(["иван петров", "Ivan Petrov"], club=home_club)  # both like him
    assert (names.matched, names.unmatched) == (
        [], [("иван петров", [ivan]), ("Ivan Petrov", [ivan])])
    tournament = imported(deal_log("Иван Петров", "Ivan Petrov", "Мария Георгиева"),
                          club=home_club)
    first, second, _ = entered(tournament)
    assert first == ivan and second.name == "Ivan Petrov" and second != ivan


def test_another_clubs_player_is_not_matched(home_club, players):
    tournament = imported(deal_log("ivan petrov", "Мария Георгиева", "Стоян Колев"),
                          club=None)
    assert all(player.club is None for player in entered(tournament))
    assert Player.objects.count() == len(players) + 3


def upload_form(data: bytes, club) -> dict:
    return {"file": SimpleUploadedFile("deals.csv", data, content_type="text/csv"),
            "name": "Купа Бургас", "date": "2026-12-05", "rules": "default", "club": club.pk}


@pytest.mark.parametrize("typed", TYPED)
def test_the_preview_lists_the_matched_names_and_the_import_uses_them(
    typed, organiser_client, home_club, players, django_capture_on_commit_callbacks
):
    organiser_client.cookies["django_language"] = "en"
    data = deal_log(typed, "Мария Георгиева", "Стоян Колев")
    preview = organiser_client.post(reverse("data:import_preview"), upload_form(data, home_club))
    assert preview.status_code == 200
    assert Player.objects.count() == len(players)
    page = html.unescape(preview.content.decode())
    assert "Players found in the register" in page
    assert f"{' '.join(typed.split())} → Иван Петров" in page
    with django_capture_on_commit_callbacks(execute=True):
        organiser_client.post(reverse("data:import_confirm"), {"job": preview.context["job"].pk})
    tournament = Tournament.objects.get()
    assert entered(tournament)[:2] == players[:2]
    assert Player.objects.count() == len(players) + 1


def test_the_preview_in_bulgarian(organiser_client, home_club, players):
    organiser_client.cookies["django_language"] = "bg"
    data = deal_log("Ivan Petrov", "Мария Георгиева", "Стоян Колев")
    page = html.unescape(organiser_client.post(
        reverse("data:import_preview"), upload_form(data, home_club)).content.decode())
    assert "Играчи, намерени в регистъра" in page
    assert "Ivan Petrov → Иван Петров" in page


def test_the_command_says_which_names_it_matched(home_club, players, tmp_path):
    path = tmp_path / "deals.csv"
    path.write_bytes(deal_log("IVAN PETROV", "Мария Георгиева", "Стоян Колев"))
    out = StringIO()
    with translation.override("en"):
        call_command("import_tournament", str(path), "--name", "Купа", "--club",
                     str(home_club.pk), stdout=out)
    assert f"IVAN PETROV: the register's Иван Петров (id {players[0].pk})." in out.getvalue()
    assert entered(Tournament.objects.get())[0] == players[0]
