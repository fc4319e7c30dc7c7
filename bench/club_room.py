"""A club room on a busy night: the players enter their matches on their own phones while the
spectators and the projector follow the live pages, at a club's pace sped up.

For each database (SQLite in WAL mode in a temporary file, then a throwaway PostgreSQL database
made on DATABASE_URL's server, or 127.0.0.1:5432, and dropped afterwards) it migrates, makes
round robins of players entering their own results (`players_sign`; at most 50 tables each,
so the 64 tables are two groups of 32) and serves the site under gunicorn as `manage.py
serve_club` does (`club.network.club_environment`: DEBUG off, plain HTTP; 3 sync workers), with
a bare /hello/ view added (`bench.common.application`). Then, all on 127.0.0.1:

- two phones a table open the match's secret link (`/p/<token>/`), each chooses its seat, and
  they enter the first round's match deal by deal in turn (the quick form: POST, redirect, the
  page), one deal every 60-120 s of a real club divided by `--speedup` (x20: 3-6 s, drawn
  afresh each deal), until it is won; then both sign the result;
- `--spectators` follow a match page, a round page or the standings (half, a quarter, a
  quarter), and one projector per group its projector view;
- every phone and screen polls its live part every 4 s as `static/js/live.js` does (htmx:
  HX-Target, the element it swaps; in If-None-Match the ETag of what it shows, at first the
  page's `data-etag`; `tournaments.live`): polls are not sped up, so the deals come 20 times
  as often as in a club while the polls come as often;
- a probe GETs /hello/ twice a second: the floor of a request under the same load.

Once every result is signed (or `--duration` seconds of play have passed: the matches left
unfinished are counted), and every screen has polled the last change, nothing changes for
`--quiet` seconds: every poll should be a 304, and the server's CPU time over that phase
(gunicorn's processes, and PostgreSQL's backends of this database, from /proc) divided by the
polls is the CPU of an unchanged poll (less what the idle server spends anyway, measured for 5 s
before the night), beside that of /hello/ measured alone before the night; then the phones
alone poll for half as long, and the spectators alone, to tell their polls' costs apart.
At the end the database is read: every deal a phone was told is saved (the redirect) must be stored
once, with no gap in the numbers, and every signature too.

Printed per database: p50/p95 of a deal (the POST and the page it leads to; the POST alone
too) and of polls (304 and 200 apart), as milliseconds and as multiples of /hello/ under the
same load; CPU per unchanged poll (and as a multiple of /hello/'s); lost deals; 5xx; the CPU
this client used (so one can see the figures do not measure it); the load average; a fixed
loop's time. The last line is one JSON object with every figure.

    .venv/bin/python bench/club_room.py [--tables 64] [--spectators 100] [--speedup 20]
        [--game-target 11] [--quiet 20] [--workers 3] [--only sqlite|postgres]

Targets (issue 13, issue 18 target 2): deal p95 under 150 ms, at most 1 ms of server CPU per
unchanged poll, no deal lost or stored twice, on SQLite and PostgreSQL; the last line's JSON
holds them (`targets`) and whether each night met each (`targets_met`). On a shared machine the
figures are worth as much as their floors: /hello/ alone and under load, the load average and
the calibration loop beside them.
"""

import argparse
import html
import http.client
import http.cookies
import json
import math
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.common import (  # noqa: E402
    NOT_MODIFIED_PATH,
    PYTHON,
    calibration_ms,
    children,
    cpu_seconds,
    free_port,
    gunicorn_workers,
    manage,
    percentiles,
    postgres_backends,
    postgres_database_create,
    postgres_database_drop,
    postgres_server,
    ratio,
    stored_matches,
    stored_problems,
)

DEAL_SECONDS = (60, 120)
"""How long a real deal takes at a club table, dealt, played and entered (seconds)."""
SIGN_SECONDS = (20, 60)
"""How long the players take to sign once the match is won (seconds, sped up as the deals)."""
POLL_SECONDS = 4  # tournaments.live.POLL_SECONDS: every live part's htmx trigger
GROUP_TABLES = 50  # a round robin takes at most 100 players (tournaments.formats.round_robin)
REASONS = (("won", 50), ("schneider", 10), ("capot", 3))  # the quick form's fixed-point ones
HELLO_REQUESTS = 300
PACED_SENDERS = 40
IDLE_SECONDS = 5  # the server with no request: the CPU its processes spend anyway
PROBE_SECONDS = 0.5
TIMEOUT = 60  # seconds a phone waits for an answer
SETTLE_LIMIT = 120  # seconds the screens get to catch up with the last change
REDIRECTS = (302, 303)  # a post that was done leads to the page again
TARGET_DEAL_P95_MS, TARGET_POLL_CPU_MS, TARGET_LOST = 150, 1.0, 0
LIVE_PARTS = {"phone": "players-live", "match": "match-panel", "round": "live-round",
              "standings": "live-standings", "projector": "projector-slides", "other": ""}
"""The id of the element each page's poll swaps in: htmx sends it as HX-Target."""

