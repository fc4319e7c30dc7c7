"""PDFs: scorecards, round packs, standings; print jobs, their views, the command, a real worker."""

import io
import os
import random
import re
import subprocess
import sys
import time

import pytest
from django.core.management import CommandError, call_command
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.urls import reverse
from pypdf import PdfReader

from club.models import Player
from scoring import rules
from scoring import services as scoring_services
from scoring.models import Deal, Match
from tests.conftest import PLAYER_NAMES
from tests.workers import (
    ROOT,
    database_url_of_test_database,
    redis_worker_fixture,  # noqa: F401  (the `redis_worker` fixture)
    sending_tasks_to,
)
from tournaments import print_services, printing, selectors, services
from tournaments.models import Pairing, PrintJob, Tournament


@pytest.fixture(autouse=True)
def media_root(settings, tmp_path):
    """Files go to a temporary MEDIA_ROOT (set before a `redis_worker` starts: autouse)."""
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


@pytest.fixture
def started(tournament) -> Tournament:
    """The five-player round robin of conftest, started: each round 2 matches and a bye.
    Round 1 (FIDE table, numbers as entered): 1 rests; table 1: 2-5, table 2: 3-4."""
    services.tournament_start(tournament=tournament, rng=random.Random(1))
    tournament.refresh_from_db()
    return tournament


def pdf_text(data: bytes) -> tuple[int, str]:
    reader = PdfReader(io.BytesIO(data))
    return len(reader.pages), "\n".join(page.extract_text() for page in reader.pages)


def round_pairings(tournament, number=1):
    round_ = tournament.rounds.get(number=number)
    return list(selectors.pairings_of_round(round_).select_related("round__tournament"))


def first_match(tournament) -> Match:
    return Pairing.objects.get(round__tournament=tournament, round__number=1, table=1).match


def play(match: Match, deals) -> None:
    for winner, points, reason in deals:
        scoring_services.deal_record(
            match=match, score=rules.quick_result(winner, points, reason), by=None
        )


ELEVEN_NIL = [("A", 3, "capot"), ("A", 3, "capot"), ("A", 2, "schneider"), ("A", 3, "capot")]


# --- the PDFs --------------------------------------------------------------------------------


@pytest.mark.django_db
def test_blank_scorecards_two_per_page_in_bulgarian(started):
    pages, text = pdf_text(printing.render_scorecards(round_pairings(started), False, "bg"))
    assert pages == 1  # 2 matches (player 1 rests): two scorecards on one A4 page
    assert "Кръг 1" in text
    assert "Маса 1" in text and "Маса 2" in text
    for name in PLAYER_NAMES[1:5]:
        assert name in text
    assert PLAYER_NAMES[0] not in text  # rests in round 1: no scorecard
    assert text.count("Кръг 1") == 2


@pytest.mark.django_db
def test_scorecards_follow_the_language_asked_for(started):
    _, text = pdf_text(printing.render_scorecards(round_pairings(started, 2), False, "en"))
    assert "Round 2" in text and "Кръг" not in text
    assert "Final score" in text


@pytest.mark.django_db
def test_filled_scorecard_prints_the_deals_with_running_totals(started):
    match = first_match(started)
    play(match, ELEVEN_NIL)
    pages, text = pdf_text(printing.render_scorecards(round_pairings(started), True, "en"))
    assert pages == 1
    lines = text.splitlines()
    # dealer, winner, game points, reason code, total A, total B: the winner deals next
    rows = [line for line in lines if re.fullmatch(r"[AB] [AB=] \d [\w=]+ \d+ \d+", line)]
    assert rows == ["A A 3 3 3 0", "A A 3 3 6 0", "A A 2 2 8 0", "A A 3 3 11 0"]
    assert re.search(r"A 11\s*:\s*0\s*B", text)  # the final score box
    # The other match has no deal: only its first dealer is printed, in the first row.
    assert "\nA\n" in text


@pytest.mark.django_db
def test_blank_scorecards_ignore_entered_deals(started):
    play(first_match(started), ELEVEN_NIL)
    _, text = pdf_text(printing.render_scorecards(round_pairings(started), False, "en"))
    assert "A A 3 3 3 0" not in text
    assert not re.search(r"A 11\s*:\s*0\s*B", text)


