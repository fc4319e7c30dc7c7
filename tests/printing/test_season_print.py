"""A club season's cross-table as a PDF: the print job (`jobs.season_print_job_request`), its
pages (`printing:season_*`) and what the PDF shows, worked out by hand.

The winter season of `tests/standings/test_seasons_views.py` (min 2 matches), counted:
  a. Иван beats Мария 11-2 (3+3+3+2 against 2)
  b. Мария beats Георги 11-0
  c. Георги - Иван forfeited to Иван, 0-11
  d. Елена beats Иван 11-9 (1+3+3+2+2 against 3+3+3)
and a private night on 5 Jan where Мария beats Иван 11-0, which must never show.
Ladder: Иван (2 of 3), Мария (1 of 2), Георги (0 of 2); Елена (1 match) is not ranked yet.
So the rows, with each cell the row player's game points : the column player's, then wins,
game points for:against and place:
  1. Иван    —      11:2   11:0*  9:11   2  31:13  1
  2. Мария   2:11   —      11:0   (their match is still being played)  1  13:11  2
  3. Георги  0:11*  0:11   —      ·      0   0:22  3
  4. Елена   11:9   ·      ·      —      1  11:9   –
Had the private night counted, Иван's cell against Мария would read "11:2 0:11" with 31:24,
and Мария's "2:11 11:0" with 2 wins and 24:11.
"""

import datetime
import io
import re

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone
from pypdf import PdfReader

from club.models import Club, Season
from printing import jobs, kinds
from printing.documents import CrossTableDocument
from printing.errors import PrintError
from printing.models import PrintJob
from printing.pdf import render_pdf
from standings.crosstable import cross_table
from standings.selectors import CrossLine, CrossTable
from standings.tie_breaks import MatchResult
from tests.playing import play
from tests.printing.helpers import pdf_text
from tests.standings import test_seasons_views as winter

pytestmark = pytest.mark.django_db

season = winter.season

ROWS = [
    r"Иван Петров\s*11:2\s*11:0\*\s*9:11\s*2\s*31:13\s*1",
    r"Мария Георгиева\s*2:11\s*11:0\s*1\s*13:11\s*2",
    r"Георги Димитров\s*0:11\*\s*0:11\s*0\s*0:22\s*3",
    r"Елена Стоянова\s*11:9\s*1\s*11:9\s*–",
]


def request_job(season, language="bg", kind="crosstable"):
    return jobs.season_print_job_request(season=season, kind=kind, language=language)


def private_night_of_dimitar(organiser, season, players):
    """Another private night in the season: Димитър (in no public event) beats Георги 11-0."""
    night = winter.night_on(datetime.date(2027, 1, 6), organiser, season.club, public=False)
    play(winter.pair(night, players[4], players[2]).match, "A3 A3 A3 A2")


