"""A club night as the club feels it: the players enter their matches on their phones at the
tables while the spectators and the projector follow the live pages, which the server pushes
(server-sent events), paced as a real night but sped up.

For each database (SQLite in WAL mode in a temporary file, then a throwaway PostgreSQL
database made on DATABASE_URL's server, or 127.0.0.1:5432 as user postgres, and dropped
afterwards) it migrates, makes an organiser and a public Swiss of two players a table who enter
their own results (`players_sign`; round 1 paired), and serves the site with `manage.py
serve_club` (gunicorn, 2 uvicorn workers, DEBUG off, the shared parts cached in a temporary
file cache). Then, all on 127.0.0.1, in this one process (asyncio and httpx):

- each table's two phones open the match's secret link (`/p/<token>/`), choose their seats
  and hold the page's stream (`/p/<token>/live/?v=`). The players enter the deals in turn,
  one every 60-120 s of a real club divided by `--speedup` (drawn afresh each deal; the first
  staggered), as the quick form does: the POST, its redirect, the page loaded again (a new
  page, so a new stream from the version it shows). The other phone is told `changed` and
  fetches its live part (an htmx GET of the page: `HX-Request`, `HX-Target: players-live`).
  Once a player has 11 game points both phones sign the result (20-60 s later, sped up too);
- `--spectators` follow the round page or the standings (half each), and one projector the
  projector page, each holding the event's stream (`/t/<id>/live/?v=…&part=…`, gzipped as a
  browser asks). Not signed in, they are pushed each new version of their part (`part`) and
  swap it in, as `static/js/live.js` does, unless the page shows that version already; told
  `changed` instead (a part that may not be pushed), they fetch it, one fetch at a time, a
  `changed` that comes during a fetch fetching once more after it (htmx's queue).

The phases: everyone arrives; `IDLE_SECONDS` with every stream open and nothing entered (the
idle cost); the night, `--minutes` long (the tables stop entering then); up to
`SETTLE_SECONDS` for the screens to catch up; then the streams close and the database is read:
every deal a phone was answered "saved" must be stored once, numbered without a gap, and every
signature too (`bench.common.stored_problems`).

Figures (per database: one JSON line each, printed last, with every figure, the targets and
whether each was met, the options and the machine's state):

- `core_share_real_night`: the server's CPU (gunicorn's master and workers; on PostgreSQL also
  the backends of the bench database, those that ended during the run counted through the
  postmaster's children's time when no other database was busy meanwhile; else only the backends
  alive at each reading, and `postgres_cpu_partial` says so) as a share of one core on a real
  night. The idle streams cost little whatever the pace (on SQLite each worker reads the
  versions 4 times a second while anybody follows), so the idle share is measured as it is; the
  work is not scaled by the run's speed-up, since screens told of several deals at once fetch
  once (fewer fetches per deal than at a real pace). Instead: the work's CPU (the night's CPU
  less the idle cost over the same time) per unit of work of the night — a request, or a
  `changed` told on a stream (the stream checks again that the page may be seen) — times the
  units of a real night: a deal every 90 s at each table, each bringing the phones' requests of
  a deal as measured (the post, the page, its new stream, the signatures), the other phone told
  and fetching, and every screen that follows the event told (pushed its part) and fetching as
  often as in the run (every deal seen on its own). An upper bound: a deal's requests cost more
  than a screen's message, and the run has fewer messages a deal than a real night.
  `core_share_run` is the share measured at the run's pace, and `core_share_run_over_speedup`
  the plain "work ÷ speed-up + idle", beside it.
- `core_share_real_night_floor`: the least a real night costs when each deal changes what the
  screens follow: the idle share, plus for each deal of a real night one render of each part
  the screens follow (`render_cpu_ms_per_version`: the round, the standings and the projector,
  rendered afresh after the night) and the phones' requests of a deal, each at what the
  cheapest page of the site costs (`floor_cpu_ms_per_request`: `/manifest.webmanifest`, a view
  through every middleware and no query, measured after the night with the streams still open).
  `core_share_refetch_floor` is the least a design that has every screen fetch its part once
  per deal would cost: a real night's requests (`real_requests_per_second`) at that price.
- `deal_p95_ms`: from a deal's POST to its answer (the redirect: the deal is saved);
  `deal_page_p95_ms` the page loaded after it, `deal_with_page_p95_ms` both.
- `screen_lag_p95_ms`: from a deal's answer to its showing on each screen that follows it
  (the other phone of the table, every spectator and the projector): the time until that
  screen has been pushed a part showing it, or, told `changed`, has fetched one (the first
  fetch sent after the answer, or the one under way then if it is the last); `screens_missed`
  counts the screens that never showed a deal.
- `screen_bytes_per_deal`: the bytes a spectator's screen receives for a deal, as sent
  (gzipped bodies, headers not counted): the pushed part, or the `changed` and the part fetched.
- `lost`/`duplicated`: deals answered "saved" and not stored, stored twice or with numbers out
  of order (and signatures that differ); `errors_5xx`: answers 500 and above; `errors_other`:
  every other unexpected answer or broken connection; `resent`: requests sent again because a
  kept-alive connection was found closed before any answer (a browser sends them again too), and
  `stream_reconnects` streams that did so (the browser reconnects after the stream's `retry`,
  from the version it shows); `stale_forms`: deals a phone entered while its page still offered
  another deal number (posted with the right one).
- `client_cpu_s`: this process's CPU (a slow client makes slow figures); `load_average` and
  `calibration_ms` (`bench.common.calibration_ms`) before and after: the machine's state.

Targets: at most 5 % of one core on a real night (the `--open` preset, 100 tables and 200
spectators: 20 %), deal p95 under 150 ms, every screen within 1 s (p95), no deal lost or
stored twice, no 5xx.

    .venv/bin/python bench/club_night.py [--only sqlite|postgresql] [--minutes 2]
        [--tables 64] [--spectators 100] [--speedup S] [--open]

`make bench` runs it with no arguments: both databases, 2 minutes each (about 3 minutes each with
the setup). The default speed-up fits an average match (8 deals) into `--minutes` (6 for 2
minutes; the `--open` preset half of it, as it has twice the screens).
"""

