"""The players' page at the table (`/p/<token>/`, the link a player opens from the table's QR
code), measured in headless Chromium as a phone sees it: bytes and requests of the first load,
the bytes of a deal's post, its answer and the page's redrawn part, and the time from the tap on
"Save deal" to the new score on the page, on localhost and under two emulated networks.

The site is served as a club serves it: `manage.py serve_club` (gunicorn with uvicorn workers,
DEBUG off, whitenoise's compressed static files) on 127.0.0.1, on a throwaway SQLite database
in a temporary directory, with an organiser account of its own (serve_club refuses the demo's
published password). The data: a round robin whose players enter their own results
(`players_sign`, the default), started, and round 1's players' links. Chromium is Debian's
(/usr/bin/chromium) through Playwright's sync API, as the browser tests drive it: a 390x844
window, the event's language (Bulgarian), service workers blocked, as on a club's plain-HTTP
wifi where the browser does not let the site install one (on 127.0.0.1 it would).

    .venv/bin/python bench/players_page.py [--deals 20] [--loads 3] [--only localhost|wifi|poor]

Networks (Chromium's DevTools `Network.emulateNetworkConditions`, on each page before it loads;
its latency is added to each request, so it stands for the round trip):

- `localhost`: no emulation;
- `wifi`: a club's wifi, 20 ms round trip, 20 Mbit/s each way;
- `poor`: a poor connection, 300 ms round trip, 400 kbit/s each way.

The figures (the last line is one JSON object). Targets: `tap_to_score_ms` p50 at most 50 ms on
`localhost` and on `poor`; `first_load.bytes` and the pass's `pass_page.bytes` and
`pass_match.bytes` at most 60 KB each.

- `first_load`: the match page a seated player opens with an empty cache (a fresh browser
  context holding only the seat cookie): `bytes` received (Chromium's encodedDataLength: headers
  and body as transferred, compressed where the server compressed) and `requests` that went to
  the server, in total and by kind (document, stylesheet, script, icon, the live stream),
  counted until the network has been quiet for a moment; `accept_encoding`: what Chromium asked
  for. The live stream stays open and counts with the bytes it had received by then. Headless
  Chromium fetches no manifest (nothing asks to install the site), so none is counted.
  `seat_page`: the same for "Who are you?", the first visit's page before the seat is chosen;
  `pass_page` and `pass_match`: the same for a player's pass (`/pass/<token>/`) and the match
  opened from it, on localhost (the bytes do not depend on the network).
- `deal_post`: one deal saved from the page. The tap shows the deal in the score at once
  (static/js/offline.js works it out from the buttons' game points), the deal is posted behind
  it to the sync address and answered in JSON (`post_status`, `post_answer_bytes` as
  transferred), then the page's live part is fetched once, at the match's new version:
  `redraw_bytes` (as transferred), `redraw_body_bytes` (its HTML), `redraw_content_encoding`
  (as served) and `redraw_gzip_bytes` (its HTML through gzip -6 here); `round_trip_bytes` and
  `round_trip_requests`: what Chromium received and asked the server for between the tap and
  the server's drawing of the page. Medians over the deals (the part grows by a row a deal);
  the HTML is the last deal's.
- `tap_to_score_ms` per network: from the tap on "Save deal" (a click listener on the page,
  `performance.timeOrigin + performance.now()`) to the first frame after the score shows the
  new points (a MutationObserver on the score, then one animation frame), median (`p50_ms`)
  and `p95_ms` over `--deals` deals; `driver_p50_ms`: the same seen from Playwright (from the
  click's call until the page says so), a check on the first; `drawn_p50_ms`: from the tap to
  the first frame after the server's own drawing of the page with the deal is in (the answer
  and the redrawn part: what the tap waited for before the score moved at the tap);
  `post_wait_p50_ms` and `page_wait_p50_ms`: from the post (and the part's GET) sent to the
  first byte of its answer, as Chromium's network stack timed it before the emulated delay,
  i.e. mostly the server's time.
- `organiser_tap_to_score_ms` per network: the same taps on the organiser's match page
  (`/m/<id>/`, logged in; the same static/js/offline.js), in matches of their own: `p50_ms`,
  `p95_ms`, `drawn_p50_ms` (the server's drawing: the JSON answer, then the page's panel).
- `first_load_ms` per network: the first load's `loadEventEnd` (Navigation Timing: from the
  start of the navigation to the end of the load event) and `dom_content_loaded_ms`, medians
  over `--loads` cold loads; `seat_page_load_ms`: "Who are you?" cold, once; `failed_loads`:
  cold loads (the seat page's among them) that did not reach their load event within a minute
  (left out of the figures; what they were still waiting for is printed).

Each network plays its deals in a match of its own: seat A enters plain wins (1 game point),
the winner alternating, so a match takes 20 deals before one more ends it; `--deals` above 20
goes on in the next match. Also printed: the machine's load average and the calibration loop
(`bench.common.calibration_ms`). Never fails on a figure: it reports it.
"""

