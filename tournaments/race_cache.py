"""The race of a round robin (each player's place after every round,
`pure.standings.places_after_each_round`) kept in Django's cache with a digest of the results
up to each round: a new result in round R leaves the places after rounds 1..R-1 as they were,
so only rounds R.. are ranked again (a 100-player double round robin has 198 rounds, and
ranking them all costs more than the rest of its standings page). A digest that differs
only means more rounds ranked again; the places shown are always those of the results given.
"""

from collections.abc import Hashable, Mapping, Sequence

from django.core.cache import cache

from tournaments.pure.fingerprints import digest
from tournaments.pure.standings import MatchResult, places_after_each_round

KEEP_SECONDS = 7 * 24 * 3600
"""How long an event's race stays in the cache after it was last written."""


def race_places(
    key: str,
    players: Sequence[int],
    rounds: Sequence[Sequence[MatchResult]],
    tie_breaks: Sequence[str],
    lots: Mapping[int, int],
    final: Mapping[int, int] | None = None,
) -> dict[Hashable, list[int]]:
    """`places_after_each_round(players, rounds, tie_breaks, lots)`, reusing what the cache
    keeps under `key` (one event's race, e.g. "standings-race:12") for the rounds whose
    results, and everything before them, are unchanged. `players`: entry ids; `rounds`: the
    counted results of round 1, 2, ...; `final`: when the caller has them, each player's
    rank in the standings over all of `rounds` (`compute_standings` with the same players,
    tie-breaks and lots), which are the places after the last round: a new result of the
    last round then needs no ranking at all. Raises `ValueError` as
    `places_after_each_round`."""
    chain = _digests((list(players), list(tie_breaks), sorted(lots.items())), rounds)
    known, before = 0, None
    stored = cache.get(key)
    if stored is not None:
        stored_chain, before = stored
        for old, new in zip(stored_chain, chain, strict=False):
            if old != new:
                break
            known += 1
    if known == len(chain):  # nothing changed (another sort order or language was asked)
        return dict(zip(players, before, strict=True))
    if final is not None and known == len(chain) - 1:
        if before is not None and len(stored_chain) == len(chain) and all(
                before[number][-1] == final[player] for number, player in enumerate(players)):
            # The last round's result changed and moved no place: what is kept is right, and
            # the next view takes this same shortcut, so nothing needs writing.
            return dict(zip(players, before, strict=True))
        places = [(before[number][:known] if known else []) + [final[player]]
                  for number, player in enumerate(players)]
    else:
        after = places_after_each_round(players, rounds, tie_breaks, lots, known=known)
        places = [(before[number][:known] if known else []) + after[player]
                  for number, player in enumerate(players)]
    cache.set(key, (chain, places), KEEP_SECONDS)
    return dict(zip(players, places, strict=True))


def _digests(start: object, rounds: Sequence[Sequence[MatchResult]]) -> list[bytes]:
    """One digest per round: of `start` (who is ranked, and how) and the results of that
    round and of every round before it (a chain, so equal digests mean equal prefixes)."""
    last = digest(start)
    chain = []
    for results in rounds:
        last = digest(list(map(tuple, results)), last)
        chain.append(last)
    return chain