import argparse
import asyncio
import contextlib
import html
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.common import (
    PYTHON,
    calibration_ms,
    cpu_seconds,
    free_port,
    gunicorn_workers,
    manage,
    percentiles,
    postgres_database_create,
    postgres_database_drop,
    postgres_server,
    psql,
    server_cpu,
    server_cpu_spent,
    stored_matches,
    stored_problems,
)

REAL_DEAL_SECONDS = (60, 120)
"""How long a real deal takes at a club table, dealt, played and entered (seconds)."""
REAL_SIGN_SECONDS = (20, 60)
"""How long the players take to sign once the match is won (seconds)."""
DEALS_PER_MATCH = 8  # about, with the outcomes below: the default speed-up fits one in the run
STRONGER_WINS = 0.75  # each table's stronger seat wins this share of the deals
REASONS = (("won", 40), ("schneider", 35), ("capot", 25))  # 1, 2 and 3 game points
WORKERS = 2  # serve_club's default
IDLE_SECONDS = 10
FLOOR_PATH, FLOOR_REQUESTS, FLOOR_CLIENTS = "/manifest.webmanifest", 400, 4
RENDERS = 5
SETTLE_SECONDS = 10
TIMEOUT = 60
REDIRECTS = (302, 303)
TARGETS = {"core_share_real_night": 0.05, "deal_p95_ms": 150, "screen_lag_p95_ms": 1000,
           "lost": 0, "duplicated": 0, "errors_5xx": 0}
OPEN_TARGETS = {**TARGETS, "core_share_real_night": 0.20}

QUICK_NUMBER = re.compile(
    r'class="deal-entry quick-entry"[^>]*>.*?name="number" value="(\d+)"', re.S)

SETUP_SCRIPT = """
import datetime, json, random
from django.contrib.auth import get_user_model
from club.models import Player
from events import registry, services
from events.models import EntryMode, Tournament
from tableside import table_entry
get_user_model().objects.create_superuser("bench", "", "bench-organiser-{secret}")
event = Tournament.objects.create(
    name="Клубна вечер", date=datetime.date(2026, 12, 1), format="swiss", swiss_rounds=3,
    is_public=True, entry_mode=EntryMode.PLAYERS_SIGN, game_target=11)
for n in range(1, 2 * {tables} + 1):
    services.entry_add(tournament=event, player=Player.objects.create(name=f"Играч {{n}}"))
registry.for_tournament(event).start(rng=random.Random(66))
pairings = (event.rounds.get(number=1).pairings.exclude(match=None)
            .select_related("match").order_by("table"))
print(json.dumps({{"id": event.pk, "tables": [
    {{"match": p.match_id, "token": table_entry.table_of(p.match).token}} for p in pairings]}}))
"""


