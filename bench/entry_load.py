"""Club-night load: 32 tables enter whole matches deal by deal through the real HTTP forms.

Starts the site under gunicorn (4 workers) on 127.0.0.1 against SQLite, then against
PostgreSQL (a fresh database `santase_bench` when a server answers on 127.0.0.1:5432), and has
32 concurrent clients (one per table of a 64-player round robin's first round) log in and enter
deals until their match ends, with no pause between deals (a stress far beyond a real evening,
where a table enters a deal every few minutes). Every loop is bounded in count and time;
traffic goes to 127.0.0.1 only. Then the database is checked: every deal acknowledged to a
client is stored once, no match has a gap or a duplicate deal number or ends past its target.

Clients open the deal page once, then enter each deal the way the page does, posting the
fields of the form they last got (with the fingerprint of the deal list it was drawn with):
- `htmx` (default): with JavaScript, one POST answered by the score, the next form and the
  new row (the whole panel for deal 1 and the deal that ends the match);
- `form`: without JavaScript, the POST, its 302 and the GET of the match page it leads to.
The latency of a deal is the time until the client has the updated page: one request for
htmx, both for a form. Also printed: the CPU time per deal of the gunicorn workers, of
PostgreSQL and of this client, and a fixed pure-Python loop timed before each run, because this
machine's speed varies from run to run. Under this closed loop every client waits for its
answer, so latency ~ clients x CPU per deal / cores.

    .venv/bin/python bench/entry_load.py [--clients 32] [--workers 4]
                                         [--only sqlite|postgres] [--mode htmx|form|both]

Target (issue 8): zero lost or duplicated deals, zero 5xx, p95 under 250 ms on both databases.
"""

import argparse
import http.cookiejar
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.common import (  # noqa: E402
    PYTHON,
    calibration_ms,
    free_port,
    manage,
    postgres_database_create,
    postgres_server,
)

PASSWORD = "bench-organiser-pass-66"
MAX_DEALS_PER_MATCH = 40
TIME_LIMIT_SECONDS = 300
SHOWN = re.compile(r'name="shown" value="([0-9a-f]+)"')  # the deal list the form was drawn with
MATCH_WON = re.compile(r"already won|вече е спечелен")  # the note shown once a match is won

SETUP_SCRIPT = """
import random
from django.contrib.auth import get_user_model
from club.models import Player
from tournaments import services
from tournaments.models import Tournament
organiser = get_user_model().objects.create_user("bench", password="{password}")
tournament = Tournament.objects.create(name="Bench", date="2026-12-01", format="round_robin")
tournament.organisers.add(organiser)
for n in range(1, 2 * {clients} + 1):
    services.entry_add(tournament=tournament, player=Player.objects.create(name=f"Играч {{n}}"))
services.tournament_start(tournament=tournament, rng=random.Random(66))
first = tournament.rounds.get(number=1)
print(",".join(str(p.match_id) for p in first.pairings.exclude(match=None).order_by("table")))
"""

CHECK_SCRIPT = """
from scoring.models import Match
for match in Match.objects.filter(pk__in=[{ids}]).order_by("pk"):
    numbers = list(match.deals.order_by("number").values_list("number", flat=True))
    print(match.pk, len(numbers), int(numbers == list(range(1, len(numbers) + 1))),
          match.game_points_a, match.game_points_b, match.status, match.house_rules().game_target)
"""


def cpu_seconds() -> dict[str, float]:
    """CPU time (user + system) so far of the gunicorn and PostgreSQL processes, from /proc."""
    tick = os.sysconf("SC_CLK_TCK")
    totals = {"gunicorn": 0.0, "postgres": 0.0}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
            command = Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        for name in totals:
            if name in command:
                totals[name] += (int(fields[11]) + int(fields[12])) / tick
    return totals


