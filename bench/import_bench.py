"""How fast a deal log imports, and in how much memory.

Standalone (`make bench` runs it): a throwaway SQLite database in a temporary directory (or
the configured one with `--use-database`, inside a transaction that is rolled back) and
deterministic random deal logs in the import format, written to files and read from them as
the site and the command do (`exchange.importing`: `parse_deal_log` streams the file,
`import_plan_apply` writes the plan in batches).

1. The small file of old: a 10-player round robin (45 matches, some 700 deals): read and
   check, write.
2. Two sizes, `--deals` (default 20,000) and a tenth of it: a round robin of up to 100 players,
   played as many times over as the deals need (a club season). The larger one is timed; the
   floor is a plain `bulk_create` of as many bare `Deal` rows (no history, no check, in
   batches of the same size) in the same run, so the ratio holds on a loaded machine.
3. Memory, each size in a fresh child process of its own (`--memory-child`): the process's
   peak resident size (max RSS: Django, SQLite and the import) after one import, then the
   `tracemalloc` peak of Python's allocations during a second one (check and write).

Targets: the write at >= 10,000 deals a second; the max RSS at the larger size at most 1.25
times the smaller one's (constant memory). The tracemalloc peaks are printed with what they
grow by per deal (the check keeps each deal as an 8-byte number and each match as a small
object). Prints the figures; the last line is one JSON object with them, the targets and
whether each is met; never fails.

    python bench/import_bench.py [--deals 20000] [--seed 66] [--write deals.csv]
    python bench/import_bench.py --deals 200000      # a 200,000-deal season (minutes)
"""

import argparse
import datetime
import json
import math
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
import tracemalloc
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.common import calibration_ms  # noqa: E402

TARGET_DEALS_PER_SECOND = 10_000
TARGET_RSS_RATIO = 1.25
# Deal outcomes, drawn with these weights: plain wins most often, a few draws.
OUTCOMES = [
    (("won", 1), 50), (("schneider", 2), 10), (("capot", 3), 3), (("false_claim", 3), 2),
    (("closer_failed", 3), 2), (("opponent_out_after_close", 3), 1), (("draw", 0), 16),
]
DEALS_PER_MATCH = 15.4
"""About how many deals a match of these outcomes takes to 11 game points."""
MAX_PLAYERS = 100


def write_deal_log(path: Path, *, players: int, seed: int, deals: int | None = None) -> int:
    """Write a deal log of a round robin of `players` players (Berger schedule) to `path`:
    every match played to 11 game points with random deals, legs over and over (seats
    swapped every other leg) until at least `deals` deals (None: one leg). Deterministic for
    a given `seed`. Returns the number of deals."""
    from formats.round_robin.berger import berger_rounds

    rng = random.Random(seed)
    names = [f"Играч {number:03d}" for number in range(1, players + 1)]
    outcomes, weights = zip(*OUTCOMES, strict=True)
    schedule = berger_rounds(players)
    written, round_number, leg = 0, 0, 0
    with path.open("w", encoding="utf-8", newline="") as out:
        out.write("round,table,player_a,player_b,deal,winner,game_points,reason\n")
        while deals is None and leg == 0 or deals is not None and written < deals:
            for pairs in schedule:
                if deals is not None and written >= deals:
                    break
                round_number += 1
                table = 0
                for seat_a, seat_b in pairs:
                    if seat_a > players or seat_b > players:
                        continue  # the dummy of an odd count: a bye
                    if leg % 2:
                        seat_a, seat_b = seat_b, seat_a
                    table += 1
                    points = {"A": 0, "B": 0}
                    number = 0
                    while max(points.values()) < 11:
                        reason, gained = rng.choices(outcomes, weights)[0]
                        winner = None if reason == "draw" else rng.choice("AB")
                        if winner:
                            points[winner] += gained
                        number += 1
                        out.write(f"{round_number},{table},{names[seat_a - 1]},"
                                  f"{names[seat_b - 1]},{number},{winner or 'draw'},{gained},"
                                  f"{reason}\n")
                    written += number
            leg += 1
    return written


def players_for(deals: int) -> int:
    """Players of a single round robin of about `deals` deals, at most `MAX_PLAYERS` (more
    deals: more legs)."""
    matches = deals / DEALS_PER_MATCH
    return max(4, min(MAX_PLAYERS, math.ceil((1 + math.sqrt(1 + 8 * matches)) / 2)))


