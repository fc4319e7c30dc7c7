"""How fast a deal log imports: a 10-player single round robin (45 matches, some 700 deals).

Standalone (`make bench` runs it): a throwaway SQLite database in a temporary directory (or
the configured one with `--use-database`, inside a transaction that is rolled back), a
deterministic random deal log in the import format, then `tournaments.importing`: read and
check (`parse_deal_log`), write (`import_plan_apply`). Target: under 5 s in all. Prints the
figures, the total seconds on the last line, and whether the target is met; never fails.

    python bench/import_bench.py [--players 10] [--seed 66] [--write deals.csv]
"""

import argparse
import datetime
import os
import random
import sys
import tempfile
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

TARGET_SECONDS = 5.0
# Deal outcomes, drawn with these weights: plain wins most often, a few draws.
OUTCOMES = [
    (("won", 1), 50), (("schneider", 2), 10), (("capot", 3), 3), (("false_claim", 3), 2),
    (("closer_failed", 3), 2), (("opponent_out_after_close", 3), 1), (("draw", 0), 16),
]


def deal_log(players: int, seed: int) -> str:
    """A deal log of a single round robin of `players` players (Berger schedule): every match
    played to 11 game points with random deals. Deterministic for a given `seed`."""
    from scoring import rules
    from tournaments.pure.berger import berger_rounds

    rng = random.Random(seed)
    names = [f"Играч {number:02d}" for number in range(1, players + 1)]
    outcomes, weights = zip(*OUTCOMES, strict=True)
    lines = ["round,table,player_a,player_b,deal,winner,game_points,reason"]
    for round_number, pairs in enumerate(berger_rounds(players), start=1):
        table = 0
        for seat_a, seat_b in pairs:
            if seat_a > players or seat_b > players:
                continue  # the dummy of an odd count: a bye
            table += 1
            scores: list[rules.DealScore] = []
            while not rules.score_match(scores).finished:
                reason, points = rng.choices(outcomes, weights)[0]
                winner = None if reason == "draw" else rng.choice("AB")
                scores.append(rules.quick_result(winner, points, reason))
                lines.append(
                    f"{round_number},{table},{names[seat_a - 1]},{names[seat_b - 1]},"
                    f"{len(scores)},{winner or 'draw'},{points},{reason}"
                )
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=10)
    parser.add_argument("--seed", type=int, default=66)
    parser.add_argument("--write", help="also save the generated CSV to this file")
    parser.add_argument("--use-database", action="store_true",
                        help="time against the configured database (rolled back)")
    options = parser.parse_args()

    if not options.use_database:
        workdir = tempfile.mkdtemp(prefix="import-bench-")
        os.environ["DATABASE_URL"] = f"sqlite:///{workdir}/bench.sqlite3"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "club.settings")
    warnings.simplefilter("ignore")  # the development SECRET_KEY warning

    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection, transaction

    from scoring import rules
    from tournaments.importing import import_plan_apply, parse_deal_log

    if not options.use_database:
        call_command("migrate", verbosity=0)
    text = deal_log(options.players, options.seed)
    if options.write:
        Path(options.write).write_text(text, encoding="utf-8")
    data = text.encode("utf-8")

    started = time.perf_counter()
    plan = parse_deal_log(data, house_rules=rules.HouseRules())
    parsed = time.perf_counter()
    if plan.errors:
        sys.exit("The generated file does not read: " + "; ".join(plan.errors[:5]))
    with transaction.atomic():
        tournament = import_plan_apply(
            plan=plan, name="Бенчмарк импорт", date=datetime.date(2026, 12, 5),
            house_rules=rules.HouseRules(), organiser=None,
        )
        written = time.perf_counter()
        status = tournament.status
        if options.use_database:
            transaction.set_rollback(True)
    total = written - started

    print(f"file: {options.players} players, {len(plan.matches)} matches, "
          f"{plan.deal_count} deals, {len(data) / 1024:.0f} KB "
          f"({connection.vendor}); tournament {status}")
    print(f"read and check: {parsed - started:.2f} s; write: {written - parsed:.2f} s")
    verdict = "meets" if total < TARGET_SECONDS else "MISSES"
    print(f"import {verdict} the target of {TARGET_SECONDS:.0f} s")
    print(f"{total:.2f}")


if __name__ == "__main__":
    main()