@dataclass
class Night:
    """What every client shares: the server's address, the pace, what they recorded."""

    base: str
    speedup: float
    timings: dict = field(default_factory=lambda: {
        "deal": [], "deal_page": [], "deal_with_page": [], "sign": [], "fetch": []})
    saves: list = field(default_factory=list)  # (table, answered at, followers)
    requests: dict = field(default_factory=lambda: {"phones": 0, "screens": 0})
    errors_5xx: list = field(default_factory=list)
    errors: list = field(default_factory=list)
    stale_forms: int = 0
    resent: int = 0
    told: int = 0  # `changed` messages and pushed parts received
    pushed: int = 0  # of them, parts pushed
    told_screens: int = 0  # of them, to the spectators' screens and the projector
    screen_bytes: int = 0  # what the screens received for the deals, as sent (gzipped)
    reconnects: int = 0
    playing: bool = False

    over: asyncio.Event = field(default_factory=asyncio.Event)  # the night's time is up

    def pace(self, real: tuple[float, float], rng: random.Random) -> float:
        return rng.uniform(*real) / self.speedup

    async def rest(self, seconds: float) -> None:
        """Wait `seconds`, or less once the night is over."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.over.wait(), seconds)

    def check(self, what: str, response: httpx.Response, expected) -> bool:
        if response.status_code >= 500:
            self.errors_5xx.append(f"{what}: {response.status_code}")
        if response.status_code not in expected:
            self.errors.append(f"{what}: {response.status_code}")
            return False
        return True


class Screen:
    """A page that follows a stream: a spectator's phone, the projector, a player's phone.
    `fetches`: (sent, answered) of each fetch of its live part."""

    kind = "screens"

    def __init__(self, night: Night, client: httpx.AsyncClient, path: str, region: str):
        self.night, self.client, self.path, self.region = night, client, path, region
        self.stream_path = self.stream_part = ""
        self.shown = -1  # the version the page shows
        self.fetching: asyncio.Task | None = None
        self.again = False
        self.fetches: list[tuple[float, float]] = []
        self.stream_task: asyncio.Task | None = None
        self.page = ""

    async def send(self, method: str, path: str, **kwargs) -> httpx.Response:
        """A request; sent once more when a kept-alive connection turns out closed before
        any answer, as a browser does (`resent` counts them)."""
        self.night.requests[self.kind] += 1
        try:
            return await self.client.request(method, path, **kwargs)
        except (httpx.RemoteProtocolError, httpx.ReadError):
            self.night.resent += 1
            return await self.client.request(method, path, **kwargs)

    async def get(self, path: str, **kwargs) -> httpx.Response:
        return await self.send("GET", path, **kwargs)

    def drawn(self, response: httpx.Response) -> None:
        self.page = response.text
        version = response.headers.get("X-Live-Version")
        if version is not None:
            self.shown = max(self.shown, int(version))

    async def load(self) -> None:
        """The whole page, then its stream from the version it shows."""
        response = await self.get(self.path)
        if not self.night.check(f"GET {self.path}", response, (200,)):
            raise OSError(f"GET {self.path}: {response.status_code}")
        self.drawn(response)
        connect = re.search(r'sse-connect="([^"?]+)\?v=\d+([^"]*)"', self.page)
        self.stream_path, self.stream_part = connect.group(1), html.unescape(connect.group(2))
        self.open_stream()

    def open_stream(self) -> None:
        self.stream_task = asyncio.create_task(self.follow(self.shown))

    async def close_stream(self) -> None:
        if self.stream_task is not None:
            self.stream_task.cancel()
            await asyncio.gather(self.stream_task, return_exceptions=True)
            self.stream_task = None

    async def follow(self, seen: int) -> None:
        """Hold the stream; on `changed`, fetch the part; reconnect as a browser does."""
        while True:
            self.night.requests[self.kind] += 1
            try:
                async with self.client.stream(
                        "GET", f"{self.stream_path}?v={seen}{self.stream_part}",
                        headers={"Accept": "text/event-stream"},
                        timeout=httpx.Timeout(TIMEOUT, read=None)) as response:
                    if not self.night.check(f"stream {self.stream_path}", response, (200,)):
                        return
                    message: dict[str, str] = {}
                    counted = 0
                    async for line in response.aiter_lines():
                        if line:
                            if not line.startswith(":"):
                                name, _, value = line.partition(":")
                                message[name] = value[1:] if value.startswith(" ") else value
                            continue
                        if self.kind == "screens" and message:
                            received = response.num_bytes_downloaded
                            self.night.screen_bytes += received - counted
                            counted = received
                        if message.get("event") == "changed":
                            seen = int(message["data"])
                            self.night.told += 1
                            self.night.told_screens += self.kind == "screens"
                            self.changed(seen)
                        elif message.get("event") == "part":
                            seen = int(message["id"])
                            self.night.told += 1
                            self.night.told_screens += self.kind == "screens"
                            self.night.pushed += 1
                            self.swapped(seen)
                        elif message.get("event") == "gone":
                            self.night.errors.append(f"stream {self.stream_path}: gone")
                            return
                        message = {}
            except (httpx.RemoteProtocolError, httpx.ReadError):
                self.night.reconnects += 1  # a kept-alive connection found closed, or cut
            except httpx.HTTPError as error:
                self.night.errors.append(f"stream {self.stream_path}: {error!r}")
            await asyncio.sleep(2)  # the stream's retry

    def swapped(self, version: int) -> None:
        """A part pushed by the stream, swapped in (live.js: unless the page shows it)."""
        if version > self.shown:
            self.shown = version
            now = time.monotonic()
            self.fetches.append((now, now))

    def changed(self, version: int) -> None:
        if version <= self.shown:  # this page shows it already (live.js)
            return
        if self.fetching is not None and not self.fetching.done():
            self.again = True  # htmx's queue: once more after the fetch under way
            return
        self.fetching = asyncio.create_task(self.fetch())

    async def fetch(self) -> None:
        while True:
            self.again = False
            sent = time.monotonic()
            try:
                response = await self.get(self.path, headers={
                    "HX-Request": "true", "HX-Target": self.region,
                    "HX-Current-URL": self.night.base + self.path})
            except httpx.HTTPError as error:
                self.night.errors.append(f"fetch {self.path}: {error!r}")
                return
            answered = time.monotonic()
            if self.kind == "screens":
                self.night.screen_bytes += response.num_bytes_downloaded
            if self.night.check(f"fetch {self.path}", response, (200,)):
                self.drawn(response)
                self.fetches.append((sent, answered))
                self.night.timings["fetch"].append(answered - sent)
            if not self.again:
                return


class Phone(Screen):
    """A player's phone at a table: the players' page of the match's link, in one seat."""

    kind = "phones"

    def __init__(self, night: Night, token: str, seat: str):
        client = httpx.AsyncClient(base_url=night.base, timeout=TIMEOUT,
                                   follow_redirects=False)
        super().__init__(night, client, f"/p/{token}/", "players-live")
        self.seat = seat

    async def post(self, path: str, fields: dict) -> httpx.Response:
        fields = {"csrfmiddlewaretoken": self.client.cookies.get("csrftoken", ""), **fields}
        return await self.send("POST", path, data=fields)

    async def sit(self) -> None:
        response = await self.get(self.path)  # "Who are you?"
        self.night.check(f"seat page {self.path}", response, (200,))
        response = await self.post(self.path + "seat/", {"seat": self.seat})
        if not self.night.check(f"seat {self.path}", response, REDIRECTS):
            raise OSError(f"seat {self.seat}: {response.status_code}")
        await self.load()

    def offered(self) -> int | None:
        """The deal number the page's quick form offers (None: no form, the match is won)."""
        shown = QUICK_NUMBER.search(self.page)
        return int(shown.group(1)) if shown else None

    async def navigate(self, what: str, path: str, fields: dict) -> float | None:
        """Post a form of the page, then load the page it leads to (a new page: a new stream).
        The time the post was answered, or None when it was refused."""
        await self.close_stream()  # the page is left
        started = time.monotonic()
        response = await self.post(path, fields)
        answered = time.monotonic()
        if not self.night.check(f"{what} {path}", response, REDIRECTS):
            return None
        self.night.timings[what].append(answered - started)
        page = await self.get(response.headers["Location"])
        if self.night.check(f"page after {what} {path}", page, (200,)):
            self.drawn(page)
            if what == "deal":
                self.night.timings["deal_page"].append(time.monotonic() - answered)
                self.night.timings["deal_with_page"].append(time.monotonic() - started)
        self.open_stream()
        return answered


