"""Standings and round pages under a big tournament, through Django's test client.

Builds a 64-player double round robin (4032 matches, ~20 deals each) in a throwaway SQLite
database (or DATABASE_URL when set to a PostgreSQL server), then reports the median time and the
SQL query count of the standings page and a round page, each beside a bare "hello" view
measured in the same run, and the query counts for an 8-player event. The standings table is
cached under its own content, so the page is timed twice: as spectators see it between two
results, and "cold", the first view after a new result, which renders the table afresh; the
target is judged on the cold figure.

    .venv/bin/python bench/standings_bench.py [--players 64] [--repeat 15]

Targets (issue 8): standings median under 150 ms; the same query count for 8 and 64 players.
"""

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
if "DATABASE_URL" not in os.environ:
    os.environ["DATABASE_URL"] = f"sqlite:///{tempfile.mkdtemp()}/bench.sqlite3"
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "club.settings")
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

from club.models import Player  # noqa: E402
from scoring.models import Deal, Match  # noqa: E402
from tournaments import services  # noqa: E402
from tournaments.models import Tournament  # noqa: E402

OUTCOMES = [(1, "won")] * 5 + [(2, "schneider")] * 3 + [(3, "capot")]


def hello(request):
    return HttpResponse("hello")


urlpatterns = [path("hello/", hello)]


def build(players: int, rng: random.Random) -> Tournament:
    """A started double round robin with every match played to 11 by bulk-created deals."""
    with transaction.atomic():
        tournament = Tournament.objects.create(
            name=f"Bench {players}", date=timezone.localdate(),
            format=Tournament.Format.DOUBLE_ROUND_ROBIN,
        )
        people = Player.objects.bulk_create(
            Player(name=f"Играч {players}-{n}") for n in range(1, players + 1)
        )
        for player in people:
            services.entry_add(tournament=tournament, player=player)
        services.tournament_start(tournament=tournament, rng=rng)
        deals, matches = [], list(Match.objects.filter(pairing__round__tournament=tournament))
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
        Deal.objects.bulk_create(deals, batch_size=2000)
        Match.objects.bulk_update(
            matches, ["game_points_a", "game_points_b", "winner", "status"], 500
        )
        tournament.status = Tournament.Status.FINISHED
        tournament.save()
    print(f"built {players} players: {len(matches)} matches, {len(deals)} deals")
    return tournament


def measure(client: Client, url: str, repeat: int, cold: bool = False) -> tuple[float, int]:
    """Median milliseconds and the query count of one GET of `url`; `cold` empties the cache
    before each GET (the first view after a new result renders the standings table afresh)."""
    client.get(url)  # warm caches and template loading
    times = []
    for _ in range(repeat):
        if cold:
            cache.clear()
        start = time.perf_counter()
        response = client.get(url)
        times.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200, (url, response.status_code)
    with CaptureQueriesContext(connection) as queries:
        client.get(url)
    return statistics.median(times), len(queries)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=64)
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    call_command("migrate", verbosity=0)
    rng = random.Random(66)
    small, big = build(8, rng), build(args.players, rng)
    client = Client()
    with override_settings(ROOT_URLCONF=__name__):
        hello_ms, _ = measure(client, "/hello/", args.repeat)
    rows = []
    for label, tournament in (("8 players", small), (f"{args.players} players", big)):
        standings_url = reverse("tournaments:standings", args=[tournament.pk])
        for page, url, cold in (
            ("standings", standings_url, False),
            ("round 1", reverse("tournaments:round", args=[tournament.pk, 1]), False),
            ("standings, cold", standings_url, True),
        ):
            ms, queries = measure(client, url, args.repeat, cold)
            rows.append((label, page, ms, queries))
    started = time.perf_counter()
    sum(i * i for i in range(2_000_000))  # a fixed loop: this machine's speed varies by run
    print(f"calibration loop {(time.perf_counter() - started) * 1000:.0f} ms")
    print(f"{'event':<12} {'page':<16} {'median ms':>10} {'x hello':>8} {'queries':>8}")
    print(f"{'-':<12} {'hello':<16} {hello_ms:>10.2f} {1:>8.1f} {0:>8}")
    for label, page, ms, queries in rows:
        print(f"{label:<12} {page:<16} {ms:>10.2f} {ms / hello_ms:>8.1f} {queries:>8}")
    standings_ms = rows[5][2]  # judged cold: a live evening's first view after each result
    same_queries = all(small[3] == big[3] for small, big in zip(rows[:3], rows[3:], strict=True))
    print(f"target standings < 150 ms: {'met' if standings_ms < 150 else 'NOT met'} "
          f"(cold {standings_ms:.1f} ms; {rows[3][2]:.1f} ms from the cache); same query "
          f"count 8 vs "
          f"{args.players}: "
          f"{'met' if same_queries else 'NOT met'}")


if __name__ == "__main__":
    main()
