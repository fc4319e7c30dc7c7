"""What an unchanged poll of a live page costs the server (`tournaments.live`).

Loads the demo data (`load_demo`: an eight-player round robin, a live knockout, a club night)
into a throwaway SQLite database (or DATABASE_URL when set to a PostgreSQL server), serves the
site under gunicorn (one sync worker) on a free local port, and for each live page fetches the
htmx poll once, then sends N polls with its ETag in If-None-Match (each a 304), the pages in
turn, and reads the worker's CPU time (utime + stime, /proc/<pid>/stat) before and after each:
CPU per unchanged poll, beside the same for a bare "hello" view served by the same worker in
the same turns (the floor: gunicorn, the middleware and the request itself), and for a
bodiless 304 answered before Django (`bench.common.NOT_MODIFIED_PATH`: gunicorn's own part,
the least any poll can cost through it). The pages: the
standings, a round, a match, the bracket, a club night and the projector as a spectator; the
players' page at the table (`/p/<token>/`) as a phone that chose its seat; the control room
as its organiser (logged in). A calibration loop runs in the same process. The last line is
one JSON object.

    .venv/bin/python bench/live_polls.py [--polls 1000]

Target (issue 6, issue 18 target 2): at most 1 ms of server CPU per unchanged poll, for every
live page (the players' page and the control room included). On a shared machine read it
beside the floor in the same turns (`x hello`) and the calibration loop.
"""

import argparse
import http.client
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
if "DATABASE_URL" not in os.environ:
    os.environ["DATABASE_URL"] = f"sqlite:///{tempfile.mkdtemp()}/bench.sqlite3"
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "club.settings")
os.environ.setdefault("ALLOWED_HOSTS", "testserver,127.0.0.1,localhost")
# Served as in production (DEBUG off), over plain HTTP on the loopback.
os.environ.setdefault("DEBUG", "false")
os.environ.setdefault("SECRET_KEY", "bench-" + os.urandom(24).hex())
os.environ.setdefault("SECURE_SSL_REDIRECT", "false")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402

from bench.common import (  # noqa: E402
    NOT_MODIFIED_PATH,
    calibration_ms,
    cpu_seconds,
    free_port,
    gunicorn_workers,
)

TARGET_MS = 1.0
LIVE_PARTS = {"standings": "live-standings", "round": "live-round", "match": "match-panel",
              "bracket": "bracket-board", "club night": "live-night",
              "projector": "projector-slides", "phone": "players-live",
              "control room": "control-rows"}
"""The id of the element each page's poll swaps in: htmx sends it as HX-Target."""


def get(port: int, url: str, headers: dict) -> tuple[int, dict]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("GET", url, headers=headers)
    response = connection.getresponse()
    response.read()
    connection.close()
    return response.status, dict(response.getheaders())


def poll_headers(port: int, url: str, htmx: bool, target: str = "",
                 cookies: str = "") -> dict:
    """The headers of an unchanged GET of `url`: the htmx poll when `htmx` (of the element
    `target`, with the ETag of its first answer), `cookies` the Cookie header (a phone's
    seat, an organiser's session)."""
    headers = {"Host": "127.0.0.1"}
    if htmx:
        headers.update({"HX-Request": "true", "HX-Target": target})
    if cookies:
        headers["Cookie"] = cookies
    status, first = get(port, url, headers)
    assert status == 200, (url, status)
    if "ETag" in first:
        headers["If-None-Match"] = first["ETag"]
    return headers


