"""The site's import through a task (`exchange.import_jobs`) with its progress, the
command's progress bar, and what a batched import leaves in the history. Files as in
test_importing.py; every expected figure is worked out by hand in the comments."""

import datetime
import html
import time
from io import StringIO

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse
from django.utils import translation

from events.models import Tournament
from exchange import import_jobs, importing
from exchange.importing import import_plan_apply, parse_deal_log
from exchange.models import ImportJob
from scoring import rules
from scoring.models import Deal, Match
from tests.exchange.test_importing import FIXTURES, HEADER, counts, fixture, form, round_robin_log
from tests.workers import (
    redis_worker_fixture,  # noqa: F401  (the `redis_worker` fixture)
    sending_tasks_to,
)


@pytest.fixture
def en_client(organiser_client):
    organiser_client.cookies["django_language"] = "en"
    return organiser_client


class ProgressSeen:
    """Stands in for the cache `import_jobs` keeps the counts in; after each count it
    records what the status page would show then: (status, stage, done, total, percent)."""

    def __init__(self, real):
        self.real, self.seen, self.job_id = real, [], None

    def get(self, key, default=None):
        return self.real.get(key, default)

    def delete(self, key):
        return self.real.delete(key)

    def set(self, key, value, timeout=None):
        self.real.set(key, value, timeout)
        job = ImportJob.objects.get(pk=self.job_id)
        shown = import_jobs.import_job_progress(job)
        self.seen.append((job.status, shown["stage"], shown["done"], shown["total"],
                          shown["percent"]))


@pytest.mark.django_db
def test_a_small_file_through_the_task_shows_rows_checked_then_deals_written(
    en_client, monkeypatch, django_capture_on_commit_callbacks
):
    """good.csv: 21 lines (the header and 20 deals). A count every 10 lines read and every
    5 deals written: lines 10 and 20, then the end (21 of 21); then 0, 5, 10, 15 and 20 of
    the 20 deals. The bar: checking is its first half (10/21 -> 23 %, 20/21 -> 47 %, 50 %),
    writing the second (50 %, 62 %, 75 %, 87 %, and 99 % until the job is done)."""
    monkeypatch.setattr(importing, "PROGRESS_EVERY", 10)
    monkeypatch.setattr(importing, "BATCH_SIZE", 5)
    spy = ProgressSeen(import_jobs.cache)
    monkeypatch.setattr(import_jobs, "cache", spy)
    job = en_client.post(reverse("data:import_preview"), form()).context["job"]
    spy.job_id = job.pk
    with django_capture_on_commit_callbacks(execute=True):
        en_client.post(reverse("data:import_confirm"), {"job": job.pk})
    assert spy.seen == [
        ("checking", "check", 10, 21, 23),
        ("checking", "check", 20, 21, 47),
        ("checking", "check", 21, 21, 50),
        ("writing", "write", 0, 20, 50),
        ("writing", "write", 5, 20, 62),
        ("writing", "write", 10, 20, 75),
        ("writing", "write", 15, 20, 87),
        ("writing", "write", 20, 20, 99),
    ]
    job.refresh_from_db()
    assert (job.status, job.deals, job.players, job.errors) == ("done", 20, 3, [])
    assert import_jobs.import_job_progress(job)["percent"] == 100
    assert counts() == (1, 3, 3, 3, 3, 20, 3)


@pytest.mark.django_db
def test_the_status_page_follows_its_stream_while_the_job_runs(en_client):
    job = en_client.post(reverse("data:import_preview"), form()).context["job"]
    ImportJob.objects.filter(pk=job.pk).update(status=ImportJob.Status.WRITING)
    import_jobs.cache.set(import_jobs.progress_key(job.pk), ("write", 1_500, 20_000))
    url = reverse("data:import_job", args=[job.pk])
    partial = en_client.get(url, headers={"HX-Request": "true"})
    page = html.unescape(partial.content.decode())
    assert f'hx-get="{url}" hx-trigger="sse:changed"' in page
    assert f'sse-connect="{url}live/"' in en_client.get(url).content.decode()
    assert "<html" not in page  # htmx gets the partial alone
    # 1,500 of 20,000 written: 50 + 50 * 0.075 = 53 %.
    assert "Writing the deals… deals written: 1,500 of 20,000" in page
    assert 'value="53"' in page


def spoilt_big_log() -> bytes:
    """40 players, double round robin, 13 deals a match: 20,280 rows (test_importing); the
    last row (line 20,281) a plain win with 2 game points."""
    data = round_robin_log(40, 2, 13).rstrip(b"\n")
    head, last = data.rsplit(b"\n", 1)
    assert last.endswith(b",13,A,1,won")
    return head + b"\n" + last[: -len(b"A,1,won")] + b"A,2,won\n"


