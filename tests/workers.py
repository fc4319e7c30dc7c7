"""A real Celery worker on Redis for the tests marked `redis_worker`.

Import the fixture into a test module (`from tests.workers import redis_worker_fixture`; the
fixture's name is `redis_worker`, so the argument does not shadow the import) and send tasks
with `sending_tasks_to(broker)`: the tests themselves run Celery eagerly (no broker configured).
The worker reads the test database (DATABASE_URL) and writes files under the test's MEDIA_ROOT,
so a test that checks files sets `settings.MEDIA_ROOT` before this fixture starts (an autouse
fixture does).
"""

import contextlib
import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from config.celery import app
from tests.services import REDIS_HOST, REDIS_PORT, require_redis

ROOT = Path(__file__).resolve().parents[1]
BROKER_DB = 15
QUEUE = f"tests-{os.getpid()}-{uuid.uuid4().hex[:8]}"
"""This test process's own queue, the only one its worker reads: `sending_tasks_to` routes
there, and so does the worker for the tasks its own tasks send (an import's ratings), so two test
runs on one Redis never take each other's tasks (and run them against the wrong database)."""
WORKER = ("import sys; from config.celery import app; "
          "app.conf.task_default_queue = sys.argv[1]; app.worker_main(sys.argv[2:])")
"""`celery -A config worker ARGS` whose default queue is the one in its first argument."""


def database_url_of_test_database() -> str:
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{db['NAME']}"
    return f"postgres://{db['USER'] or ''}@{db['HOST']}:{db['PORT'] or 5432}/{db['NAME']}"


@pytest.fixture(name="redis_worker")
def redis_worker_fixture():
    """A real `celery worker` process on Redis database 15, reading the test database and
    writing under the test's MEDIA_ROOT. Yields (broker URL, process)."""
    require_redis()
    broker = f"redis://{REDIS_HOST}:{REDIS_PORT}/{BROKER_DB}"
    env = dict(
        os.environ, CELERY_BROKER_URL=broker, DATABASE_URL=database_url_of_test_database(),
        MEDIA_ROOT=str(settings.MEDIA_ROOT),
    )
    worker = subprocess.Popen(
        [sys.executable, "-c", WORKER, QUEUE, "worker", "--pool=solo",
         f"--queues={QUEUE}",
         "--loglevel=WARNING", "--without-gossip", "--without-mingle", "--without-heartbeat"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
    )
    try:
        yield broker, worker
    finally:
        worker.terminate()
        worker.wait(timeout=20)


def _forget_connections() -> None:
    app._pool = None
    app.amqp._producer_pool = None


@contextlib.contextmanager
def sending_tasks_to(broker: str):
    """Within the block, `task.delay()` (also from on-commit callbacks) goes to `broker`, on
    this run's queue, instead of running eagerly."""
    conf = app.conf
    saved = conf.task_always_eager, conf.broker_url, conf.task_default_queue
    conf.task_always_eager, conf.broker_url, conf.task_default_queue = False, broker, QUEUE
    _forget_connections()
    try:
        yield
    finally:
        conf.task_always_eager, conf.broker_url, conf.task_default_queue = saved
        _forget_connections()
