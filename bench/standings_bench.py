"""Standings and round pages under big events, through Django's test client.

Builds, in a throwaway SQLite database (or DATABASE_URL when set to a PostgreSQL server),
double round robins of 8, 64 and 100 players (the 100: 9,900 matches, ~113,000 deals) and a
200-player 9-round Swiss, every match played to 11 by bulk-written deals (the Swiss paired
round by round by its real pairing; the standings always come out of the site's own code),
then reports the median CPU and wall-clock time and the SQL query count of each event's
standings page and its round 1 page, beside a bare "hello" view measured in the same run.
The standings table (and a round robin's race chart) is cached under its own content, so the
standings page is timed three ways: as spectators see it between two results (from the
cache); "cold", the first view after a new result (`NewResult`: one result of the last round
changed before each GET), which ranks the players and renders the table and the race again;
and with an empty cache (a restarted server: even the race's earlier rounds are ranked
again). The targets are judged on the CPU time (this process's: the test client, the site
and SQLite all run in it, so a core shared with other work does not count; the wall-clock
figures are printed beside it) of the cold view. The last line is one JSON object with the
figures, the targets and whether each is met.

    .venv/bin/python bench/standings_bench.py [--players 100] [--swiss-players 200]
        [--swiss-rounds 9] [--repeat 15] [--quick]

`--quick`: small events (30-player round robin instead of 64 and 100, a 40-player 5-round
Swiss, 5 repeats) for a fast iteration; its targets are printed but mean little.

Targets: the standings page of a 100-player double round robin and of a
200-player 9-round Swiss ≤ 50 ms cold; the 64-player round robin's
standings under 150 ms (judged with an empty cache, as it was first measured), and the same
query count for 8 and 64 players.
"""

import argparse
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
THROWAWAY = None
"""The directory of the throwaway SQLite database, removed at the end."""
if "DATABASE_URL" not in os.environ:
    THROWAWAY = tempfile.mkdtemp()
    os.environ["DATABASE_URL"] = f"sqlite:///{THROWAWAY}/bench.sqlite3"
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("ALLOWED_HOSTS", "testserver,127.0.0.1,localhost")

import django  # noqa: E402

django.setup()

from django.core.cache import cache  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.http import HttpResponse  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext, override_settings  # noqa: E402
from django.urls import path, reverse  # noqa: E402
from django.utils import timezone  # noqa: E402

from bench.common import calibration_ms  # noqa: E402
from club.models import Player
from events import registry, services
from events.models import Entry, Tournament
from scoring.models import Deal, Match  # noqa: E402

OUTCOMES = [(1, "won")] * 5 + [(2, "schneider")] * 3 + [(3, "capot")]


def hello(request):
    return HttpResponse("hello")


urlpatterns = [path("hello/", hello)]


def _play(matches: list[Match], rng: random.Random) -> int:
    """Every match of `matches` played to 11 by random deals, written in bulk (no service:
    9,900 matches through the scorecard service would take minutes); the deal count."""
    deals = []
    for match in matches:
        points = {"A": 0, "B": 0}
        number = 0
        while max(points.values()) < 11:
            number += 1
            game_points, reason = rng.choice(OUTCOMES)
            winner = rng.choice("AB")
            points[winner] += game_points
            deals.append(Deal(match=match, number=number, winner=winner,
                              game_points=game_points, reason=reason))
        match.game_points_a, match.game_points_b = points["A"], points["B"]
        match.winner = "A" if points["A"] >= 11 else "B"
        match.status = Match.Status.FINISHED
        match.finished_at = timezone.now()
    Deal.objects.bulk_create(deals, batch_size=2000)
    Match.objects.bulk_update(
        matches, ["game_points_a", "game_points_b", "winner", "status", "finished_at"], 500
    )
    return len(deals)


def _entries(tournament: Tournament, players: int) -> None:
    people = Player.objects.bulk_create(
        Player(name=f"Играч {tournament.pk}-{n}") for n in range(1, players + 1)
    )
    Entry.objects.bulk_create(
        Entry(tournament=tournament, player=player, number=number)
        for number, player in enumerate(people, start=1)
    )


