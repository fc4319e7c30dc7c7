"""Import jobs: a deal log imported through the site by a Celery task, with its progress.

`import_job_create` runs in the upload's request, after the file has been checked for the
preview: it keeps the file under MEDIA_ROOT/imports/ (the task cannot be sent megabytes
through the broker, and the session must not hold them) and records what it becomes.
`import_job_start` (the confirmation) moves the job from `previewed` to `queued` in one
UPDATE, so a double click starts one import, and starts the task `run_import_job` once that
has committed (the worker must see the row). `import_job_run` is the task's body (run
eagerly inside the request when no broker is configured): it reads the file again
(`importing.parse_deal_log`, streamed) and writes it (`importing.import_plan_apply`, one
transaction), recording progress, and the outcome on the row.

Progress: the status and the outcome are on the job row; the counts while it runs (rows
checked, deals written, of how many) are in Django's cache under `progress_key(job_id)`,
because the writing transaction holds the database (SQLite: the whole file; PostgreSQL: an
UPDATE of the job's row from inside it would stay unseen until the commit). The cache is
shared by the web processes and the worker (files under var/cache, or Redis:
docs/deployment.md, Configuration).
"""

import datetime
import functools
import logging
import secrets

from celery import shared_task
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext

from exchange import importing
from exchange.models import ImportJob
from scoring import rules

logger = logging.getLogger(__name__)

PROGRESS_TIMEOUT = 24 * 60 * 60
"""Seconds the cache keeps a job's counts (long after any import has ended)."""
STALE_AFTER = datetime.timedelta(hours=1)
"""A job still waiting or running this long after its upload is taken for lost (the worker
stopped, the broker dropped it: its transaction, if any, rolled back) and marked failed."""


def progress_key(job_id: int) -> str:
    """The cache key of job `job_id`'s counts."""
    return f"import-job-progress:{job_id}"


def import_job_progress(job: ImportJob) -> dict:
    """How far `job` is: ``{"stage": "check" | "write" | None, "done": int, "total": int,
    "percent": 0-100}``. Checking is the first half of the bar and writing the second; a
    finished job is at 100, a waiting one at 0."""
    if job.status == ImportJob.Status.DONE:
        return {"stage": None, "done": job.deals, "total": job.deals, "percent": 100}
    counts = cache.get(progress_key(job.pk)) if job.is_active else None
    if not counts:
        return {"stage": None, "done": 0, "total": 0, "percent": 0}
    stage, done, total = counts
    share = done / total if total else 1.0
    percent = int(50 * share) + (50 if stage == "write" else 0)
    return {"stage": stage, "done": done, "total": total, "percent": max(1, min(99, percent))}


def import_job_refresh(job: ImportJob) -> ImportJob:
    """`job`, marked failed (and its file dropped) if it has been waiting or running for
    longer than `STALE_AFTER`; as it is otherwise."""
    if job.is_active and timezone.now() - job.created_at > STALE_AFTER:
        with translation.override(job.language):
            job.errors = [gettext(
                "The import did not finish within an hour (the worker may have stopped); "
                "nothing was written. Upload the file again."
            )]
        job.status, job.finished_at = ImportJob.Status.FAILED, timezone.now()
        _drop_file(job)
        job.save(update_fields=["status", "errors", "file", "finished_at"])
    return job


def _recorder(job_id: int) -> importing.Progress:
    def record(stage: str, done: int, total: int) -> None:
        cache.set(progress_key(job_id), (stage, done, total), PROGRESS_TIMEOUT)

    return record


def import_job_create(*, user, upload, plan: importing.ImportPlan, name: str, date,
                      rules_preset: str, club, language: str) -> ImportJob:
    """A `previewed` job of `user` for the checked `upload` (a Django `UploadedFile`, or any
    `File`, whose `plan` had no errors), its file saved under MEDIA_ROOT/imports/. The user's
    earlier previews that were never confirmed are dropped with their files."""
    for old in ImportJob.objects.filter(user=user, status=ImportJob.Status.PREVIEWED):
        _drop_file(old)
        old.delete()
    job = ImportJob(
        user=user, name=name, date=date, rules=rules_preset, club=club, language=language,
        deals=plan.deal_count, players=len(plan.players),
    )
    upload.seek(0)
    job.file.save(f"{secrets.token_hex(16)}.csv", upload, save=False)
    job.save()
    return job