class Table:
    """Two phones and what the server acknowledged to them."""

    def __init__(self, night: Night, match: int, token: str, rng: random.Random):
        self.night, self.match, self.rng = night, match, rng
        self.phones = {seat: Phone(night, token, seat) for seat in "AB"}
        self.stronger = rng.choice("AB")
        self.number, self.acknowledged = 1, 0
        self.signed = {"A": False, "B": False}

    async def play(self, screens: list[Screen]) -> None:
        try:
            await self.deals(screens)
        except httpx.HTTPError as error:  # the table stops
            self.night.errors.append(f"table {self.match}: {error!r}")

    async def deals(self, screens: list[Screen]) -> None:
        night, rng = self.night, self.rng
        await night.rest(rng.uniform(0, night.pace(REAL_DEAL_SECONDS, rng)))
        turn = "A"
        over = False
        while night.playing and not over:
            phone, other = self.phones[turn], self.phones["B" if turn == "A" else "A"]
            if phone.offered() != self.number:
                night.stale_forms += 1
            winner = self.stronger if rng.random() < STRONGER_WINS else (
                "B" if self.stronger == "A" else "A")
            reasons, weights = zip(*REASONS, strict=True)
            answered = await phone.navigate("deal", phone.path + "deal/", {
                "number": self.number, "winner": winner,
                "reason": rng.choices(reasons, weights)[0]})
            if answered is None:
                return
            self.acknowledged += 1
            self.number += 1
            night.saves.append((self, answered, [other, *screens]))
            over = phone.offered() is None
            turn = "B" if turn == "A" else "A"
            if not over:
                await night.rest(night.pace(REAL_DEAL_SECONDS, rng))
        if over:
            await asyncio.gather(*(self.sign(seat) for seat in "AB"))

    async def sign(self, seat: str) -> None:
        await self.night.rest(self.night.pace(REAL_SIGN_SECONDS, self.rng))
        if not self.night.playing:
            return
        phone = self.phones[seat]
        if await phone.navigate("sign", phone.path + "sign/", {"seat": seat}) is not None:
            self.signed[seat] = True