def build(players: int, rng: random.Random) -> Tournament:
    """A finished double round robin of `players`, every match played to 11."""
    with transaction.atomic():
        tournament = Tournament.objects.create(
            name=f"Bench {players}", date=timezone.localdate(),
            format=Tournament.Format.DOUBLE_ROUND_ROBIN,
        )
        _entries(tournament, players)
        services.tournament_start(tournament=tournament, rng=rng)
        matches = list(Match.objects.filter(pairing__round__tournament=tournament))
        deals = _play(matches, rng)
        tournament.status = Tournament.Status.FINISHED
        tournament.save()
    print(f"built {players} players: {len(matches)} matches, {deals} deals")
    return tournament


def build_swiss(players: int, rounds: int, rng: random.Random) -> Tournament:
    """A finished Swiss of `players` and `rounds`, each round paired by the format's own
    pairing once the round before is played."""
    with transaction.atomic():
        tournament = Tournament.objects.create(
            name=f"Bench Swiss {players}", date=timezone.localdate(),
            format=Tournament.Format.SWISS, swiss_rounds=rounds,
        )
        _entries(tournament, players)
        event_format = registry.for_tournament(tournament)
        event_format.start(rng=rng)
        deals = matches = 0
        for number in range(1, rounds + 1):
            if number > 1:
                event_format.pair_next_round(by=None, rng=rng)
            to_play = list(Match.objects.filter(pairing__round__tournament=tournament,
                                                pairing__round__number=number))
            deals += _play(to_play, rng)
            matches += len(to_play)
        Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.FINISHED)
        tournament.refresh_from_db()
    print(f"built a Swiss of {players} players, {rounds} rounds: {matches} matches, "
          f"{deals} deals")
    return tournament


class Timing(NamedTuple):
    """One page's figures: median wall-clock and CPU milliseconds of a GET, its queries."""

    wall_ms: float
    cpu_ms: float
    queries: int


def measure(client: Client, url: str, repeat: int, before=None) -> Timing:
    """The median wall-clock and CPU milliseconds and the query count of one GET of `url`;
    `before()`, when given, runs before each GET, untimed (`NewResult`, or the cache
    emptied). CPU time is this process's (the test client, the site and, on SQLite, the
    database all run in it), so it does not count the time spent waiting for a core on a
    shared machine; on PostgreSQL the server's own CPU is not in it."""
    client.get(url)  # warm caches and template loading
    walls, cpus = [], []
    for _ in range(repeat):
        if before is not None:
            before()
        start, start_cpu = time.perf_counter(), time.process_time()
        response = client.get(url)
        cpus.append((time.process_time() - start_cpu) * 1000)
        walls.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200, (url, response.status_code)
    with CaptureQueriesContext(connection) as queries:
        client.get(url)
    return Timing(statistics.median(walls), statistics.median(cpus), len(queries))


