"""Print jobs: ask for a PDF, build it, keep the file (pretix `CachedFile` + `AsyncAction`).

`print_job_request` (`season_print_job_request` for a club season's PDF) runs in the web
request: in one transaction with the tournament (or season) row locked it reuses a finished file
whose data has not changed, or the job already waiting or running for the same key, or creates a
job and starts the task `build_print_job` once the transaction has committed (the worker must
see the row: pretix #267). `print_job_build` runs in the task (or eagerly in the web process
when no broker is configured) and records progress on the row the status page polls. The PDFs
themselves come from `printing.kinds`.

The task lives here, beside the service it calls; `printing/tasks.py` imports it so that
Celery's autodiscovery (`config/celery.py`) registers it.
"""

import datetime
import functools
import logging
from collections.abc import Callable

from celery import shared_task
from django.conf import settings
from django.core.files.base import ContentFile
from django.db import transaction
from django.utils import timezone

from club.models import Season
from core.messages import failure_message
from events.models import Tournament
from events.services import tournament_lock
from printing import kinds
from printing.errors import PrintError
from printing.models import PrintJob

logger = logging.getLogger(__name__)

STALE_AFTER = datetime.timedelta(minutes=10)
"""A job still waiting or running after this long is taken for lost (a worker died, the broker
dropped it) and marked failed, so a new request can build again instead of waiting forever."""




def check_request(
    tournament: Tournament, kind: str, round_number: int | None, language: str
) -> None:
    """Raise `PrintError` unless this PDF can be printed for `tournament`."""
    spec = kinds.KINDS.get(kind)
    if spec is None:
        raise PrintError("unknown_kind", kind=kind, kinds=", ".join(kinds.KINDS))
    if language not in dict(settings.LANGUAGES):
        codes = ", ".join(code for code, _ in settings.LANGUAGES)
        raise PrintError("unknown_language", language=language, languages=codes)
    if kind == PrintJob.Kind.BRACKET and not (
        tournament.event_format.has_bracket and tournament.has_started
        and tournament.rounds.filter(pairings__bracket_index__isnull=False).exists()
    ):
        raise PrintError("no_bracket")
    if kind == PrintJob.Kind.GROUP_SHEETS and not (
        tournament.event_format.has_groups and tournament.has_started
    ):
        raise PrintError("no_group_stage")
    if kind == PrintJob.Kind.CROSSTABLE and not tournament.event_format.berger_cycles:
        raise PrintError("no_cross_table")
    if spec.needs_round:
        if round_number is None:
            raise PrintError("round_missing")
        if not tournament.rounds.filter(number=round_number).exists():
            raise PrintError("no_such_round", round=round_number)
        if not tournament.rounds.filter(
            number=round_number, pairings__match__isnull=False
        ).exists():
            raise PrintError("round_without_matches", round=round_number)


def print_job_key(
    *, tournament: Tournament, kind: str, round_number: int | None, language: str, filled: bool
) -> dict:
    """The fields that say which PDF a job is: what the unique constraint counts as one."""
    spec = kinds.KINDS[kind]
    return {
        "tournament": tournament,
        "kind": kind,
        "round_number": round_number if spec.needs_round else None,
        "language": language,
        "filled": bool(filled) and spec.takes_filled,
    }


@transaction.atomic
def print_job_request(
    *, tournament: Tournament, kind: str, round_number: int | None = None, language: str,
    filled: bool = False,
) -> PrintJob:
    """The job for this PDF: a finished one if its data has not changed since, the one already
    waiting or running, or a new one whose build starts after commit.

    Raises `PrintError` (`unknown_kind`, `unknown_language`, `round_missing`, `no_such_round`,
    `round_without_matches`, `no_bracket`, `no_cross_table`); nothing is written then.
    """
    tournament = tournament_lock(tournament)
    check_request(tournament, kind, round_number, language)
    key = print_job_key(
        tournament=tournament, kind=kind, round_number=round_number, language=language,
        filled=filled,
    )
    spec = kinds.KINDS[kind]

    def version() -> str:
        round_ = tournament.rounds.get(number=key["round_number"]) if spec.needs_round else None
        return spec.version(tournament, round_, key["filled"])

    return _job_for(key, version)


def check_season_request(kind: str, language: str) -> None:
    """Raise `PrintError` unless a club season prints this kind in this language."""
    if kind not in kinds.SEASON_KINDS:
        raise PrintError("unknown_kind", kind=kind, kinds=", ".join(kinds.SEASON_KINDS))
    if language not in dict(settings.LANGUAGES):
        codes = ", ".join(code for code, _ in settings.LANGUAGES)
        raise PrintError("unknown_language", language=language, languages=codes)


