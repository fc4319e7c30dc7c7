"""What the bench scripts share: a free port, the calibration loop, CPU time from /proc, a
manage.py in a child process, a throwaway PostgreSQL database, and the site with a bare
"hello" view (the floor a request costs) and a minimal deal write (`floor_deal`, the floor a
deal post costs) for gunicorn. Not a script (`make bench` skips it).

Nothing here imports Django at import time, so a script can serve several databases one
after another from child processes.
"""

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
POSTGRES_SERVER = "postgres://postgres@127.0.0.1:5432"
"""Where a throwaway PostgreSQL database is made when DATABASE_URL names no server."""


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def calibration_ms() -> float:
    """A fixed pure-Python loop, timed in milliseconds: how fast this machine is right now
    (a small virtual machine's speed changes from run to run)."""
    started = time.perf_counter()
    sum(i * i for i in range(2_000_000))
    return (time.perf_counter() - started) * 1000


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of process `pid` so far, in seconds (0 once it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children(pid: int) -> list[int]:
    """The ids of the processes `pid` started and that still run (gunicorn's workers)."""
    try:
        return [int(child) for child in
                Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def gunicorn_workers(master: int, count: int = 1) -> list[int]:
    """The ids of gunicorn `master`'s workers once `count` of them run (waits up to 10 s)."""
    for _ in range(200):
        workers = children(master)
        if len(workers) >= count:
            return workers
        time.sleep(0.05)
    raise RuntimeError(f"gunicorn started {len(children(master))} of {count} workers")


def manage(env: dict, *args: str, stdin: str | None = None) -> str:
    """Run `manage.py *args` with environment `env` (stdin: a script for `shell`); its
    standard output. Exits the bench with the error output when it fails."""
    result = subprocess.run(
        [PYTHON, "manage.py", *args], cwd=ROOT, env=env, input=stdin,
        capture_output=True, text=True, timeout=600,
    )
    if result.returncode != 0:
        raise SystemExit(f"manage.py {' '.join(args)} failed:\n{result.stderr[-3000:]}")
    return result.stdout


def postgres_server() -> str | None:
    """The PostgreSQL server to make throwaway databases on: DATABASE_URL's when it names one
    (without its database name), else 127.0.0.1:5432 as user postgres; None when none answers."""
    url = os.environ.get("DATABASE_URL", "")
    server = url.rsplit("/", 1)[0] if url.startswith(("postgres://", "postgresql://")) else (
        POSTGRES_SERVER)
    try:
        psql(server, "SELECT 1")
    except (OSError, subprocess.SubprocessError):
        return None
    return server


def psql(server: str, sql: str) -> str:
    """Run `sql` on `server`'s maintenance database `postgres` (outside any bench database);
    the rows, tab-separated. Raises `subprocess.CalledProcessError` when it fails."""
    result = subprocess.run(
        ["psql", "-qAtX", "-F", "\t", "-d", f"{server}/postgres", "-c", sql],
        check=True, capture_output=True, text=True, timeout=60,
    )
    return result.stdout


def postgres_database_create(server: str, name: str) -> str:
    """Make database `name` on `server` afresh (dropped first if it exists); its URL."""
    postgres_database_drop(server, name)
    psql(server, f'CREATE DATABASE "{name}"')
    return f"{server}/{name}"


def postgres_database_drop(server: str, name: str) -> None:
    """Drop database `name` on `server`, closing its connections, if it exists."""
    psql(server, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def postgres_backends(server: str, name: str) -> list[int]:
    """The process ids of the PostgreSQL backends connected to database `name`."""
    rows = psql(server, f"SELECT pid FROM pg_stat_activity WHERE datname = '{name}'")
    return [int(pid) for pid in rows.split()]


def server_cpu(master: int, server: str | None = None, name: str = "") -> dict[str, float]:
    """CPU seconds so far of one site: gunicorn `master` and its workers (`"gunicorn"`), and
    each PostgreSQL backend connected to database `name` on `server`, by process id (none
    without a server). Other processes of the same names (another bench on this machine) are
    not counted. `server_cpu_spent` turns two readings into the seconds between them."""
    reading = {"gunicorn": cpu_seconds(master) + sum(map(cpu_seconds, children(master)))}
    if server:
        reading.update({f"postgres {pid}": cpu_seconds(pid)
                        for pid in postgres_backends(server, name)})
    return reading


def server_cpu_spent(before: dict[str, float], after: dict[str, float]) -> dict[str, float]:
    """Seconds of CPU between two `server_cpu` readings: `gunicorn` and `postgres` (the
    backends of the later reading; one that started in between counts from zero)."""
    postgres = sum(seconds - before.get(key, 0.0)
                   for key, seconds in after.items() if key.startswith("postgres "))
    return {"gunicorn": after["gunicorn"] - before["gunicorn"], "postgres": postgres}


# The site with /hello/ and /bench/floor/<match>/ added, for gunicorn
# (`bench.common:application`): the bare view is the floor of a request (gunicorn, the
# middleware and the request itself), the floor view that of a deal post's writes.
urlpatterns: list = []
_handler: list = []


def hello(request):
    from django.http import HttpResponse

    return HttpResponse("hello")


def floor_deal(request, match_pk: int):
    """The least a deal post must write, through the site's middleware (a POST with its
    CSRF token, as the deal form sends it): in one transaction, the match row locked
    (`select_for_update`), one deal inserted with its one history row (django-simple-history,
    no user: the session and the user are not read), the match's score updated. Nothing is
    checked or read but the locked row; every floor deal scores 1 game point to the seat
    `winner` ("A"/"B") names, so the deal number is the game points so far + 1. The answer is
    the bare word "saved". Bench-only: the site has no such URL (`entry_load.py`'s floor)."""
    from django.db import transaction
    from django.http import HttpResponse, HttpResponseNotAllowed

    from scoring.models import Deal, Match

    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    winner = "B" if request.POST.get("winner") == "B" else "A"
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match_pk)
        deal = Deal(match=match, number=match.game_points_a + match.game_points_b + 1,
                    winner=winner, game_points=1, reason="won")
        deal._history_user = None  # the history row without reading the user
        deal.save()
        Match.objects.filter(pk=match_pk).update(
            status=Match.Status.PLAYING,
            game_points_a=match.game_points_a + (winner == "A"),
            game_points_b=match.game_points_b + (winner == "B"),
        )
    return HttpResponse("saved")


def application(environ, start_response):
    """The site's WSGI application (`club.wsgi`) with /hello/ and the floor view
    (`floor_deal`, at /bench/floor/<match id>/) in front of its URLs."""
    if not _handler:
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "club.settings")
        from django.conf import settings
        from django.core.wsgi import get_wsgi_application
        from django.urls import include, path

        site = get_wsgi_application()
        urlpatterns[:] = [
            path("hello/", hello),
            path("bench/floor/<int:match_pk>/", floor_deal),
            path("", include(settings.ROOT_URLCONF)),
        ]
        settings.ROOT_URLCONF = __name__
        _handler.append(site)
    return _handler[0](environ, start_response)
