"""Celery tasks of the tournaments app: adapters that take ids and call one service."""

from celery import shared_task

from tournaments import print_services, rating_services


@shared_task
def build_print_job(job_id: int) -> int:
    """Build the PDF of `PrintJob` `job_id` (`print_services.print_job_build`); return the id.

    Failures are recorded on the job row, which the status page shows; nothing is raised.
    """
    print_services.print_job_build(job_id)
    return job_id


@shared_task
def recompute_ratings() -> int:
    """Recompute and store every player's rating from the record
    (`rating_services.player_ratings_recompute`); return the number of players rated.

    Started after the commit whenever an event's results are settled
    (`rating_services.ratings_recompute_on_commit`); may also run from a schedule. Safe to run
    twice at once (the second waits).
    """
    return rating_services.player_ratings_recompute()