@transaction.atomic
def season_print_job_request(*, season: Season, kind: str, language: str) -> PrintJob:
    """The job for a club season's PDF (`kinds.SEASON_KINDS`: its cross-table), found or
    started as `print_job_request` does, with the season's row locked. The PDF holds what the
    season's page shows everyone (the club's public events), so one file serves every reader.

    Raises `PrintError` (`unknown_kind`, `unknown_language`); nothing is written then.
    """
    season = Season.objects.select_for_update().select_related("club").get(pk=season.pk)
    check_season_request(kind, language)
    key = {"season": season, "kind": kind, "round_number": None, "language": language,
           "filled": False}
    return _job_for(key, lambda: kinds.SEASON_KINDS[kind].version(season))


def _job_for(key: dict, version: Callable[[], str]) -> PrintJob:
    """The job of `key` (a locked owner's): the one waiting or running (one lost for longer
    than `STALE_AFTER` is marked failed), else a finished one of the current `version()`
    whose file is still there, else a new one whose build starts after commit."""
    jobs = PrintJob.objects.filter(**key)
    active = jobs.filter(status__in=PrintJob.ACTIVE).first()
    if active and timezone.now() - active.created_at > STALE_AFTER:
        active.status, active.error = PrintJob.Status.FAILED, "Timed out: no worker built it."
        active.finished_at = timezone.now()
        active.save(update_fields=["status", "error", "finished_at"])
        active = None
    if active:
        return active
    current = version()
    done = jobs.filter(status=PrintJob.Status.DONE, data_version=current).order_by(
        "-finished_at"
    ).first()
    if done and done.file and done.file.storage.exists(done.file.name):
        return done
    job = PrintJob.objects.create(**key, data_version=current)
    transaction.on_commit(functools.partial(_start, job.pk))
    return job


def _start(job_id: int) -> None:
    """Send the build to the worker (or run it now, eagerly). If the queue cannot be reached,
    the job says so instead of waiting forever and the request still succeeds."""
    try:
        build_print_job.delay(job_id)
    except Exception as error:
        logger.exception("Could not start print job %s", job_id)
        PrintJob.objects.filter(pk=job_id, status=PrintJob.Status.QUEUED).update(
            status=PrintJob.Status.FAILED, error=f"Could not start the build: {error}",
            finished_at=timezone.now(),
        )


def _set_progress(job: PrintJob, progress: int) -> None:
    job.progress = max(0, min(100, progress))
    PrintJob.objects.filter(pk=job.pk).update(progress=job.progress)


def print_job_build(job_id: int) -> PrintJob | None:
    """Build the PDF of job `job_id` and save it under MEDIA_ROOT/print/; the job row says how
    it went. A failure is recorded on the row (status `failed`, the error) and not raised: the
    status page shows it. Returns the job, or None when it no longer exists or is not waiting.
    """
    claimed = PrintJob.objects.filter(pk=job_id, status=PrintJob.Status.QUEUED).update(
        status=PrintJob.Status.RUNNING, progress=1
    )
    if not claimed:  # deleted, or already taken by another worker (acks_late redelivery)
        return None
    job = PrintJob.objects.select_related("tournament", "season__club").get(pk=job_id)
    def progress(percent: int) -> None:
        _set_progress(job, min(percent, 99))

    try:
        if job.season_id:
            pdf, version = kinds.season_build(
                season=job.season, kind=job.kind, language=job.language, progress=progress
            )
            name = f"s{job.season_id}-{job.pk}-{kinds.season_filename(job.kind, job.language)}"
        else:
            pdf, version = kinds.build(
                tournament=job.tournament, kind=job.kind, round_number=job.round_number,
                language=job.language, filled=job.filled, progress=progress,
            )
            name = kinds.filename(job.kind, job.round_number, job.filled, job.language)
            name = f"{job.tournament_id}-{job.pk}-{name}"
        job.file.save(name, ContentFile(pdf), save=False)
        job.status, job.progress, job.data_version = PrintJob.Status.DONE, 100, version
        job.error = ""
    except Exception as error:  # any failure must reach the status page, not vanish
        logger.exception("Print job %s failed", job_id)
        job.status, job.error = PrintJob.Status.FAILED, failure_message(error, job.language)
    job.finished_at = timezone.now()
    job.save(update_fields=["file", "status", "progress", "data_version", "error", "finished_at"])
    if job.status == PrintJob.Status.DONE:
        _forget_older(job)
    return job


def _forget_older(job: PrintJob) -> None:
    """Delete the finished jobs (and files) of the same key older than `job`: each new deal can
    mean a new build, and only the newest file is ever offered."""
    older = PrintJob.objects.filter(
        tournament_id=job.tournament_id, season_id=job.season_id, kind=job.kind,
        round_number=job.round_number, language=job.language, filled=job.filled,
        status__in=[PrintJob.Status.DONE, PrintJob.Status.FAILED], pk__lt=job.pk,
    )
    for old in older:
        if old.file:
            old.file.delete(save=False)
        old.delete()


@shared_task
def build_print_job(job_id: int) -> int:
    """Build the PDF of `PrintJob` `job_id` (`print_job_build`); return the id.

    Failures are recorded on the job row, which the status page shows; nothing is raised.
    """
    print_job_build(job_id)
    return job_id