LIVE_ETAG = re.compile(r'data-live[^>]*? data-etag="([^"]+)"')
QUICK_NUMBER = re.compile(
    r'class="deal-entry quick-entry"[^>]*>.*?name="number" value="(\d+)"', re.S)

SETUP_SCRIPT = """
import json, random
from club.models import Player
from tournaments import services, table_entry
from tournaments.models import EntryMode, Tournament
events = []
for index, tables in enumerate({sizes}, start=1):
    tournament = Tournament.objects.create(
        name=f"Група {{index}}", date="2026-12-01", format="round_robin", is_public=True,
        entry_mode=EntryMode.PLAYERS_SIGN, game_target={target})
    for n in range(1, 2 * tables + 1):
        player = Player.objects.create(name=f"Играч {{index}}-{{n}}")
        services.entry_add(tournament=tournament, player=player)
    services.tournament_start(tournament=tournament, rng=random.Random(66 + index))
    pairings = (tournament.rounds.get(number=1).pairings.exclude(match=None)
                .select_related("match").order_by("table"))
    events.append({{"id": tournament.pk, "tables": [
        {{"match": p.match_id, "token": table_entry.table_of(p.match).token}}
        for p in pairings]}})
print(json.dumps(events))
"""

class Browser:
    """One phone or screen: its cookies (one site, so paths are ignored) and its requests,
    each on a new connection (gunicorn's sync workers close it after the answer)."""

    def __init__(self, room: "Room"):
        self.room = room
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, fields: dict | None = None,
                headers: dict | None = None) -> tuple[int, http.client.HTTPMessage, str]:
        """(status, headers, body) of `method path`; `fields` are posted form-encoded with the
        CSRF token. Raises OSError (http.client.HTTPException included) when the connection
        fails."""
        sent = {"Host": self.room.host, **(headers or {})}
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if fields is not None:
            fields = {"csrfmiddlewaretoken": self.cookies.get("csrftoken", ""), **fields}
            body = urllib.parse.urlencode(fields)
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        connection = http.client.HTTPConnection("127.0.0.1", self.room.port, timeout=TIMEOUT)
        try:
            connection.request(method, path, body=body, headers=sent)
            response = connection.getresponse()
            text = response.read().decode("utf-8", errors="replace")
        finally:
            connection.close()
        for header in response.headers.get_all("Set-Cookie") or ():
            for name, morsel in http.cookies.SimpleCookie(header).items():
                if morsel.value and morsel["max-age"] != "0":
                    self.cookies[name] = morsel.value
                else:
                    self.cookies.pop(name, None)
        if response.status >= 500:
            self.room.server_errors.append(f"{method} {path}: {response.status}")
        return response.status, response.headers, text

    def timed(self, kind: str, method: str, path: str, **kwargs):
        """`request`, its time written down under `kind` and the phase it started in."""
        phase = self.room.phase
        started = time.perf_counter()
        status, headers, text = self.request(method, path, **kwargs)
        self.room.record(phase, kind, status, time.perf_counter() - started)
        return status, headers, text


class Screen(threading.Thread):
    """A spectator's phone or the projector: loads `path`, then polls its live part."""

    def __init__(self, room: "Room", path: str, rng: random.Random):
        super().__init__(daemon=True)
        self.room, self.path, self.rng = room, path, rng
        self.browser = Browser(room)
        self.etag: str | None = None
        self.next_poll = 0.0
        self.page = page_kind(path)
        self.group = "phones" if self.page == "phone" else "spectators"
        self.last_poll = (0.0, 0)  # when the last answered poll was sent, and its status

    def load(self, path: str) -> str:
        status, _, page = self.browser.request("GET", path)
        if status != 200:
            raise OSError(f"GET {path} answered {status}")
        self.etag, self.next_poll = page_etag(page), time.monotonic() + POLL_SECONDS  # new page
        return page

    def poll(self) -> None:
        if self.room.pollers not in ("all", self.group):  # this kind of screen is held
            self.next_poll += POLL_SECONDS
            return
        headers = {"HX-Request": "true", "HX-Target": LIVE_PARTS[self.page]}
        if self.etag:
            headers["If-None-Match"] = self.etag
        sent = time.monotonic()
        status, answer, _ = self.browser.timed(f"poll {self.page}", "GET", self.path,
                                               headers=headers)
        self.last_poll = (sent, status)
        if status == 200:
            self.etag = answer.get("ETag")
        elif status != 304:
            self.room.errors.append(f"poll {self.path}: {status}")
        self.next_poll = max(self.next_poll + POLL_SECONDS, time.monotonic())

    def arrive(self) -> None:
        self.load(self.path)
        self.next_poll = time.monotonic() + self.rng.uniform(0, POLL_SECONDS)  # not in step

    def run(self) -> None:
        try:
            self.arrive()
        except OSError as error:
            self.room.errors.append(f"{self.path}: {error!r}")
            return
        finally:
            self.room.arrived()
        try:
            self.follow()
        except OSError as error:
            self.room.errors.append(f"{self.path}: {error!r}")

    def follow(self) -> None:
        """Poll until the night is over."""
        while not self.room.stop.wait(max(0.0, self.next_poll - time.monotonic())):
            self.poll()


