"""Swiss tie-breaks (FIDE C.07) on a small Swiss worked out by hand, byes included."""

import pytest

from standings.swiss_tie_breaks import (
    BUCHHOLZ,
    BUCHHOLZ_CUT_1,
    DIRECT_ENCOUNTER,
    GAME_POINT_DIFFERENCE,
    MEDIAN_BUCHHOLZ,
    PROGRESSIVE_SCORE,
    SONNEBORN_BERGER,
    SWISS_TIE_BREAKS,
    SwissGame,
    swiss_standings,
)

# Five players, three rounds, one bye a round:
#   round 1: A beats B 11-5, C beats D 11-7, E bye
#   round 2: A beats C 11-9, E beats B 11-4, D bye
#   round 3: D beats A 11-8, E beats C 11-10, B bye
GAMES = [
    SwissGame(1, "A", "B", "A", 11, 5), SwissGame(1, "C", "D", "A", 11, 7),
    SwissGame(2, "A", "C", "A", 11, 9), SwissGame(2, "E", "B", "A", 11, 4),
    SwissGame(3, "D", "A", "A", 11, 8), SwissGame(3, "E", "C", "A", 11, 10),
]
BYES = [(1, "E"), (2, "D"), (3, "B")]


def by_player(standings):
    return {row.player: row for row in standings}


def test_the_published_order():
    assert SWISS_TIE_BREAKS == (
        BUCHHOLZ, BUCHHOLZ_CUT_1, MEDIAN_BUCHHOLZ, SONNEBORN_BERGER, PROGRESSIVE_SCORE,
        DIRECT_ENCOUNTER, GAME_POINT_DIFFERENCE,
    )


def test_buchholz_cut_median_and_sonneborn_berger_with_byes_as_wins():
    # Scores (a bye scores 1): A W W L = 2; B L L bye = 1; C W L L = 1; D L bye W = 2;
    # E bye W W = 3.
    # Adjusted scores (C.07 (2023) 16.3: a bye counts its real point, no round here is
    # voluntarily unplayed): A 2, B 1, C 1, D 2, E 3 (each the real score).
    # Buchholz (own bye: a dummy opponent with the player's own score, 16.4):
    #   A: B 1 + C 1 + D 2 = 4.0          B: A 2 + E 3 + own 1 = 6.0
    #   C: D 2 + A 2 + E 3 = 7.0          D: C 1 + own 2 + A 2 = 5.0
    #   E: own 3 + B 1 + C 1 = 5.0
    # Cut 1 (no voluntarily unplayed round: the lowest value, a bye only if it is lowest):
    #   A: cut 1 -> 3.0   B: cut own 1 (the lowest) -> 5.0   C: cut 2 -> 5.0
    #   D: cut 1 -> 4.0   E: cut 1 -> 4.0
    # Median (cut the lowest and the highest):
    #   A: [1, 1, 2] -> 1.0   B: [1, 2, 3] -> 2.0   C: [2, 2, 3] -> 2.0
    #   D: [1, 2, 2] -> 2.0   E: [1, 1, 3] -> 1.0
    # Sonneborn-Berger (points x opponent's adjusted score; a bye: 1 x own score):
    #   A: 1 + 1 + 0 = 2.0   B: 0 + 0 + 1 x 1 = 1.0   C: 2 + 0 + 0 = 2.0
    #   D: 0 + 1 x 2 + 2 = 4.0   E: 1 x 3 + 1 + 1 = 5.0
    # Progressive (running score after each round): A 1+2+2 = 5; B 0+0+1 = 1;
    #   C 1+1+1 = 3; D 0+1+2 = 3; E 1+2+3 = 6.
    standings = swiss_standings("ABCDE", GAMES, BYES, completed_rounds=3)
    rows = by_player(standings)
    expected = {
        #    score  BH   cut  med   SB   PS
        "A": (2, 4.0, 3.0, 1.0, 2.0, 5),
        "B": (1, 6.0, 5.0, 2.0, 1.0, 1),
        "C": (1, 7.0, 5.0, 2.0, 2.0, 3),
        "D": (2, 5.0, 4.0, 2.0, 4.0, 3),
        "E": (3, 5.0, 4.0, 1.0, 5.0, 6),
    }
    for player, (score, bh, cut, median, sb, progressive) in expected.items():
        row = rows[player]
        assert row.score == score, player
        assert row.tie_breaks[BUCHHOLZ] == pytest.approx(bh), player
        assert row.tie_breaks[BUCHHOLZ_CUT_1] == pytest.approx(cut), player
        assert row.tie_breaks[MEDIAN_BUCHHOLZ] == pytest.approx(median), player
        assert row.tie_breaks[SONNEBORN_BERGER] == pytest.approx(sb), player
        assert row.tie_breaks[PROGRESSIVE_SCORE] == progressive, player
    # E 3 first; A and D on 2: Buchholz D 5.0 > A 4.0; B and C on 1: C 7.0 > B 6.0.
    assert [row.player for row in standings] == ["E", "D", "A", "C", "B"]
    assert [row.rank for row in standings] == [1, 2, 3, 4, 5]
    # Game points: A 11+11+8 = 30 for, 5+9+11 = 25 against -> +5; byes add none.
    assert (rows["A"].game_points_for, rows["A"].game_points_against) == (30, 25)
    assert rows["A"].tie_breaks[GAME_POINT_DIFFERENCE] == 5
    assert (rows["E"].played, rows["E"].won, rows["E"].byes) == (2, 2, 1)


