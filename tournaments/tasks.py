"""Celery tasks of the tournaments app: adapters that take ids and call one service."""

from celery import shared_task

from tournaments import print_services


@shared_task
def build_print_job(job_id: int) -> int:
    """Build the PDF of `PrintJob` `job_id` (`print_services.print_job_build`); return the id.

    Failures are recorded on the job row, which the status page shows; nothing is raised.
    """
    print_services.print_job_build(job_id)
    return job_id