class Table:
    """What the two players at a table know between them: whose turn it is to enter, which
    deal is next and when it will have been played; what the server acknowledged."""

    def __init__(self, match: int, token: str, rng: random.Random):
        self.match, self.token, self.rng = match, token, rng
        self.path = f"/p/{token}/"
        self.turn, self.number, self.due = "A", 1, 0.0
        self.over = False
        self.stopped = False  # an error ended the table's moves
        self.acknowledged = 0  # deals the server answered "saved" (a redirect)
        self.signed = {"A": False, "B": False}
        self.changed = threading.Condition()


class Phone(Screen):
    """One player's phone at `table`, in seat `seat`: chooses its seat, enters its turns' deals,
    signs the won match, and polls its page between."""

    def __init__(self, room: "Room", table: Table, seat: str, rng: random.Random):
        super().__init__(room, table.path, rng)
        self.table, self.seat = table, seat

    def arrive(self) -> None:
        self.load(self.path)  # "Who are you?"
        status, answer, _ = self.browser.request("POST", self.path + "seat/",
                                                 fields={"seat": self.seat})
        if status not in REDIRECTS:
            raise OSError(f"seat {self.seat} answered {status}")
        self.load(answer["Location"])
        self.next_poll = time.monotonic() + self.rng.uniform(0, POLL_SECONDS)

    def follow(self) -> None:
        """Enter the deals in turn, sign, and poll between, until the night is over."""
        self.room.go.wait()
        while not self.room.stop.is_set():
            with self.table.changed:
                mine = self.my_move()
                wake = min(self.next_poll, self.table.due) if mine else self.next_poll
                if wake > time.monotonic():
                    self.table.changed.wait(min(wake - time.monotonic(), POLL_SECONDS))
                    continue
            if mine and time.monotonic() >= self.table.due:
                if self.table.over:
                    self.sign()
                else:
                    self.enter_deal()
            elif time.monotonic() >= self.next_poll:
                self.poll()

    def my_move(self) -> bool:
        table = self.table
        if self.room.phase != "play" or table.signed[self.seat] or table.stopped:
            return False
        return table.over or table.turn == self.seat

    def enter_deal(self) -> None:
        table = self.table
        reasons, weights = zip(*REASONS, strict=True)
        fields = {"number": table.number, "winner": self.rng.choice("AB"),
                  "reason": self.rng.choices(reasons, weights)[0]}
        phase, started = self.room.phase, time.perf_counter()
        status, answer, page = self.browser.timed("deal_post", "POST", self.path + "deal/",
                                                  fields=fields)
        if status not in REDIRECTS:
            self.stop_table(f"deal {table.number}: {status}")
            return
        with table.changed:
            table.acknowledged += 1
        self.room.last_write = time.monotonic()
        status, _, page = self.browser.request("GET", answer["Location"])
        self.room.record(phase, "deal", status, time.perf_counter() - started)
        self.etag, self.next_poll = page_etag(page), time.monotonic() + POLL_SECONDS  # new page
        if status != 200:
            self.stop_table(f"page after deal {table.number}: {status}")
            return
        shown = QUICK_NUMBER.search(page)
        with table.changed:
            if shown is None:  # no form for another deal: the match is won
                table.over = True
                table.due = time.monotonic() + self.room.pace(SIGN_SECONDS, self.rng)
            elif int(shown.group(1)) != table.number + 1:
                self.room.errors.append(f"table {table.match}: after deal {table.number} the "
                                        f"page offers deal {shown.group(1)}")
            table.number += 1
            table.turn = "B" if self.seat == "A" else "A"
            if not table.over:
                table.due = time.monotonic() + self.room.pace(DEAL_SECONDS, self.rng)
            table.changed.notify_all()

    def sign(self) -> None:
        status, answer, _ = self.browser.timed("sign", "POST", self.path + "sign/",
                                               fields={"seat": self.seat})
        if status not in REDIRECTS:
            self.stop_table(f"sign {self.seat}: {status}")
            return
        with self.table.changed:
            self.table.signed[self.seat] = True
            self.table.changed.notify_all()
        self.room.last_write = time.monotonic()
        self.room.signed()
        self.load(answer["Location"])

    def stop_table(self, error: str) -> None:
        self.room.errors.append(f"table {self.table.match} {self.seat}: {error}")
        with self.table.changed:
            unsigned = sum(not signed for signed in self.table.signed.values())
            self.table.stopped = True  # no more moves at this table
            self.table.changed.notify_all()
        self.room.signed(unsigned)