def import_job_start(*, job: ImportJob) -> bool:
    """Confirm the previewed `job`: it is queued and its task starts once this commits.
    False (and nothing done) when it was no longer `previewed` (a second confirmation)."""
    with transaction.atomic():
        started = ImportJob.objects.filter(
            pk=job.pk, status=ImportJob.Status.PREVIEWED
        ).update(status=ImportJob.Status.QUEUED)
        if started:
            cache.delete(progress_key(job.pk))
            transaction.on_commit(functools.partial(_start, job.pk))
    return bool(started)


def _start(job_id: int) -> None:
    """Send the job to the worker (or run it now, eagerly). If the queue cannot be reached,
    the job says so instead of waiting forever."""
    try:
        run_import_job.delay(job_id)
    except Exception as error:
        logger.exception("Could not start import job %s", job_id)
        ImportJob.objects.filter(pk=job_id, status=ImportJob.Status.QUEUED).update(
            status=ImportJob.Status.FAILED, errors=[f"Could not start the import: {error}"],
            finished_at=timezone.now(),
        )


def import_job_run(job_id: int) -> ImportJob | None:
    """Import the file of the queued job `job_id` (check it again, then write it in one
    transaction) and record the outcome: `done` with the tournament, or `failed` with the
    messages (the file's ``line N: …`` errors, or what went wrong) in the job's language.
    Nothing is raised; nothing is written on a failure. The file is deleted at the end.
    Returns the job, or None when it no longer exists or was not queued (a redelivery)."""
    claimed = ImportJob.objects.filter(pk=job_id, status=ImportJob.Status.QUEUED).update(
        status=ImportJob.Status.CHECKING
    )
    if not claimed:
        return None
    job = ImportJob.objects.select_related("user", "club").get(pk=job_id)
    record = _recorder(job.pk)
    try:
        with translation.override(job.language):
            house_rules = rules.HouseRules.preset(job.rules)
            with job.file.storage.open(job.file.name, "rb") as file:
                plan = importing.parse_deal_log(file, house_rules=house_rules, progress=record)
            if plan.errors:
                job.status, job.errors = ImportJob.Status.FAILED, plan.errors
            else:
                ImportJob.objects.filter(pk=job.pk).update(status=ImportJob.Status.WRITING)
                record("write", 0, plan.deal_count)
                job.tournament = importing.import_plan_apply(
                    plan=plan, name=job.name, date=job.date, house_rules=house_rules,
                    organiser=job.user, club=job.club, progress=record,
                )
                job.status, job.deals, job.players = (
                    ImportJob.Status.DONE, plan.deal_count, len(plan.players))
    except Exception as error:  # any failure must reach the status page, not vanish
        logger.exception("Import job %s failed", job_id)
        job.status, job.errors = ImportJob.Status.FAILED, _failure(error, job.language)
    job.finished_at = timezone.now()
    _drop_file(job)
    job.save(update_fields=["status", "errors", "tournament", "deals", "players", "file",
                            "finished_at"])
    cache.delete(progress_key(job.pk))
    return job


def _failure(error: Exception, language: str) -> list[str]:
    """What a failed import tells its user, in `language`: a bad name or date as the form
    would say it, anything else one fixed sentence (the exception belongs in the log)."""
    with translation.override(language):
        if isinstance(error, ValidationError):
            return list(error.messages)
        return [gettext(
            "The import failed because of an error on the server; nothing was written and the "
            "error has been logged. Try again, or tell the site's administrator."
        )]


def _drop_file(job: ImportJob) -> None:
    if job.file:
        job.file.delete(save=False)


@shared_task
def run_import_job(job_id: int) -> int:
    """Import the file of `ImportJob` `job_id` (`import_job_run`); return the id. Failures
    are recorded on the job row, which the status page shows; nothing is raised."""
    import_job_run(job_id)
    return job_id