class Table(threading.Thread):
    """One client: logs in, then enters deals for one match until it ends."""

    def __init__(self, base: str, match_id: int, seed: int, deadline: float,
                 ready: threading.Barrier, go: threading.Event, mode: str):
        super().__init__(daemon=True)
        self.base, self.match_id, self.deadline, self.ready = base, match_id, deadline, ready
        self.go, self.mode = go, mode
        self.rng = random.Random(seed)
        jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(jar), NoRedirect()
        )
        self.jar = jar
        self.latencies: list[float] = []
        self.acknowledged = 0
        self.errors: list[str] = []
        self.server_errors = 0
        self.new_row_answers = 0  # htmx answers carrying only the score, form and new row

    def csrf(self) -> str:
        return next(c.value for c in self.jar if c.name == "csrftoken")

    def request(self, path: str, data: dict | None = None,
                htmx: bool = False) -> tuple[int, str]:
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        request = urllib.request.Request(self.base + path, data=body)
        if data is not None:
            request.add_header("Referer", self.base + path)
        if htmx:
            request.add_header("HX-Request", "true")
        try:
            with self.opener.open(request, timeout=30) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode(errors="replace")

    def run(self) -> None:
        try:
            self.request("/accounts/login/")
            status, _ = self.request("/accounts/login/", {
                "csrfmiddlewaretoken": self.csrf(), "username": "bench", "password": PASSWORD,
            })
            if status != 302:
                self.errors.append(f"login answered {status}")
                self.ready.abort()
                return
            status, page = self.request(f"/m/{self.match_id}/")  # the deal page, as a phone has it
            form = SHOWN.search(page)
            if status != 200 or form is None:
                self.errors.append(f"match page answered {status} without a deal form")
                self.ready.abort()
                return
            shown = form.group(1)
            self.ready.wait(timeout=TIME_LIMIT_SECONDS)  # logged in
            self.go.wait(timeout=TIME_LIMIT_SECONDS)  # all tables start entering together
            for number in range(1, MAX_DEALS_PER_MATCH + 1):
                if time.monotonic() > self.deadline:
                    self.errors.append("time limit reached")
                    return
                winner = self.rng.choice("AB")
                started = time.perf_counter()
                status, body = self.request(f"/m/{self.match_id}/deal/", {
                    "csrfmiddlewaretoken": self.csrf(), "winner": winner, "reason": "won",
                    "game_points": "1", "number": str(number), "shown": shown,
                }, htmx=self.mode == "htmx")
                saved = status == 200 if self.mode == "htmx" else status == 302
                if saved:
                    self.acknowledged += 1  # the server said it is stored
                    if self.mode == "form":
                        status, body = self.request(f"/m/{self.match_id}/")  # where the 302 leads
                self.latencies.append(time.perf_counter() - started)
                if status >= 500:
                    self.server_errors += 1
                    self.errors.append(f"deal {number}: {status}")
                    return
                if saved and status == 200:
                    form = SHOWN.search(body)  # the form the answer brought
                    if form is None:
                        return  # no form for another deal: the match is won, the table stops
                    shown = form.group(1)
                    self.new_row_answers += body.lstrip().startswith('<div id="match-head"')
                    continue
                if status == 409 and MATCH_WON.search(body):
                    self.latencies.pop()  # the match had ended: not a deal
                    return
                self.errors.append(f"deal {number}: {status}")
                return
        except (OSError, threading.BrokenBarrierError) as error:
            self.errors.append(f"connection: {error!r}")


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def run(label: str, database_url: str, clients: int, workers: int, mode: str) -> bool:
    env = dict(os.environ, DATABASE_URL=database_url, DEBUG="false", HTTPS="false",
               SECRET_KEY="bench-" + "k" * 50, ALLOWED_HOSTS="127.0.0.1",
               AXES_FAILURE_LIMIT="1000", LOG_LEVEL="ERROR")
    env.pop("CELERY_BROKER_URL", None)
    manage(env, "migrate", "--noinput", "-v", "0")
    manage(env, "collectstatic", "--noinput", "-v", "0")
    setup = SETUP_SCRIPT.format(password=PASSWORD, clients=clients)
    ids = manage(env, "shell", "-v", "0", stdin=setup)
    match_ids = [int(x) for x in ids.strip().splitlines()[-1].split(",")]
    port = free_port()
    server = subprocess.Popen(
        [str(Path(PYTHON).parent / "gunicorn"), "club.wsgi", "-w", str(workers),
         "-b", f"127.0.0.1:{port}", "--log-level", "warning"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(100):
            try:
                urllib.request.urlopen(base + "/accounts/login/", timeout=2).close()
                break
            except OSError:
                time.sleep(0.2)
        deadline = time.monotonic() + TIME_LIMIT_SECONDS
        ready, go = threading.Barrier(len(match_ids) + 1), threading.Event()
        tables = [Table(base, match_id, seed, deadline, ready, go, mode)
                  for seed, match_id in enumerate(match_ids)]
        calibration = calibration_ms()  # before any load
        for table in tables:
            table.start()
        ready.wait(timeout=TIME_LIMIT_SECONDS)  # all logged in: logins are not timed or counted
        cpu_before, client_before = cpu_seconds(), time.process_time()
        started = time.perf_counter()
        go.set()
        for table in tables:
            table.join(TIME_LIMIT_SECONDS + 30)
        elapsed = time.perf_counter() - started
        cpu_after, client_after = cpu_seconds(), time.process_time()
    finally:
        server.terminate()
        server.wait(timeout=30)
    latencies = sorted(x for table in tables for x in table.latencies)
    requests = len(latencies)
    cpu = {name: (cpu_after[name] - cpu_before[name]) * 1000 / requests for name in cpu_after}
    cpu["client"] = (client_after - client_before) * 1000 / requests
    p50 = statistics.median(latencies) * 1000
    p95 = latencies[int(0.95 * (requests - 1))] * 1000
    server_errors = sum(t.server_errors for t in tables)
    client_errors = [f"match {t.match_id}: {e}" for t in tables for e in t.errors]
    check = CHECK_SCRIPT.format(ids=",".join(map(str, match_ids)))
    rows = manage(env, "shell", "-v", "0", stdin=check)
    acknowledged = {t.match_id: t.acknowledged for t in tables}
    problems = []
    for line in rows.strip().splitlines():
        match_id, stored, contiguous, game_points_a, game_points_b, status, target = line.split()
        stored, points = int(stored), max(int(game_points_a), int(game_points_b))
        if stored != acknowledged[int(match_id)]:
            problems.append(f"match {match_id}: {acknowledged[int(match_id)]} acknowledged, "
                            f"{stored} stored")
        if contiguous != "1":
            problems.append(f"match {match_id}: gap or duplicate in deal numbers")
        if points > int(target) or (points == int(target)) != (status == "finished"):
            problems.append(f"match {match_id}: {game_points_a}:{game_points_b} {status}")
    print(f"== {label}, {mode}: {clients} clients, gunicorn {workers} workers "
          f"(calibration loop {calibration:.0f} ms)")
    new_rows = sum(t.new_row_answers for t in tables)
    print(f"deals {requests} in {elapsed:.1f} s = {requests / elapsed:.0f} deals/s"
          + (f" ({new_rows} answered with only the new row)" if mode == "htmx" else ""))
    print(f"latency per deal p50 {p50:.0f} ms, p95 {p95:.0f} ms; 5xx: {server_errors}; "
          f"client errors: {len(client_errors)}")
    database_cpu = f", PostgreSQL {cpu['postgres']:.1f}" if "PostgreSQL" in label else ""
    print(f"CPU per deal: gunicorn {cpu['gunicorn']:.1f} ms{database_cpu}, "
          f"client {cpu['client']:.1f} ms")
    print(f"acknowledged deals {sum(acknowledged.values())}; database problems: {len(problems)}")
    for line in (client_errors + problems)[:10]:
        print("  ", line)
    met = not problems and not server_errors and not client_errors and p95 < 250
    print(f"target (no lost or duplicated deals, no 5xx, p95 < 250 ms): "
          f"{'met' if met else 'NOT met'}")
    return met


def postgres_url() -> str | None:
    """A fresh database `santase_bench` on the PostgreSQL server, or None without one."""
    server = postgres_server()
    return postgres_database_create(server, "santase_bench") if server else None


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--only", choices=["sqlite", "postgres"])
    parser.add_argument("--mode", choices=["htmx", "form", "both"], default="htmx")
    args = parser.parse_args()
    modes = ["htmx", "form"] if args.mode == "both" else [args.mode]
    for mode in modes:
        if args.only != "postgres":
            path = Path(tempfile.mkdtemp()) / "bench.sqlite3"
            run("SQLite", f"sqlite:///{path}", args.clients, args.workers, mode)
        if args.only != "sqlite":
            url = postgres_url()
            if url:
                run("PostgreSQL", url, args.clients, args.workers, mode)
            else:
                print("== PostgreSQL: no server on 127.0.0.1:5432, skipped")


if __name__ == "__main__":
    main()