def test_a_bye_scored_as_nothing():
    # Scores: A 2, B 0, C 1, D 1, E 2. Adjusted scores are the real ones (a bye allocated
    # by the pairing is not a voluntarily unplayed round: it counts what it scored, 0).
    # Buchholz: E own 2 + B 0 + C 1 = 3.0 > A (B 0 + C 1 + D 1 = 2.0) -> E first on 2
    # points; C (D 1 + A 2 + E 2 = 5.0) > D (C 1 + own 1 + A 2 = 4.0) on 1 point; B last.
    standings = swiss_standings("ABCDE", GAMES, BYES, completed_rounds=3, bye_points=0)
    rows = by_player(standings)
    assert rows["E"].tie_breaks[BUCHHOLZ] == pytest.approx(3.0)
    assert rows["A"].tie_breaks[BUCHHOLZ] == pytest.approx(2.0)
    assert rows["C"].tie_breaks[BUCHHOLZ] == pytest.approx(5.0)
    assert rows["D"].tie_breaks[BUCHHOLZ] == pytest.approx(4.0)
    assert [row.player for row in standings] == ["E", "A", "C", "D", "B"]
    assert [row.score for row in standings] == [2, 2, 1, 1, 0]


def test_a_late_entry_has_unplayed_rounds_and_a_forfeit_is_unplayed():
    # F entered for round 3 only and beat C by forfeit there (C withdrew... or did not come).
    # Two rounds: round 1 A beats B; round 2 B beats A; round 3 F beats C by forfeit.
    # completed_rounds 3: F was not paired in rounds 1 and 2 (unplayed, 0 points).
    games = [
        SwissGame(1, "A", "B", "A", 11, 0), SwissGame(2, "B", "A", "A", 11, 0),
        SwissGame(3, "F", "C", "A", 11, 0, forfeit=True),
    ]
    rows = by_player(swiss_standings("ABCF", games, completed_rounds=3))
    # F: score 1; all three rounds unplayed -> Buchholz 3 x own 1 = 3; cut 1: one of the
    # rounds not paired (voluntarily unplayed) goes first -> 2; SB: the forfeit win
    # 1 x own 1 = 1. C: rounds 1, 2 not paired, 3 lost by forfeit: score 0, Buchholz
    # 3 x own 0 = 0. F's adjusted score is 0 + 0 + 1 = 1 (the missed rounds count 0).
    assert rows["F"].score == 1
    assert rows["F"].tie_breaks[BUCHHOLZ] == pytest.approx(3.0)
    assert rows["F"].tie_breaks[BUCHHOLZ_CUT_1] == pytest.approx(2.0)
    assert rows["F"].tie_breaks[SONNEBORN_BERGER] == pytest.approx(1.0)
    assert rows["C"].tie_breaks[BUCHHOLZ] == 0
    # A: played B twice (B adjusted: 0 + 1 + ½ (round 3 not paired after B's last paired
    # round: as after a withdrawal) = 1.5), round 3 not paired: own 1.
    # Buchholz 1.5 + 1.5 + 1 = 4.0.
    assert rows["A"].tie_breaks[BUCHHOLZ] == pytest.approx(4.0)


def test_players_who_never_met_are_not_split_by_direct_encounter_but_by_lot():
    # Round 1: X beats Y, Z beats W; round 2 (a hand-made record): X beats Y again, Z beats
    # W again. X 2, Z 2, Y 0, W 0. X and Z: Buchholz 0 + 0 = 0 each (Y and W scored 0),
    # cut, median and Sonneborn-Berger 0 each, progressive 1 + 2 = 3 each; they never met,
    # so direct encounter is not applied (None); game points 0 each; lots: Z 1 before X 2.
    games = [
        SwissGame(1, "X", "Y", "A"), SwissGame(1, "Z", "W", "A"),
        SwissGame(2, "Y", "X", "B"), SwissGame(2, "W", "Z", "B"),
    ]
    standings = swiss_standings("XYZW", games, completed_rounds=2, lots={"X": 2, "Z": 1})
    assert [row.player for row in standings][:2] == ["Z", "X"]
    assert [standings[0].rank, standings[1].rank] == [1, 2]
    assert standings[0].tie_breaks[DIRECT_ENCOUNTER] is None
    assert standings[0].tie_breaks[PROGRESSIVE_SCORE] == 3


def test_direct_encounter_between_level_players_who_met():
    # P beat Q in round 1 and Q beat P in round 2: 1 point each, same opponents (each
    # other), every Buchholz 1 (the other's score), SB 1, progressive: P 1 + 1 = 2,
    # Q 0 + 1 = 1 -> progressive splits them before direct encounter (1-1 anyway).
    games = [SwissGame(1, "P", "Q", "A"), SwissGame(2, "P", "Q", "B")]
    standings = swiss_standings("PQ", games, completed_rounds=2)
    assert [row.player for row in standings] == ["P", "Q"]
    assert [row.tie_breaks[PROGRESSIVE_SCORE] for row in standings] == [2, 1]


def test_unknown_player_refused():
    with pytest.raises(ValueError):
        swiss_standings("AB", [SwissGame(1, "A", "Q", "A")])