def screen_lags(night: Night) -> tuple[list[float], int]:
    """Seconds from each deal's answer to its showing on each screen that follows it, and
    how many screens never showed it."""
    lags, missed = [], 0
    for _table, answered, followers in night.saves:
        for screen in followers:
            after = [done for sent, done in screen.fetches if sent >= answered]
            under_way = [done for sent, done in screen.fetches if done >= answered]
            shown = after[0] if after else under_way[-1] if under_way else None
            if shown is None:
                missed += 1
            else:
                lags.append(shown - answered)
    return lags, missed


class Server:
    """`manage.py serve_club` in a child process (it becomes gunicorn's master)."""

    def __init__(self, env: dict, port: int, log: Path):
        self.log = log.open("w")
        self.process = subprocess.Popen(
            [PYTHON, "manage.py", "serve_club", "--address", "127.0.0.1", "--port", str(port),
             "--workers", str(WORKERS)],
            cwd=ROOT, env=env, stdout=self.log, stderr=subprocess.STDOUT)
        self.pid = self.process.pid

    def wait_ready(self, base: str) -> None:
        for _ in range(600):
            if self.process.poll() is not None:
                break
            try:
                if httpx.get(base + "/", timeout=5).status_code == 200:
                    gunicorn_workers(self.pid, WORKERS)
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        self.stop()
        raise SystemExit(f"serve_club did not start:\n{Path(self.log.name).read_text()[-3000:]}")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()