@pytest.mark.django_db
def test_a_bad_row_late_in_a_big_file_writes_nothing(organiser, tmp_path):
    data = spoilt_big_log()
    message = "line 20281: A plain win scores 1 game point, not 2 game points."
    path = tmp_path / "season.csv"
    path.write_bytes(data)
    with pytest.raises(CommandError) as error:
        call_command("import_tournament", str(path), "--name", "Сезон", stdout=StringIO(),
                     stderr=StringIO())
    assert str(error.value).splitlines()[1:] == [message]
    assert counts() == (0,) * 7
    # Through the site's task: the job fails with the same line, in the job's language.
    good = parse_deal_log(round_robin_log(40, 2, 13))
    job = import_jobs.import_job_create(
        user=organiser, upload=SimpleUploadedFile("season.csv", data), plan=good,
        name="Сезон", date=datetime.date(2026, 12, 5), rules_preset="default", club=None,
        language="bg",
    )
    assert import_jobs.import_job_start(job=job) is True
    import_jobs.import_job_run(job.pk)
    job.refresh_from_db()
    assert job.status == ImportJob.Status.FAILED
    assert job.errors == [
        "ред 20281: Обикновената победа с 66 носи 1 игрова точка, а не 2."
    ]
    assert job.file.name == ""
    assert counts() == (0,) * 7


@pytest.mark.django_db
def test_a_job_whose_file_is_gone_fails_with_a_sentence_and_writes_nothing(organiser):
    plan = parse_deal_log(fixture("good.csv"))
    job = import_jobs.import_job_create(
        user=organiser, upload=SimpleUploadedFile("good.csv", fixture("good.csv")), plan=plan,
        name="Купа", date=datetime.date(2026, 12, 5), rules_preset="default", club=None,
        language="en",
    )
    job.file.storage.delete(job.file.name)  # e.g. MEDIA_ROOT cleaned by hand meanwhile
    assert import_jobs.import_job_start(job=job) is True
    assert import_jobs.import_job_start(job=job) is False  # a second confirm starts nothing
    import_jobs.import_job_run(job.pk)
    assert import_jobs.import_job_run(job.pk) is None  # a redelivered task does nothing
    job.refresh_from_db()
    assert (job.status, job.errors) == ("failed", [
        "The import failed because of an error on the server; nothing was written and the "
        "error has been logged. Try again, or tell the site's administrator."
    ])
    assert counts() == (0,) * 7


@pytest.mark.django_db
@pytest.mark.parametrize("language, message", [
    ("en", "line 5: the file has more than 3 deal rows, the most one import reads."),
    ("bg", "ред 5: файлът има повече от 3 реда с раздавания, а едно внасяне чете най-много "
           "толкова."),
])
def test_the_page_says_the_row_limit_in_the_users_language(
    organiser_client, monkeypatch, language, message
):
    monkeypatch.setattr(importing, "MAX_ROWS", 3)
    organiser_client.cookies["django_language"] = language
    rows = [f"{n},1,Анна,Борис,1,A,1,won" for n in range(1, 5)]  # 4 rows: line 5 is over
    data = "\n".join([HEADER, *rows]).encode()
    response = organiser_client.post(reverse("data:import_preview"), {
        **form(), "file": SimpleUploadedFile("deals.csv", data, content_type="text/csv"),
    })
    assert response.status_code == 422
    assert message in html.unescape(response.content.decode())
    assert not ImportJob.objects.exists()


# --------------------------------------------------------------------------------------------
# The command's progress bar
# --------------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_command_draws_its_progress_on_stderr(monkeypatch):
    """Not a terminal: a line at each tenth. good.csv read at once (fewer lines than a
    count), then 20 deals in batches of 5: 25 % (7 of 30 marks), 50 % (15), 75 % (22)."""
    monkeypatch.setattr(importing, "BATCH_SIZE", 5)
    err = StringIO()
    call_command("import_tournament", str(FIXTURES / "good.csv"), "--name", "Купа",
                 stdout=StringIO(), stderr=err)
    assert err.getvalue().splitlines() == [
        "checking [" + "#" * 30 + "] 100% 21/21 lines",
        "writing  [" + "#" * 7 + "." * 23 + "]  25% 5/20 deals",
        "writing  [" + "#" * 15 + "." * 15 + "]  50% 10/20 deals",
        "writing  [" + "#" * 22 + "." * 8 + "]  75% 15/20 deals",
        "writing  [" + "#" * 30 + "] 100% 20/20 deals",
    ]
    quiet = StringIO()
    call_command("import_tournament", str(FIXTURES / "good.csv"), "--name", "Купа 2",
                 "--verbosity", "0", stdout=StringIO(), stderr=quiet)
    assert quiet.getvalue() == ""