class Room:
    """The night's shared state: the server's address, the phase, what the clients recorded."""

    def __init__(self, port: int, speedup: float, signatures: int):
        self.port, self.host, self.speedup = port, f"127.0.0.1:{port}", speedup
        self.phase = "arrive"
        self.records: list[tuple[str, str, int, float]] = []  # (phase, kind, status, seconds)
        self.errors: list[str] = []
        self.server_errors: list[str] = []
        self.go, self.stop = threading.Event(), threading.Event()
        self.all_signed, self.all_arrived = threading.Event(), threading.Event()
        self._lock = threading.Lock()
        self._waiting, self._unsigned = 0, signatures
        self.last_write = 0.0  # when the server last acknowledged a change (monotonic)
        self.pollers = "all"  # who polls: all, phones or spectators (the screens)

    def record(self, phase: str, kind: str, status: int, seconds: float) -> None:
        self.records.append((phase, kind, status, seconds))

    def pace(self, real: tuple[float, float], rng: random.Random) -> float:
        """Seconds until the next move: a real club's `real` range, drawn, sped up."""
        return rng.uniform(*real) / self.speedup

    def expect(self, clients: int) -> None:
        self._waiting = clients

    def arrived(self) -> None:
        with self._lock:
            self._waiting -= 1
            if self._waiting <= 0:
                self.all_arrived.set()

    def signed(self, signatures: int = 1) -> None:
        """`signatures` were given (or will never be: a table stopped by an error)."""
        with self._lock:
            self._unsigned -= signatures
            if self._unsigned <= 0:
                self.all_signed.set()


def probe(room: Room, stop: threading.Event) -> None:
    """/hello/ every PROBE_SECONDS while `stop` is not set: the floor under the night's load."""
    browser = Browser(room)
    while not stop.wait(PROBE_SECONDS):
        try:
            browser.timed("hello", "GET", "/hello/")
        except OSError as error:
            room.errors.append(f"hello: {error!r}")


class ServerClock:
    """The CPU time of the server: gunicorn's master and workers, and PostgreSQL's backends of
    database `database` on `postgres` (none for SQLite), in seconds."""

    def __init__(self, master: int, postgres: str | None, database: str):
        self.master, self.postgres, self.database = master, postgres, database

    def read(self) -> dict:
        gunicorn = cpu_seconds(self.master) + sum(map(cpu_seconds, children(self.master)))
        backends = {}
        if self.postgres:
            backends = {pid: cpu_seconds(pid)
                        for pid in postgres_backends(self.postgres, self.database)}
        return {"gunicorn": gunicorn, "backends": backends, "client": time.process_time(),
                "wall": time.perf_counter()}

    @staticmethod
    def spent(before: dict, after: dict) -> dict:
        """Seconds of CPU between two readings: gunicorn, postgres, client; and wall time."""
        postgres = sum(seconds - before["backends"].get(pid, 0.0)
                       for pid, seconds in after["backends"].items())
        return {"gunicorn": after["gunicorn"] - before["gunicorn"], "postgres": postgres,
                "client": after["client"] - before["client"],
                "wall": after["wall"] - before["wall"]}


def page_etag(page: str) -> str | None:
    """The ETag a page loaded in full gives its live part (`data-etag`), which
    `static/js/live.js` sends with the first poll; None when it has none."""
    found = LIVE_ETAG.search(page)
    return html.unescape(found.group(1)) if found else None


def page_kind(path: str) -> str:
    """What a live page is, from its path: phone, match, round, standings or projector."""
    for part, kind in (("/p/", "phone"), ("/m/", "match"), ("/rounds/", "round"),
                       ("/standings/", "standings"), ("/projector/", "projector")):
        if part in path:
            return kind
    return "other"


def settle(room: Room, screens: list[Screen], limit: float) -> float:
    """Wait until every screen following the night shows the last change: its last poll was
    sent after the last write and answered 304 (at most `limit` seconds); the seconds waited."""
    started = time.monotonic()
    while time.monotonic() - started < limit:
        if all(screen.last_poll[0] > room.last_write and screen.last_poll[1] == 304
               for screen in screens if screen.is_alive()):
            break
        time.sleep(0.5)
    return time.monotonic() - started


