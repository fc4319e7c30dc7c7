"""Standings and tie-breaks, on results worked out by hand."""

from hypothesis import given
from hypothesis import strategies as st

from standings.tie_breaks import (
    GAME_POINT_DIFFERENCE,
    GAME_POINTS_SCORED,
    HEAD_TO_HEAD,
    LOTS,
    SONNEBORN_BERGER,
    MatchResult,
    compute_standings,
    places_after_each_round,
)


def result(a, b, game_points_a, game_points_b):
    winner = "A" if game_points_a > game_points_b else "B"
    return MatchResult(a, b, game_points_a, game_points_b, winner)


FIVE_PLAYERS = [
    result("A", "B", 11, 7), result("A", "C", 11, 9), result("D", "A", 11, 10),
    result("A", "E", 11, 3), result("B", "C", 11, 4), result("B", "D", 11, 8),
    result("B", "E", 11, 6), result("D", "C", 11, 5), result("D", "E", 11, 2),
    result("C", "E", 11, 9),
]


def test_issue_example_head_to_head_cycle_then_difference_then_scored():
    # A, D, B: 3 wins each; mini-league A>B, B>D, D>A is a cycle (1 win each).
    # Difference: A 43-30=+13, D 41-28=+13, B 40-29=+11 -> B third; A and D level.
    # Scored: A 43 > D 41 -> A first (head-to-head is not applied a second time).
    standings = compute_standings("ABCDE", FIVE_PLAYERS)
    assert [row.player for row in standings] == ["A", "D", "B", "C", "E"]
    assert [row.rank for row in standings] == [1, 2, 3, 4, 5]
    a, d, b, c, e = standings
    assert (a.played, a.won, a.lost, a.game_points_for, a.game_points_against) == (4, 3, 1, 43, 30)
    assert (d.game_points_for, d.game_points_against, d.game_point_difference) == (41, 28, 13)
    assert (b.game_points_for, b.game_points_against) == (40, 29)
    assert (c.won, e.won) == (1, 0)
    assert [row.tie_breaks[HEAD_TO_HEAD] for row in (a, d, b)] == [1, 1, 1]
    assert c.tie_breaks[HEAD_TO_HEAD] is None
    # Sonneborn-Berger, the wins of each beaten opponent: A beat B(3) C(1) E(0) = 4;
    # D beat A(3) C(1) E(0) = 4; B beat C(1) D(3) E(0) = 4; C beat E(0) = 0; E = 0.
    assert [row.tie_breaks[SONNEBORN_BERGER] for row in standings] == [4, 4, 4, 0, 0]


def test_head_to_head_decides_two_tied_players_before_difference():
    results = [result("X", "Y", 11, 10), result("Y", "Z", 11, 0), result("Z", "X", 11, 3),
               result("Q", "X", 0, 11), result("Q", "Y", 0, 11), result("Q", "Z", 11, 0)]
    # Wins: X 2 (Y, Q), Y 2 (Z, Q), Z 1 (X), Q 1 (Z).
    # Difference: X 25-21 = +4, Y 32-11 = +21; but X beat Y, and Q beat Z.
    order = compute_standings("QXYZ", results, [HEAD_TO_HEAD, GAME_POINT_DIFFERENCE])
    assert [r.player for r in order] == ["X", "Y", "Q", "Z"]
    by_difference = compute_standings("QXYZ", results, [GAME_POINT_DIFFERENCE])
    assert [r.player for r in by_difference][:2] == ["Y", "X"]


def test_head_to_head_skipped_until_the_tied_players_have_met():
    results = [result("A", "C", 11, 0), result("B", "C", 11, 5)]
    standings = compute_standings("ABC", results, [HEAD_TO_HEAD, GAME_POINT_DIFFERENCE])
    # A and B both 1 win, never met: difference decides, A +11 before B +6.
    assert [r.player for r in standings] == ["A", "B", "C"]
    assert standings[0].tie_breaks[HEAD_TO_HEAD] is None


def test_double_round_robin_counts_both_meetings_in_head_to_head():
    results = [result("A", "B", 11, 0), result("B", "A", 11, 9), result("B", "A", 11, 10)]
    standings = compute_standings("AB", results, [HEAD_TO_HEAD])
    assert [(r.player, r.won, r.tie_breaks[HEAD_TO_HEAD]) for r in standings] == [
        ("B", 2, None), ("A", 1, None)
    ]


def test_lots_break_a_complete_tie_lower_lot_first_and_without_lots_ranks_are_shared():
    results = [result("A", "B", 11, 5), result("B", "A", 11, 5)]
    assert [r.player for r in compute_standings("AB", results, [LOTS], {"A": 7, "B": 2})] == [
        "B", "A"
    ]
    shared = compute_standings("AB", results, [GAME_POINTS_SCORED])
    assert [r.rank for r in shared] == [1, 1]


def test_player_without_results_has_zeros_and_ranks_by_the_tie_breaks():
    # B and N both have 0 wins and never met; difference: N 0 before B 3-11 = -8.
    standings = compute_standings("ABN", [result("A", "B", 11, 3)])
    assert [r.player for r in standings] == ["A", "N", "B"]
    assert (standings[1].played, standings[1].won, standings[1].game_points_for) == (0, 0, 0)


@given(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5), st.integers(0, 10)),
                max_size=30))
def test_ranks_never_put_fewer_wins_above_more_wins(raw):
    results = [MatchResult(a, b, 11, lost, "A") for a, b, lost in raw if a != b]
    standings = compute_standings(range(6), results)
    wins = [row.won for row in standings]
    assert wins == sorted(wins, reverse=True)
    assert sorted(row.player for row in standings) == list(range(6))
    assert sum(row.won for row in standings) == sum(row.lost for row in standings) == len(results)


def test_places_after_each_round_rank_the_results_so_far():
    # Round 1: A beats B 11:7 (C rests): A first; B and C have not met, so the GP difference
    # puts C (0) before B (-4). Round 2: C beats A 11:5: A and C level on one win, C won their
    # meeting. Round 3: none. Round 4: B beats C 11:10: all on one win and each beat one of
    # the others; GP difference A 4 - 6 = -2, B -4 + 1 = -3, C 6 - 1 = 5: C, A, B.
    rounds = [[result("A", "B", 11, 7)], [result("C", "A", 11, 5)], [],
              [result("B", "C", 11, 10)]]
    assert places_after_each_round("ABC", rounds) == {
        "A": [1, 2, 2, 2], "B": [3, 3, 3, 3], "C": [2, 1, 1, 1],
    }


@given(st.lists(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5), st.integers(0, 10),
                                   st.booleans()), max_size=4), max_size=6))
def test_places_after_each_round_are_the_standings_of_each_round_so_far(raw):
    rounds = [[MatchResult(a, b, 11, lost, "A") if a_won else MatchResult(a, b, lost, 11, "B")
               for a, b, lost, a_won in games if a != b] for games in raw]
    lots = {0: 2, 3: 1}
    places = places_after_each_round(range(6), rounds, lots=lots)
    for number in range(len(rounds)):
        so_far = [result for games in rounds[:number + 1] for result in games]
        ranks = {row.player: row.rank for row in compute_standings(range(6), so_far, lots=lots)}
        assert {player: places[player][number] for player in range(6)} == ranks
