"""Print jobs, their views, the `print` command and a real worker."""

import os
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
from events import services
from events.models import Tournament
from printing import jobs, kinds
from printing.errors import PrintError
from printing.models import PrintJob
from tests.printing.helpers import ELEVEN_NIL, first_match, pdf_text, play
from tests.workers import (
    ROOT,
    database_url_of_test_database,
    redis_worker_fixture,  # noqa: F401  (the `redis_worker` fixture)
    sending_tasks_to,
)

# --- print jobs --------------------------------------------------------------------------------


def test_the_tasks_are_found_by_autodiscovery_beside_their_services():
    """A worker imports each app's `tasks` at start (Celery's autodiscovery): the print, the
    ratings and the import tasks are each registered under the module of their service."""
    from config.celery import app

    app.loader.import_default_modules()
    for name in ("printing.jobs.build_print_job", "ratings.services.recompute_ratings",
                 "exchange.import_jobs.run_import_job"):
        assert app.tasks[name].run.__module__ == name.rsplit(".", 1)[0]


@pytest.mark.django_db
def test_two_requests_get_one_job_and_one_build(started, django_capture_on_commit_callbacks,
                                                monkeypatch):
    builds = []
    real_build = kinds.build
    monkeypatch.setattr(kinds, "build", lambda **kw: builds.append(kw) or real_build(**kw))
    with django_capture_on_commit_callbacks(execute=True):
        first = jobs.print_job_request(
            tournament=started, kind="round", round_number=1, language="bg"
        )
        second = jobs.print_job_request(
            tournament=started, kind="round", round_number=1, language="bg"
        )
    assert first.pk == second.pk and len(builds) == 1
    first.refresh_from_db()
    assert first.status == PrintJob.Status.DONE and first.progress == 100
    assert first.file.name.startswith("print/") and first.finished_at
    assert PdfReader(first.file.path).pages  # under the temporary MEDIA_ROOT
    assert str(first.file.path).startswith(str(jobs.settings.MEDIA_ROOT))


@pytest.mark.django_db
def test_unchanged_data_reuses_the_file_and_a_new_deal_rebuilds(started,
                                                                 django_capture_on_commit_callbacks,
                                                                 monkeypatch):
    built = []
    real_build = kinds.build
    monkeypatch.setattr(kinds, "build", lambda **kw: built.append(kw) or real_build(**kw))

    def request(**kw):
        before = len(built)
        with django_capture_on_commit_callbacks(execute=True):
            job = jobs.print_job_request(
                tournament=started, round_number=1, language="en", **kw
            )
        job.refresh_from_db()
        return job, len(built) - before

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
def test_a_missing_file_is_built_again(started, django_capture_on_commit_callbacks, cheap_pdfs):
    with django_capture_on_commit_callbacks(execute=True):
        job = jobs.print_job_request(tournament=started, kind="standings",
                                               language="bg")
    job.refresh_from_db()
    job.file.storage.delete(job.file.name)
    with django_capture_on_commit_callbacks(execute=True):
        again = jobs.print_job_request(tournament=started, kind="standings",
                                                 language="bg")
    again.refresh_from_db()
    assert again.pk != job.pk and again.status == PrintJob.Status.DONE


@pytest.mark.django_db
def test_a_failed_build_is_recorded_not_raised(started, django_capture_on_commit_callbacks,
                                               monkeypatch):
    def broken(**kwargs):
        raise RuntimeError("the printer caught fire")

    monkeypatch.setattr(kinds, "build", broken)
    with django_capture_on_commit_callbacks(execute=True):
        job = jobs.print_job_request(tournament=started, kind="standings",
                                               language="en")
    job.refresh_from_db()
    assert job.status == PrintJob.Status.FAILED
    # The status page shows a sentence for people; the exception itself goes to the log.
    assert job.error == (
        "The PDF could not be made because of an error on the server; it has been logged. "
        "Try again, or tell the site's administrator."
    ) and not job.file


@pytest.mark.django_db
@pytest.mark.parametrize("kind, round_number, language, code", [
    ("bracket", None, "bg", "no_bracket"),  # a round robin has no bracket
    ("crosstable", None, "fr", "unknown_language"),
    ("poster", None, "bg", "unknown_kind"),
    ("round", None, "bg", "round_missing"),
    ("scorecards", 9, "bg", "no_such_round"),
    ("standings", None, "de", "unknown_language"),
])
def test_bad_requests_raise_and_write_nothing(started, kind, round_number, language, code):
    with pytest.raises(PrintError) as error:
        jobs.print_job_request(
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
    assert pdf_text(pdf.content)[0] == 2


@pytest.mark.django_db
def test_the_status_follows_its_stream_while_the_job_waits(started, organiser_client):
    job = PrintJob.objects.create(tournament=started, kind="round", round_number=1,
                                  language="en", progress=40)
    url = reverse("printing:status", args=[started.pk, job.pk])
    page = organiser_client.get(url).content.decode()
    assert f'sse-connect="{url}live/"' in page
    partial = organiser_client.get(url, headers={"HX-Request": "true"}).content.decode()
    assert 'hx-trigger="sse:changed"' in partial and f'hx-get="{url}"' in partial
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
    on_round = render_to_string("printing/partials/print_buttons.html",
                                {"tournament": started, "round": round_}, request=request)
    on_standings = render_to_string("printing/partials/print_buttons.html",
                                    {"tournament": started}, request=request)
    action = reverse("printing:request", args=[started.pk])
    assert f'action="{action}"' in on_round and f'action="{action}"' in on_standings
    assert 'name="round" value="2"' in on_round
    assert 'name="kind" value="round"' in on_round and 'value="scorecards"' in on_round
    assert 'name="filled"' in on_round and 'name="lang"' in on_round
    assert 'name="kind" value="standings"' in on_standings and 'name="round"' not in on_standings


@pytest.mark.django_db
def test_standings_file_is_public_but_scorecards_are_not(started, client, outsider_client,
                                                         cheap_pdfs):
    standings = PrintJob.objects.create(tournament=started, kind="standings", language="en")
    jobs.print_job_build(standings.pk)
    cards = PrintJob.objects.create(tournament=started, kind="scorecards", round_number=1,
                                    language="en")
    jobs.print_job_build(cards.pk)
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


@pytest.mark.real_process
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
        job = jobs.print_job_request(
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