def measure(port: int, pid: int, requests: dict[str, tuple[str, dict]],
            polls: int) -> dict[str, tuple[float, int]]:
    """{name: (milliseconds of the worker's CPU per GET, the status of the last)} for each
    `requests` {name: (url, headers)}, sent in turn `polls` times each: one page after the
    other, so that a shared machine's changing speed weighs on every page alike (the CPU
    read before and after each request, 10 ms ticks that average out over the polls)."""
    for url, headers in requests.values():  # warm up
        for _ in range(20):
            get(port, url, headers)
    spent = dict.fromkeys(requests, 0.0)
    statuses = {}
    for _ in range(polls):
        for name, (url, headers) in requests.items():
            before = cpu_seconds(pid)
            statuses[name], answer = get(port, url, headers)
            spent[name] += cpu_seconds(pid) - before
            if statuses[name] == 200 and "If-None-Match" in headers and "ETag" in answer:
                headers["If-None-Match"] = answer["ETag"]  # the control room's next minute
    return {name: (spent[name] * 1000 / polls, statuses[name]) for name in requests}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--polls", type=int, default=1000)
    args = parser.parse_args()
    from django.core.management import call_command
    from django.http import HttpResponse
    from django.test import Client
    from django.urls import reverse

    from scoring.models import Match
    from tournaments import table_entry
    from tournaments.demo import load_demo
    from tournaments.models import EntryMode, Tournament

    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)  # the manifest DEBUG off needs
    load_demo()
    events = {t.format: t for t in Tournament.objects.all()}
    robin, cup, night = (events[Tournament.Format.ROUND_ROBIN], events[Tournament.Format.KNOCKOUT],
                         events[Tournament.Format.CLUB_NIGHT])
    playing = Match.objects.filter(pairing__round__tournament=cup,
                                   status=Match.Status.PLAYING).first()
    pages = {
        "standings": reverse("tournaments:standings", args=[robin.pk]),
        "round": reverse("tournaments:round", args=[robin.pk, 1]),
        "match": reverse("matches:entry", args=[playing.pk]),
        "bracket": reverse("tournaments:bracket", args=[cup.pk]),
        "club night": reverse("nights:detail", args=[night.pk]),
        "projector": reverse("tournaments:projector", args=[cup.pk]),
    }
    # The players' page at the table: the cup's players enter (players_sign), and the phone
    # has chosen seat A (the signed cookie `views.table.seat_choose` sets).
    Tournament.objects.filter(pk=cup.pk).update(entry_mode=EntryMode.PLAYERS_SIGN)
    table = table_entry.table_of(playing)
    seat = HttpResponse()
    seat.set_signed_cookie(f"seat{playing.pk}", "A", salt=f"players-seat:{table.token_hash}")
    pages["phone"] = reverse("players:match", args=[table.token])
    # The control room, as its organiser (a session made here, read by the server from the
    # shared cache and the database).
    organiser = Client()
    organiser.force_login(cup.organisers.first())
    pages["control room"] = reverse("control:room", args=[cup.pk])
    cookies = {"phone": f"seat{playing.pk}={seat.cookies[f'seat{playing.pk}'].value}",
               "control room": f"{settings.SESSION_COOKIE_NAME}="
                               f"{organiser.cookies[settings.SESSION_COOKIE_NAME].value}"}
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "bench.common:application", "--workers", "1",
         "--bind", f"127.0.0.1:{port}", "--log-level", "warning", "--chdir", str(ROOT)],
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
    )
    try:
        pid = gunicorn_workers(server.pid)[0]
        for _ in range(200):
            try:
                get(port, "/hello/", {"Host": "127.0.0.1"})
                break
            except OSError:
                time.sleep(0.05)
        requests = {"hello": ("/hello/", poll_headers(port, "/hello/", htmx=False)),
                    "server floor": (NOT_MODIFIED_PATH, {"Host": "127.0.0.1"})}
        for page, url in pages.items():
            requests[page] = (url, poll_headers(port, url, htmx=True, target=LIVE_PARTS[page],
                                                cookies=cookies.get(page, "")))
        rows = measure(port, pid, requests, args.polls)
        floor = rows.pop("hello")[0]
        server_floor = rows.pop("server floor")[0]
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
    calibration = calibration_ms()
    print(f"calibration loop {calibration:.0f} ms; {args.polls} polls each; "
          f"one gunicorn sync worker; {settings.DATABASES['default']['ENGINE'].rsplit('.', 1)[1]}")
    print(f"{'page':<13} {'status':>6} {'CPU ms/poll':>12} {'x hello':>8}")
    print(f"{'hello':<13} {200:>6} {floor:>12.3f} {1:>8.1f}")
    print(f"{'server floor':<13} {304:>6} {server_floor:>12.3f} {server_floor / floor:>8.1f}"
          "   (a bodiless 304 before Django)")
    for page, (ms, status) in rows.items():
        print(f"{page:<13} {status:>6} {ms:>12.3f} {ms / floor:>8.1f}")
    worst = max(ms for ms, _ in rows.values())
    met = worst <= TARGET_MS and all(status == 304 for _, status in rows.values())
    print(f"target <= {TARGET_MS} ms of server CPU per unchanged poll: "
          f"{'met' if met else 'NOT met'} (worst {worst:.3f} ms)")
    print(json.dumps({
        "calibration_ms": round(calibration), "polls": args.polls, "hello_cpu_ms": round(floor, 3),
        "server_floor_cpu_ms": round(server_floor, 3),
        "cpu_ms_per_unchanged_poll": {page: round(ms, 3) for page, (ms, _) in rows.items()},
        "statuses": {page: status for page, (_, status) in rows.items()},
        "worst_ms": round(worst, 3), "target_ms": TARGET_MS, "met": met,
    }, ensure_ascii=False))


if __name__ == "__main__":
    main()
