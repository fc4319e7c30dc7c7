"""Club-night load: 32 tables enter whole matches deal by deal through the real HTTP forms,
beside a floor: the least a deal post must write, measured in the same run on the same server.

Starts the site under gunicorn (4 workers, `bench.common:application`: the site plus its
bench-only floor view) on 127.0.0.1 against SQLite (a temporary file), then against
PostgreSQL (a throwaway database on the server at 127.0.0.1:5432, dropped afterwards), and has
32 concurrent clients (one per table of a 64-player round robin's first round) log in, enter 3
untimed deals at their table of round 2 (every gunicorn worker then has the deal post's
templates and code loaded, as the first floor writes load theirs), and, in three timed phases:
1. post 10 minimal writes each to a match of their own (`bench.common.floor_deal`: one
   transaction, the match row locked, one deal and its one history row inserted, the score
   updated; through the same middleware, with the same form fields and CSRF token);
2. enter deals until their match ends, with no pause between deals (a stress far beyond a
   real evening, where a table enters a deal every few minutes);
3. post 10 floor writes each again (the floor is the mean of phases 1 and 3, so a machine
   that speeds up or slows down during the run moves both figures alike).
Every loop is bounded in count and time; traffic goes to 127.0.0.1 only. Then the database is
checked: every deal acknowledged to a client is stored once, no match has a gap or a duplicate
deal number or ends past its target.

Clients open the deal page once, then enter each deal the way the page does, posting the
fields of the form they last got (with the fingerprint of the deal list it was drawn with):
- `htmx` (default): with JavaScript, one POST answered by the score, the next form and the
  new row (the whole panel for deal 1 and the deal that ends the match);
- `form`: without JavaScript, the POST, its 302 and the GET of the match page it leads to.
The latency of a deal is the time until the client has the updated page: one request for
htmx, both for a form. CPU time is read from /proc for this server only: its gunicorn master
and workers, and the PostgreSQL backends of its own database (other benches on the machine
are not counted). Also printed: this client's CPU, the load average and a fixed pure-Python
loop timed before each run, because this machine's speed varies from run to run. Under this
closed loop every client waits for its answer, so latency ~ clients x CPU per deal / cores.

    .venv/bin/python bench/entry_load.py [--clients 32] [--workers 4]
                                         [--only sqlite|postgres] [--mode htmx|form|both]
                                         [--answer full|none]

`--answer none` (with `--mode htmx` only) serves `bench.common:answerless_application`: the
htmx answer to a deal saved is not drawn (only the deal list's fingerprint the next post needs
is sent back), so the run measures everything a deal post does before its answer: the least a
post of this design costs, whatever its answer is made of (docs/speed.md, "Session 13").

The last line is one JSON object. With one run (`--only` and one mode) it is that run's:
`database`, `mode`, `answer`, `clients`, `deals_per_s`, `p50_ms`, `p95_ms`, `cpu_ms_per_deal`
(server CPU: gunicorn + PostgreSQL), `floor_cpu_ms_per_deal`, `floor_deals_per_s` (the floor's own
rate: what the machine allows at all), `ratio_to_floor` (the two divided; also
`gunicorn_ratio_to_floor`), `lost` (acknowledged, not stored), `duplicated` (stored more often
than acknowledged, or a duplicate deal number), `met`, the calibration loop and the load
average. With several runs (both databases, or `--mode both`) it is
`{"runs": [one such object per run], "met": all met}`.
`--only sqlite --clients 16` takes under a minute on a quiet machine.

Targets (issue 18): a deal post costs at most 1.4x the floor's server CPU; at least 400 deals/s
on SQLite and 300 on PostgreSQL with 32 clients; p95 under 150 ms; none lost or duplicated, no
5xx (issue 8).
"""

import argparse
import http.cookiejar
import json
import os
import random
import re
import shutil
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
    postgres_database_drop,
    postgres_server,
    server_cpu,
    server_cpu_spent,
)

