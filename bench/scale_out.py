"""Scale-out on one machine: two web nodes sharing one PostgreSQL, one Redis and a Celery
worker, as a federation would run the site behind a proxy (issue 18, target 6).

Everything runs on 127.0.0.1. A throwaway PostgreSQL database (made on DATABASE_URL's server,
or 127.0.0.1:5432, dropped afterwards) is migrated and given round robins of players entering
their own results (`players_sign`, at most 50 tables each) and a knockout (a quarter of the
tables, a power of two, for a bracket page), one organiser organising them all. Then:

- two gunicorn instances (`--workers` sync workers each, the site with /hello/ added:
  `bench.common.application`) on two ports, with the same SECRET_KEY, the same database, the
  cache and the sessions in Redis database `--cache-db` (CACHE_URL), the Celery broker in Redis
  database `--broker-db` (CELERY_BROKER_URL), and one MEDIA_ROOT (a temporary directory);
- one real Celery worker (`celery -A club worker --pool=solo`) on that broker, database and
  MEDIA_ROOT;
- each table's two phones open the match's secret link and choose their seat, each on its own
  node: half the tables have their two phones on different nodes. They enter the match deal by
  deal in turn (the quick form: POST, redirect, page), one deal every `--pace` seconds at the
  table, until it is won, then both sign. After each deal the other phone loads its page on its
  own node, which must offer the next deal number (a read after a write on the other node);
- the organiser logs in on node A, then on node B asks for round 1's round pack (the PDF: round
  sheet and scorecards, `tournaments.printing.jobs`) and polls the control room, and follows the
  job's status page on node A until the worker has built it, and downloads it from node B: this
  only works if sessions (and the CSRF cookie's secret) are shared; after play they log out on
  node A, and node B must then refuse that session even with its cookie kept;
- `--spectators` follow a match page, a round, the standings or the bracket, each event's on
  both nodes in turn, polling every 4 s with the ETag they have (htmx, `tournaments.live`);
- a probe GETs /hello/ on each node twice a second: the floor of a request under the load.

After play, once nothing changes: each live page (a match page, each round 1 page, each
standings page, the bracket) is asked on both nodes as an htmx poll: the same status, ETag and
body, and node B answers node A's ETag with a 304. Then shared counters: wrong passwords for one
user name spread over both nodes lock it out on either (django-axes, in the database), and
wrong players' links spread over both nodes reach the guess limit on either (Django's cache, in
Redis); both run last, as they lock this address out. Then the database: every deal a phone was
told is saved is stored once, with no gap (`bench.common.stored_matches`); the print job is
done and its PDF is under MEDIA_ROOT.

Printed: deals/s; p50/p95 of a deal (POST and page) and of polls per node, and of /hello/
alone and under load (the floor), with ratios; 5xx; CPU of each node, PostgreSQL and the
worker; the load average and a fixed loop's time. Every process it starts is stopped, the two
Redis databases are emptied (FLUSHDB; the bench refuses to start when either holds keys), the
database dropped, the temporary directory removed. The last line is one JSON object.

    .venv/bin/python bench/scale_out.py [--tables 64] [--spectators 16] [--pace 2 4]
        [--game-target 11] [--workers 2] [--cache-db 11] [--broker-db 12] [--duration 300]

`--tables 8 --spectators 4 --game-target 5` is a quick run. `--per-node-cache` gives each node
its own file cache (CACHE_URL's default on one machine) instead of Redis, to see which checks
fail then: a logout on one node leaves the session open on the other, and each node counts
wrong links apart.
Checks (issue 18, target 6): 0 lost or duplicated deals, 0 stale reads across nodes, no screen
answered 304 for a part that changed, the same live pages on both nodes, sessions (a logout
too), lock-outs and guess limits shared, the round pack built by the worker during play, 0 5xx.
"""

import argparse
import http.client
import http.cookies
import json
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
    redis_database,
    stored_matches,
    stored_problems,
)

REDIS_URL = "redis://127.0.0.1:6379"
PASSWORD = "bench-organiser-pass-66"
GROUP_TABLES = 50  # a round robin takes at most 100 players (tournaments.formats.round_robin)
REASONS = (("won", 50), ("schneider", 10), ("capot", 3))  # the quick form's fixed-point ones
POLL_SECONDS = 4  # tournaments.live.POLL_SECONDS
PROBE_SECONDS = 0.5
HELLO_REQUESTS = 100
TIMEOUT = 60  # seconds a request waits for its answer
PRINT_LIMIT = 180  # seconds the worker gets to build the round pack
LOCKOUT_LIMIT = 3  # AXES_FAILURE_LIMIT on both nodes
GUESS_LIMIT = 30  # tournaments.views.table.GUESS_LIMIT
REDIRECTS = (302, 303)
QUICK_NUMBER = re.compile(
    r'class="deal-entry quick-entry"[^>]*>.*?name="number" value="(\d+)"', re.S)
