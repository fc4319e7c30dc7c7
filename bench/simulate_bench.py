"""`simulate_event` timed: whole events played with random legal deals through the recording
services, in a throwaway SQLite database (or DATABASE_URL when set to a PostgreSQL server).

For each event it prints the wall time of the command's work (create, start, play, report),
the matches played and the time per match; beside them, in the same run, a fixed calibration
loop (this machine's speed changes from run to run) and the floor: the same kind of match
entered deal by deal through `scoring.services.deal_record`, as the match page's form does,
per match. The simulation records each match with `match_scorecard_record` (all its deals in
one locked transaction); the ratio says what that saves.

    .venv/bin/python bench/simulate_bench.py [--seed 1]

Target: 200 players x 9 Swiss rounds under a minute; also 64 players in 16 groups,
2 of each going on to a knockout of 32. A format the site lacks is skipped. The machine's load
average (1 minute) is printed before and after, since other work shares it. The last line is
one JSON object.
"""

import argparse
import io
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
if "DATABASE_URL" not in os.environ:
    os.environ["DATABASE_URL"] = f"sqlite:///{tempfile.mkdtemp()}/bench.sqlite3"
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402

from club.models import Player
from events import registry
from formats import simulation
from scoring import services  # noqa: E402
from scoring.models import Match  # noqa: E402
from scoring.rules import HouseRules  # noqa: E402
from scoring.simulation import random_match

EVENTS = [
    ("round_robin", 40, []),
    ("knockout", 128, []),
    ("swiss", 200, ["--rounds", "9"]),
    ("groups", 64, ["--groups", "16", "--advance", "2"]),
]


def simulate(fmt: str, players: int, extra: list[str], seed: int) -> tuple[float, int]:
    started = time.perf_counter()
    out = io.StringIO()
    call_command("simulate_event", "--format", fmt, "--players", str(players),
                 "--seed", str(seed), *extra, stdout=out, stderr=io.StringIO())
    seconds = time.perf_counter() - started
    report = json.loads(out.getvalue().strip().splitlines()[-1])
    return seconds, sum(len(r["pairings"]) for r in report["rounds"])


def deal_by_deal(matches: int, seed: int) -> float:
    """Seconds per match entered one deal at a time (`deal_record`), outside any event."""
    rng = random.Random(seed)
    a, _ = Player.objects.get_or_create(name="Bench A")
    b, _ = Player.objects.get_or_create(name="Bench B")
    rules = HouseRules()
    started = time.perf_counter()
    for _ in range(matches):
        match = Match.objects.create(player_a=a, player_b=b,
                                     house_rules_snapshot=rules.to_dict())
        for number, score in enumerate(random_match(rng, rules), start=1):
            services.deal_record(match=match, score=score, by=None, number=number)
    return (time.perf_counter() - started) / matches


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    call_command("migrate", verbosity=0)
    load_before = os.getloadavg()[0]
    print(f"load average (1 min) before: {load_before:.2f}")
    started = time.perf_counter()
    sum(i * i for i in range(2_000_000))  # a fixed loop: this machine's speed varies by run
    calibration = time.perf_counter() - started
    print(f"calibration loop {calibration * 1000:.0f} ms")
    floor = deal_by_deal(100, args.seed)
    print(f"floor: a match entered deal by deal {floor * 1000:.1f} ms")
    runs = []
    print(f"{'event':<22} {'seconds':>8} {'matches':>8} {'ms/match':>9} {'vs floor':>9}")
    for fmt, players, extra in EVENTS:
        recipe = simulation.FORMATS.get(fmt)
        if recipe is None or recipe.format not in registry.REGISTRY:
            print(f"{fmt} {players}: not on this site yet, skipped")
            continue
        seconds, matches = simulate(fmt, players, extra, args.seed)
        per_match = seconds / matches
        runs.append({
            "format": fmt, "players": players, "options": extra, "seconds": round(seconds, 2),
            "matches": matches, "ms_per_match": round(per_match * 1000, 2),
            "ratio_to_floor": round(per_match / floor, 2),
            "ratio_to_calibration": round(seconds / calibration, 1),
        })
        print(f"{fmt + ' ' + str(players):<22} {seconds:>8.1f} {matches:>8} "
              f"{per_match * 1000:>9.1f} {per_match / floor:>9.2f}")
    load_after = os.getloadavg()[0]
    print(f"load average (1 min) after: {load_after:.2f}")
    print(json.dumps({
        "load_before": round(load_before, 2), "load_after": round(load_after, 2),
        "calibration_ms": round(calibration * 1000, 1),
        "floor_ms_per_match_deal_by_deal": round(floor * 1000, 2),
        "database": os.environ["DATABASE_URL"].split(":", 1)[0],
        "runs": runs,
    }))


if __name__ == "__main__":
    main()