PASSWORD = "bench-organiser-pass-66"
MAX_DEALS_PER_MATCH = 40
TIME_LIMIT_SECONDS = 300
SHOWN = re.compile(r'name="shown" value="([0-9a-f]+)"')  # the deal list the form was drawn with
MATCH_WON = re.compile(r"already won|вече е спечелен")  # the note shown once a match is won
RATIO_TARGET = 1.4  # a deal post's server CPU over the floor's (issue 18)
P95_TARGET_MS = 150
THROUGHPUT_TARGETS = {"SQLite": 400, "PostgreSQL": 300}  # deals/s with 32 clients (issue 18)
APPLICATIONS = {"full": "bench.common:application", "none": "bench.common:answerless_application"}

SETUP_SCRIPT = """
import random
from django.contrib.auth import get_user_model
from club.models import Player
from scoring.models import Match
from tournaments import services
from tournaments.models import Tournament
organiser = get_user_model().objects.create_user("bench", password="{password}")
tournament = Tournament.objects.create(name="Bench", date="2026-12-01", format="round_robin")
tournament.organisers.add(organiser)
for n in range(1, 2 * {clients} + 1):
    services.entry_add(tournament=tournament, player=Player.objects.create(name=f"Играч {{n}}"))
services.tournament_start(tournament=tournament, rng=random.Random(66))
first = tournament.rounds.get(number=1)
matches = [p.match for p in first.pairings.exclude(match=None).order_by("table")]
floor = [Match.objects.create(player_a=m.player_a, player_b=m.player_b,
                              house_rules_snapshot=m.house_rules_snapshot) for m in matches]
warm = [p.match for p in tournament.rounds.get(number=2).pairings.exclude(match=None)]
print(",".join(str(m.pk) for m in matches))
print(",".join(str(m.pk) for m in floor))
print(",".join(str(m.pk) for m in warm))
"""

CHECK_SCRIPT = """
from scoring.models import Match
for match in Match.objects.filter(pk__in=[{ids}]).order_by("pk"):
    numbers = list(match.deals.order_by("number").values_list("number", flat=True))
    print(match.pk, len(numbers), int(numbers == list(range(1, len(numbers) + 1))),
          match.game_points_a, match.game_points_b, match.status, match.house_rules().game_target)
"""


FLOOR_POSTS = 10  # per client, before the deals and again after them
WARM_DEALS = 3  # untimed deals per client on a match of round 2, before anything is timed


