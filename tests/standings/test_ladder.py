"""standings.ladder: season ladder and head-to-head, worked out by hand. No database."""

from decimal import Decimal

from standings.ladder import HeadToHead, LadderRow, head_to_head, season_ladder
from standings.tie_breaks import MatchResult as R

# Five players, seven matches (game points):
#   1. Ана beats Боян 11-5       2. Ана beats Вера 11-9       3. Вера beats Ана 11-0
#   4. Боян beats Вера 11-7      5. Боян beats Дамян 11-10
#   6. Дамян beats Вера by forfeit, 11-4 (Вера had 4)          7. Ема beats Ана 11-3
SEASON = [
    R("Ана", "Боян", 11, 5, "A"),
    R("Ана", "Вера", 11, 9, "A"),
    R("Вера", "Ана", 11, 0, "A"),
    R("Боян", "Вера", 11, 7, "A"),
    R("Боян", "Дамян", 11, 10, "A"),
    R("Вера", "Дамян", 4, 11, "B", forfeit=True),
    R("Ема", "Ана", 11, 3, "A"),
]


def test_the_season_by_hand():
    # Ана:   4 played, won 1 2, lost 3 7;  for 11+11+0+3 = 25, against 5+9+11+11 = 36 -> -11; 50.0
    # Боян:  3 played, lost 1, won 4 5;    for 5+11+11 = 27, against 11+7+10 = 28   -> -1; 66.7
    # Вера:  4 played, won 3, lost 2 4 6;  for 9+11+7+4 = 31, against 11+0+11+11 = 33 -> -2; 25.0
    # Дамян: 2 played (under 3), lost 5, won 6 (forfeit); for 10+11, against 11+4 -> +6; 50.0
    # Ема:   1 played (under 3), won 7; 11-3 -> +8; 100.0
    ladder = season_ladder(SEASON, min_matches=3)
    assert ladder.ranked == (
        LadderRow("Боян", 1, 3, 2, 1, 27, 28),
        LadderRow("Ана", 2, 4, 2, 2, 25, 36),
        LadderRow("Вера", 3, 4, 1, 3, 31, 33),
    )
    assert [row.win_percent for row in ladder.ranked] == [
        Decimal("66.7"), Decimal("50.0"), Decimal("25.0")
    ]
    assert [row.game_point_difference for row in ladder.ranked] == [-1, -11, -2]
    assert ladder.unranked == (
        LadderRow("Ема", None, 1, 1, 0, 11, 3),
        LadderRow("Дамян", None, 2, 1, 1, 21, 15),
    )
    assert ladder.min_matches == 3


def test_game_points_add_up_over_the_season():
    ladder = season_ladder(SEASON, min_matches=0)
    rows = ladder.ranked + ladder.unranked
    assert sum(r.game_points_for for r in rows) == sum(r.game_points_against for r in rows) == 115
    assert sum(r.won for r in rows) == sum(r.lost for r in rows) == len(SEASON)


def test_exactly_min_matches_is_ranked():
    ladder = season_ladder(SEASON, min_matches=4)
    assert [row.player for row in ladder.ranked] == ["Ана", "Вера"]
    assert [row.player for row in ladder.unranked] == ["Ема", "Боян", "Дамян"]


def test_win_percent_rounds_halves_up_to_one_decimal():
    def percent(won, played):
        return LadderRow("x", None, played, won, played - won, 0, 0).win_percent

    assert percent(2, 3) == Decimal("66.7")
    assert percent(1, 3) == Decimal("33.3")
    assert percent(1, 8) == Decimal("12.5")
    assert percent(1, 16) == Decimal("6.3")  # 6.25: half up, not to even
    assert percent(3, 3) == Decimal("100.0")
    assert percent(0, 5) == Decimal("0.0")


def test_equal_win_percent_goes_to_game_point_difference_then_wins():
    results = [
        # П: 2 of 4, +0 (11-5, 11-5, 5-11, 5-11).  С: 1 of 2, +0 (11-9, 9-11).
        # Т: 1 of 2, +4 (11-3, 7-11).
        R("П", "x1", 11, 5, "A"), R("П", "x2", 11, 5, "A"),
        R("П", "x3", 5, 11, "B"), R("П", "x4", 5, 11, "B"),
        R("С", "x5", 11, 9, "A"), R("С", "x6", 9, 11, "B"),
        R("Т", "x7", 11, 3, "A"), R("Т", "x8", 7, 11, "B"),
    ]
    ladder = season_ladder(results, min_matches=2)
    top = [(row.player, row.rank) for row in ladder.ranked[:3]]
    # All three 50.0 %; Т has the best difference (+4); П and С are level on +0, П won more.
    assert top == [("Т", 1), ("П", 2), ("С", 3)]


def test_the_ranking_uses_the_exact_percentage_not_the_rounded_one():
    # 333 of 1000 and 1 of 3 both show 33.3, but 1/3 is more. Малко's far better difference
    # (10333 - 7337 = +2996 against Три's 11 - 22 = -11) would decide were the shown
    # figures compared.
    results = [R("Малко", f"o{i}", 10, 11, "B") for i in range(667)]
    results += [R("Малко", f"p{i}", 11, 0, "A") for i in range(333)]
    results += [R("Три", "q1", 11, 0, "A"), R("Три", "q2", 0, 11, "B"),
                R("Три", "q3", 0, 11, "B")]
    ladder = season_ladder(results, min_matches=3)
    assert [(row.player, str(row.win_percent)) for row in ladder.ranked[:2]] == [
        ("Три", "33.3"), ("Малко", "33.3"),
    ]


def test_players_level_on_everything_share_a_rank_listed_in_the_given_order():
    results = [R("Яна", "Зоя", 11, 7, "A"), R("Зоя", "Яна", 11, 7, "A"),
               R("Ива", "Яна", 11, 0, "A"), R("Ели", "Ива", 11, 7, "A"),
               R("Ива", "Ели", 11, 7, "A")]
    ladder = season_ladder(results, min_matches=2, order=["Ели", "Ива", "Зоя", "Яна"])
    # Ива: 2 of 3 (66.7), 29-18. Ели and Зоя: 1 of 2, 18-18 each: rank 2 both, Ели listed
    # first by `order`. Яна: 1 of 3 (33.3), 18-29: rank 4.
    assert [(row.player, row.rank) for row in ladder.ranked] == [
        ("Ива", 1), ("Ели", 2), ("Зоя", 2), ("Яна", 4),
    ]


def test_no_results_no_rows():
    ladder = season_ladder([], min_matches=5)
    assert ladder.ranked == () and ladder.unranked == ()


def test_head_to_head_of_one_player():
    # Ана met Вера twice (won 11-9, lost 0-11), Боян once (won 11-5), Ема once (lost 3-11).
    assert head_to_head("Ана", SEASON) == [
        HeadToHead("Вера", 2, 1, 1, 11, 20),
        HeadToHead("Боян", 1, 1, 0, 11, 5),
        HeadToHead("Ема", 1, 0, 1, 3, 11),
    ]


def test_head_to_head_counts_forfeits_as_played():
    assert head_to_head("Вера", SEASON)[-1] == HeadToHead("Дамян", 1, 0, 1, 4, 11)
    assert head_to_head("Никой", SEASON) == []
