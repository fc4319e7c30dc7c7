"""Unplayed rounds and the direct encounter as FIDE's Tie-Break Regulations C.07 (2023) define
them, on small events worked out by hand from the definitions:

- Article 16.3 (an opponent's score as it counts for Buchholz and Sonneborn–Berger): every
  round counts the points it gave (a bye and a forfeit win their real point; a forfeit loss
  and a late entrant's missed rounds 0), but a round not paired after the opponent's last
  round that was not voluntarily unplayed (the rounds after a withdrawal) counts ½.
- Article 16.4: a player's own unplayed round counts as a game against a dummy opponent
  whose score is the player's own score.
- Articles 14.1 and 16.5: Buchholz cut 1 (and the low cut of median Buchholz) takes a
  voluntarily unplayed round (a forfeit loss, a round not paired) first; a bye or a forfeit
  win only when it is the lowest value.
- Article 6: the direct encounter adds up every game between the tied players (both
  meetings of a double round robin) and is worked out again among those it leaves level.
"""

import pytest

from standings.swiss_tie_breaks import (
    BUCHHOLZ,
    BUCHHOLZ_CUT_1,
    MEDIAN_BUCHHOLZ,
    PROGRESSIVE_SCORE,
    SONNEBORN_BERGER,
    SwissGame,
    swiss_standings,
)
from standings.tie_breaks import (
    GAME_POINT_DIFFERENCE,
    GAME_POINTS_SCORED,
    HEAD_TO_HEAD,
    LOTS,
    MatchResult,
    compute_standings,
)
from standings.tie_breaks import (
    SONNEBORN_BERGER as RR_SONNEBORN_BERGER,
)

# A six-player Swiss of three rounds; a bye scores a win.
#   Round 1 (F has not entered yet: not paired): A beats B 11:5, C beats D 11:7, E bye.
#   Round 2 (F joins): A beats C 11:9, F beats E 11:3, B beats D by forfeit (D did not come).
#   D withdraws after round 2 (not paired in round 3).
#   Round 3: F beats A 11:8, B beats E 11:10, C bye.
SWISS_GAMES = [
    SwissGame(1, "A", "B", "A", 11, 5), SwissGame(1, "C", "D", "A", 11, 7),
    SwissGame(2, "A", "C", "A", 11, 9), SwissGame(2, "F", "E", "A", 11, 3),
    SwissGame(2, "B", "D", "A", 11, 0, forfeit=True),
    SwissGame(3, "F", "A", "A", 11, 8), SwissGame(3, "B", "E", "A", 11, 10),
]
SWISS_BYES = [(1, "E"), (3, "C")]


def swiss_rows():
    standings = swiss_standings("ABCDEF", SWISS_GAMES, SWISS_BYES, completed_rounds=3)
    return standings, {row.player: row for row in standings}


def test_the_scores_of_the_swiss():
    # A W W L = 2; B L, forfeit win, W = 2; C W L bye = 2; D L, forfeit loss, not paired = 0;
    # E bye L L = 1; F not paired, W W = 2.
    _standings, rows = swiss_rows()
    assert {player: row.score for player, row in rows.items()} == {
        "A": 2, "B": 2, "C": 2, "D": 0, "E": 1, "F": 2}


def test_an_opponents_bye_and_forfeit_win_count_their_real_point():
    # E had the round 1 bye: as F's opponent E counts 1 (bye 1 + 0 + 0), not ½ + 0 + 0.
    # B won round 2 by forfeit: in A's Buchholz B counts 2 (0 + 1 + 1), not 0 + ½ + 1.
    # C had the round 3 bye: in A's Buchholz C counts 2 (1 + 0 + 1), not 1 + 0 + ½.
    # A: B 2 + C 2 + F 2 = 6.0.  F: own 2 (round 1 not paired) + E 1 + A 2 = 5.0.
    _standings, rows = swiss_rows()
    assert rows["A"].tie_breaks[BUCHHOLZ] == pytest.approx(6.0)
    assert rows["F"].tie_breaks[BUCHHOLZ] == pytest.approx(5.0)


def test_a_late_entrants_missed_round_counts_nothing_in_the_opponents_scores():
    # F missed round 1 (entered for round 2) and then played: that round is followed by
    # rounds F was there for, so it counts what it gave, 0: F counts 0 + 1 + 1 = 2, not 2.5.
    # E: own 1 (the bye) + F 2 + B 2 = 5.0.
    _standings, rows = swiss_rows()
    assert rows["E"].tie_breaks[BUCHHOLZ] == pytest.approx(5.0)