def test_a_long_filled_match_gets_a_third_column_of_rows():
    match = Match(first_dealer="A", house_rules_snapshot={}, status=Match.Status.PLAYING)
    deals = [Deal(number=n, winner="", game_points=0, reason="draw") for n in range(1, 24)]
    rows = printing._deal_rows(match, deals, filled=True)
    assert len(rows) == 33 and rows[22].number == 23 and rows[22].winner == "="
    assert rows[23].dealer == "A" and rows[23].is_next  # draws keep the dealer


def forty_deals_mostly_drawn():
    """40 deals: every fourth one A wins by 1 game point (deals 4, 8, ..., 36: 9 game points),
    the rest are 65-65 draws, and deal 40 is A's schneider: 9 + 2 = 11, the match ends on it.
    Draws keep the dealer and the winner deals next, so A (first dealer) deals every deal."""
    deals = []
    for number in range(1, 41):
        if number == 40:
            deals.append(("A", 2, "schneider"))
        elif number % 4 == 0:
            deals.append(("A", 1, "won"))
        else:
            deals.append((None, 0, "draw"))
    return deals


@pytest.mark.parametrize(
    ("rows_needed", "columns", "rows", "row_height"),
    [
        (1, 2, 11, 7.0),
        (22, 2, 11, 7.0),  # 21 deals (the longest match to 11 without draws) + the next one
        (23, 3, 11, 7.0),
        (33, 3, 11, 7.0),  # 32 deals: the last card that printed before
        (34, 3, 12, 77 / 12),  # 33 deals: shorter rows instead of a fourth column
        (41, 3, 14, 5.5),  # 40 deals + the next row: 3 x 14 rows of 77 / 14 = 5.5 mm
        (42, 3, 14, 5.5),
    ],
)
def test_a_card_grid_keeps_three_columns_and_shortens_its_rows(rows_needed, columns, rows,
                                                                row_height):
    grid = printing.grid_layout(rows_needed)
    assert (grid.columns, grid.rows, grid.first_number) == (columns, rows, 1)
    assert grid.row_height == pytest.approx(row_height)
    assert grid.rows * grid.row_height == pytest.approx(77.0)  # the grid stays 83 mm high
    assert grid.capacity >= rows_needed
    # Cells stay wide enough to write in: (188 - 2 x 6) / 3 - 8 - 2 x 16 = 18.67 mm / 4.
    assert min(printing.grid_widths(grid.columns)) > 4.6
    assert printing.grid_layout(rows_needed).cell_font_pt >= 7.8  # 10 pt x 5.5 / 7 = 7.86


def test_more_rows_than_one_card_holds_go_on_continuation_cards():
    assert [(g.columns, g.rows, g.first_number) for g in printing.card_grids(42)] == [(3, 14, 1)]
    assert [(g.columns, g.rows, g.first_number) for g in printing.card_grids(43)] == [
        (3, 14, 1), (2, 11, 43),
    ]
    # 99 deals + the next row: 42 + 42, then 16 rows on a third card of 2 x 11.
    assert [(g.columns, g.rows, g.first_number) for g in printing.card_grids(100)] == [
        (3, 14, 1), (3, 14, 43), (2, 11, 85),
    ]


def test_forty_deals_fill_a_three_by_fourteen_grid():
    match = Match(first_dealer="A", house_rules_snapshot={}, status=Match.Status.FINISHED)
    deals = [
        Deal(number=n, winner=winner or "", game_points=points, reason=reason)
        for n, (winner, points, reason) in enumerate(forty_deals_mostly_drawn(), start=1)
    ]
    rows = printing._deal_rows(match, deals, filled=True)
    assert len(rows) == 42  # 40 deals and two blank rows of the 3 x 14 grid
    assert (rows[38].winner, rows[38].total_a) == ("=", "9")  # deal 39, a draw, 9:0
    assert (rows[39].dealer, rows[39].winner, rows[39].game_points, rows[39].total_a,
            rows[39].total_b) == ("A", "A", "2", "11", "0")
    assert not rows[40].is_next and not rows[40].dealer  # the match is over
    grid = printing.grid_layout(len(deals) + 1)
    cells = printing._grid_cells(rows, grid)
    # Deal 40 is row 12 of the third column: top 6 + 11 x 5.5 = 66.5 mm, left 2 x (58.67 + 6).
    total_b_of_deal_40 = [cell for cell in cells if cell["top"] == "66.50"][-1]
    assert total_b_of_deal_40["text"] == "0"
    assert float(total_b_of_deal_40["left"]) == pytest.approx(2 * (176 / 3 + 6) + 176 / 3 - 16)
    assert all(float(cell["top"]) + 5.5 <= 83.0 for cell in cells)
    assert printing.grid_image(grid, printing._grid_labels()).startswith("data:image/png")