def group_sizes(tables: int) -> list[int]:
    """`tables` split into round robins of at most GROUP_TABLES tables, as even as can be."""
    groups = math.ceil(tables / GROUP_TABLES)
    return [tables // groups + (index < tables % groups) for index in range(groups)]


def spectator_paths(events: list[dict], spectators: int) -> list[str]:
    """What each spectator follows: half a match page, a quarter a round page, a quarter the
    standings, spread over the groups and their tables; then a projector per group."""
    matches = [table["match"] for event in events for table in event["tables"]]
    paths = []
    for index in range(spectators):
        event = events[index % len(events)]["id"]
        if index % 4 in (0, 2):
            paths.append(f"/m/{matches[(index // 2) % len(matches)]}/")
        elif index % 4 == 1:
            paths.append(f"/t/{event}/rounds/1/")
        else:
            paths.append(f"/t/{event}/standings/")
    return paths + [f"/t/{event['id']}/projector/" for event in events]


def server_environment(database_url: str, port: int) -> dict:
    """The environment `manage.py serve_club` gives gunicorn (`club.network`), on 127.0.0.1."""
    sys.path.insert(0, str(ROOT))
    from club.network import club_environment

    base = dict(os.environ, DATABASE_URL=database_url, PYTHONPATH=str(ROOT), LOG_LEVEL="ERROR")
    base.pop("CELERY_BROKER_URL", None)
    return club_environment(base, address="127.0.0.1", port=port,
                            secret_key="bench-" + os.urandom(24).hex())


def hello_floor(room: Room, clock: ServerClock) -> dict:
    """/hello/ alone, one request at a time: its latency and the server's CPU per request."""
    browser = Browser(room)
    for _ in range(20):
        browser.request("GET", "/hello/")
    before = clock.read()
    latencies = []
    for _ in range(HELLO_REQUESTS):
        started = time.perf_counter()
        browser.request("GET", "/hello/")
        latencies.append(time.perf_counter() - started)
    spent = clock.spent(before, clock.read())
    return {**percentiles(latencies),
            "server_cpu_ms": round(spent["gunicorn"] * 1000 / HELLO_REQUESTS, 3),
            "postgres_cpu_ms": round(spent["postgres"] * 1000 / HELLO_REQUESTS, 3)}


def paced_hello(room: Room, clock: ServerClock, rate: float, seconds: float,
                path: str = "/hello/") -> dict:
    """`path` (/hello/) sent at `rate` requests a second for `seconds`, from a thread for every two
    requests a second (at most PACED_SENDERS), each waiting a random time between requests,
    as the quiet phase's polls come: the server's CPU per request of the floor served at the
    same pace. A request that finds the workers asleep costs two to three times one served
    right after another (caches gone cold; on this machine 0.5 ms back to back, 1.0-1.4 ms
    paced), so an unchanged poll of the quiet phase is read beside this, not beside
    `hello_floor`. With `NOT_MODIFIED_PATH`, answered before Django, the same figure is
    the server's own floor: what no poll served through gunicorn can go under."""
    stop = time.monotonic() + seconds
    sent = []
    senders = max(1, min(PACED_SENDERS, round(2 * rate)))

    def sender(seed: int) -> None:
        rng, browser = random.Random(seed), Browser(room)
        while True:
            time.sleep(rng.uniform(0, 2 * senders / max(rate, 0.1)))
            if time.monotonic() >= stop:
                return
            browser.request("GET", path)
            sent.append(1)

    before = clock.read()
    threads = [threading.Thread(target=sender, args=(seed,)) for seed in range(senders)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    spent = clock.spent(before, clock.read())
    return {"requests": len(sent), "rate_per_s": round(len(sent) / spent["wall"], 1),
            "server_cpu_ms": round(spent["gunicorn"] * 1000 / max(len(sent), 1), 3)}


def night(label: str, database_url: str, args, workdir: Path, postgres: str | None = None,
          database: str = "") -> dict:
    """One club night on `database_url` (on PostgreSQL: database `database` of server
    `postgres`), gunicorn's log in `workdir`; every figure of it."""
    port = free_port()
    env = server_environment(database_url, port)
    started = time.perf_counter()
    manage(env, "migrate", "--noinput", "-v", "0")
    manage(env, "collectstatic", "--noinput", "-v", "0")
    setup = SETUP_SCRIPT.format(sizes=group_sizes(args.tables), target=args.game_target)
    events = json.loads(manage(env, "shell", "-v", "0", stdin=setup).strip().splitlines()[-1])
    setup_seconds = time.perf_counter() - started
    log = (workdir / f"gunicorn-{port}.log").open("w")
    server = subprocess.Popen(
        [PYTHON, "-m", "gunicorn", "bench.common:application", "--chdir", str(ROOT),
         "--workers", str(args.workers), "--bind", f"127.0.0.1:{port}",
         "--log-level", "warning"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )
    tables = [Table(t["match"], t["token"], random.Random(t["match"]))
              for event in events for t in event["tables"]]
    room = Room(port, args.speedup, 2 * len(tables))
    try:
        gunicorn_workers(server.pid, args.workers)
        for _ in range(200):
            try:
                Browser(room).request("GET", "/hello/")
                break
            except OSError:
                time.sleep(0.1)
        clock = ServerClock(server.pid, postgres, database)
        calibration = calibration_ms()
        floor = hello_floor(room, clock)
        idle_before = clock.read()
        time.sleep(IDLE_SECONDS)
        idle = clock.spent(idle_before, clock.read())
        rng = random.Random(13)
        screens = [Phone(room, table, seat, random.Random(f"{table.match}{seat}"))
                   for table in tables for seat in "AB"]
        screens += [Screen(room, path, random.Random(rng.random()))
                    for path in spectator_paths(events, args.spectators)]
        room.expect(len(screens))
        for screen in screens:
            screen.start()
        room.all_arrived.wait(300)
        for table in tables:  # the first deal is played from now on
            table.due = time.monotonic() + room.pace(DEAL_SECONDS, table.rng)
        probe_stop = threading.Event()
        prober = threading.Thread(target=probe, args=(room, probe_stop), daemon=True)
        load_before = os.getloadavg()[0]
        room.phase = "play"
        play_before = clock.read()
        room.go.set()
        prober.start()
        finished = room.all_signed.wait(args.duration)
        play = clock.spent(play_before, clock.read())
        probe_stop.set()
        room.phase = "settle"  # every screen polls the last change once
        settled = settle(room, screens, SETTLE_LIMIT)
        room.phase = "quiet"
        quiet_before = clock.read()
        time.sleep(args.quiet)
        quiet = clock.spent(quiet_before, clock.read())
        quiet_groups = {}
        for group in ("phones", "spectators"):  # then each alone: what its polls cost
            room.phase, room.pollers = f"quiet {group}", group
            before = clock.read()
            time.sleep(args.quiet / 2)
            quiet_groups[group] = clock.spent(before, clock.read())
        room.phase, room.pollers = "after", "all"
        load_after = os.getloadavg()[0]
        room.stop.set()
        for table in tables:
            with table.changed:
                table.changed.notify_all()
        for screen in screens:
            screen.join(TIMEOUT + 5)
        prober.join(TIMEOUT + 5)
        quiet_rate = sum(1 for phase, k, *_ in room.records
                         if phase == "quiet" and k.startswith("poll ")) / quiet["wall"]
        paced = paced_hello(room, clock, quiet_rate, max(args.quiet / 2, 10))
        server_floor = paced_hello(room, clock, quiet_rate, max(args.quiet / 2, 10),
                                   NOT_MODIFIED_PATH)
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()
    stored = stored_matches(env, [table.match for table in tables])
    result = figures(room, tables, stored, {
        "calibration": calibration, "floor": floor, "idle": idle, "play": play, "quiet": quiet,
        "quiet_groups": quiet_groups, "paced": paced, "server_floor": server_floor,
        "finished": finished, "setup_seconds": setup_seconds, "settled": settled,
        "load": [round(load_before, 2), round(load_after, 2)],
    })
    report(label, args, events, tables, result)
    if room.server_errors:
        print((workdir / f"gunicorn-{port}.log").read_text()[-3000:])
    return {"tables": len(tables), "groups": len(events), **result}


def figures(room: Room, tables: list[Table], stored: dict, run: dict) -> dict:
    """Every figure of a night, from what the clients recorded, the CPU readings (`run`) and
    the database's rows (`stored`)."""
    def times(phases: tuple[str, ...], kind: str, status: int | None = None) -> list[float]:
        return [seconds for phase, k, s, seconds in room.records
                if phase in phases and (k == kind or k.startswith(kind + " "))
                and (status is None or s == status)]

    play, quiet, floor = run["play"], run["quiet"], run["floor"]
    hello = percentiles(times(("play",), "hello"))
    quiet_statuses = [s for phase, k, s, _ in room.records
                      if phase == "quiet" and k.startswith("poll ")]
    polls = max(len(quiet_statuses), 1)
    idle = {name: run["idle"][name] / run["idle"]["wall"] for name in ("gunicorn", "postgres")}
    # The CPU the server spends with no request at all (timers, heartbeats) is not the polls'.
    poll_cpu = (quiet["gunicorn"] - idle["gunicorn"] * quiet["wall"]) * 1000 / polls
    poll_postgres = (quiet["postgres"] - idle["postgres"] * quiet["wall"]) * 1000 / polls
    by_group = {}
    for group, spent in run["quiet_groups"].items():
        statuses = [s for phase, k, s, _ in room.records if phase == f"quiet {group}"]
        cpu = (spent["gunicorn"] - idle["gunicorn"] * spent["wall"]) * 1000 / max(len(statuses), 1)
        by_group[group] = {"polls": len(statuses), "not_304": sum(s != 304 for s in statuses),
                           "cpu_ms": round(cpu, 3)}
    requests = sum(1 for phase, *_ in room.records if phase == "play")
    lost, problems = stored_problems(tables, stored)
    result = {
        "load_average": run["load"], "calibration_ms": round(run["calibration"]),
        "setup_seconds": round(run["setup_seconds"]),
        "hello_alone": floor, "hello_under_load": hello,
        "play_seconds": round(play["wall"], 1), "all_signed": run["finished"],
        "deal": percentiles(times(("play",), "deal")),
        "deal_post": percentiles(times(("play",), "deal_post")),
        # A match page or a phone's page moves with its own match only; a round, the
        # standings and the projector with any change on the site (tournaments.live): while
        # tables enter, such a poll is a 304 only when no deal came in the 4 s since the last.
        "poll_200_play": percentiles(times(("play",), "poll", 200)),
        "poll_304_play": percentiles(times(("play",), "poll", 304)),
        "poll_304_quiet": percentiles(times(("quiet",), "poll", 304)),
        "poll_200_play_by_page": {
            page: percentiles(times(("play",), f"poll {page}", 200))
            for page in ("phone", "match", "round", "standings", "projector")},
        "play_cpu_cores": {name: round(play[name] / play["wall"], 2)
                           for name in ("gunicorn", "postgres", "client")},
        "play_requests": requests,
        "server_cpu_ms_per_request": round(play["gunicorn"] * 1000 / max(requests, 1), 2),
        "client_cpu_ms_per_request": round(play["client"] * 1000 / max(requests, 1), 3),
        "settle_seconds": round(run["settled"], 1), "quiet_seconds": round(quiet["wall"], 1),
        "quiet_polls": len(quiet_statuses),
        "quiet_not_304": sum(status != 304 for status in quiet_statuses),
        "unchanged_poll_cpu_ms": round(poll_cpu, 3),
        "unchanged_poll_x_hello": ratio(poll_cpu, floor["server_cpu_ms"]),
        "hello_paced": run["paced"],
        "unchanged_poll_x_paced_hello": ratio(poll_cpu, run["paced"]["server_cpu_ms"]),
        "server_floor_paced": run["server_floor"],
        "unchanged_poll_x_server_floor": ratio(poll_cpu,
                                               run["server_floor"]["server_cpu_ms"]),
        "unchanged_poll_postgres_cpu_ms": round(poll_postgres, 3),
        "unchanged_poll_cpu_ms_with_idle": round(quiet["gunicorn"] * 1000 / polls, 3),
        "unchanged_poll_cpu_ms_by_group": by_group,
        "idle_cpu_ms_per_s": {name: round(value * 1000, 2) for name, value in idle.items()},
        "unchanged_poll_client_cpu_ms": round(quiet["client"] * 1000 / polls, 3),
        "deals_acknowledged": sum(table.acknowledged for table in tables), "lost": lost,
        "matches_unfinished": sum(not row["finished"] for row in stored.values()),
        "problems": len(problems), "server_errors": len(room.server_errors),
        "client_errors": len(room.errors),
    }
    for name in ("deal", "deal_post", "poll_200_play", "poll_304_play", "poll_304_quiet"):
        result[name]["p50_x_hello"] = ratio(result[name]["p50_ms"], hello["p50_ms"])
        result[name]["p95_x_hello"] = ratio(result[name]["p95_ms"], hello["p95_ms"])
    result["targets_met"] = {
        "deal_p95": result["deal"]["p95_ms"] is not None
        and result["deal"]["p95_ms"] < TARGET_DEAL_P95_MS,
        "unchanged_poll_cpu": bool(quiet_statuses) and result["quiet_not_304"] == 0
        and poll_cpu <= TARGET_POLL_CPU_MS,
        "lost": lost == TARGET_LOST and not problems,
        "no_5xx": not room.server_errors,
    }
    result["met"] = all(result["targets_met"].values())
    result["details"] = (room.server_errors + room.errors + problems)[:10]
    return result


def report(label: str, args, events: list, tables: list[Table], result: dict) -> None:
    """Print a night's figures beside their floors and targets."""
    groups, r = len(events), result
    plural = "s" * (groups > 1)
    print(f"== {label}: {len(tables)} tables ({groups} round robin{plural}), "
          f"{2 * len(tables)} phones, {args.spectators} spectators, {groups} projector{plural}; "
          f"gunicorn {args.workers} sync workers; a deal every {DEAL_SECONDS[0] / args.speedup:.1f}"
          f"-{DEAL_SECONDS[1] / args.speedup:.1f} s a table (x{args.speedup:g}); polls every "
          f"{POLL_SECONDS} s")
    print(f"load average {r['load_average'][0]} before, {r['load_average'][1]} after (2 cores); "
          f"calibration loop {r['calibration_ms']} ms; setup {r['setup_seconds']} s")
    alone, hello = r["hello_alone"], r["hello_under_load"]
    print(f"/hello/ alone: p50 {alone['p50_ms']} ms, server CPU {alone['server_cpu_ms']:.3f} ms; "
          f"under the night's load: p50 {hello['p50_ms']} ms, p95 {hello['p95_ms']} ms")
    print(f"play {r['play_seconds']:.0f} s{'' if r['all_signed'] else ' (time limit reached)'}"
          f": {r['deal']['count']} deals, polls {r['poll_200_play']['count']} changed (200), "
          f"{r['poll_304_play']['count']} unchanged (304)")
    for name, key in (("deal: post + page", "deal"), ("deal: post alone", "deal_post"),
                      ("poll 200, play", "poll_200_play"), ("poll 304, play", "poll_304_play"),
                      ("poll 304, quiet", "poll_304_quiet")):
        f = r[key]
        print(f"  {name:<18} p50 {f['p50_ms']} ms (x{f['p50_x_hello']} hello), "
              f"p95 {f['p95_ms']} ms (x{f['p95_x_hello']}), {f['count']} requests")
    print("  poll 200 by page, play: " + "; ".join(
        f"{page} p50 {f['p50_ms']} p95 {f['p95_ms']} ms ({f['count']})"
        for page, f in r["poll_200_play_by_page"].items()))
    cores = r["play_cpu_cores"]
    print(f"CPU during play, in cores: gunicorn {cores['gunicorn']}, PostgreSQL "
          f"{cores['postgres']}, this client {cores['client']}; per request (of "
          f"{r['play_requests']}): gunicorn {r['server_cpu_ms_per_request']} ms, this client "
          f"{r['client_cpu_ms_per_request']} ms")
    print(f"settled in {r['settle_seconds']:.0f} s; "
          f"quiet {r['quiet_seconds']:.0f} s: {r['quiet_polls']} polls, {r['quiet_not_304']} "
          f"not 304; server CPU per unchanged poll: gunicorn {r['unchanged_poll_cpu_ms']} ms "
          f"(x{r['unchanged_poll_x_hello']} hello; {r['unchanged_poll_cpu_ms_with_idle']} ms with "
          f"the idle server's {r['idle_cpu_ms_per_s']['gunicorn']} ms/s), PostgreSQL "
          f"{r['unchanged_poll_postgres_cpu_ms']} ms; this client "
          f"{r['unchanged_poll_client_cpu_ms']} ms")
    paced = r["hello_paced"]
    print(f"/hello/ paced as the quiet polls ({paced['rate_per_s']} a second, "
          f"{paced['requests']} requests): server CPU {paced['server_cpu_ms']} ms; an unchanged "
          f"poll is x{r['unchanged_poll_x_paced_hello']} of it")
    bare = r["server_floor_paced"]
    print(f"a bodiless 304 answered before Django ({NOT_MODIFIED_PATH}), paced the same "
          f"({bare['requests']} requests): server CPU {bare['server_cpu_ms']} ms, gunicorn's "
          f"own floor; an unchanged poll is x{r['unchanged_poll_x_server_floor']} of it")
    print("  then alone: " + "; ".join(
        f"{group} {g['polls']} polls ({g['not_304']} not 304), gunicorn {g['cpu_ms']} ms a poll"
        for group, g in r["unchanged_poll_cpu_ms_by_group"].items()))
    print(f"deals acknowledged {r['deals_acknowledged']}, lost or stored twice {r['lost']}; "
          f"matches unfinished {r['matches_unfinished']}; "
          f"5xx {r['server_errors']}; client errors {r['client_errors']}; database problems "
          f"{r['problems']}")
    for line in r["details"]:
        print("  ", line)
    met = r["targets_met"]
    print(f"targets: deal p95 < {TARGET_DEAL_P95_MS} ms {'met' if met['deal_p95'] else 'NOT met'}"
          f"; unchanged poll <= {TARGET_POLL_CPU_MS} ms server CPU "
          f"{'met' if met['unchanged_poll_cpu'] else 'NOT met'}; {TARGET_LOST} lost "
          f"{'met' if met['lost'] else 'NOT met'}; no 5xx {'met' if met['no_5xx'] else 'NOT met'}")


def postgres_night(args, workdir: Path, results: dict) -> None:
    """The night on a throwaway PostgreSQL database (dropped afterwards), into
    `results["postgres"]`; skipped when no server answers."""
    server = postgres_server()
    if server is None:
        print("== PostgreSQL: no server answers, skipped")
        return
    name = f"bench_club_room_{os.getpid()}"
    try:
        url = postgres_database_create(server, name)
        results["postgres"] = night("PostgreSQL", url, args, workdir, server, name)
    finally:
        postgres_database_drop(server, name)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=64)
    parser.add_argument("--spectators", type=int, default=100)
    parser.add_argument("--speedup", type=float, default=20, help="a club's pace times this")
    parser.add_argument("--game-target", type=int, default=11, help="game points that win")
    parser.add_argument("--quiet", type=float, default=20, help="seconds of unchanged polls")
    parser.add_argument("--duration", type=float, default=240, help="longest play, seconds")
    parser.add_argument("--workers", type=int, default=3, help="gunicorn workers (serve_club's)")
    parser.add_argument("--only", choices=["sqlite", "postgres"])
    args = parser.parse_args()
    results = {}
    workdir = Path(tempfile.mkdtemp(prefix="club-room-"))
    try:
        if args.only != "postgres":
            url = f"sqlite:///{workdir / 'club.sqlite3'}"
            results["sqlite"] = night("SQLite (WAL)", url, args, workdir)
        if args.only != "sqlite":
            postgres_night(args, workdir, results)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    print(json.dumps({
        "tables": args.tables, "spectators": args.spectators, "speedup": args.speedup,
        "game_target": args.game_target, "workers": args.workers,
        "targets": {"deal_p95_ms": TARGET_DEAL_P95_MS, "unchanged_poll_cpu_ms":
                    TARGET_POLL_CPU_MS, "lost": TARGET_LOST},
        **results, "met": bool(results) and all(r["met"] for r in results.values()),
    }, ensure_ascii=False))


if __name__ == "__main__":
    main()