def import_file(path: Path, *, traced: bool = False, floor: bool = False) -> dict:
    """Import `path` in a transaction that is rolled back; return its figures (seconds of
    check and write, deals, tournament status; the tracemalloc peak in MB when `traced`; the
    seconds of a plain `bulk_create` of as many bare deals when `floor`)."""
    from django.db import transaction

    from exchange.importing import BATCH_SIZE, import_plan_apply, parse_deal_log
    from scoring import rules
    from scoring.models import Deal, Match

    if traced:
        tracemalloc.start()
    with transaction.atomic():
        started = time.perf_counter()
        with path.open("rb") as file:
            plan = parse_deal_log(file, house_rules=rules.HouseRules())
        parsed = time.perf_counter()
        if plan.errors:
            sys.exit("The generated file does not read: " + "; ".join(plan.errors[:5]))
        tournament = import_plan_apply(
            plan=plan, name="Бенчмарк импорт", date=datetime.date(2026, 12, 5),
            house_rules=rules.HouseRules(), organiser=None,
        )
        written = time.perf_counter()
        figures = {"check_s": parsed - started, "write_s": written - parsed,
                   "deals": plan.deal_count, "matches": len(plan.matches),
                   "players": len(plan.players), "status": tournament.status}
        if traced:
            figures["peak_mb"] = tracemalloc.get_traced_memory()[1] / 1024 / 1024
            tracemalloc.stop()
        if floor:
            match_ids = list(Match.objects.filter(
                pairing__round__tournament=tournament).values_list("pk", flat=True))
            floor_started = time.perf_counter()
            for start in range(0, plan.deal_count, BATCH_SIZE):
                Deal.objects.bulk_create([
                    Deal(match_id=match_ids[index % len(match_ids)],
                         number=1000 + index // len(match_ids), winner="A", game_points=1,
                         reason="won")
                    for index in range(start, min(start + BATCH_SIZE, plan.deal_count))
                ])
            figures["floor_s"] = time.perf_counter() - floor_started
        transaction.set_rollback(True)
    return figures


def setup_django(workdir: Path, use_database: bool):
    """Django on a throwaway SQLite database in `workdir` (or the configured one), with
    DEBUG off as on a server (no log of every SQL statement). Returns the connection."""
    if not use_database:
        os.environ["DATABASE_URL"] = f"sqlite:///{workdir}/bench.sqlite3"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    warnings.simplefilter("ignore")  # the development SECRET_KEY warning

    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection

    settings.DEBUG = False
    if not use_database:
        call_command("migrate", verbosity=0)
    return connection


def memory_child(deals: int, seed: int, use_database: bool) -> None:
    """In a fresh process: import a file of `deals` deals once (max RSS), then again under
    tracemalloc (its peak); print {"rss_mb", "peak_mb", "deals"} as JSON."""
    workdir = Path(tempfile.mkdtemp(prefix="import-bench-memory-"))
    setup_django(workdir, use_database)
    path = workdir / "deals.csv"
    write_deal_log(path, players=players_for(deals), seed=seed, deals=deals)
    figures = import_file(path)
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    traced = import_file(path, traced=True)
    print(json.dumps({"rss_mb": rss_mb, "peak_mb": traced["peak_mb"],
                      "deals": figures["deals"]}))