@pytest.mark.django_db
def test_a_filled_scorecard_of_forty_deals_prints_on_one_card(started):
    match = first_match(started)
    play(match, forty_deals_mostly_drawn())
    match.refresh_from_db()
    assert (match.points_a, match.points_b, match.status) == (11, 0, Match.Status.FINISHED)
    # The round pack prints the same cards (`_scorecard_parts`): one render is enough here.
    pages, text = pdf_text(printing.render_scorecards(round_pairings(started), True, "bg"))
    assert pages == 1  # both matches' cards on one A4 page: no continuation card
    rows = [line for line in text.splitlines()
            if re.fullmatch(r"[AB] [AB=] \d [\w=]+ \d+ \d+", line)]
    assert len(rows) == 40
    assert rows.count("A = 0 = 0 0") == 3  # deals 1-3, before A's first point
    assert rows[-1] == "A A 2 2 11 0"
    assert re.search(r"A 11\s*:\s*0\s*B", text)


def test_the_legend_lists_only_the_reasons_the_house_rules_allow():
    codes = [item["code"] for item in printing._legend(rules.HouseRules())]
    assert codes[:3] == ["1", "2", "3"] and "=" in codes
    assert "LT" not in [str(code) for code in codes]
    wins_deal = printing._legend(rules.HouseRules(last_trick="wins_deal"))
    assert "=" not in [item["code"] for item in wins_deal]


@pytest.mark.django_db
def test_round_pack_is_the_round_sheet_then_the_scorecards(started):
    round_ = started.rounds.get(number=1)
    pages, text = pdf_text(printing.render_round_pack(round_, "bg"))
    assert pages == 2  # the round sheet, then one page with both scorecards
    sheet = PdfReader(io.BytesIO(printing.render_round_pack(round_, "bg"))).pages[0]
    sheet_text = sheet.extract_text()
    assert "Кръг 1" in sheet_text and "почива" in sheet_text  # the bye: "rests"
    assert PLAYER_NAMES[0] in sheet_text
    assert re.search(r"Отпечатано|Printed", sheet_text)


@pytest.mark.django_db
def test_round_sheet_shows_finished_results(started):
    play(first_match(started), ELEVEN_NIL)
    _, text = pdf_text(printing.render_round_sheet(started.rounds.get(number=1), "en"))
    assert re.search(r"11\s*:\s*0", text)
    assert "rests (bye)" in text


@pytest.mark.django_db
def test_standings_pdf_lists_players_in_standings_order(started):
    for pairing in Pairing.objects.filter(round__tournament=started, match__isnull=False):
        play(pairing.match, ELEVEN_NIL if pairing.entry_a.number < pairing.entry_b.number
             else [("B", 3, "capot")] * 3 + [("B", 2, "schneider")])
    expected = [entry.player.name for entry, _ in selectors.standings(started)]
    pages, text = pdf_text(printing.render_standings(started, "bg"))
    assert pages == 1
    assert "Класиране" in text
    positions = [text.index(name) for name in expected]
    assert positions == sorted(positions)
    assert expected[0] == PLAYER_NAMES[0]  # number 1 beat everyone
    assert "оставащите мачове се губят служебно" in text  # the withdrawal policy, printed


@pytest.mark.django_db
def test_standings_pdf_in_english_names_the_columns_and_order(started):
    _, text = pdf_text(printing.render_standings(started, "en"))
    assert "Standings" in text and "GP diff." in text
    assert "head-to-head among the tied players" in text
    assert "When a player withdraws:" in text


@pytest.mark.django_db
def test_qr_code_and_entry_url_use_site_url(settings, started):
    settings.SITE_URL = "https://66.example.bg/"
    match = first_match(started)
    assert printing.match_entry_url(match.pk) == f"https://66.example.bg/m/{match.pk}/"
    assert printing.qr_image("https://66.example.bg/m/1/").startswith("data:image/png;base64,")


