"""Celery tasks of this app: the worker's heartbeat."""

import socket

from celery import shared_task

from server.models import Heartbeat


@shared_task
def record_heartbeat(note: str = "") -> int:
    """Write one `Heartbeat` row from whichever process runs the task; return its id.

    Run eagerly (no broker) it is written by the web process; with a broker, by the worker,
    whose hostname it records.
    """
    return Heartbeat.objects.create(hostname=socket.gethostname(), note=note[:200]).pk
