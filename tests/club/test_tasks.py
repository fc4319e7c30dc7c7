"""Celery wiring: eagerly in process, and through Redis to a real worker."""

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connection

from club.celery import app
from club.models import Heartbeat
from club.tasks import record_heartbeat
from tests.services import REDIS_HOST, REDIS_PORT, require_redis

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.django_db
def test_eager_task_writes_a_heartbeat():
    result = record_heartbeat.delay("eager")
    beat = Heartbeat.objects.get(pk=result.get())
    assert beat.note == "eager"


@pytest.mark.django_db
def test_ping_worker_command_succeeds_eagerly(capsys):
    call_command("ping_worker", timeout=2)
    assert "Heartbeat written by" in capsys.readouterr().out


def database_url_of_test_database() -> str:
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{db['NAME']}"
    return f"postgres://{db['USER'] or ''}@{db['HOST']}:{db['PORT'] or 5432}/{db['NAME']}"


@pytest.fixture
def redis_worker():
    """A real `celery worker` process on Redis database 15, reading the test database."""
    require_redis()
    broker = f"redis://{REDIS_HOST}:{REDIS_PORT}/15"
    env = dict(os.environ, CELERY_BROKER_URL=broker, DATABASE_URL=database_url_of_test_database())
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "club", "worker", "--pool=solo",
         "--loglevel=WARNING", "--without-gossip", "--without-mingle", "--without-heartbeat"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
    )
    try:
        yield broker, worker
    finally:
        worker.terminate()
        worker.wait(timeout=20)


@pytest.mark.redis_worker
@pytest.mark.django_db(transaction=True)
def test_real_worker_writes_a_heartbeat_through_redis(redis_worker):
    broker, worker = redis_worker
    app.conf.task_always_eager = False
    try:
        with app.connection_for_write(broker) as connection:
            record_heartbeat.apply_async(("through-redis",), connection=connection)
    finally:
        app.conf.task_always_eager = True
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