# --- print jobs --------------------------------------------------------------------------------


@pytest.mark.django_db
def test_two_requests_get_one_job_and_one_build(started, django_capture_on_commit_callbacks,
                                                monkeypatch):
    builds = []
    real_build = printing.build
    monkeypatch.setattr(printing, "build", lambda **kw: builds.append(kw) or real_build(**kw))
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        first = print_services.print_job_request(
            tournament=started, kind="round", round_number=1, language="bg"
        )
        second = print_services.print_job_request(
            tournament=started, kind="round", round_number=1, language="bg"
        )
    assert first.pk == second.pk and len(callbacks) == 1 and len(builds) == 1
    first.refresh_from_db()
    assert first.status == PrintJob.Status.DONE and first.progress == 100
    assert first.file.name.startswith("print/") and first.finished_at
    assert PdfReader(first.file.path).pages  # under the temporary MEDIA_ROOT
    assert str(first.file.path).startswith(str(print_services.settings.MEDIA_ROOT))


@pytest.mark.django_db
def test_unchanged_data_reuses_the_file_and_a_new_deal_rebuilds(started,
                                                                 django_capture_on_commit_callbacks):
    def request(**kw):
        with django_capture_on_commit_callbacks(execute=True) as callbacks:
            job = print_services.print_job_request(
                tournament=started, round_number=1, language="en", **kw
            )
        job.refresh_from_db()
        return job, len(callbacks)

    filled, builds = request(kind="scorecards", filled=True)
    blank, _ = request(kind="scorecards")
    assert builds == 1 and filled.status == blank.status == PrintJob.Status.DONE
    again, builds = request(kind="scorecards", filled=True)
    assert again.pk == filled.pk and builds == 0  # same data: no rebuild
    play(first_match(started), ELEVEN_NIL[:1])
    rebuilt, builds = request(kind="scorecards", filled=True)
    assert rebuilt.pk != filled.pk and builds == 1 and rebuilt.status == PrintJob.Status.DONE
    assert "A A 3 3 3 0" in pdf_text(rebuilt.file.read())[1]
    assert not PrintJob.objects.filter(pk=filled.pk).exists()  # the old file is gone
    same_blank, builds = request(kind="scorecards")
    assert same_blank.pk == blank.pk and builds == 0  # blank cards do not show deals