import argparse
import gzip
import json
import os
import secrets
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import PYTHON, calibration_ms, free_port, manage, percentiles  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
NETWORKS = {
    "localhost": None,
    "wifi": {"latency": 20, "kbit": 20_000},
    "poor": {"latency": 300, "kbit": 400},
}
DEALS_PER_MATCH = 20
"""Plain wins, the winner alternating: 10:10 after 20 deals, the 21st would end the match."""
ORGANISER = "bench-organiser"
LOAD_TIMEOUT_MS = 60_000

SETUP_SCRIPT = """
import datetime, json, random, secrets
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from club.models import Club, Player
from events import services
from events.models import EntryMode, Pairing, Tournament
from passes import services as passes
from tableside import table_entry

organiser = get_user_model().objects.create_superuser({organiser!r},
                                                     password=secrets.token_urlsafe(16))
club = Club.objects.create(name="Клуб „Светлина“")
tournament = Tournament.objects.create(
    club=club, name="Клубен турнир", date=datetime.date(2026, 12, 5), venue="Читалище „Светлина“",
    format=Tournament.Format.ROUND_ROBIN, entry_mode=EntryMode.PLAYERS_SIGN,
)
for number in range(1, {players} + 1):
    player = Player.objects.create(club=club, name=f"Играч Телефонов {{number}}")
    services.entry_add(tournament=tournament, player=player)
services.tournament_start(tournament=tournament, rng=random.Random(1))
pairings = Pairing.objects.filter(round__tournament=tournament, round__number=1,
                                  match__isnull=False).select_related("match").order_by("table")
client = Client()
client.force_login(organiser)
first = pairings[0].match
player_pass = passes.pass_make(first.player_a)
pass_page = f"/pass/{{passes.token_of(player_pass)}}/"
print(json.dumps({{"pass_page": pass_page, "pass_match": f"{{pass_page}}m/{{first.pk}}/",
                  "links": [table_entry.entry_path(p.match) for p in pairings],
                  "matches": [f"/m/{{p.match.pk}}/" for p in pairings],
                  "session": client.cookies[settings.SESSION_COOKIE_NAME].value}}))
"""
"""`manage.py shell` script: an organiser with a session, a started round robin of `players`
whose players enter their results; the paths of round 1's players' links and of the same
matches' organiser's pages (one a match), the organiser's session key, and the pass of the
first match's seat A: its page and its match's page."""