class Table(threading.Thread):
    """One client: logs in, then posts FLOOR_POSTS minimal writes to its floor match, enters
    deals for its match until it ends, and posts FLOOR_POSTS floor writes again; between the
    phases it waits at `gate` (shared with the main thread, which reads the CPU clocks)."""

    def __init__(self, base: str, match_id: int, floor_id: int, warm_id: int, seed: int,
                 deadline: float, gate: threading.Barrier, mode: str):
        super().__init__(daemon=True)
        self.base, self.match_id, self.floor_id = base, match_id, floor_id
        self.warm_id = warm_id
        self.deadline, self.gate, self.mode = deadline, gate, mode
        self.rng = random.Random(seed)
        jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(jar), NoRedirect()
        )
        self.jar = jar
        self.latencies: list[float] = []
        self.floor_latencies: list[float] = []
        self.acknowledged = 0
        self.errors: list[str] = []
        self.server_errors = 0
        self.new_row_answers = 0  # htmx answers carrying only the score, form and new row
        self.shown = ""

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
            ok = self.log_in()
        except OSError as error:
            self.errors.append(f"connection: {error!r}")
            ok = False
        if not ok:
            self.gate.abort()
            return
        try:
            self.gate.wait(timeout=TIME_LIMIT_SECONDS)  # all logged in
            for phase in (self.floor, self.deals, self.floor):
                self.gate.wait(timeout=TIME_LIMIT_SECONDS)  # the clocks are read: go
                try:
                    phase()
                except OSError as error:
                    self.errors.append(f"connection: {error!r}")
                self.gate.wait(timeout=TIME_LIMIT_SECONDS)  # done: the clocks are read
        except threading.BrokenBarrierError as error:
            self.errors.append(f"another table failed: {error!r}")

    def log_in(self) -> bool:
        self.request("/accounts/login/")
        status, _ = self.request("/accounts/login/", {
            "csrfmiddlewaretoken": self.csrf(), "username": "bench", "password": PASSWORD,
        })
        if status != 302:
            self.errors.append(f"login answered {status}")
            return False
        status, page = self.request(f"/m/{self.match_id}/")  # the deal page, as a phone has it
        form = SHOWN.search(page)
        if status != 200 or form is None:
            self.errors.append(f"match page answered {status} without a deal form")
            return False
        self.shown = form.group(1)
        # Untimed warm-up on a match of round 2: the first deals of every worker load the
        # templates and code a deal post needs, as the first floor writes do theirs.
        status, page = self.request(f"/m/{self.warm_id}/")
        form = SHOWN.search(page)
        for number in range(1, WARM_DEALS + 1):
            if form is None:
                break
            status, page = self.request(f"/m/{self.warm_id}/deal/", {
                "csrfmiddlewaretoken": self.csrf(), "winner": "A", "reason": "won",
                "game_points": "1", "number": str(number), "shown": form.group(1),
            }, htmx=True)
            form = SHOWN.search(page)
        return True

    def floor(self) -> None:
        """FLOOR_POSTS writes of `bench.common.floor_deal`, posted as a deal form is."""
        for _ in range(FLOOR_POSTS):
            started = time.perf_counter()
            status, _ = self.request(f"/bench/floor/{self.floor_id}/", {
                "csrfmiddlewaretoken": self.csrf(), "winner": self.rng.choice("AB"),
                "reason": "won", "game_points": "1", "number": "1", "shown": self.shown,
            }, htmx=self.mode == "htmx")
            self.floor_latencies.append(time.perf_counter() - started)
            if status != 200:
                self.errors.append(f"floor write answered {status}")
                return

    def deals(self) -> None:
        shown = self.shown
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


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def run(label: str, database_url: str, clients: int, workers: int, mode: str,
        postgres: tuple[str, str] | None = None, answer: str = "full") -> dict:
    """One run on `database_url` (`postgres`: its server and database name, whose backends'
    CPU is counted): set-up, the three timed phases, the check of what was stored. `answer`
    "none" serves `bench.common:answerless_application` (the htmx answer not drawn). Prints the
    figures and returns them as the dict of the JSON line."""
    env = dict(os.environ, DATABASE_URL=database_url, DEBUG="false", HTTPS="false",
               SECRET_KEY="bench-" + "k" * 50, ALLOWED_HOSTS="127.0.0.1",
               AXES_FAILURE_LIMIT="1000", LOG_LEVEL="ERROR")
    env.pop("CELERY_BROKER_URL", None)
    manage(env, "migrate", "--noinput", "-v", "0")
    manage(env, "collectstatic", "--noinput", "-v", "0")
    setup = SETUP_SCRIPT.format(password=PASSWORD, clients=clients)
    lines = manage(env, "shell", "-v", "0", stdin=setup).strip().splitlines()
    match_ids, floor_ids, warm_ids = ([int(x) for x in line.split(",")] for line in lines[-3:])
    port = free_port()
    server = subprocess.Popen(
        [str(Path(PYTHON).parent / "gunicorn"), APPLICATIONS[answer], "-w", str(workers),
         "-b", f"127.0.0.1:{port}", "--log-level", "warning"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    clock = (lambda: server_cpu(server.pid, *postgres)) if postgres else (
        lambda: server_cpu(server.pid))
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(100):
            try:
                urllib.request.urlopen(base + "/hello/", timeout=2).close()
                break
            except OSError:
                time.sleep(0.2)
        deadline = time.monotonic() + TIME_LIMIT_SECONDS
        gate = threading.Barrier(len(match_ids) + 1)
        ids = zip(match_ids, floor_ids, warm_ids[:len(match_ids)], strict=True)
        tables = [Table(base, match_id, floor_id, warm_id, seed, deadline, gate, mode)
                  for seed, (match_id, floor_id, warm_id) in enumerate(ids)]
        calibration = calibration_ms()  # before any load
        for table in tables:
            table.start()
        spent, elapsed = [], []
        try:
            gate.wait(timeout=TIME_LIMIT_SECONDS)  # all logged in: logins are not timed
            for _phase in ("floor", "deals", "floor"):
                before, client_before = clock(), time.process_time()
                started = time.perf_counter()
                gate.wait(timeout=TIME_LIMIT_SECONDS)
                gate.wait(timeout=TIME_LIMIT_SECONDS + 30)
                elapsed.append(time.perf_counter() - started)
                spent.append({**server_cpu_spent(before, clock()),
                              "client": time.process_time() - client_before})
        except threading.BrokenBarrierError:
            errors = [f"match {t.match_id}: {e}" for t in tables for e in t.errors]
            raise SystemExit(f"{label}: a table failed: {errors[:5]}") from None
        for table in tables:
            table.join(30)
    finally:
        server.terminate()
        server.wait(timeout=30)
    load = os.getloadavg()[0]
    latencies = sorted(x for table in tables for x in table.latencies)
    floor_latencies = sorted(x for table in tables for x in table.floor_latencies)
    requests, floor_requests = len(latencies), len(floor_latencies)
    cpu = {name: seconds * 1000 / requests for name, seconds in spent[1].items()}
    floor_cpu = {name: (spent[0][name] + spent[2][name]) * 1000 / floor_requests
                 for name in spent[0]}
    p50 = statistics.median(latencies) * 1000
    p95 = latencies[int(0.95 * (requests - 1))] * 1000
    floor_p95 = floor_latencies[int(0.95 * (floor_requests - 1))] * 1000
    server_errors = sum(t.server_errors for t in tables)
    client_errors = [f"match {t.match_id}: {e}" for t in tables for e in t.errors]
    check = CHECK_SCRIPT.format(ids=",".join(map(str, match_ids)))
    rows = manage(env, "shell", "-v", "0", stdin=check)
    acknowledged = {t.match_id: t.acknowledged for t in tables}
    problems, lost, duplicated = [], 0, 0
    for line in rows.strip().splitlines():
        match_id, stored, contiguous, game_points_a, game_points_b, status, target = line.split()
        stored, points = int(stored), max(int(game_points_a), int(game_points_b))
        told = acknowledged[int(match_id)]
        lost += max(0, told - stored)
        duplicated += max(0, stored - told)
        if stored != told:
            problems.append(f"match {match_id}: {told} acknowledged, {stored} stored")
        if contiguous != "1":
            duplicated += 1
            problems.append(f"match {match_id}: gap or duplicate in deal numbers")
        if points > int(target) or (points == int(target)) != (status == "finished"):
            problems.append(f"match {match_id}: {game_points_a}:{game_points_b} {status}")
    server_ms = cpu["gunicorn"] + cpu["postgres"]
    floor_ms = floor_cpu["gunicorn"] + floor_cpu["postgres"]
    ratio = server_ms / floor_ms
    gunicorn_ratio = cpu["gunicorn"] / floor_cpu["gunicorn"]
    deals_per_s = requests / elapsed[1]
    # The floor's own rate says what this machine allows at all (its phases are as loaded).
    floor_per_s = floor_requests / (elapsed[0] + elapsed[2])
    drawn = ", answer not drawn" if answer == "none" else ""
    print(f"== {label}, {mode}{drawn}: {clients} clients, gunicorn {workers} workers "
          f"(calibration loop {calibration:.0f} ms, load average {load:.1f})")
    new_rows = sum(t.new_row_answers for t in tables)
    print(f"deals {requests} in {elapsed[1]:.1f} s = {deals_per_s:.0f} deals/s"
          + (f" ({new_rows} answered with only the new row)" if mode == "htmx" else ""))
    print(f"latency per deal p50 {p50:.0f} ms, p95 {p95:.0f} ms; 5xx: {server_errors}; "
          f"client errors: {len(client_errors)}")
    with_postgres = postgres is not None
    print(f"CPU per deal: gunicorn {cpu['gunicorn']:.2f} ms"
          + (f" + PostgreSQL {cpu['postgres']:.2f} ms" if with_postgres else "")
          + f"; client {cpu['client']:.1f} ms")
    print(f"floor ({floor_requests} minimal writes, {floor_per_s:.0f} a second, "
          f"p95 {floor_p95:.0f} ms): gunicorn "
          f"{floor_cpu['gunicorn']:.2f} ms"
          + (f" + PostgreSQL {floor_cpu['postgres']:.2f} ms" if with_postgres else ""))
    print(f"deal / floor: {ratio:.2f}x server CPU (gunicorn alone {gunicorn_ratio:.2f}x)")
    print(f"acknowledged deals {sum(acknowledged.values())}; lost {lost}, duplicated "
          f"{duplicated}; database problems: {len(problems)}")
    for line in (client_errors + problems)[:10]:
        print("  ", line)
    throughput_target = THROUGHPUT_TARGETS["PostgreSQL" if with_postgres else "SQLite"]
    checks = {
        "no lost or duplicated deal, no 5xx": not problems and not server_errors
        and not client_errors,
        f"p95 < {P95_TARGET_MS} ms": p95 < P95_TARGET_MS,
        f"CPU per deal <= {RATIO_TARGET}x the floor": ratio <= RATIO_TARGET,
        f">= {throughput_target} deals/s": deals_per_s >= throughput_target,
    }
    for name, met in checks.items():
        print(f"target {name}: {'met' if met else 'NOT met'}")
    return {
        "database": label, "mode": mode, "answer": answer, "clients": clients, "workers": workers,
        "calibration_ms": round(calibration), "load_average": round(load, 1),
        "deals": requests, "deals_per_s": round(deals_per_s, 1),
        "p50_ms": round(p50, 1), "p95_ms": round(p95, 1),
        "cpu_ms_per_deal": round(server_ms, 3),
        "gunicorn_cpu_ms_per_deal": round(cpu["gunicorn"], 3),
        "postgres_cpu_ms_per_deal": round(cpu["postgres"], 3),
        "floor_cpu_ms_per_deal": round(floor_ms, 3), "floor_deals_per_s": round(floor_per_s, 1),
        "floor_gunicorn_cpu_ms_per_deal": round(floor_cpu["gunicorn"], 3),
        "floor_postgres_cpu_ms_per_deal": round(floor_cpu["postgres"], 3),
        "ratio_to_floor": round(ratio, 2), "gunicorn_ratio_to_floor": round(gunicorn_ratio, 2),
        "new_row_answers": new_rows if mode == "htmx" else None,
        "lost": lost, "duplicated": duplicated, "server_errors": server_errors,
        "client_errors": len(client_errors), "met": all(checks.values()),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--only", choices=["sqlite", "postgres"])
    parser.add_argument("--mode", choices=["htmx", "form", "both"], default="htmx")
    parser.add_argument("--answer", choices=list(APPLICATIONS), default="full",
                        help="none: the htmx answer to a deal saved is not drawn")
    args = parser.parse_args()
    if args.answer == "none" and args.mode != "htmx":
        parser.error("--answer none measures the htmx answer: a form post is redirected, "
                     "so it needs --mode htmx")
    modes = ["htmx", "form"] if args.mode == "both" else [args.mode]
    results = []
    for mode in modes:
        if args.only != "postgres":
            folder = tempfile.mkdtemp()
            try:
                results.append(run("SQLite", f"sqlite:///{folder}/bench.sqlite3",
                                   args.clients, args.workers, mode, answer=args.answer))
            finally:
                shutil.rmtree(folder, ignore_errors=True)
        if args.only != "sqlite":
            server = postgres_server()
            if server is None:
                print("== PostgreSQL: no server on 127.0.0.1:5432, skipped")
                continue
            name = f"santase_bench_entry_{os.getpid()}"
            url = postgres_database_create(server, name)
            try:
                results.append(run("PostgreSQL", url, args.clients, args.workers, mode,
                                   postgres=(server, name), answer=args.answer))
            finally:
                postgres_database_drop(server, name)
    if len(results) == 1:
        print(json.dumps(results[0]))
    else:
        print(json.dumps({"runs": results, "met": all(r["met"] for r in results)}))


if __name__ == "__main__":
    main()