class NewResult:
    """A result of the event's last round changed before each GET, as a correction or the
    next result of the evening would be: the loser of one match (the next one each time)
    scores one game point more (modulo the target), so the standings never come back to
    a state already seen and cached."""

    def __init__(self, tournament: Tournament):
        last = tournament.rounds.order_by("-number").first()
        self.matches = list(Match.objects.filter(pairing__round=last).order_by("pk"))
        self.turn = 0

    def __call__(self) -> None:
        match = self.matches[self.turn % len(self.matches)]
        self.turn += 1
        if match.winner == "A":
            match.game_points_b = (match.game_points_b + 1) % 11
        else:
            match.game_points_a = (match.game_points_a + 1) % 11
        match.save(update_fields=["game_points_a", "game_points_b"])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=100,
                        help="players of the big double round robin (target: 100)")
    parser.add_argument("--swiss-players", type=int, default=200)
    parser.add_argument("--swiss-rounds", type=int, default=9)
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--quick", action="store_true", help="small events, 5 repeats")
    args = parser.parse_args()
    middle = 64
    if args.quick:
        args.players, middle, args.swiss_players, args.swiss_rounds = 30, 30, 40, 5
        args.repeat = min(args.repeat, 5)
    call_command("migrate", verbosity=0)
    # A run before this one, on the same seed, leaves tables and charts under the same digests.
    cache.clear()
    rng = random.Random(66)
    events = [("8 players", build(8, rng)), (f"{middle} players", build(middle, rng))]
    if args.players != middle:
        events.append((f"{args.players} players", build(args.players, rng)))
    events.append((f"Swiss {args.swiss_players}",
                   build_swiss(args.swiss_players, args.swiss_rounds, rng)))
    client = Client()
    with override_settings(ROOT_URLCONF=__name__):
        hello = measure(client, "/hello/", args.repeat)
    figures: dict[str, dict[str, dict]] = {}
    for label, tournament in events:
        standings_url = reverse("standings:standings", args=[tournament.pk])
        figures[label] = {}
        for page, url, before in (
            ("standings", standings_url, None),
            ("round 1", reverse("events:round", args=[tournament.pk, 1]), None),
            ("standings, cold", standings_url, NewResult(tournament)),
            ("standings, empty cache", standings_url, cache.clear),
        ):
            timing = measure(client, url, args.repeat, before)
            figures[label][page] = {
                "cpu_ms": round(timing.cpu_ms, 2), "wall_ms": round(timing.wall_ms, 2),
                "x_hello": round(timing.cpu_ms / hello.cpu_ms, 1), "queries": timing.queries,
            }
    calibration = calibration_ms()
    started = time.process_time()
    calibration_ms()
    calibration_cpu = (time.process_time() - started) * 1000
    print(f"calibration loop {calibration:.0f} ms ({calibration_cpu:.0f} ms of CPU); load "
          f"average {' '.join(f'{load:.2f}' for load in os.getloadavg())}")
    print("medians of", args.repeat, "GETs; targets judged on CPU ms")
    print(f"{'event':<14} {'page':<22} {'CPU ms':>8} {'wall ms':>8} {'x hello':>8} "
          f"{'queries':>8}")
    print(f"{'-':<14} {'hello':<22} {hello.cpu_ms:>8.2f} {hello.wall_ms:>8.2f} {1:>8.1f} "
          f"{0:>8}")
    for label, pages in figures.items():
        for page, row in pages.items():
            print(f"{label:<14} {page:<22} {row['cpu_ms']:>8.2f} {row['wall_ms']:>8.2f} "
                  f"{row['x_hello']:>8.1f} {row['queries']:>8}")

    def cold(label: str, page: str = "standings, cold") -> float:
        return figures[label][page]["cpu_ms"]

    small, medium = figures["8 players"], figures[f"{middle} players"]
    targets = {
        f"standings cold, {args.players}-player double round robin <= 50 ms":
            (cold(f"{args.players} players"), 50),
        f"standings cold, {args.swiss_players}-player {args.swiss_rounds}-round Swiss <= 50 ms":
            (cold(f"Swiss {args.swiss_players}"), 50),
        f"standings with an empty cache, {middle} players < 150 ms":
            (cold(f"{middle} players", "standings, empty cache"), 150),
    }
    met = {name: ms <= limit if "<=" in name else ms < limit
           for name, (ms, limit) in targets.items()}
    for name, (ms, _limit) in targets.items():
        print(f"target {name}: {'met' if met[name] else 'NOT met'} ({ms:.1f} ms of CPU)")
    same_queries = all(small[page]["queries"] == medium[page]["queries"] for page in small)
    print(f"target same query count 8 vs {middle} players: "
          f"{'met' if same_queries else 'NOT met'}")
    print(json.dumps({
        "calibration_ms": round(calibration), "calibration_cpu_ms": round(calibration_cpu),
        "load_average": os.getloadavg()[0],
        "hello_cpu_ms": round(hello.cpu_ms, 3), "hello_wall_ms": round(hello.wall_ms, 3),
        "repeat": args.repeat, "quick": args.quick,
        "pages": figures,
        "targets": {name: {"cpu_ms": ms, "limit_ms": limit, "met": met[name]}
                    for name, (ms, limit) in targets.items()},
        "same_query_count": same_queries,
        "met": all(met.values()) and same_queries,
    }, ensure_ascii=False))


if __name__ == "__main__":
    try:
        main()
    finally:
        if THROWAWAY is not None:
            connection.close()
            shutil.rmtree(THROWAWAY, ignore_errors=True)