def test_a_forfeit_loss_counts_nothing_and_the_rounds_after_a_withdrawal_a_half():
    # D: round 1 lost over the board (D's last round that was not voluntarily unplayed),
    # round 2 lost by forfeit (an opponent was there: counts 0), round 3 not paired after
    # the withdrawal (counts ½). D counts 0 + 0 + ½ = 0.5.
    # C: D 0.5 + A 2 + own 2 (the bye) = 4.5.
    _standings, rows = swiss_rows()
    assert rows["C"].tie_breaks[BUCHHOLZ] == pytest.approx(4.5)


def test_a_players_own_unplayed_rounds_count_a_dummy_opponent_with_their_own_score():
    # B: A 2 + own 2 (the forfeit win) + E 1 = 5.0. D: C 2 + own 0 (the forfeit loss)
    # + own 0 (not paired) = 2.0.
    _standings, rows = swiss_rows()
    assert rows["B"].tie_breaks[BUCHHOLZ] == pytest.approx(5.0)
    assert rows["D"].tie_breaks[BUCHHOLZ] == pytest.approx(2.0)


def test_the_cut_takes_a_voluntarily_unplayed_round_first_and_a_bye_only_when_lowest():
    # Buchholz cut 1, each player's values (v: voluntarily unplayed):
    #   A [2, 2, 2]             -> 4.0
    #   B [2, 2 forfeit win, 1] -> the lowest, E's 1; the forfeit win stays -> 4.0
    #   C [0.5, 2, 2 bye]       -> the lowest, D's 0.5; the bye stays        -> 4.0
    #   D [2, 0 v, 0 v]         -> a voluntarily unplayed 0                   -> 2.0
    #   E [1 bye, 2, 2]         -> the bye, being the lowest                  -> 4.0
    #   F [2 v, 1, 2]           -> the round F missed (2), though E's 1 is lower -> 3.0
    # Median Buchholz: the same low cut, then the highest of the rest:
    #   A [2, 2] -> 2.0   B [2, 2] -> 2.0   C [2, 2] -> 2.0   D [2, 0] -> 0.0
    #   E [2, 2] -> 2.0   F [1, 2] -> 1.0
    _standings, rows = swiss_rows()
    cut = {"A": 4.0, "B": 4.0, "C": 4.0, "D": 2.0, "E": 4.0, "F": 3.0}
    median = {"A": 2.0, "B": 2.0, "C": 2.0, "D": 0.0, "E": 2.0, "F": 1.0}
    for player in "ABCDEF":
        assert rows[player].tie_breaks[BUCHHOLZ_CUT_1] == pytest.approx(cut[player]), player
        assert rows[player].tie_breaks[MEDIAN_BUCHHOLZ] == pytest.approx(
            median[player]), player


def test_sonneborn_berger_and_progressive_score_of_the_swiss():
    # Sonneborn-Berger: points x the opponent's score as above; an own unplayed round:
    # points x own score.
    #   A: B 2 + C 2 + 0 = 4.0   B: 0 + 1 x own 2 + E 1 = 3.0   C: D 0.5 + 0 + 1 x own 2 = 2.5
    #   D: 0   E: 1 x own 1 + 0 + 0 = 1.0   F: 0 (not paired) + E 1 + A 2 = 3.0
    # Progressive: A 1+2+2 = 5, B 0+1+2 = 3, C 1+1+2 = 4, D 0, E 1+1+1 = 3, F 0+1+2 = 3.
    _standings, rows = swiss_rows()
    sonneborn = {"A": 4.0, "B": 3.0, "C": 2.5, "D": 0.0, "E": 1.0, "F": 3.0}
    progressive = {"A": 5, "B": 3, "C": 4, "D": 0, "E": 3, "F": 3}
    for player in "ABCDEF":
        assert rows[player].tie_breaks[SONNEBORN_BERGER] == pytest.approx(
            sonneborn[player]), player
        assert rows[player].tie_breaks[PROGRESSIVE_SCORE] == progressive[player], player


def test_the_order_of_the_swiss():
    # On 2 points: Buchholz A 6.0 first; B and F level on 5.0, split by cut 1 (B 4.0,
    # F 3.0); C 4.5 last of them. Then E (1 point), D (0).
    standings, _rows = swiss_rows()
    assert [row.player for row in standings] == ["A", "B", "F", "C", "E", "D"]
    assert [row.rank for row in standings] == [1, 2, 3, 4, 5, 6]