@pytest.mark.django_db
def test_a_missing_file_is_built_again(started, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        job = print_services.print_job_request(tournament=started, kind="standings",
                                               language="bg")
    job.refresh_from_db()
    job.file.storage.delete(job.file.name)
    with django_capture_on_commit_callbacks(execute=True):
        again = print_services.print_job_request(tournament=started, kind="standings",
                                                 language="bg")
    again.refresh_from_db()
    assert again.pk != job.pk and again.status == PrintJob.Status.DONE


@pytest.mark.django_db
def test_a_failed_build_is_recorded_not_raised(started, django_capture_on_commit_callbacks,
                                               monkeypatch):
    def broken(**kwargs):
        raise RuntimeError("the printer caught fire")

    monkeypatch.setattr(printing, "build", broken)
    with django_capture_on_commit_callbacks(execute=True):
        job = print_services.print_job_request(tournament=started, kind="standings",
                                               language="en")
    job.refresh_from_db()
    assert job.status == PrintJob.Status.FAILED
    assert "the printer caught fire" in job.error and not job.file


@pytest.mark.django_db
@pytest.mark.parametrize("kind, round_number, language, code", [
    ("bracket", None, "bg", "no_bracket"),  # a round robin has no bracket
    ("poster", None, "bg", "unknown_kind"),
    ("round", None, "bg", "round_missing"),
    ("scorecards", 9, "bg", "no_such_round"),
    ("standings", None, "de", "unknown_language"),
])
def test_bad_requests_raise_and_write_nothing(started, kind, round_number, language, code):
    with pytest.raises(print_services.PrintError) as error:
        print_services.print_job_request(
            tournament=started, kind=kind, round_number=round_number, language=language
        )
    assert error.value.code == code
    assert not PrintJob.objects.exists()


@pytest.mark.django_db
def test_one_active_job_per_key_is_a_database_constraint(started):
    PrintJob.objects.create(tournament=started, kind="standings", language="bg")
    with pytest.raises(IntegrityError), transaction.atomic():
        PrintJob.objects.create(tournament=started, kind="standings", language="bg")
    PrintJob.objects.create(tournament=started, kind="standings", language="en")
    PrintJob.objects.create(tournament=started, kind="round", round_number=1, language="bg")
    PrintJob.objects.create(tournament=started, kind="round", round_number=2, language="bg")
    PrintJob.objects.create(tournament=started, kind="standings", language="bg",
                            status=PrintJob.Status.DONE)


# --- views -------------------------------------------------------------------------------------


def post_print(client, tournament, **data):
    return client.post(reverse("printing:request", args=[tournament.pk]), data)


@pytest.mark.django_db
def test_organiser_prints_a_round_pack_follows_it_and_downloads_it(started, organiser_client,
                                                                   django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = post_print(organiser_client, started, kind="round", round=1, lang="bg")
    job = PrintJob.objects.get()
    assert response.status_code == 302
    assert response.url == reverse("printing:status", args=[started.pk, job.pk])
    page = organiser_client.get(response.url)
    download = reverse("printing:download", args=[started.pk, job.pk])
    assert page.status_code == 200 and download in page.content.decode()
    assert 'hx-trigger="every 1s"' not in page.content.decode()  # done: no more polling
    pdf = organiser_client.get(download)
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    assert 'filename="round-1-pack.pdf"' in pdf["Content-Disposition"]
    assert pdf_text(b"".join(pdf.streaming_content))[0] == 2


@pytest.mark.django_db
def test_status_polls_every_second_while_the_job_waits(started, organiser_client):
    job = PrintJob.objects.create(tournament=started, kind="round", round_number=1,
                                  language="en", progress=40)
    url = reverse("printing:status", args=[started.pk, job.pk])
    partial = organiser_client.get(url, headers={"HX-Request": "true"}).content.decode()
    assert 'hx-trigger="every 1s"' in partial and f'hx-get="{url}"' in partial
    assert "40%" in partial and "<html" not in partial
    assert organiser_client.get(
        reverse("printing:download", args=[started.pk, job.pk])
    ).status_code == 404


@pytest.mark.django_db
def test_a_failed_job_shows_its_error(started, organiser_client):
    job = PrintJob.objects.create(tournament=started, kind="standings", language="en",
                                  status=PrintJob.Status.FAILED, error="RuntimeError: boom")
    page = organiser_client.get(reverse("printing:status", args=[started.pk, job.pk]))
    assert page.status_code == 200 and "RuntimeError: boom" in page.content.decode()


@pytest.mark.django_db
def test_print_request_refuses_get_outsiders_and_anonymous(started, organiser_client,
                                                          outsider_client, client):
    url = reverse("printing:request", args=[started.pk])
    assert organiser_client.get(url).status_code == 405
    assert post_print(outsider_client, started, kind="standings").status_code == 403
    response = post_print(client, started, kind="standings")
    assert response.status_code == 302 and reverse("login") in response.url
    assert not PrintJob.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("data", [
    {"kind": "poster"},
    {"kind": "bracket"},
    {"kind": "round"},
    {"kind": "round", "round": "9"},
    {"kind": "round", "round": "first"},
    {"kind": "standings", "lang": "de"},
    {},
])
def test_bad_print_requests_are_400_with_a_message(started, organiser_client, data):
    response = post_print(organiser_client, started, **data)
    assert response.status_code == 400
    assert 'class="message error"' in response.content.decode()
    assert not PrintJob.objects.exists()


@pytest.mark.django_db
def test_print_buttons_post_what_print_request_expects(started, organiser, rf,
                                                        django_capture_on_commit_callbacks):
    request = rf.get("/")
    request.user = organiser
    round_ = started.rounds.get(number=2)
    on_round = render_to_string("tournaments/partials/print_buttons.html",
                                {"tournament": started, "round": round_}, request=request)
    on_standings = render_to_string("tournaments/partials/print_buttons.html",
                                    {"tournament": started}, request=request)
    action = reverse("printing:request", args=[started.pk])
    assert f'action="{action}"' in on_round and f'action="{action}"' in on_standings
    assert 'name="round" value="2"' in on_round
    assert 'name="kind" value="round"' in on_round and 'value="scorecards"' in on_round
    assert 'name="filled"' in on_round and 'name="lang"' in on_round
    assert 'name="kind" value="standings"' in on_standings and 'name="round"' not in on_standings


@pytest.mark.django_db
def test_standings_file_is_public_but_scorecards_are_not(started, client, outsider_client):
    standings = PrintJob.objects.create(tournament=started, kind="standings", language="en")
    print_services.print_job_build(standings.pk)
    cards = PrintJob.objects.create(tournament=started, kind="scorecards", round_number=1,
                                    language="en")
    print_services.print_job_build(cards.pk)
    public = client.get(reverse("printing:download", args=[started.pk, standings.pk]))
    assert public.status_code == 200 and public["Content-Type"] == "application/pdf"
    denied = client.get(reverse("printing:download", args=[started.pk, cards.pk]))
    assert denied.status_code == 302 and reverse("login") in denied.url
    assert outsider_client.get(
        reverse("printing:status", args=[started.pk, cards.pk])
    ).status_code == 403
    started.is_public = False
    started.save()
    assert client.get(
        reverse("printing:download", args=[started.pk, standings.pk])
    ).status_code == 404


# --- the management command -------------------------------------------------------------------


@pytest.mark.django_db
def test_print_command_writes_a_pdf(started, tmp_path, capsys):
    out = tmp_path / "out" / "round-1.pdf"
    call_command("print", str(started.pk), what="round", round="1", lang="en", out=str(out))
    assert capsys.readouterr().out.strip() == str(out)
    pages, text = pdf_text(out.read_bytes())
    assert pages == 2 and "Round 1" in text


@pytest.mark.django_db
@pytest.mark.parametrize("args, message", [
    (["999999", "--what", "standings"], "No tournament with id 999999"),
    (["abc", "--what", "standings"], "whole number"),
    (["{pk}", "--what", "poster"], "choose one of: scorecards, round, standings"),
    (["{pk}", "--what", "round"], "which round"),
    (["{pk}", "--what", "round", "--round", "9"], "no round 9"),
    (["{pk}", "--what", "scorecards", "--round", "x"], "whole number"),
    (["{pk}", "--what", "standings", "--lang", "de"], "No language 'de'"),
])
def test_print_command_refuses_bad_input(started, tmp_path, args, message):
    args = [arg.format(pk=started.pk) for arg in args]
    with pytest.raises(CommandError, match=message):
        call_command("print", *args, "--out", str(tmp_path / "x.pdf"))
    assert not (tmp_path / "x.pdf").exists()


@pytest.mark.django_db
def test_print_command_fails_cleanly_from_the_shell(tmp_path):
    result = subprocess.run(
        [sys.executable, "manage.py", "print", "999999", "--what", "standings",
         "--out", str(tmp_path / "x.pdf")],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
        env={**os.environ, "DATABASE_URL": database_url_of_test_database()},
    )
    assert result.returncode == 1
    assert "No tournament with id 999999" in result.stderr
    assert "Traceback" not in result.stderr


# --- a real worker -----------------------------------------------------------------------------


@pytest.mark.redis_worker
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_builds_a_round_pack(players, organiser, redis_worker):
    broker, worker = redis_worker
    tournament = Tournament.objects.create(name="Купа Варна", date="2026-12-06",
                                           format=Tournament.Format.ROUND_ROBIN)
    for player in players[:6]:
        services.entry_add(tournament=tournament, player=player)
    services.tournament_start(tournament=tournament)
    with sending_tasks_to(broker):
        job = print_services.print_job_request(
            tournament=tournament, kind="round", round_number=2, language="bg"
        )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        job.refresh_from_db()
        if not job.is_active:
            break
        assert worker.poll() is None, worker.stdout.read().decode()
        time.sleep(0.2)
    else:
        pytest.fail(f"the worker did not build the job within 60 s ({job.status})")
    assert job.status == PrintJob.Status.DONE, job.error
    pages, text = pdf_text(job.file.read())
    assert pages == 1 + 2  # the round sheet, then 3 scorecards on 2 pages
    assert "Кръг 2" in text
    names = set(Player.objects.filter(entries__tournament=tournament).values_list("name",
                                                                                   flat=True))
    assert all(name in text for name in names)
