"""The race kept in the cache (`tournaments.race_cache`): the places after each round are
always those of the results given; what the cache keeps only spares ranking again the rounds
whose results, and those before them, did not change.

Three players A=1, B=2, C=3, default tie-breaks. Round 1: A beats B 11:7 (C rests): A first;
B and C have not met, so the GP difference puts C (0) before B (-4). Round 2: C beats A 11:5:
A and C on one win, C won their meeting: C, A, B.
"""

import pytest
from django.core.cache import cache

from tournaments.pure.standings import DEFAULT_TIE_BREAKS, MatchResult
from tournaments.race_cache import race_places

ROUND_1 = [MatchResult(1, 2, 11, 7, "A")]
ROUND_2 = [MatchResult(3, 1, 11, 5, "A")]
KEY = "standings-race:test"


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()
    yield
    cache.clear()


def race(rounds):
    return race_places(KEY, [1, 2, 3], rounds, DEFAULT_TIE_BREAKS, {})


def test_the_places_after_each_round():
    assert race([ROUND_1, ROUND_2]) == {1: [1, 2], 2: [3, 3], 3: [2, 1]}


def test_unchanged_rounds_come_from_the_cache_and_changed_ones_are_ranked_again():
    race([ROUND_1, ROUND_2])
    chain, places = cache.get(KEY)
    places[0][0] = 99  # what the cache keeps for A after round 1, spoilt on purpose
    cache.set(KEY, (chain, places))
    # Round 2 now won by A 11:9: A two wins; B and C none and have not met, GP difference
    # C -2, B -4: A, C, B. Round 1 is unchanged, so its places are the ones kept.
    changed = [MatchResult(3, 1, 9, 11, "B")]
    assert race([ROUND_1, changed]) == {1: [99, 1], 2: [3, 3], 3: [2, 2]}
    # Round 1 changed too: nothing kept is used. B beats A 11:7: B first, C (0), A (-4);
    # after round 2 (A beats C 11:9): A and B one win each, B beat A: B, A, C.
    first = [MatchResult(1, 2, 7, 11, "B")]
    assert race([first, changed]) == {1: [3, 2], 2: [1, 1], 3: [2, 3]}


def test_the_same_results_again_are_read_from_the_cache():
    race([ROUND_1, ROUND_2])
    chain, places = cache.get(KEY)
    places[2][1] = 99  # C after round 2, spoilt on purpose: nothing is ranked again
    cache.set(KEY, (chain, places))
    assert race([ROUND_1, ROUND_2]) == {1: [1, 2], 2: [3, 3], 3: [2, 99]}


def test_other_players_or_tie_breaks_never_reuse_the_places_kept():
    race([ROUND_1, ROUND_2])
    chain, places = cache.get(KEY)
    places[0][0] = 99
    cache.set(KEY, (chain, places))
    # The same results ranked by wins, then GP scored alone: after round 1 A (one win), then
    # B (7) before C (0).
    by_scored = race_places(KEY, [1, 2, 3], [ROUND_1, ROUND_2], ["game_points_scored"], {})
    # Round 2: A and C one win each; GP scored A 16, C 11: A, C, B.
    assert by_scored == {1: [1, 1], 2: [2, 3], 3: [3, 2]}


def test_a_new_result_of_the_last_round_takes_its_places_from_the_standings_given():
    race([ROUND_1, ROUND_2])
    # Round 2 now won by A 11:9: the standings over both rounds are A, C, B (see above);
    # round 1's places are kept, the last round's are the ranks given.
    changed = [MatchResult(3, 1, 9, 11, "B")]
    given = race_places(KEY, [1, 2, 3], [ROUND_1, changed], DEFAULT_TIE_BREAKS, {},
                        final={1: 1, 2: 3, 3: 2})
    assert given == {1: [1, 1], 2: [3, 3], 3: [2, 2]}


def test_a_first_round_takes_its_places_from_the_standings_given():
    assert race_places(KEY, [1, 2, 3], [ROUND_1], DEFAULT_TIE_BREAKS, {},
                       final={1: 1, 2: 3, 3: 2}) == {1: [1], 2: [3], 3: [2]}


def test_a_new_result_of_the_last_round_that_moves_no_place_writes_nothing():
    race([ROUND_1, ROUND_2])
    kept = cache.get(KEY)
    # Round 2 now won by C 11:6 instead of 11:5: after it still C, A, B (C won their
    # meeting), the standings given say so, and the places kept stay as they are.
    changed = [MatchResult(3, 1, 11, 6, "A")]
    given = race_places(KEY, [1, 2, 3], [ROUND_1, changed], DEFAULT_TIE_BREAKS, {},
                        final={1: 2, 2: 3, 3: 1})
    assert given == {1: [1, 2], 2: [3, 3], 3: [2, 1]}
    assert cache.get(KEY) == kept  # the digest of the old round 2 is still the one kept
    # The next view of those results takes the same shortcut and gives the same places.
    assert race_places(KEY, [1, 2, 3], [ROUND_1, changed], DEFAULT_TIE_BREAKS, {},
                       final={1: 2, 2: 3, 3: 1}) == given
    # Round 2 won by A 11:9 instead: A, C, B after it (see above): written.
    moved = [MatchResult(3, 1, 9, 11, "B")]
    assert race_places(KEY, [1, 2, 3], [ROUND_1, moved], DEFAULT_TIE_BREAKS, {},
                       final={1: 1, 2: 3, 3: 2}) == {1: [1, 1], 2: [3, 3], 3: [2, 2]}
    assert cache.get(KEY)[1] == [[1, 1], [3, 3], [2, 2]]