class Cpu:
    """The server's CPU so far: gunicorn's processes, and on PostgreSQL the bench database's
    backends plus what the postmaster's ended children spent."""

    def __init__(self, master: int, server: str | None, name: str):
        self.master, self.server, self.name = master, server, name
        self.postmaster = None
        if server:
            checkpointer = psql(server, "SELECT pid FROM pg_stat_activity "
                                        "WHERE backend_type = 'checkpointer'").split()
            stat = Path(f"/proc/{checkpointer[0]}/stat").read_text().rsplit(")", 1)[1].split()
            self.postmaster = int(stat[1])

        self.others_busy = False

    def read(self) -> dict:
        reading = server_cpu(self.master, self.server, self.name)
        if self.postmaster:
            fields = Path(f"/proc/{self.postmaster}/stat").read_text().rsplit(")", 1)[1].split()
            reading["ended"] = (int(fields[13]) + int(fields[14])) / os.sysconf("SC_CLK_TCK")
            reading["others"] = float(psql(self.server, (
                "SELECT coalesce(sum(xact_commit + xact_rollback), 0) FROM pg_stat_database "
                f"WHERE datname NOT IN ('{self.name}', 'postgres')")).strip())
        return reading

    def spent(self, before: dict, after: dict) -> float:
        """CPU seconds between two readings. The postmaster's ended children count only when
        no other database did anything meanwhile (else they may be another's backends: then
        only the backends alive at the readings count, `others_busy` says so)."""
        spent = server_cpu_spent(before, after)
        ended = after.get("ended", 0) - before.get("ended", 0)
        if after.get("others") != before.get("others"):
            self.others_busy, ended = True, 0.0
        return spent["gunicorn"] + spent["postgres"] + ended