# The tap's time, then the time from the tap to the first frame showing the new score
# (`benchTapToScore`), and to the first frame after the server's drawing of the page holds the
# deal (`benchDrawn`: the server writes the next deal's number in `.match-state[data-next]`).
TAP_SCRIPT = """
(() => {
  const now = () => performance.timeOrigin + performance.now();
  const score = () => [...document.querySelectorAll(".scoreboard .side .points")]
    .map((points) => points.textContent.trim()).join(":");
  let tapped = null;
  const frame = (then) => requestAnimationFrame(() => setTimeout(then, 0));
  const look = () => {
    if (tapped === null) return;
    const at = tapped;
    if (!window.benchTapToScore && score() !== at.score) {
      window.benchTapToScore = {pending: true};
      frame(() => { window.benchTapToScore = {ms: now() - at.time, score: score()}; });
    }
    const state = document.querySelector(".match-state[data-next]");
    if (!window.benchDrawn && state && Number(state.dataset.next) > at.next) {
      window.benchDrawn = {pending: true};
      frame(() => { window.benchDrawn = {ms: now() - at.time, next: Number(state.dataset.next)}; });
    }
  };
  document.addEventListener("click", (event) => {
    const button = event.target.closest &&
      event.target.closest("form[data-offline-entry] button[type=submit]");
    if (!button) return;
    const state = document.querySelector(".match-state[data-next]");
    tapped = {time: now(), score: score(), next: state ? Number(state.dataset.next) : 0};
    window.benchTapToScore = window.benchDrawn = null;
  }, true);
  const watch = () => new MutationObserver(look).observe(document.body,
    {childList: true, subtree: true, characterData: true, attributes: true});
  if (document.body) watch(); else document.addEventListener("DOMContentLoaded", watch);
})();
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20, help="deals timed a network (20)")
    parser.add_argument("--loads", type=int, default=3, help="cold first loads a network (3)")
    parser.add_argument("--only", choices=list(NETWORKS), help="one network only")
    args = parser.parse_args()
    networks = [args.only] if args.only else list(NETWORKS)
    workdir = tempfile.mkdtemp(prefix="players-page-bench-")
    try:
        run(workdir, networks, max(args.deals, 1), max(args.loads, 1))
    finally:
        shutil.rmtree(workdir, ignore_errors=True)  # the throwaway database, cache and log


def site_environment(workdir: str) -> dict:
    env = dict(os.environ)
    env.update({
        "DATABASE_URL": f"sqlite:///{workdir}/bench.sqlite3",
        "CACHE_URL": f"filecache://{workdir}/cache",
        "MEDIA_ROOT": f"{workdir}/media",
        "PASS_KEY_FILE": f"{workdir}/pass_key",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "PYTHONWARNINGS": "ignore",
    })
    return env


def run(workdir: str, networks: list[str], deals: int, loads: int) -> None:
    env = site_environment(workdir)
    matches_each = -(-deals // DEALS_PER_MATCH)
    # One more match: the first loads; each network plays its matches on the players' page,
    # and as many on the organiser's.
    players = 2 * (1 + 2 * matches_each * len(networks))
    started = time.perf_counter()
    manage(env, "migrate", "--noinput", "-v", "0")
    setup = json.loads(manage(env, "shell", "-v", "0", stdin=SETUP_SCRIPT.format(
        organiser=ORGANISER, players=players)).strip().splitlines()[-1])
    paths = setup["links"]
    port = free_port()
    server = serve(env, port)
    try:
        url = f"http://127.0.0.1:{port}"
        print(f"set-up: a {players}-player round robin, {len(paths)} players' links, served by "
              f"serve_club at {url} ({time.perf_counter() - started:.1f} s)")
        load_before = os.getloadavg()
        results = measure(url, setup, networks, deals, loads)
    finally:
        stop(server)
    report(results, networks, deals, loads, load_before)


def serve(env: dict, port: int) -> subprocess.Popen:
    """`manage.py serve_club` on 127.0.0.1:`port` (it becomes gunicorn's master), once it
    answers."""
    log = Path(env["MEDIA_ROOT"]).parent / "serve_club.log"
    with log.open("w") as output:
        server = subprocess.Popen(
            [PYTHON, "manage.py", "serve_club", "--address", "127.0.0.1", "--port", str(port),
             "--workers", "2"],
            cwd=ROOT, env=env, stdout=output, stderr=subprocess.STDOUT, start_new_session=True,
        )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit("serve_club stopped:\n" + log.read_text()[-3000:])
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/sw.js", timeout=2)
            return server
        except OSError:
            time.sleep(0.2)
    stop(server)
    raise SystemExit("serve_club did not answer within 60 s")


def stop(server: subprocess.Popen) -> None:
    if server.poll() is None:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


# --------------------------------------------------------------------------------------------
# The browser


class Network:
    """What Chromium asked for and received on one page (DevTools' Network domain), and the
    emulated network it is on."""

    def __init__(self, context, page, conditions: dict | None):
        self.page = page
        self.requests: dict[str, dict] = {}
        self.accept_encoding: dict[str, str] = {}
        self.session = context.new_cdp_session(page)
        self.session.on("Network.requestWillBeSent", self._sent)
        self.session.on("Network.responseReceived", self._answered)
        self.session.on("Network.loadingFinished", self._finished)
        self.session.on("Network.loadingFailed", self._failed)
        self.session.on("Network.dataReceived", self._data)
        self.session.on("Network.requestServedFromCache", self._cached)
        self.session.on("Network.requestWillBeSentExtraInfo", self._sent_headers)
        self.session.send("Network.enable")
        self.latency = 0
        if conditions:
            self.latency = conditions["latency"]
            throughput = conditions["kbit"] * 1000 / 8  # bytes a second
            self.session.send("Network.emulateNetworkConditions", {
                "offline": False, "latency": conditions["latency"],
                "downloadThroughput": throughput, "uploadThroughput": throughput,
            })
        self.last_event = time.monotonic()

    def _touch(self):
        self.last_event = time.monotonic()

    def _sent(self, event):
        self._touch()
        if event["request"]["url"].startswith("data:"):
            return
        key = event["requestId"]
        if key in self.requests and "redirectResponse" in event:
            # The same request id goes on after a redirect: the redirect is a request of its
            # own, answered already.
            redirected = self.requests.pop(key)
            redirected["bytes"] = event["redirectResponse"].get("encodedDataLength", 0)
            redirected["status"] = event["redirectResponse"]["status"]
            redirected["wait_ms"] = server_wait(event["redirectResponse"])
            redirected["done"] = True
            self.requests[f"{key}:{len(self.requests)}"] = redirected
        self.requests[key] = {
            "id": key, "url": event["request"]["url"], "method": event["request"]["method"],
            "type": event.get("type", "Other"), "status": None, "bytes": 0, "body": 0,
            "encoding": "", "done": False,
            "from_cache": False, "wait_ms": None,
        }

    def _sent_headers(self, event):
        # The headers as sent (Accept-Encoding is added below the page), sometimes told before
        # the request itself.
        self.accept_encoding.setdefault(event["requestId"],
                                        header(event["headers"], "accept-encoding"))

    def _cached(self, event):
        request = self.requests.get(event["requestId"])
        if request is not None:
            request["from_cache"] = True

    def _answered(self, event):
        self._touch()
        request = self.requests.get(event["requestId"])
        if request is None:
            return
        response = event["response"]
        request["status"] = response["status"]
        request["type"] = event.get("type", request["type"])
        request["encoding"] = header(response["headers"], "content-encoding")
        request["from_cache"] = request["from_cache"] or bool(
            response.get("fromDiskCache") or response.get("fromPrefetchCache"))
        request["bytes"] = response.get("encodedDataLength", 0)
        request["wait_ms"] = server_wait(response)

    def _data(self, event):
        self._touch()
        request = self.requests.get(event["requestId"])
        if request is not None:
            request["body"] += event.get("dataLength", 0)
            request["bytes"] += event.get("encodedDataLength", 0)

    def _finished(self, event):
        self._touch()
        request = self.requests.get(event["requestId"])
        if request is not None:
            request["bytes"] = event["encodedDataLength"]
            request["done"] = True

    def _failed(self, event):
        self._touch()
        request = self.requests.get(event["requestId"])
        if request is not None:
            request["done"] = True

    def settle(self, quiet: float = 0.6, limit: float = 30.0) -> None:
        """Wait until nothing has happened on the network for `quiet` seconds (plus a round
        trip), the live stream left aside as it never ends."""
        quiet += 2 * self.latency / 1000
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            self.page.wait_for_timeout(100)
            if time.monotonic() - self.last_event >= quiet:
                return

    def mark(self) -> int:
        return len(self.requests)

    def since(self, mark: int) -> list[dict]:
        return list(self.requests.values())[mark:]


def server_wait(response: dict) -> float | None:
    """From the request's end to its answer's first byte, in ms (the server's time plus a
    round trip), from DevTools' timing of `response`; None without timing."""
    timing = response.get("timing")
    if not timing:
        return None
    return timing["receiveHeadersStart" if "receiveHeadersStart" in timing
                  else "receiveHeadersEnd"] - timing["sendEnd"]


def header(headers: dict, name: str) -> str:
    for key, value in headers.items():
        if key.lower() == name:
            return value
    return ""


KINDS = {"Document": "document", "Stylesheet": "stylesheet", "Script": "script",
         "Image": "image", "Manifest": "manifest", "Font": "font", "EventSource": "stream"}


def kind(request: dict) -> str:
    if "/live/" in request["url"] or request["type"] == "EventSource":
        return "stream"
    if "/icons/" in request["url"]:
        return "icon"
    return KINDS.get(request["type"], request["type"].lower())


def tally(requests: list[dict]) -> dict:
    """Bytes received and requests that went to the server, in all and by kind (a file the
    browser's cache answered counts under `from_cache` only)."""
    by_kind: dict[str, dict] = {}
    sent = [request for request in requests if not request["from_cache"]]
    for request in sent:
        entry = by_kind.setdefault(kind(request), {"requests": 0, "bytes": 0})
        entry["requests"] += 1
        entry["bytes"] += request["bytes"]
    return {"bytes": sum(request["bytes"] for request in sent), "requests": len(sent),
            "from_cache": len(requests) - len(sent), "by_kind": by_kind}


def new_page(browser, url: str, conditions: dict | None, cookies: list | None = None):
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="bg-BG",
                                  service_workers="block")
    if cookies:
        context.add_cookies(cookies)
    context.add_init_script(TAP_SCRIPT)
    page = context.new_page()
    page.set_default_timeout(LOAD_TIMEOUT_MS)
    return context, page, Network(context, page, conditions)


def navigation_times(page) -> dict:
    return page.evaluate("""() => { const n = performance.getEntriesByType("navigation")[0];
        return {load: n.loadEventEnd, dcl: n.domContentLoadedEventEnd}; }""")


def seat(browser, url: str) -> list:
    """Choose seat A on link `url` in a context of its own; the cookies that remember it."""
    context, page, _ = new_page(browser, url, None)
    page.goto(url)
    page.click("form.seat-choice button[value=A]")
    page.wait_for_selector("form[data-offline-entry]")
    cookies = context.cookies()
    context.close()
    return cookies


def cold_load(browser, url: str, conditions: dict | None, cookies: list | None) -> dict | None:
    """One load of `url` with an empty cache; its requests and times (None, and what never
    finished printed, when it did not reach its load event within a minute)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    context, page, network = new_page(browser, url, conditions, cookies)
    try:
        page.goto(url, wait_until="load")
    except PlaywrightTimeout:
        unfinished = [f"{r['url']} ({r['status'] or 'no answer'})"
                      for r in network.since(0) if not r["done"] and kind(r) != "stream"]
        print(f"A cold load did not reach its load event in {LOAD_TIMEOUT_MS / 1000:.0f} s; "
              f"unfinished: {', '.join(unfinished) or 'none'}")
        context.close()
        return None
    times = navigation_times(page)
    network.settle()
    requests = network.since(0)
    context.close()
    figures = tally(requests)
    figures["load_ms"] = times["load"]
    figures["dom_content_loaded_ms"] = times["dcl"]
    figures["accept_encoding"] = next(
        (network.accept_encoding.get(r["id"], "") for r in requests if "/static/" in r["url"]),
        "")
    figures["files"] = [
        {"url": r["url"].split("/", 3)[-1], "kind": kind(r), "bytes": r["bytes"],
         "encoding": r["encoding"], "status": r["status"]} for r in requests]
    return figures


def deal(page, network, number: int, winner: str, score: str) -> dict:
    """Enter deal `number` (a plain win for `winner`) and tap "Save deal"; the time from the
    tap to the new score (`score`, "a:b"), to the server's drawing of the page with the deal,
    and what went over the network meanwhile."""
    page.click(f"form[data-offline-entry] label:has(input[name=winner][value={winner}])")
    page.click("form[data-offline-entry] label:has(input[name=reason][value=won])")
    mark = network.mark()
    started = time.perf_counter()
    page.click("form[data-offline-entry] button.primary")
    shown = page.wait_for_function(
        "score => window.benchTapToScore && window.benchTapToScore.score === score && "
        "window.benchTapToScore", arg=score, polling=5).json_value()
    driver = time.perf_counter() - started
    drawn = page.wait_for_function(
        "next => window.benchDrawn && window.benchDrawn.next === next && window.benchDrawn",
        arg=number + 1, polling=10).json_value()
    network.settle(quiet=0.3)
    requests = network.since(mark)
    post = next(r for r in requests if r["method"] == "POST")
    redraw = next(r for r in requests if r["method"] == "GET" and "/live/" not in r["url"]
                  and r["url"].split("?")[0].endswith(page.url.split("/", 3)[-1]))
    html = network.session.send("Network.getResponseBody", {"requestId": redraw["id"]})
    sent = tally(requests)
    return {"ms": shown["ms"], "driver_ms": driver * 1000, "drawn_ms": drawn["ms"],
            "post": post, "page": redraw, "html": html["body"].encode(),
            "received": sent["bytes"], "requests": sent["requests"],
            "from_cache": sent["from_cache"]}


def measure(url: str, setup: dict, networks: list[str], deals: int, loads: int) -> dict:
    from playwright.sync_api import sync_playwright

    paths = setup["links"]
    results: dict = {"networks": {}, "organiser": {}}
    matches_each = -(-deals // DEALS_PER_MATCH)
    organiser_pages = iter(setup["matches"][1 + matches_each * len(networks):])
    session = [{"name": "sessionid", "value": setup["session"], "url": url}]
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"])
        first = url + paths[0]
        seated = seat(browser, first)
        for name in ("pass_page", "pass_match"):
            results[name] = cold_load(browser, url + setup[name], None, None)
        free = iter(paths[1:])
        for name in networks:
            conditions = NETWORKS[name]
            tried = [cold_load(browser, first, conditions, seated) for _ in range(loads)]
            loaded = [figures for figures in tried if figures is not None]
            seat_page = cold_load(browser, first, conditions, None)
            taps = play(browser, url, [next(free) for _ in range(-(-deals // DEALS_PER_MATCH))],
                        conditions, deals)
            results["networks"][name] = {"loads": loaded, "seat_page": seat_page,
                                         "deals": taps, "failed_loads": len(tried) - len(loaded)
                                         + (seat_page is None)}
            print_network(name, conditions, loaded, taps)
            taps = play(browser, url, [next(organiser_pages) for _ in range(matches_each)],
                        conditions, deals, session)
            results["organiser"][name] = taps
            tap = percentiles([t["ms"] / 1000 for t in taps])
            print(f"{name}, the organiser's match page: tap to score p50 {tap['p50_ms']} ms, "
                  f"p95 {tap['p95_ms']} ms ({tap['count']} deals), to the server's drawing "
                  f"{statistics.median(t['drawn_ms'] for t in taps):.0f} ms")
        browser.close()
    return results


def play(browser, url: str, paths: list[str], conditions: dict | None, deals: int,
         organiser: list | None = None) -> list:
    """`deals` deals entered from seat A's phone, on `paths` one match after another, the
    phone on the emulated network from its first visit; with `organiser` (the cookie of the
    organiser's session), on the organiser's match pages instead."""
    taps = []
    for path in paths:
        context, page, network = new_page(browser, url + path, conditions, organiser)
        page.goto(url + path)
        if not organiser:
            page.click("form.seat-choice button[value=A]")
        page.wait_for_selector("form[data-offline-entry]")
        network.settle()
        points = {"A": 0, "B": 0}
        for number in range(1, min(DEALS_PER_MATCH, deals - len(taps)) + 1):
            winner = "AB"[number % 2 == 0]
            points[winner] += 1
            taps.append(deal(page, network, number, winner, f"{points['A']}:{points['B']}"))
        context.close()
    return taps


def print_network(name: str, conditions: dict | None, loads: list, taps: list) -> None:
    what = ("no emulation" if conditions is None else
            f"{conditions['latency']} ms round trip, {conditions['kbit']} kbit/s")
    tap = percentiles([t["ms"] / 1000 for t in taps])
    waits = [t["post"]["wait_ms"] or 0 for t in taps], [t["page"]["wait_ms"] or 0 for t in taps]
    first = "no cold load reached its load event" if not loads else (
        f"first load {loads[0]['bytes'] / 1024:.1f} KiB in {loads[0]['requests']} requests, "
        f"{statistics.median(f['load_ms'] for f in loads):.0f} ms to the load event (median "
        f"of {len(loads)})")
    drawn = statistics.median(t["drawn_ms"] for t in taps)
    print(f"{name} ({what}): {first}; tap to score p50 {tap['p50_ms']} ms, p95 {tap['p95_ms']} ms "
          f"({tap['count']} deals), to the server's drawing {drawn:.0f} ms (the post's answer "
          f"{statistics.median(waits[0]):.0f} ms and the part's {statistics.median(waits[1]):.0f}"
          f" ms after they were sent, medians)")


def report(results: dict, networks: list[str], deals: int, loads: int,
           load_before: tuple) -> None:
    loaded = [network for network in results["networks"].values() if network["loads"]]
    first = loaded[0]["loads"][0] if loaded else {"files": []}
    seat_pages = [network["seat_page"] for network in results["networks"].values()
                  if network["seat_page"]]
    for file in first["files"]:
        print(f"  {file['kind']:<10} {file['bytes']:>7} B  {file['encoding'] or '-':<5} "
              f"{file['status']}  {file['url']}")
    taps = [tap for name in networks for tap in results["networks"][name]["deals"]]
    post, page = taps[-1]["post"], taps[-1]["page"]
    body = taps[-1]["html"]
    deal_post = {
        "post_status": post["status"],
        "post_answer_bytes": post["bytes"],
        "redraw_bytes": round(statistics.median(t["page"]["bytes"] for t in taps)),
        "redraw_body_bytes": round(statistics.median(t["page"]["body"] for t in taps)),
        "redraw_content_encoding": page["encoding"],
        "redraw_gzip_bytes": len(gzip.compress(body, 6)),
        "round_trip_bytes": round(statistics.median(t["received"] for t in taps)),
        "round_trip_requests": round(statistics.median(t["requests"] for t in taps)),
        "round_trip_from_cache": round(statistics.median(t["from_cache"] for t in taps)),
    }
    print(f"a deal's post: answered {post['status']} in {post['bytes']} B, then the live part "
          f"again: {deal_post['redraw_bytes']} B on the wire ({deal_post['redraw_body_bytes']} B "
          f"of HTML, content-encoding {page['encoding'] or 'none'}; gzip would leave "
          f"{deal_post['redraw_gzip_bytes']} B); {deal_post['round_trip_bytes']} B received in "
          f"{deal_post['round_trip_requests']} requests from the tap to the server's drawing, "
          f"{deal_post['round_trip_from_cache']} more files from the browser's cache")
    load_after = os.getloadavg()
    calibration = calibration_ms()
    print(f"load average {load_before[0]:.2f} before, {load_after[0]:.2f} after; calibration "
          f"loop {calibration:.0f} ms")
    summary = {
        "load_average": [round(value, 2) for value in load_after],
        "calibration_ms": round(calibration),
        "deals": deals,
        "loads": loads,
        "first_load": {key: first.get(key) for key in ("bytes", "requests", "by_kind",
                                                       "accept_encoding")},
        "seat_page": {key: seat_pages[0][key] if seat_pages else None
                      for key in ("bytes", "requests", "by_kind")},
        **{name: {key: (results[name] or {}).get(key) for key in ("bytes", "requests",
                                                                 "by_kind")}
           for name in ("pass_page", "pass_match")},
        "deal_post": deal_post,
        "tap_to_score_ms": {},
        "organiser_tap_to_score_ms": {},
        "first_load_ms": {},
    }
    for name in networks:
        network = results["networks"][name]
        tap = percentiles([t["ms"] / 1000 for t in network["deals"]])
        tap["driver_p50_ms"] = round(statistics.median(t["driver_ms"] for t in network["deals"]),
                                     1)
        tap["drawn_p50_ms"] = round(statistics.median(t["drawn_ms"] for t in network["deals"]), 1)
        for key, answer in (("post_wait_p50_ms", "post"), ("page_wait_p50_ms", "page")):
            waits = [t[answer]["wait_ms"] for t in network["deals"]
                     if t[answer]["wait_ms"] is not None]
            tap[key] = round(statistics.median(waits), 1) if waits else None
        summary["tap_to_score_ms"][name] = tap
        organiser = results["organiser"][name]
        summary["organiser_tap_to_score_ms"][name] = {
            **percentiles([t["ms"] / 1000 for t in organiser]),
            "drawn_p50_ms": round(statistics.median(t["drawn_ms"] for t in organiser), 1)}
        summary["first_load_ms"][name] = {
            "load_ms": median(f["load_ms"] for f in network["loads"]),
            "dom_content_loaded_ms": median(f["dom_content_loaded_ms"]
                                            for f in network["loads"]),
            "seat_page_load_ms": network["seat_page"] and round(
                network["seat_page"]["load_ms"], 1),
            "failed_loads": network["failed_loads"],
        }
    print(json.dumps(summary, ensure_ascii=False))


def median(values) -> float | None:
    values = list(values)
    return round(statistics.median(values), 1) if values else None


if __name__ == "__main__":
    main()
