"""How long one Swiss round takes to pair (`formats.swiss.pairing.pair_round`).

Plays 9-round events of 50, 100 and 200 players (random winners, a bye scores a win, a fixed
seed) and times `pair_round` in each round: with its solver (rustworkx) and, on the same
fields, with the pure-Python reference (networkx; for 200 players only with --reference-200,
about half a minute). Each figure is also given as a ratio to a floor measured in the same
run: a fixed Python loop (this machine's speed varies by run). It checks on the way that
both solvers' pairings cost the same (`round_cost`). The last line is one JSON object.

    .venv/bin/python bench/swiss_pairing.py [--reference-200] [--seed 1]

Target: at most 1 s to pair a round of 200 players (200 players × 9 rounds must
simulate in under a minute, every match played through the services, and a pairing done
inside a web request stay well under a few seconds).
"""

import argparse
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from formats.swiss.pairing import SwissPlayer, pair_round, round_cost, solve_networkx

SIZES = (50, 100, 200)
ROUNDS = 9
TARGET_SECONDS = 1.0


def floor_ms() -> float:
    """A fixed loop, the best of three, in ms."""
    best = float("inf")
    for _ in range(3):
        started = time.perf_counter()
        sum(i * i for i in range(2_000_000))
        best = min(best, time.perf_counter() - started)
    return best * 1000


def timed(players, **options):
    started = time.perf_counter()
    pairing = pair_round(players, **options)
    return pairing, (time.perf_counter() - started) * 1000


def play(count: int, rng: random.Random, reference: bool):
    """Times (ms) of each round's pairing, by the default solver and (if `reference`) by
    networkx on the same field; raises if their costs ever differ."""
    state = {n: dict(score=0, opponents=set(), byes=0, first=0, second=0, last=None)
             for n in range(1, count + 1)}
    fast_ms, reference_ms = [], []
    for _ in range(ROUNDS):
        players = [SwissPlayer(n, n, s["score"], frozenset(s["opponents"]), s["byes"],
                               s["first"], s["second"], s["last"]) for n, s in state.items()]
        pairing, ms = timed(players)
        fast_ms.append(ms)
        if reference:
            slow, ms = timed(players, solve=solve_networkx)
            reference_ms.append(ms)
            if round_cost(players, slow) != round_cost(players, pairing):
                raise SystemExit(f"{count} players: the two solvers' costs differ")
        for first, second in pairing.pairs:
            state[first]["opponents"].add(second)
            state[second]["opponents"].add(first)
            state[first]["first"] += 1
            state[second]["second"] += 1
            state[first]["last"], state[second]["last"] = True, False
            state[rng.choice((first, second))]["score"] += 1
        if pairing.bye is not None:
            state[pairing.bye]["byes"] += 1
            state[pairing.bye]["score"] += 1
    return fast_ms, reference_ms


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reference-200", action="store_true",
                        help="also time networkx on 200 players (about half a minute)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    pair_round([SwissPlayer(n, n) for n in range(1, 5)])  # warm-up: imports
    floor = floor_ms()
    print(f"floor: a fixed loop {floor:.0f} ms; {ROUNDS} rounds each; ms per round "
          f"(x floor)")
    results = {}
    for count in SIZES:
        reference = count < 200 or args.reference_200
        fast, slow = play(count, random.Random(args.seed), reference)
        results[count] = (fast, slow)
        for name, times in (("rustworkx", fast), ("networkx", slow)):
            if times:
                row = " ".join(f"{ms:7.0f}" for ms in times)
                print(f"{count:>4} {name:<9} {row}  max {max(times):7.0f} "
                      f"(x{max(times) / floor:.2f})")
    worst = max(results[200][0])
    met = worst <= TARGET_SECONDS * 1000
    print(f"target <= {TARGET_SECONDS:.0f} s per round at 200 players: "
          f"{'met' if met else 'NOT met'} (worst {worst:.0f} ms); both solvers' pairings "
          f"cost the same on every field timed")
    print(json.dumps({
        "floor_ms": round(floor, 1), "rounds": ROUNDS, "seed": args.seed,
        "ms_per_round": {str(count): [round(ms, 1) for ms in fast]
                         for count, (fast, _) in results.items()},
        "networkx_ms_per_round": {str(count): [round(ms, 1) for ms in slow]
                                  for count, (_, slow) in results.items() if slow},
        "worst_over_floor": {str(count): round(max(fast) / floor, 3)
                             for count, (fast, _) in results.items()},
        "networkx_worst_over_floor": {str(count): round(max(slow) / floor, 3)
                                      for count, (_, slow) in results.items() if slow},
        "worst_ms_200": round(worst, 1), "target_ms": TARGET_SECONDS * 1000, "met": met,
    }))


if __name__ == "__main__":
    main()