# A four-player double round robin (each pair meets twice), winner's game points first:
#   A-B: A 12:1, A 12:9        A-C: A 11:10, C 11:0      A-D: D 11:0, D 11:0
#   B-C: B 11:0, B 11:0        B-D: B 11:0, D 11:10      C-D: D 11:5, D 11:6
DOUBLE = [
    MatchResult("A", "B", 12, 1, "A"), MatchResult("B", "A", 9, 12, "B"),
    MatchResult("A", "C", 11, 10, "A"), MatchResult("C", "A", 11, 0, "A"),
    MatchResult("D", "A", 11, 0, "A"), MatchResult("A", "D", 0, 11, "B"),
    MatchResult("B", "C", 11, 0, "A"), MatchResult("C", "B", 0, 11, "B"),
    MatchResult("B", "D", 11, 0, "A"), MatchResult("D", "B", 11, 10, "A"),
    MatchResult("C", "D", 5, 11, "B"), MatchResult("D", "C", 11, 6, "A"),
]


def test_both_meetings_of_a_double_round_robin_count_in_the_head_to_head():
    # Match wins: A 2 (B twice) + 1 (C) = 3; B 2 (C twice) + 1 (D) = 3; C 1; D 5.
    # Game points: A 12+12+11+0+0+0 = 35 for, 1+9+10+11+11+11 = 53 against: -18;
    # B 1+9+11+11+11+10 = 53 for, 12+12+0+0+0+11 = 35 against: +18.
    # A and B level on 3 wins: their two meetings add up to A 2, B 0, so A ranks above B
    # although B is 36 game points better.
    standings = compute_standings("ABCD", DOUBLE)
    rows = {row.player: row for row in standings}
    assert [row.player for row in standings] == ["D", "A", "B", "C"]
    assert (rows["A"].won, rows["B"].won, rows["C"].won, rows["D"].won) == (3, 3, 1, 5)
    assert rows["A"].game_point_difference == -18
    assert rows["B"].game_point_difference == 18
    assert (rows["A"].tie_breaks[HEAD_TO_HEAD], rows["B"].tie_breaks[HEAD_TO_HEAD]) == (2, 0)
    assert rows["D"].tie_breaks[HEAD_TO_HEAD] is None
    # With the game-point difference before the head-to-head, B comes first.
    order = (GAME_POINT_DIFFERENCE, HEAD_TO_HEAD, GAME_POINTS_SCORED, RR_SONNEBORN_BERGER, LOTS)
    assert [row.player for row in compute_standings("ABCD", DOUBLE, order)] == [
        "D", "B", "A", "C"]


# A six-player single round robin, winner first, game points as played:
#   A-B A 11:10   A-C A 11:10   A-D D 11:0    A-E A 11:10   A-F F 11:0
#   B-C B 11:0    B-D B 11:10   B-E E 11:10   B-F B 11:0
#   C-D C 11:10   C-E C 11:10   C-F C 11:10
#   D-E D 11:0    D-F D 11:0    E-F E 11:0
SINGLE = [
    MatchResult("A", "B", 11, 10, "A"), MatchResult("A", "C", 11, 10, "A"),
    MatchResult("A", "D", 0, 11, "B"), MatchResult("A", "E", 11, 10, "A"),
    MatchResult("A", "F", 0, 11, "B"),
    MatchResult("B", "C", 11, 0, "A"), MatchResult("B", "D", 11, 10, "A"),
    MatchResult("B", "E", 10, 11, "B"), MatchResult("B", "F", 11, 0, "A"),
    MatchResult("C", "D", 11, 10, "A"), MatchResult("C", "E", 11, 10, "A"),
    MatchResult("C", "F", 11, 10, "A"),
    MatchResult("D", "E", 11, 0, "A"), MatchResult("D", "F", 11, 0, "A"),
    MatchResult("E", "F", 11, 0, "A"),
]


def test_the_head_to_head_is_worked_out_again_among_the_players_it_leaves_level():
    # Match wins: A (B, C, E) 3, B (C, D, F) 3, C (D, E, F) 3, D (A, E, F) 3, E (B, F) 2,
    # F (A) 1.
    # The mini-league of A, B, C, D: A beat B and C (2), B beat C and D (2), C beat D (1),
    # D beat A (1): A and B level above C and D level. Worked out again: A beat B, C beat D.
    # Game-point difference: A +1+1-11+1-11 = -19, B -1+11+1-1+11 = +21,
    # C -1-11+1+1+1 = -9, D +11-1-1+11+11 = +31: applied once, the head-to-head would
    # have left A-B and C-D to it (B, A, D, C).
    standings = compute_standings("ABCDEF", SINGLE)
    rows = {row.player: row for row in standings}
    assert [row.player for row in standings] == ["A", "B", "C", "D", "E", "F"]
    assert [row.rank for row in standings] == [1, 2, 3, 4, 5, 6]
    assert [rows[player].game_point_difference for player in "ABCD"] == [-19, 21, -9, 31]
    # The column shows the wins in the mini-league of all four.
    assert [rows[player].tie_breaks[HEAD_TO_HEAD] for player in "ABCD"] == [2, 2, 1, 1]
