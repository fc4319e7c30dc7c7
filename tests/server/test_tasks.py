"""Celery wiring: eagerly in process, and through Redis to a real worker."""

import time

import pytest
from django.core.management import call_command

from server.models import Heartbeat
from server.tasks import record_heartbeat
from tests.workers import (
    redis_worker_fixture,  # noqa: F401  (the `redis_worker` fixture)
    sending_tasks_to,
)


@pytest.mark.django_db
def test_eager_task_writes_a_heartbeat():
    result = record_heartbeat.delay("eager")
    beat = Heartbeat.objects.get(pk=result.get())
    assert beat.note == "eager"


@pytest.mark.django_db
def test_ping_worker_command_succeeds_eagerly(capsys):
    call_command("ping_worker", timeout=2)
    assert "Heartbeat written by" in capsys.readouterr().out


@pytest.mark.redis_worker
@pytest.mark.django_db(transaction=True)
def test_real_worker_writes_a_heartbeat_through_redis(redis_worker):
    broker, worker = redis_worker
    with sending_tasks_to(broker):
        record_heartbeat.delay("through-redis")
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        beat = Heartbeat.objects.filter(note="through-redis").first()
        if beat:
            break
        assert worker.poll() is None, worker.stdout.read().decode()
        time.sleep(0.2)
    else:
        pytest.fail("the worker wrote no heartbeat within 30 s")
    assert beat.hostname