# --------------------------------------------------------------------------------------------
# The history a batched import leaves
# --------------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_history_says_who_imported_each_deal_and_each_match(organiser):
    """good.csv, round 1: Анна - Борис, 6 deals, 11:1. Each deal: one "+" row by the
    organiser, reason "import", with the deal's values. Each match: "+" as created (not
    started, 0:0) and "~" with its result, as `scoring.services` leaves a match that
    finishes (a running score is saved without history)."""
    with translation.override("en"):
        plan = parse_deal_log(fixture("good.csv"))
        tournament = import_plan_apply(
            plan=plan, name="Купа", date=datetime.date(2026, 12, 5),
            house_rules=rules.HouseRules(), organiser=organiser,
        )
    deals = Deal.history.filter(history_type="+")
    assert deals.count() == 20
    assert set(deals.values_list("history_user", "history_change_reason")) == {
        (organiser.pk, "import")
    }
    stored = set(Deal.objects.values_list("id", "match_id", "number", "winner", "game_points",
                                          "reason", "entered_by"))
    assert set(deals.values_list("id", "match_id", "number", "winner", "game_points",
                                 "reason", "entered_by")) == stored
    first = Match.objects.get(pairing__round__tournament=tournament, pairing__round__number=1)
    rows = first.history.order_by("history_id").values_list(
        "history_type", "status", "game_points_a", "game_points_b", "winner",
        "history_user", "history_change_reason")
    assert list(rows) == [
        ("+", "scheduled", 0, 0, "", organiser.pk, "import"),
        ("~", "finished", 11, 1, "A", organiser.pk, "import"),
    ]
    assert Match.history.count() == 6  # three matches, all finished: "+" and "~" each
    assert Tournament.objects.get().status == Tournament.Status.FINISHED


# --------------------------------------------------------------------------------------------
# A real worker
# --------------------------------------------------------------------------------------------


@pytest.fixture
def shared_cache(settings, tmp_path, monkeypatch):
    """The cache the counts travel through, shared with the worker as on a server (files;
    Redis would do too): the test process's and, through CACHE_URL, the worker's. Listed
    before `redis_worker`, so the worker starts with it."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("CACHE_URL", f"filecache://{folder}")
    settings.CACHES = {"default": {
        "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
        "LOCATION": str(folder),
    }}


@pytest.mark.redis_worker
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_imports_and_the_page_sees_its_progress(
    en_client, shared_cache, redis_worker
):
    """20,280 deals (test_importing's 40-player double round robin): some seconds of
    checking and writing in the worker, while this process reads the job's page."""
    broker, worker = redis_worker
    data = round_robin_log(40, 2, 13)
    preview = en_client.post(reverse("data:import_preview"), {
        **form(), "file": SimpleUploadedFile("season.csv", data, content_type="text/csv"),
    })
    job = preview.context["job"]
    with sending_tasks_to(broker):
        answer = en_client.post(reverse("data:import_confirm"), {"job": job.pk})
    assert answer.url == reverse("data:import_job", args=[job.pk])  # not done yet
    seen = set()
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        job.refresh_from_db()
        if not job.is_active and job.status != ImportJob.Status.PREVIEWED:
            break
        seen.add(import_jobs.import_job_progress(job)["percent"])
        assert worker.poll() is None, worker.stdout.read().decode()
        time.sleep(0.1)
    else:
        pytest.fail(f"the worker did not import the file within 120 s ({job.status})")
    assert job.status == ImportJob.Status.DONE, job.errors
    assert any(0 < percent < 100 for percent in seen), seen  # the bar moved on the way
    assert Tournament.objects.get().pk == job.tournament_id
    assert Match.objects.count() == 1560 and Deal.objects.count() == 20_280


@pytest.mark.django_db
def test_a_job_lost_for_over_an_hour_is_shown_failed(en_client):
    job = en_client.post(reverse("data:import_preview"), form()).context["job"]
    stored = job.file.name
    an_hour_ago = job.created_at - import_jobs.STALE_AFTER - datetime.timedelta(seconds=1)
    ImportJob.objects.filter(pk=job.pk).update(status=ImportJob.Status.QUEUED,
                                               created_at=an_hour_ago)
    page = html.unescape(en_client.get(reverse("data:import_job", args=[job.pk])).content
                         .decode())
    assert ("The import did not finish within an hour (the worker may have stopped); nothing "
            "was written. Upload the file again.") in page
    assert 'hx-trigger="every 1s"' not in page
    job.refresh_from_db()
    assert job.status == ImportJob.Status.FAILED
    assert not job.file.storage.exists(stored)