def memory_of(deals: int, options) -> dict:
    command = [sys.executable, __file__, "--memory-child", str(deals), "--seed",
               str(options.seed)] + (["--use-database"] if options.use_database else [])
    done = subprocess.run(command, capture_output=True, text=True, timeout=3600, check=False)
    lines = done.stdout.strip().splitlines()
    if done.returncode or not lines:
        sys.exit(f"The memory run of {deals} deals failed: {done.stderr[-2000:]}")
    return json.loads(lines[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20_000,
                        help="deals of the larger file (default 20,000; 200000: a season)")
    parser.add_argument("--seed", type=int, default=66)
    parser.add_argument("--write", help="also save the larger generated CSV to this file")
    parser.add_argument("--use-database", action="store_true",
                        help="time against the configured database (rolled back)")
    parser.add_argument("--memory-child", type=int, help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.memory_child:
        memory_child(options.memory_child, options.seed, options.use_database)
        return

    workdir = Path(tempfile.mkdtemp(prefix="import-bench-"))
    connection = setup_django(workdir, options.use_database)
    calibration = calibration_ms()
    load = os.getloadavg()[0]

    small_path = workdir / "small.csv"
    write_deal_log(small_path, players=10, seed=options.seed)
    small = import_file(small_path)
    print(f"calibration loop {calibration:.0f} ms; load average {load:.2f}; "
          f"{connection.vendor}")
    print(f"small file: {small['players']} players, {small['matches']} matches, "
          f"{small['deals']} deals; read and check {small['check_s']:.2f} s, "
          f"write {small['write_s']:.2f} s; tournament {small['status']}")

    path = workdir / "deals.csv"
    made = time.perf_counter()
    count = write_deal_log(path, players=players_for(options.deals), seed=options.seed,
                           deals=options.deals)
    made = time.perf_counter() - made
    if options.write:
        Path(options.write).write_bytes(path.read_bytes())
    big = import_file(path, floor=True)
    big["file_mb"] = path.stat().st_size / 1024 / 1024
    path.unlink()
    write_rate = big["deals"] / big["write_s"]
    floor_rate = big["deals"] / big["floor_s"]
    ratio = big["write_s"] / big["floor_s"]
    print(f"{count:,} deals ({big['players']} players, {big['matches']:,} matches, "
          f"{big['file_mb']:.1f} MB, made in {made:.1f} s): check {big['check_s']:.2f} s "
          f"({count / big['check_s']:,.0f} rows/s), write {big['write_s']:.2f} s "
          f"({write_rate:,.0f} deals/s); tournament {big['status']}")
    print(f"floor: plain bulk_create of {big['deals']:,} bare deals {big['floor_s']:.2f} s "
          f"({floor_rate:,.0f} deals/s); the import's write is {ratio:.2f} x the floor")

    sizes = [memory_of(deals, options) for deals in (options.deals // 10, options.deals)]
    lower, upper = sizes
    rss_ratio = upper["rss_mb"] / lower["rss_mb"]
    grows = ((upper["peak_mb"] - lower["peak_mb"]) * 1024 * 1024
             / (upper["deals"] - lower["deals"]))
    for row in sizes:
        print(f"memory at {row['deals']:,} deals: max RSS {row['rss_mb']:.0f} MB, "
              f"tracemalloc peak {row['peak_mb']:.1f} MB")
    print(f"max RSS {rss_ratio:.2f} x from {lower['deals']:,} to {upper['deals']:,} deals; "
          f"the tracemalloc peak grows {grows:.0f} bytes a deal")
    met_speed = write_rate >= TARGET_DEALS_PER_SECOND
    met_memory = rss_ratio <= TARGET_RSS_RATIO
    print(f"target >= {TARGET_DEALS_PER_SECOND:,} deals/s written: "
          f"{'met' if met_speed else 'NOT met'} ({write_rate:,.0f}; {ratio:.2f} x the floor); "
          f"max RSS at {upper['deals']:,} <= {TARGET_RSS_RATIO} x at {lower['deals']:,}: "
          f"{'met' if met_memory else 'NOT met'} ({rss_ratio:.2f} x)")
    print(json.dumps({
        "calibration_ms": round(calibration), "load_average": round(load, 2),
        "database": connection.vendor,
        "small": {"deals": small["deals"], "check_s": round(small["check_s"], 3),
                  "write_s": round(small["write_s"], 3)},
        "deals": big["deals"], "check_s": round(big["check_s"], 2),
        "write_s": round(big["write_s"], 2), "write_deals_per_s": round(write_rate),
        "floor_deals_per_s": round(floor_rate), "write_x_floor": round(ratio, 2),
        "max_rss_mb": {str(row["deals"]): round(row["rss_mb"]) for row in sizes},
        "rss_ratio": round(rss_ratio, 2),
        "tracemalloc_peak_mb": {str(row["deals"]): round(row["peak_mb"], 2) for row in sizes},
        "peak_bytes_per_deal": round(grows),
        "targets": {"write_deals_per_s": TARGET_DEALS_PER_SECOND, "rss_ratio": TARGET_RSS_RATIO},
        "met": {"write_deals_per_s": met_speed, "rss_ratio": met_memory},
    }))


if __name__ == "__main__":
    main()