def test_the_season_pdf_prints_the_ladder_rows_by_hand(season, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        job = request_job(season)
    job.refresh_from_db()
    assert job.status == PrintJob.Status.DONE, job.error
    pages, text = pdf_text(job.file.read())
    assert pages == 1 and "Кръстосана таблица" in text
    assert "Клуб Пловдив · Зима 2026/27 · 1.12.2026 – 28.02.2027" in text
    for row in ROWS:
        assert re.search(row, text), (row, text)
    names = ["Иван Петров", "Мария Георгиева", "Георги Димитров", "Елена Стоянова"]
    assert [text.index(name) for name in names] == sorted(text.index(name) for name in names)
    assert job.file.name.startswith(f"print/s{season.pk}-{job.pk}-season-crosstable")
    assert job.data_version == kinds.season_cross_table_version(season)
    assert kinds.season_filename("crosstable", "en") == "season-crosstable-en.pdf"


def test_two_requests_get_one_season_job_and_one_build(season, monkeypatch, cheap_pdfs,
                                                       django_capture_on_commit_callbacks):
    builds = []
    real_build = kinds.season_build
    monkeypatch.setattr(kinds, "season_build", lambda **kw: builds.append(kw) or real_build(**kw))
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        first, second = request_job(season), request_job(season)
    assert first.pk == second.pk and len(callbacks) == 1 and len(builds) == 1
    first.refresh_from_db()
    assert first.status == PrintJob.Status.DONE and first.season == season
    assert first.tournament is None
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        third = request_job(season)  # finished, data unchanged: the same file
    assert third.pk == first.pk and not callbacks and len(builds) == 1


def test_a_public_result_rebuilds_a_private_one_does_not(season, organiser, players, cheap_pdfs,
                                                         django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        first = request_job(season)
    private_night_of_dimitar(organiser, season, players)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        same = request_job(season)
    assert same.pk == first.pk and not callbacks  # the PDF never shows it: nothing to rebuild
    night = winter.night_on(datetime.date(2027, 1, 7), organiser, season.club)
    play(winter.pair(night, players[3], players[1]).match, "A3 A3 A3 A2")
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        rebuilt = request_job(season)
    assert rebuilt.pk != first.pk and len(callbacks) == 1
    rebuilt.refresh_from_db()
    assert rebuilt.status == PrintJob.Status.DONE
    assert not PrintJob.objects.filter(pk=first.pk).exists()  # the stale file is gone


@pytest.mark.parametrize("kind, language, code", [
    ("standings", "bg", "unknown_kind"),
    ("crosstable", "de", "unknown_language"),
])
def test_bad_season_requests_raise_and_write_nothing(season, kind, language, code):
    with pytest.raises(PrintError) as error:
        request_job(season, language, kind)
    assert error.value.code == code
    assert not PrintJob.objects.exists()


def test_a_job_belongs_to_exactly_one_tournament_or_season(season, tournament):
    for owners in ({}, {"tournament": tournament, "season": season}):
        with pytest.raises(IntegrityError), transaction.atomic():
            PrintJob.objects.create(kind="crosstable", language="bg", **owners)
    PrintJob.objects.create(season=season, kind="crosstable", language="bg")
    with pytest.raises(IntegrityError), transaction.atomic():
        PrintJob.objects.create(season=season, kind="crosstable", language="bg")
    PrintJob.objects.create(season=season, kind="crosstable", language="en")
    PrintJob.objects.create(tournament=tournament, kind="crosstable", language="bg")
    PrintJob.objects.create(season=season, kind="crosstable", language="bg",
                            status=PrintJob.Status.DONE)


# --- the pages ---------------------------------------------------------------------------------


def urls(season, job=None):
    args = [season.club_id, season.pk]
    found = {"request": reverse("printing:season_request", args=args),
             "page": reverse("clubs:season_crosstable", args=args)}
    if job is not None:
        found["status"] = reverse("printing:season_status", args=[*args, job.pk])
        found["download"] = reverse("printing:season_download", args=[*args, job.pk])
    return found


def test_a_visitor_gets_the_public_pdf_the_organiser_printed(season, organiser, players,
                                                             organiser_client, client,
                                                             django_capture_on_commit_callbacks):
    private_night_of_dimitar(organiser, season, players)
    with django_capture_on_commit_callbacks(execute=True):
        response = organiser_client.post(urls(season)["request"],
                                         {"kind": "crosstable", "lang": "en"})
    job = PrintJob.objects.get()
    assert response.status_code == 302 and response.url == urls(season, job)["status"]
    page = client.get(response.url)  # the organiser shares the link
    html = page.content.decode()
    assert page.status_code == 200 and urls(season, job)["download"] in html
    assert 'hx-trigger="every 1s"' not in html and urls(season)["page"] in html
    pdf = client.get(urls(season, job)["download"])
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    assert 'filename="season-crosstable-en.pdf"' in pdf["Content-Disposition"]
    pages, text = pdf_text(pdf.content)
    assert pages == 1 and "Cross-table" in text
    for row in ROWS[:3]:
        assert re.search(row, text), (row, text)
    assert "Димитър" not in text  # played only in private nights


def test_the_status_follows_its_season_stream_while_the_job_waits(season, client):
    job = PrintJob.objects.create(season=season, kind="crosstable", language="bg", progress=40)
    status = urls(season, job)["status"]
    assert f'sse-connect="{status}live/"' in client.get(status).content.decode()
    partial = client.get(status, headers={"HX-Request": "true"}).content.decode()
    assert 'hx-trigger="sse:changed"' in partial and f'hx-get="{status}"' in partial
    assert "40%" in partial and "<html" not in partial
    assert client.get(urls(season, job)["download"]).status_code == 404  # not built yet


def test_a_failed_season_job_offers_the_club_organiser_a_retry(season, organiser_client, client):
    job = PrintJob.objects.create(season=season, kind="crosstable", language="en",
                                  status=PrintJob.Status.FAILED, error="RuntimeError: boom")
    html = organiser_client.get(urls(season, job)["status"]).content.decode()
    assert "RuntimeError: boom" in html and f'action="{urls(season)["request"]}"' in html
    html = client.get(urls(season, job)["status"]).content.decode()
    assert "RuntimeError: boom" not in html and "Try again" not in html


def test_bad_ids_are_404(season, tournament, organiser_client, home_club):
    job = PrintJob.objects.create(season=season, kind="crosstable", language="bg",
                                  status=PrintJob.Status.DONE)
    other_club = Club.objects.create(name="Клуб Русе")
    other = Season.objects.create(club=home_club, name="Лято", starts=datetime.date(2027, 6, 1),
                                  ends=datetime.date(2027, 8, 31))
    tournament_job = PrintJob.objects.create(tournament=tournament, kind="standings",
                                             language="bg")
    for name, args in [
        ("season_status", [other_club.pk, season.pk, job.pk]),  # another club's address
        ("season_status", [home_club.pk, 999999, job.pk]),
        ("season_status", [home_club.pk, other.pk, job.pk]),  # another season's job
        ("season_status", [home_club.pk, season.pk, tournament_job.pk]),
        ("season_status", [home_club.pk, season.pk, 999999]),
        ("season_download", [home_club.pk, other.pk, job.pk]),
        ("season_download", [home_club.pk, season.pk, tournament_job.pk]),
        ("status", [tournament.pk, job.pk]),  # a season's job under a tournament
        ("download", [tournament.pk, job.pk]),
    ]:
        assert organiser_client.get(reverse(f"printing:{name}", args=args)).status_code == 404
    for args in ([other_club.pk, season.pk], [home_club.pk, 999999]):
        response = organiser_client.post(reverse("printing:season_request", args=args),
                                         {"kind": "crosstable"})
        assert response.status_code == 404
    assert PrintJob.objects.count() == 2


def test_only_the_clubs_organisers_start_a_build(season, organiser_client, outsider_client,
                                                 client):
    url = urls(season)["request"]
    assert organiser_client.get(url).status_code == 405
    assert outsider_client.post(url, {"kind": "crosstable"}).status_code == 403
    response = client.post(url, {"kind": "crosstable"})
    assert response.status_code == 302 and reverse("login") in response.url
    assert not PrintJob.objects.exists()


@pytest.mark.parametrize("data", [
    {"kind": "standings"},
    {"kind": "poster"},
    {"kind": "crosstable", "lang": "de"},
    {},
])
def test_bad_season_print_requests_are_400_with_a_message(season, organiser_client, data):
    response = organiser_client.post(urls(season)["request"], data)
    assert response.status_code == 400
    html = response.content.decode()
    assert 'class="message error"' in html and urls(season)["page"] in html
    assert not PrintJob.objects.exists()


def test_the_season_cross_table_page_offers_its_pdf_to_club_organisers(season, organiser_client,
                                                                      outsider_client, client):
    page = urls(season)["page"]
    html = organiser_client.get(page).content.decode()
    assert f'action="{urls(season)["request"]}"' in html
    assert 'name="kind" value="crosstable"' in html
    for other in (client, outsider_client):
        assert 'name="kind" value="crosstable"' not in other.get(page).content.decode()


def test_a_full_cross_table_of_32_players_fits_across_a4_landscape():
    """A season (or a round robin) of 32 players where everyone met everyone, every cell the
    widest common score "12:10": the last column, the places, still starts inside the page
    (A4 landscape, 841.9 pt wide, 14 mm = 39.7 pt margins)."""
    names = [f"Играч Номеров {number}" for number in range(1, 33)]
    results = [MatchResult(a, b, 12, 10, "A") for a in range(32) for b in range(a + 1, 32)]
    grid = cross_table(list(range(32)), results)
    table = CrossTable([
        CrossLine(number, names[row.player], number, 31 - row.player, 0, 0, row)
        for number, row in enumerate(grid, start=1)
    ], 0)
    document = CrossTableDocument("Зима", "Клуб · Зима", "bg", timezone.localtime(), table)
    reader = PdfReader(io.BytesIO(render_pdf(document.parts())))
    page = reader.pages[0]
    right = []

    def visit(text, cm, tm, _font, _size):
        if text.strip():  # where the text starts on the page: the text matrix times the CTM
            right.append(tm[4] * cm[0] + tm[5] * cm[2] + cm[4])

    page.extract_text(visitor_text=visit)
    assert len(reader.pages) == 1 and float(page.mediabox.width) > float(page.mediabox.height)
    assert max(right) < float(page.mediabox.width) - 39.7