async def night_out(base: str, event: dict, args, cpu: Cpu) -> dict:
    """Arrive, idle, play, settle; the figures measured (before the database is read)."""
    night = Night(base=base, speedup=args.speedup)
    rng = random.Random(7)
    tables = [Table(night, row["match"], row["token"], random.Random(rng.random()))
              for row in event["tables"]]
    limits = httpx.Limits(max_connections=None, max_keepalive_connections=None)
    shared = httpx.AsyncClient(base_url=base, timeout=TIMEOUT, limits=limits)
    pages = [(f"/t/{event['id']}/rounds/1/", "live-round"),
             (f"/t/{event['id']}/standings/", "live-standings")]
    screens = [Screen(night, shared, *pages[n % 2]) for n in range(args.spectators)]
    screens.append(Screen(night, shared, f"/t/{event['id']}/projector/", "projector-slides"))
    arrivals = [phone.sit() for table in tables for phone in table.phones.values()]
    arrivals += [screen.load() for screen in screens]
    for start in range(0, len(arrivals), 50):  # not all in the same instant
        for failed in await asyncio.gather(*arrivals[start:start + 50],
                                           return_exceptions=True):
            if isinstance(failed, Exception):
                night.errors.append(f"arriving: {failed!r}")
    night.requests = {"phones": 0, "screens": 0}

    client_before = cpu_seconds(os.getpid())
    idle_before = cpu.read()
    await asyncio.sleep(IDLE_SECONDS)
    idle_after = cpu.read()
    idle_rate = cpu.spent(idle_before, idle_after) / IDLE_SECONDS

    night.playing = True
    started = time.monotonic()
    play = [asyncio.create_task(table.play(screens)) for table in tables]
    await asyncio.sleep(args.minutes * 60)
    night.playing = False
    night.over.set()
    await asyncio.gather(*play)  # a deal or a signature under way ends
    played = time.monotonic() - started
    settle_until = time.monotonic() + SETTLE_SECONDS
    while time.monotonic() < settle_until:  # the screens catch up with the last deal
        await asyncio.sleep(0.5)
        if night.saves and screen_lags(night)[1] == 0:
            break
    elapsed = time.monotonic() - started
    night_after = cpu.read()
    client_cpu = cpu_seconds(os.getpid()) - client_before

    # The floor: the cheapest page of the site (a view through every middleware, no query),
    # FLOOR_REQUESTS of them, FLOOR_CLIENTS at a time, the streams still open.
    async def floor_client(count: int) -> None:
        for _ in range(count):
            night.check("floor", await shared.get(FLOOR_PATH), (200,))

    floor_before, floor_started = cpu.read(), time.monotonic()
    await asyncio.gather(*(floor_client(FLOOR_REQUESTS // FLOOR_CLIENTS)
                           for _ in range(FLOOR_CLIENTS)))
    floor_cpu = max(0.0, cpu.spent(floor_before, cpu.read())
                    - idle_rate * (time.monotonic() - floor_started)) / FLOOR_REQUESTS

    # A render of each part the screens follow, as a new version costs it once: each GET a
    # new address (`?render=`), so none comes from the parts kept for a version.
    followed = sorted({screen.path for screen in screens})
    render_before, render_started = cpu.read(), time.monotonic()
    for number in range(RENDERS):
        for path in followed:
            night.check("render", await shared.get(f"{path}?render={number}", headers={
                "HX-Request": "true"}), (200,))
    render_cpu = max(0.0, cpu.spent(render_before, cpu.read())
                     - idle_rate * (time.monotonic() - render_started)) / RENDERS

    everyone = [screen for screen in screens] + [p for t in tables for p in t.phones.values()]
    for screen in everyone:
        await screen.close_stream()
        if screen.fetching is not None:
            await asyncio.gather(screen.fetching, return_exceptions=True)
    await asyncio.gather(shared.aclose(), *(p.client.aclose() for t in tables
                                          for p in t.phones.values()))

    lags, missed = screen_lags(night)
    deals = len(night.saves)
    work = max(0.0, cpu.spent(idle_after, night_after) - idle_rate * elapsed)
    # Units of work: requests and `changed` messages (each checks the page may still be seen).
    units = night.requests["phones"] + night.requests["screens"] + night.told
    real_deals_per_second = len(tables) / (sum(REAL_DEAL_SECONDS) / 2)
    phone_units_per_deal = (night.requests["phones"] / deals + 1) if deals else 0
    # A screen is told of each deal, and fetches after it unless the part came pushed.
    screen_units = 1 + (night.requests["screens"] / night.told_screens
                        if night.told_screens else 1)
    real_units_per_second = real_deals_per_second * (
        phone_units_per_deal + screen_units * len(screens))
    real_share = idle_rate + (work / units * real_units_per_second if units else 0)
    real_requests_per_second = real_deals_per_second * (phone_units_per_deal - 1 + len(screens))
    return {
        "night": night, "tables": tables,
        "core_share_real_night": round(real_share, 4),
        "core_share_idle": round(idle_rate, 4),
        "core_share_run": round(idle_rate + work / elapsed, 4),
        "core_share_run_over_speedup": round(idle_rate + work / elapsed / args.speedup, 4),
        "core_share_real_night_floor": round(idle_rate + real_deals_per_second * (
            render_cpu + floor_cpu * phone_units_per_deal), 4),
        "core_share_refetch_floor": round(idle_rate + floor_cpu * real_requests_per_second, 4),
        "floor_cpu_ms_per_request": round(floor_cpu * 1000, 3),
        "render_cpu_ms_per_version": round(render_cpu * 1000, 1),
        "work_cpu_ms_per_unit": round(work / units * 1000, 3) if units else None,
        "work_cpu_ms_per_deal": round(work / deals * 1000, 1) if deals else None,
        "deals": deals, "deals_per_second": round(deals / played, 2),
        "phone_requests_per_deal": round(night.requests["phones"] / deals, 2) if deals else 0,
        "screen_requests_per_deal": round(night.requests["screens"] / deals, 1) if deals else 0,
        "told_per_deal": round(night.told / deals, 1) if deals else 0,
        "pushed_per_deal": round(night.pushed / deals, 1) if deals else 0,
        "screen_bytes_per_deal": round(night.screen_bytes / deals / len(screens))
        if deals else 0,
        "real_requests_per_second": round(real_requests_per_second, 1),
        "deal_p95_ms": percentiles(night.timings["deal"])["p95_ms"],
        "deal": percentiles(night.timings["deal"]),
        "deal_page_p95_ms": percentiles(night.timings["deal_page"])["p95_ms"],
        "deal_with_page_p95_ms": percentiles(night.timings["deal_with_page"])["p95_ms"],
        "sign_p95_ms": percentiles(night.timings["sign"])["p95_ms"],
        "fetch": percentiles(night.timings["fetch"]),
        "screen_lag_p95_ms": percentiles(lags)["p95_ms"],
        "screen_lag": percentiles(lags),
        "screens_missed": missed,
        "stale_forms": night.stale_forms, "resent": night.resent,
        "stream_reconnects": night.reconnects,
        "client_cpu_s": round(client_cpu, 1),
        "postgres_cpu_partial": cpu.others_busy,
        "seconds": round(elapsed, 1),
    }


def serve(database: str, args) -> dict:
    """One night on `database` ("sqlite" or "postgresql"): its figures."""
    folder = Path(tempfile.mkdtemp(prefix="club-night-"))
    pg_server, name = None, f"club_night_{os.getpid()}"
    env = {**os.environ, "SECRET_KEY": f"club-night-bench-{os.urandom(16).hex()}",
           "CACHE_URL": f"filecache://{folder / 'cache'}", "LOG_LEVEL": "WARNING"}
    if database == "postgresql":
        pg_server = postgres_server()
        if pg_server is None:
            shutil.rmtree(folder, ignore_errors=True)
            return {"database": database, "skipped": "no PostgreSQL server answers"}
        env["DATABASE_URL"] = postgres_database_create(pg_server, name)
    else:
        env["DATABASE_URL"] = f"sqlite:///{folder / 'night.sqlite3'}"
    server = None
    try:
        manage(env, "migrate", "--noinput", "-v", "0")
        script = SETUP_SCRIPT.format(tables=args.tables, secret=os.urandom(8).hex())
        event = json.loads(manage(env, "shell", "-v", "0", stdin=script).strip().splitlines()[-1])
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        server = Server(env, port, folder / "server.log")
        server.wait_ready(base)
        cpu = Cpu(server.pid, pg_server, name)
        figures = asyncio.run(night_out(base, event, args, cpu))
        server.stop()
        night, tables = figures.pop("night"), figures.pop("tables")
        stored = stored_matches(env, [table.match for table in tables])
        lost, problems = stored_problems(tables, stored)
        duplicated = sum(row["stored"] - row["distinct"] for row in stored.values())
        return {
            "database": database, **figures,
            "lost": lost - duplicated, "duplicated": duplicated,
            "errors_5xx": len(night.errors_5xx), "errors_other": len(night.errors),
            "matches_finished": sum(row["finished"] for row in stored.values()),
            "problems": (problems + night.errors_5xx + night.errors)[:10],
        }
    finally:
        if server is not None:
            server.stop()
        if pg_server:
            postgres_database_drop(pg_server, name)
        shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", choices=("sqlite", "postgresql"))
    parser.add_argument("--minutes", type=float, default=2)
    parser.add_argument("--tables", type=int)
    parser.add_argument("--spectators", type=int)
    parser.add_argument("--speedup", type=float)
    parser.add_argument("--open", action="store_true",
                        help="a 200-player open: 100 tables, 200 spectators")
    args = parser.parse_args()
    args.tables = args.tables or (100 if args.open else 64)
    args.spectators = args.spectators if args.spectators is not None else (
        200 if args.open else 100)
    if args.speedup is None:  # an average match in the run
        fits = DEALS_PER_MATCH * sum(REAL_DEAL_SECONDS) / 2 / (args.minutes * 60)
        args.speedup = round(fits / 2 if args.open else fits, 1)
    targets = OPEN_TARGETS if args.open else TARGETS
    machine = {"cores": os.cpu_count(), "load_average_before": os.getloadavg(),
               "calibration_ms_before": round(calibration_ms(), 1)}
    print(f"club night: {args.tables} tables, {args.spectators} spectators and a projector, "
          f"x{args.speedup}, {args.minutes} min; {machine}", flush=True)
    for database in ("sqlite", "postgresql"):
        if args.only and args.only != database:
            continue
        run = serve(database, args)
        if "skipped" not in run:
            run["targets_met"] = {key: run[key] is not None and run[key] <= limit
                                  for key, limit in targets.items()}
        print(json.dumps({
            "bench": "club_night", **run, "tables": args.tables, "spectators": args.spectators,
            "speedup": args.speedup, "minutes": args.minutes, "targets": targets, **machine,
            "load_average_after": os.getloadavg(),
            "calibration_ms_after": round(calibration_ms(), 1)}, ensure_ascii=False), flush=True)

if __name__ == "__main__":
    main()