CSRF_INPUT = re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"|"X-CSRFToken": "[^"]*"')
PRINT_FILE = re.compile(r'href="(/t/\d+/print/\d+/file/)"')

SETUP_SCRIPT = """
import json, random
from django.contrib.auth import get_user_model
from club.models import Player
from tournaments import formats, services, table_entry
from tournaments.models import EntryMode, Tournament
organiser = get_user_model().objects.create_user("organiser", password="{password}")
get_user_model().objects.create_user("locked", password="{password}")
events = []
for index, (kind, tables) in enumerate({sizes}, start=1):
    tournament = Tournament.objects.create(
        name=f"Група {{index}}", date="2026-12-01", format=kind, is_public=True,
        entry_mode=EntryMode.PLAYERS_SIGN, game_target={target})
    tournament.organisers.add(organiser)
    for n in range(1, 2 * tables + 1):
        player = Player.objects.create(name=f"Играч {{index}}-{{n}}")
        services.entry_add(tournament=tournament, player=player)
    formats.for_tournament(tournament).start(rng=random.Random(66 + index))
    pairings = (tournament.rounds.get(number=1).pairings.exclude(match=None)
                .select_related("match").order_by("table"))
    events.append({{"id": tournament.pk, "format": kind, "tables": [
        {{"match": p.match_id, "token": table_entry.table_of(p.match).token}}
        for p in pairings]}})
print(json.dumps(events))
"""

PRINT_CHECK_SCRIPT = """
import json, os
from tournaments.models import PrintJob
rows = [{{"status": job.status, "kind": job.kind, "error": job.error,
          "file": bool(job.file) and os.path.exists(job.file.path)}}
        for job in PrintJob.objects.filter(tournament_id={event})]
print(json.dumps(rows))
"""


class Node:
    """One web node: its port and what its clients recorded (kind, status, seconds, phase)."""

    def __init__(self, name: str, port: int):
        self.name, self.port, self.host = name, port, f"127.0.0.1:{port}"
        self.records: list[tuple[str, int, float, str]] = []
        self.server_errors: list[str] = []
        self.process: subprocess.Popen | None = None


class Run:
    """The run's shared state: the phase, errors, when the last change was acknowledged."""

    def __init__(self):
        self.phase = "arrive"
        self.errors: list[str] = []
        self.stop = threading.Event()
        self.last_write = 0.0
        self.deadline = float("inf")  # when play must stop (monotonic), set as it starts

    def error(self, text: str) -> None:
        self.errors.append(text)


class Browser:
    """A phone or a screen: its cookies (for 127.0.0.1, so both nodes: a browser sends a host's
    cookies whatever its port, as it would through one proxy) and its requests, each on a new
    connection (gunicorn's sync workers close it after the answer)."""

    def __init__(self, run: Run):
        self.run = run
        self.cookies: dict[str, str] = {}

    def request(self, node: Node, method: str, path: str, fields: dict | None = None,
                headers: dict | None = None, kind: str | None = None):
        """(status, headers, body) of `method path` on `node`, its time recorded under `kind`
        (when given); `fields` are posted form-encoded with the CSRF token. Raises OSError
        when the connection fails."""
        sent = {"Host": node.host, **(headers or {})}
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if fields is not None:
            fields = {"csrfmiddlewaretoken": self.cookies.get("csrftoken", ""), **fields}
            body = urllib.parse.urlencode(fields)
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        phase, started = self.run.phase, time.perf_counter()
        connection = http.client.HTTPConnection("127.0.0.1", node.port, timeout=TIMEOUT)
        try:
            connection.request(method, path, body=body, headers=sent)
            response = connection.getresponse()
            data = response.read()
        finally:
            connection.close()
        if kind:
            node.records.append((kind, response.status, time.perf_counter() - started, phase))
        for header in response.headers.get_all("Set-Cookie") or ():
            for name, morsel in http.cookies.SimpleCookie(header).items():
                if morsel.value and morsel["max-age"] != "0":
                    self.cookies[name] = morsel.value
                else:
                    self.cookies.pop(name, None)
        if response.status >= 500:
            node.server_errors.append(f"{method} {path}: {response.status}")
        text = data.decode("utf-8", errors="replace") if not data.startswith(b"%PDF") else ""
        return response.status, response.headers, text if text else data


class Table(threading.Thread):
    """A table: phone A on `nodes["A"]`, phone B on `nodes["B"]`; they enter the match in
    turn, each checking after the other's deal that its own node offers the next number."""

    def __init__(self, run: Run, match: int, token: str, nodes: dict, pace,
                 go: threading.Event, seed: int):
        super().__init__(daemon=True)
        self.run_state, self.match, self.nodes, self.pace = run, match, nodes, pace
        self.path, self.go = f"/p/{token}/", go
        self.rng = random.Random(seed)
        self.phones = {seat: Browser(run) for seat in "AB"}
        self.acknowledged, self.signed = 0, {"A": False, "B": False}
        self.stale_reads, self.over, self.ready = 0, False, threading.Event()
        self.split = nodes["A"] is not nodes["B"]

    def fail(self, text: str) -> None:
        self.run_state.error(f"table {self.match}: {text}")

    def sit(self, seat: str) -> bool:
        phone, node = self.phones[seat], self.nodes[seat]
        status, _, _ = phone.request(node, "GET", self.path)
        if status != 200:
            self.fail(f"{seat} opened the link: {status}")
            return False
        status, answer, _ = phone.request(node, "POST", self.path + "seat/", {"seat": seat})
        if status not in REDIRECTS:
            self.fail(f"{seat} chose the seat: {status}")
            return False
        return True

    def offered(self, seat: str, kind: str) -> int | None:
        """The deal number `seat`'s page offers on its node (None: no form, the match is
        won); raises OSError when the page does not load."""
        status, _, page = self.phones[seat].request(self.nodes[seat], "GET", self.path,
                                                    kind=kind)
        if status != 200:
            raise OSError(f"{seat}'s page: {status}")
        shown = QUICK_NUMBER.search(page)
        return int(shown.group(1)) if shown else None

    def run(self) -> None:
        try:
            seated = self.sit("A") and self.sit("B")
            self.ready.set()
            if seated:
                self.go.wait()
                self.play()
        except OSError as error:
            self.fail(repr(error))
        finally:
            self.ready.set()

    def play(self) -> None:
        number, seat = 1, "A"
        while not self.run_state.stop.is_set() and time.monotonic() < self.run_state.deadline:
            time.sleep(self.rng.uniform(*self.pace))
            phone, node, other = self.phones[seat], self.nodes[seat], "B" if seat == "A" else "A"
            reasons, weights = zip(*REASONS, strict=True)
            fields = {"number": number, "winner": self.rng.choice("AB"),
                      "reason": self.rng.choices(reasons, weights)[0]}
            started = time.perf_counter()
            status, answer, _ = phone.request(node, "POST", self.path + "deal/", fields,
                                              kind="deal_post")
            if status not in REDIRECTS:
                self.fail(f"deal {number} on node {node.name}: {status}")
                return
            self.acknowledged += 1
            self.run_state.last_write = time.monotonic()
            status, _, page = phone.request(node, "GET", answer["Location"])
            node.records.append(("deal", status, time.perf_counter() - started,
                                 self.run_state.phase))
            shown = QUICK_NUMBER.search(page) if status == 200 else None
            mine = int(shown.group(1)) if shown else None
            theirs = self.offered(other, "phone_page")  # the other phone, on its own node
            if mine not in (None, number + 1) or theirs != mine:
                self.stale_reads += 1
                self.fail(f"after deal {number} node {node.name} offers {mine}, the other "
                          f"phone's node {self.nodes[other].name} {theirs}")
            if mine is None:
                self.over = True
                break
            number, seat = number + 1, other
        if not self.over:
            return
        for seat in "AB":
            time.sleep(self.rng.uniform(*self.pace) / 2)
            status, _, _ = self.phones[seat].request(self.nodes[seat], "POST",
                                                     self.path + "sign/", {"seat": seat},
                                                     kind="sign")
            if status not in REDIRECTS:
                self.fail(f"{seat} signed on node {self.nodes[seat].name}: {status}")
                return
            self.signed[seat] = True
            self.run_state.last_write = time.monotonic()


def htmx_poll(browser: Browser, node: Node, path: str, etag: str | None, kind: str):
    """An htmx poll of `path` on `node` with the ETag shown (`static/js/live.js`)."""
    headers = {"HX-Request": "true"}
    if etag:
        headers["If-None-Match"] = etag
    return browser.request(node, "GET", path, headers=headers, kind=kind)


class Spectator(threading.Thread):
    """A screen following `path` on `node`: loads it, then polls every 4 s."""

    def __init__(self, run: Run, node: Node, path: str, rng: random.Random):
        super().__init__(daemon=True)
        self.run_state, self.node, self.path, self.rng = run, node, path, rng
        self.browser, self.etag, self.shown = Browser(run), None, ""

    def run(self) -> None:
        browser = self.browser
        try:
            browser.request(self.node, "GET", self.path)
            while not self.run_state.stop.wait(POLL_SECONDS + self.rng.uniform(-0.2, 0.2)):
                status, answer, body = htmx_poll(browser, self.node, self.path, self.etag,
                                                 "poll")
                if status == 200:
                    self.etag, self.shown = answer.get("ETag"), body
                elif status != 304:
                    self.run_state.error(f"poll {self.path} on {self.node.name}: {status}")
        except OSError as error:
            self.run_state.error(f"spectator {self.path}: {error!r}")


class Organiser(threading.Thread):
    """Logs in on node A, asks for round 1's pack on node B, polls the control room on B and
    the job's status page on A until the PDF is built, downloads it from B."""

    def __init__(self, run: Run, nodes: list[Node], event: int):
        super().__init__(daemon=True)
        self.run_state, self.nodes, self.event = run, nodes, event
        self.browser = Browser(run)
        self.checks = {"login": False, "session_on_other_node": False,
                       "post_on_other_node": False, "pdf_downloaded": False,
                       "logout_on_other_node": False}
        self.print_seconds: float | None = None
        self.printed_during_play: bool | None = None
        self.started = threading.Event()

    def login(self) -> None:
        a, b = self.nodes
        self.browser.request(a, "GET", "/accounts/login/")
        status, _, _ = self.browser.request(a, "POST", "/accounts/login/", {
            "username": "organiser", "password": PASSWORD})
        self.checks["login"] = status in REDIRECTS
        status, _, _ = self.browser.request(b, "GET", f"/t/{self.event}/control/")
        self.checks["session_on_other_node"] = status == 200

    def logout(self) -> None:
        """Log out on node A: node B must then refuse the session, even to a browser that
        kept its cookie (the server ended it, not only the browser's cookie)."""
        a, b = self.nodes
        kept = self.browser.cookies.get("sessionid", "")
        status, _, _ = self.browser.request(a, "POST", "/accounts/logout/", {})
        self.browser.cookies["sessionid"] = kept
        after, answer, _ = self.browser.request(b, "GET", f"/t/{self.event}/control/")
        self.checks["logout_on_other_node"] = (
            status in REDIRECTS and after in REDIRECTS
            and answer.get("Location", "").startswith("/accounts/login/"))

    def run(self) -> None:
        a, b = self.nodes
        try:
            self.login()
        except OSError as error:
            self.run_state.error(f"organiser: {error!r}")
        finally:
            self.started.set()
        try:
            self.follow(a, b)
        except OSError as error:
            self.run_state.error(f"organiser: {error!r}")

    def follow(self, a: Node, b: Node) -> None:
        while self.run_state.phase != "play" and not self.run_state.stop.is_set():
            time.sleep(0.2)
        asked = time.monotonic()
        status, answer, _ = self.browser.request(
            b, "POST", f"/t/{self.event}/print/", {"kind": "round", "round": 1, "lang": "bg"},
            kind="print_request")
        self.checks["post_on_other_node"] = status in REDIRECTS
        if status not in REDIRECTS:
            self.run_state.error(f"print request on node B: {status}")
            return
        status_path, control = answer["Location"], f"/t/{self.event}/control/"
        etag, next_control = None, 0.0
        while not self.run_state.stop.is_set() and time.monotonic() - asked < PRINT_LIMIT:
            if time.monotonic() >= next_control:
                status, response, _ = htmx_poll(self.browser, b, control, etag, "control")
                if status == 200:
                    etag = response.get("ETag")
                elif status != 304:
                    self.run_state.error(f"control room on node B: {status}")
                next_control = time.monotonic() + POLL_SECONDS
            status, _, page = self.browser.request(a, "GET", status_path,
                                                   headers={"HX-Request": "true"},
                                                   kind="print_status")
            found = PRINT_FILE.search(page) if status == 200 else None
            if found:
                self.print_seconds = time.monotonic() - asked
                self.printed_during_play = self.run_state.phase == "play"
                status, response, pdf = self.browser.request(b, "GET", found.group(1))
                self.checks["pdf_downloaded"] = (
                    status == 200 and isinstance(pdf, bytes) and pdf.startswith(b"%PDF")
                    and response.get("Content-Type") == "application/pdf")
                return
            time.sleep(1)
        self.run_state.error("the round pack was not built in time")


def probe(run: Run, node: Node, stop: threading.Event) -> None:
    """/hello/ on `node` every PROBE_SECONDS until `stop`: the floor under the load."""
    browser = Browser(run)
    while not stop.wait(PROBE_SECONDS):
        try:
            browser.request(node, "GET", "/hello/", kind="hello")
        except OSError as error:
            run.error(f"hello on {node.name}: {error!r}")


def hello_alone(run: Run, node: Node) -> dict:
    """/hello/ on `node`, one request at a time, nothing else running: the floor."""
    browser = Browser(run)
    times = []
    for index in range(HELLO_REQUESTS + 10):
        started = time.perf_counter()
        browser.request(node, "GET", "/hello/")
        if index >= 10:
            times.append(time.perf_counter() - started)
    return percentiles(times)


def event_sizes(tables: int) -> list[tuple[str, int]]:
    """(format, tables) of each event: a knockout of a quarter of the tables (a power of two,
    at least 1), the rest in round robins of at most GROUP_TABLES tables, as even as can be."""
    knockout = 1
    while knockout * 2 <= max(tables // 4, 1):
        knockout *= 2
    rest = tables - knockout
    groups = -(-rest // GROUP_TABLES)
    sizes = [rest // groups + (index < rest % groups) for index in range(groups)] if rest else []
    return [("round_robin", size) for size in sizes] + [("knockout", knockout)]


def live_pages(events: list[dict], split_match: int) -> list[str]:
    """The live pages compared on both nodes: a match page (of a table whose phones were on
    different nodes), each round robin's round 1 and standings, the knockout's bracket."""
    pages = [f"/m/{split_match}/"]
    for event in events:
        if event["format"] == "knockout":
            pages += [f"/t/{event['id']}/bracket/", f"/t/{event['id']}/rounds/1/"]
        else:
            pages += [f"/t/{event['id']}/rounds/1/", f"/t/{event['id']}/standings/"]
    return pages


def spectator_paths(events: list[dict], count: int) -> list[str]:
    """What each spectator follows, in turn: a match page, a round, the standings or the
    bracket, spread over the events."""
    matches = [table["match"] for event in events for table in event["tables"]]
    paths = []
    for index in range(count):
        event = events[index % len(events)]
        main = "bracket" if event["format"] == "knockout" else "standings"
        paths.append((f"/m/{matches[index % len(matches)]}/", f"/t/{event['id']}/rounds/1/",
                      f"/t/{event['id']}/{main}/")[index % 3])
    return paths


def same_on_both_nodes(run: Run, nodes: list[Node], pages: list[str]) -> list[dict]:
    """Each page's htmx answer on both nodes (anonymous): status, ETag, body (the CSRF token,
    masked afresh on every answer, left out), and node B's answer to node A's ETag."""
    a, b = nodes
    rows = []
    for path in pages:
        browser = Browser(run)
        answers = [htmx_poll(browser, node, path, None, "") for node in nodes]
        (status_a, headers_a, body_a), (status_b, headers_b, body_b) = answers
        etag = headers_a.get("ETag")
        revalidated, _, _ = htmx_poll(browser, b, path, etag, "") if etag else (None, None, None)
        plain_a, plain_b = CSRF_INPUT.sub("", body_a), CSRF_INPUT.sub("", body_b)
        rows.append({
            "page": path, "status": [status_a, status_b],
            "same_etag": etag is not None and etag == headers_b.get("ETag"),
            "same_body": plain_a == plain_b,
            "other_node_304": revalidated == 304,
            "first_difference": first_difference(plain_a, plain_b),
        })
    return rows


def first_difference(one: str, other: str) -> list[str] | None:
    """Where two bodies first differ: 60 characters of each from 20 before it (None: same)."""
    at = next((i for i, (x, y) in enumerate(zip(one, other, strict=False)) if x != y), None)
    if at is None:
        return None if len(one) == len(other) else [one[len(other):][:60], other[len(one):][:60]]
    return [one[max(at - 20, 0):at + 40], other[max(at - 20, 0):at + 40]]


def stale_304s(spectators: list) -> list[str]:
    """Once nothing changes any more: each spectator polls with the ETag it holds; a 304 says
    the part it shows is current, so it must be what a fresh answer shows (a version that did
    not move with a change would leave the screen behind for good). The pages it concerns."""
    stale = []
    for screen in spectators:
        if not screen.etag:
            continue
        status, _, _ = htmx_poll(screen.browser, screen.node, screen.path, screen.etag, "")
        if status != 304:
            continue
        _, _, fresh = htmx_poll(Browser(screen.run_state), screen.node, screen.path, None, "")
        if CSRF_INPUT.sub("", fresh) != CSRF_INPUT.sub("", screen.shown):
            stale.append(f"{screen.path} on {screen.node.name}")
    return stale


def lockout_shared(run: Run, nodes: list[Node]) -> bool:
    """Wrong passwords for user `locked`, spread over both nodes up to the limit, lock it
    out on either node: the right password then answers the lock-out page (429)."""
    browser = Browser(run)
    for attempt in range(LOCKOUT_LIMIT):
        node = nodes[attempt % 2]
        browser.request(node, "GET", "/accounts/login/")
        browser.request(node, "POST", "/accounts/login/", {"username": "locked",
                                                           "password": "wrong"})
    answers = []
    for node in nodes:
        status, _, _ = browser.request(node, "POST", "/accounts/login/", {
            "username": "locked", "password": PASSWORD})
        answers.append(status)
    return answers == [429, 429]


def guess_limit_shared(run: Run, nodes: list[Node], token: str) -> bool:
    """GUESS_LIMIT wrong players' links spread over both nodes: then a right link answers 429
    on either node (the count is in the shared cache)."""
    browser = Browser(run)
    for attempt in range(GUESS_LIMIT):
        browser.request(nodes[attempt % 2], "GET", f"/p/wrong{attempt:04d}{token[9:]}/")
    return [browser.request(node, "GET", f"/p/{token}/")[0] for node in nodes] == [429, 429]


class Clock:
    """CPU seconds of each node (gunicorn's master and workers), the worker and PostgreSQL's
    backends of the bench database."""

    def __init__(self, nodes: list[Node], worker: subprocess.Popen, server: str, name: str):
        self.nodes, self.worker, self.server, self.name = nodes, worker, server, name

    def read(self) -> dict:
        def tree(pid: int) -> float:
            return cpu_seconds(pid) + sum(map(cpu_seconds, children(pid)))

        reading = {node.name: tree(node.process.pid) for node in self.nodes}
        reading["worker"] = tree(self.worker.pid)
        reading["backends"] = {pid: cpu_seconds(pid)
                               for pid in postgres_backends(self.server, self.name)}
        reading["client"], reading["wall"] = time.process_time(), time.perf_counter()
        return reading

    @staticmethod
    def cores(before: dict, after: dict) -> dict:
        wall = after["wall"] - before["wall"]
        spent = {key: after[key] - before[key] for key in after if key not in ("backends",)}
        spent["postgres"] = sum(seconds - before["backends"].get(pid, 0.0)
                                for pid, seconds in after["backends"].items())
        return {key: round(value / wall, 3) for key, value in spent.items() if key != "wall"}


def start_nodes(env: dict, nodes: list[Node], workers: int, workdir: Path,
                per_node_cache: bool) -> None:
    """Each node's gunicorn with `env`; with `per_node_cache`, each its own file cache (the
    default CACHE_URL of one machine) instead of the shared Redis."""
    for node in nodes:
        log = (workdir / f"node-{node.name}.log").open("w")
        if per_node_cache:
            env = dict(env, CACHE_URL=f"filecache://{workdir / ('cache-' + node.name)}")
        node.process = subprocess.Popen(
            [PYTHON, "-m", "gunicorn", "bench.common:application", "--chdir", str(ROOT),
             "--workers", str(workers), "--bind", f"127.0.0.1:{node.port}",
             "--log-level", "warning"],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
        )
    for node in nodes:
        gunicorn_workers(node.process.pid, workers)
        for _ in range(200):
            try:
                Browser(Run()).request(node, "GET", "/hello/")
                break
            except OSError:
                time.sleep(0.1)


def stop(process: subprocess.Popen | None) -> None:
    """Stop a process this bench started (SIGTERM, then SIGKILL after 30 s)."""
    if process is None or process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)


def node_figures(node: Node, hello: dict) -> dict:
    def times(kind: str, status: int | None = None, phase: str = "play") -> list[float]:
        return [seconds for k, s, seconds, p in node.records
                if k == kind and p == phase and (status is None or s == status)]

    under_load = percentiles(times("hello"))
    deal = percentiles(times("deal"))
    return {
        "hello_alone": hello, "hello_under_load": under_load,
        "deal": {**deal, "p50_x_hello": ratio(deal["p50_ms"], under_load["p50_ms"]),
                 "p95_x_hello": ratio(deal["p95_ms"], under_load["p95_ms"])},
        "deal_post": percentiles(times("deal_post")),
        "phone_page": percentiles(times("phone_page")),
        "poll_200": percentiles(times("poll", 200)), "poll_304": percentiles(times("poll", 304)),
        "requests": sum(1 for *_, phase in node.records if phase == "play"),
        "server_errors": len(node.server_errors),
    }


def scale_out(args, workdir: Path, server: str, database: str) -> dict:
    """The whole run on database `database` of PostgreSQL `server`; every figure and check."""
    url = f"{server}/{database}"
    nodes = [Node("A", free_port()), Node("B", free_port())]
    env = dict(
        os.environ, DATABASE_URL=url, DEBUG="false", HTTPS="false", LOG_LEVEL="ERROR",
        SECRET_KEY="bench-scale-out-" + os.urandom(24).hex(), ALLOWED_HOSTS="127.0.0.1",
        SITE_URL=f"http://127.0.0.1:{nodes[0].port}", PYTHONPATH=str(ROOT),
        CACHE_URL=f"{REDIS_URL}/{args.cache_db}", CELERY_BROKER_URL=f"{REDIS_URL}/{args.broker_db}",
        MEDIA_ROOT=str(workdir / "media"), AXES_FAILURE_LIMIT=str(LOCKOUT_LIMIT),
    )
    env.pop("CELERY_RESULT_BACKEND", None)
    started = time.perf_counter()
    manage(env, "migrate", "--noinput", "-v", "0")
    manage(env, "collectstatic", "--noinput", "-v", "0")
    setup = SETUP_SCRIPT.format(sizes=event_sizes(args.tables), target=args.game_target,
                                password=PASSWORD)
    events = json.loads(manage(env, "shell", "-v", "0", stdin=setup).strip().splitlines()[-1])
    setup_seconds = time.perf_counter() - started
    run, worker = Run(), None
    try:
        start_nodes(env, nodes, args.workers, workdir, args.per_node_cache)
        worker = subprocess.Popen(
            [PYTHON, "-m", "celery", "-A", "club", "worker", "--pool=solo", "--loglevel=WARNING",
             "--without-gossip", "--without-mingle", "--without-heartbeat"],
            cwd=ROOT, env=env, stdout=(workdir / "worker.log").open("w"),
            stderr=subprocess.STDOUT,
        )
        calibration = calibration_ms()
        hello = {node.name: hello_alone(run, node) for node in nodes}
        go = threading.Event()
        tables = []
        for index, table in enumerate(t for event in events for t in event["tables"]):
            seats = {"A": nodes[index % 2], "B": nodes[(index // 2) % 2]}
            tables.append(Table(run, table["match"], table["token"], seats, args.pace,
                                go, seed=table["match"]))
        rng = random.Random(18)
        # spectator i follows event i % len(events): the nodes take turns within each event
        spectators = [Spectator(run, nodes[(index // len(events)) % 2], path,
                                random.Random(rng.random()))
                      for index, path in enumerate(spectator_paths(events, args.spectators))]
        round_robin = next(e for e in events if e["format"] == "round_robin") if any(
            e["format"] == "round_robin" for e in events) else events[0]
        organiser = Organiser(run, nodes, round_robin["id"])
        for thread in (*tables, *spectators, organiser):
            thread.start()
        for table in tables:
            table.ready.wait(TIMEOUT)
        organiser.started.wait(TIMEOUT)
        clock = Clock(nodes, worker, server, database)
        stop_probes = threading.Event()
        probes = [threading.Thread(target=probe, args=(run, node, stop_probes), daemon=True)
                  for node in nodes]
        load_before = os.getloadavg()[0]
        before = clock.read()
        run.phase = "play"
        play_started = time.perf_counter()
        run.deadline = time.monotonic() + args.duration
        go.set()
        for thread in probes:
            thread.start()
        for table in tables:
            table.join(max(1.0, run.deadline - time.monotonic() + TIMEOUT))
        play_seconds = time.perf_counter() - play_started
        cores = Clock.cores(before, clock.read())
        stop_probes.set()
        run.phase = "after"
        organiser.join(PRINT_LIMIT)
        load_after = os.getloadavg()[0]
        run.stop.set()
        for thread in (*spectators, *probes):
            thread.join(TIMEOUT + 5)
        split = next((t.match for t in tables if t.split), tables[0].match)
        pages = same_on_both_nodes(run, nodes, live_pages(events, split))
        stale = stale_304s(spectators)
        organiser.logout()
        lockout = lockout_shared(run, nodes)
        guesses = guess_limit_shared(run, nodes, events[0]["tables"][0]["token"])
    finally:
        run.stop.set()
        for node in nodes:
            stop(node.process)
        stop(worker)
    stored = stored_matches(env, [table.match for table in tables])
    jobs = json.loads(manage(env, "shell", "-v", "0", stdin=PRINT_CHECK_SCRIPT.format(
        event=round_robin["id"])).strip().splitlines()[-1])
    lost, problems = stored_problems(tables, stored)
    figures = {node.name: node_figures(node, hello[node.name]) for node in nodes}
    for name, node in figures.items():  # gunicorn's CPU (master and workers) per request
        node["cpu_ms_per_request"] = round(
            cores[name] * play_seconds * 1000 / max(node["requests"], 1), 1)
    deals = sum(table.acknowledged for table in tables)
    server_errors = sum(len(node.server_errors) for node in nodes)
    checks = {
        "no_deal_lost_or_twice": lost == 0 and not problems,
        "no_stale_read_across_nodes": sum(t.stale_reads for t in tables) == 0,
        "no_stale_304": not stale,
        "all_matches_played": all(row["finished"] for row in stored.values()),
        "same_pages_on_both_nodes": bool(pages) and all(
            row["status"] == [200, 200] and row["same_etag"] and row["same_body"]
            and row["other_node_304"] for row in pages),
        "session_shared": organiser.checks["login"]
        and organiser.checks["session_on_other_node"] and organiser.checks["post_on_other_node"],
        "logout_shared": organiser.checks["logout_on_other_node"],
        "lockout_shared": lockout, "guess_limit_shared": guesses,
        "round_pack_built_by_worker": any(job["kind"] == "round" and job["status"] == "done"
                                          and job["file"] for job in jobs)
        and organiser.checks["pdf_downloaded"],
        "round_pack_built_during_play": bool(organiser.printed_during_play),
        "no_5xx": server_errors == 0,
    }
    return {
        "events": [[e["format"], len(e["tables"])] for e in events],
        "split_tables": sum(t.split for t in tables),
        "setup_seconds": round(setup_seconds),
        "load_average": [round(load_before, 2), round(load_after, 2)],
        "calibration_ms": round(calibration),
        "play_seconds": round(play_seconds, 1), "deals": deals,
        "deals_per_second": round(deals / play_seconds, 1) if play_seconds else None,
        "lost": lost, "stale_reads": sum(t.stale_reads for t in tables),
        "stale_304": stale,
        "matches_unfinished": sum(not row["finished"] for row in stored.values()),
        "nodes": figures,
        "cpu_cores_during_play": cores,
        "print_seconds": round(organiser.print_seconds, 1) if organiser.print_seconds else None,
        "print_jobs": jobs, "pages": pages, "server_errors": server_errors,
        "client_errors": len(run.errors),
        "details": (run.errors + problems + [e for n in nodes for e in n.server_errors])[:10],
        "checks": checks, "passed": all(checks.values()),
    }


def report(result: dict, args) -> None:
    r = result
    print(f"== scale-out: 2 nodes x {args.workers} gunicorn workers, 1 PostgreSQL, 1 Redis "
          f"(cache db {args.cache_db}, broker db {args.broker_db}), 1 Celery worker; events "
          f"{r['events']} ({r['split_tables']} tables with their phones on different nodes); "
          f"a deal every {args.pace[0]}-{args.pace[1]} s a table, {args.spectators} spectators")
    print(f"load average {r['load_average'][0]} before, {r['load_average'][1]} after (2 cores); "
          f"calibration loop {r['calibration_ms']} ms; setup {r['setup_seconds']} s")
    print(f"play {r['play_seconds']} s: {r['deals']} deals, {r['deals_per_second']} deals/s; "
          f"lost or stored twice {r['lost']}; stale reads across nodes {r['stale_reads']}; "
          f"matches unfinished {r['matches_unfinished']}")
    for name, f in r["nodes"].items():
        h, d = f["hello_under_load"], f["deal"]
        print(f"  node {name}: {f['requests']} requests; /hello/ alone p50 "
              f"{f['hello_alone']['p50_ms']} ms, under load p50 {h['p50_ms']} / p95 "
              f"{h['p95_ms']} ms; deal (post + page) p50 {d['p50_ms']} ms (x{d['p50_x_hello']}"
              f" hello) / p95 {d['p95_ms']} ms (x{d['p95_x_hello']}), {d['count']} deals; "
              f"other phone's page p50 {f['phone_page']['p50_ms']} / p95 "
              f"{f['phone_page']['p95_ms']} ms; polls 200 p50 {f['poll_200']['p50_ms']} ms "
              f"({f['poll_200']['count']}), 304 p50 {f['poll_304']['p50_ms']} ms "
              f"({f['poll_304']['count']}); CPU {f['cpu_ms_per_request']} ms a request; "
              f"5xx {f['server_errors']}")
    print(f"CPU during play, cores: {r['cpu_cores_during_play']}")
    print(f"screens answered 304 with a stale part: {len(r['stale_304'])} {r['stale_304']}")
    print(f"round pack: built by the worker in {r['print_seconds']} s; jobs {r['print_jobs']}")
    for row in r["pages"]:
        print(f"  {row['page']}: status {row['status']}, same ETag {row['same_etag']}, same "
              f"body {row['same_body']}, node B 304 on node A's ETag {row['other_node_304']}"
              + (f"; first difference {row['first_difference']}" if row["first_difference"]
                 else ""))
    print(f"5xx {r['server_errors']}; client errors {r['client_errors']}")
    for line in r["details"]:
        print("  ", line)
    print("checks: " + "; ".join(f"{name} {'passed' if ok else 'FAILED'}"
                                 for name, ok in r["checks"].items()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=64)
    parser.add_argument("--spectators", type=int, default=16)
    parser.add_argument("--pace", type=float, nargs=2, default=(2.0, 4.0),
                        help="seconds between two deals at a table (drawn in this range)")
    parser.add_argument("--game-target", type=int, default=11)
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers per node")
    parser.add_argument("--cache-db", type=int, default=11, help="Redis db: cache, sessions")
    parser.add_argument("--broker-db", type=int, default=12, help="Redis db: Celery broker")
    parser.add_argument("--duration", type=float, default=300, help="longest play, seconds")
    parser.add_argument("--per-node-cache", action="store_true",
                        help="each node its own file cache, not Redis: what the checks catch")
    args = parser.parse_args()
    if args.tables < 2:
        parser.error("--tables must be at least 2 (a round robin and a knockout)")
    server = postgres_server()
    if server is None:
        raise SystemExit("no PostgreSQL server answers: the scale-out needs one")
    redis_dbs = [redis_database(REDIS_URL, db) for db in (args.cache_db, args.broker_db)]
    for db, redis in zip((args.cache_db, args.broker_db), redis_dbs, strict=True):
        if redis.dbsize():
            raise SystemExit(f"Redis database {db} holds keys: someone else uses it "
                             f"(--cache-db, --broker-db)")
    name = f"bench_scale_out_{os.getpid()}"
    workdir = Path(tempfile.mkdtemp(prefix="scale-out-"))
    try:
        postgres_database_create(server, name)
        result = scale_out(args, workdir, server, name)
        report(result, args)
    finally:
        postgres_database_drop(server, name)
        for redis in redis_dbs:
            redis.flushdb()
        shutil.rmtree(workdir, ignore_errors=True)
    print(json.dumps({"tables": args.tables, "spectators": args.spectators,
                      "per_node_cache": args.per_node_cache,
                      "pace": list(args.pace), "game_target": args.game_target,
                      "workers_per_node": args.workers, **result}, ensure_ascii=False))


if __name__ == "__main__":
    main()
