"""What the bench scripts share: a free port, the calibration loop, CPU time from /proc, a
manage.py in a child process, a throwaway PostgreSQL database, and what a night's phones were
told checked against the database. Not a script (`make bench` skips it).

Nothing here imports Django at import time, so a script can serve several databases one
after another from child processes.
"""

import json
import math
import os
import socket
import statistics
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


# What a night's clients were told, checked against the database (club_night.py).

STORED_MATCHES_SCRIPT = """
import json
from scoring.models import Match
from tableside.models import MatchTable
rows = {{}}
for match in Match.objects.filter(pk__in={ids}):
    numbers = list(match.deals.order_by("number").values_list("number", flat=True))
    table = MatchTable.objects.get(match_id=match.pk)
    rows[match.pk] = {{
        "stored": len(numbers), "distinct": len(set(numbers)),
        "contiguous": numbers == list(range(1, len(numbers) + 1)),
        "finished": match.status == Match.Status.FINISHED,
        "signed": [table.signed_a is not None, table.signed_b is not None],
    }}
print(json.dumps(rows))
"""
"""`manage.py shell` script (format `ids`: a list of match ids) printing, per match id, its
deals stored, their distinct numbers, whether the numbers run 1..n, whether it is finished and
which seats signed (a match entered by its players: `tableside.models.MatchTable`)."""


def stored_matches(env: dict, match_ids: list[int]) -> dict:
    """`STORED_MATCHES_SCRIPT`'s rows for `match_ids`, read with environment `env`: a dict
    keyed by the match id as a string."""
    script = STORED_MATCHES_SCRIPT.format(ids=list(match_ids))
    return json.loads(manage(env, "shell", "-v", "0", stdin=script).strip().splitlines()[-1])


def stored_problems(tables: list, stored: dict) -> tuple[int, list[str]]:
    """Deals lost or stored twice (a deal acknowledged and not stored, stored and not
    acknowledged, or a number stored twice), and every difference between what the phones were
    told and what the database holds. `tables`: objects with `match` (its id),
    `acknowledged` (deals the server answered "saved") and `signed` ({"A": bool, "B": bool});
    `stored`: `stored_matches`' rows. A match left unfinished is no problem here."""
    lost, problems = 0, []
    for table in tables:
        row = stored[str(table.match)]
        missing = abs(row["stored"] - table.acknowledged) + row["stored"] - row["distinct"]
        lost += missing
        if missing or not row["contiguous"]:
            problems.append(f"match {table.match}: {table.acknowledged} deals acknowledged, "
                            f"{row['stored']} stored ({row['distinct']} numbers)")
        if row["signed"] != [table.signed["A"], table.signed["B"]]:
            problems.append(f"match {table.match}: signatures {row['signed']} stored, "
                            f"{table.signed} acknowledged")
    return lost, problems


def percentiles(seconds: list[float]) -> dict:
    """p50 and p95 of `seconds`, in milliseconds (None when empty), and how many."""
    if not seconds:
        return {"p50_ms": None, "p95_ms": None, "count": 0}
    ordered = sorted(seconds)
    return {"p50_ms": round(statistics.median(ordered) * 1000, 1),
            "p95_ms": round(ordered[math.ceil(0.95 * len(ordered)) - 1] * 1000, 1),
            "count": len(ordered)}


def ratio(value: float | None, floor: float | None) -> float | None:
    """`value` as a multiple of `floor` (None when either is missing)."""
    return round(value / floor, 1) if value is not None and floor else None


def redis_database(url: str, db: int):
    """A redis-py client of database `db` of the Redis server at `url` (`redis://host:port`),
    for a bench to check that nobody uses it (`dbsize()`) and to empty it (`flushdb()`)."""
    import redis

    return redis.Redis.from_url(f"{url}/{db}")
