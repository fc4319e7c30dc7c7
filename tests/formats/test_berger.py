"""Tests for formats.round_robin.berger (FIDE Handbook C.05 Annex 1, Berger tables)."""

from __future__ import annotations

from collections import Counter

import pytest

from formats.round_robin.berger import berger_rounds, bye_player


def table(text: str) -> list[list[tuple[int, int]]]:
    """Parse a table written as FIDE prints it: one round per line, pairs like ``4-3``."""
    rounds = []
    for line in text.strip().splitlines():
        pairs = line.split(":", 1)[1].replace(",", " ").split()
        rounds.append([(int(a), int(b)) for a, b in (p.split("-") for p in pairs)])
    return rounds


# Transcribed by hand from FIDE Handbook C.05 Annex 1, "Berger Tables for Round-Robin
# Tournaments" ("3 or 4 players", "5 or 6 players", ...), in FIDE's order within each round.
FIDE_TABLES = {
    4: table(
        """
        Rd 1: 1-4, 2-3
        Rd 2: 4-3, 1-2
        Rd 3: 2-4, 3-1
        """
    ),
    6: table(
        """
        Rd 1: 1-6, 2-5, 3-4
        Rd 2: 6-4, 5-3, 1-2
        Rd 3: 2-6, 3-1, 4-5
        Rd 4: 6-5, 1-4, 2-3
        Rd 5: 3-6, 4-2, 5-1
        """
    ),
    8: table(
        """
        Rd 1: 1-8, 2-7, 3-6, 4-5
        Rd 2: 8-5, 6-4, 7-3, 1-2
        Rd 3: 2-8, 3-1, 4-7, 5-6
        Rd 4: 8-6, 7-5, 1-4, 2-3
        Rd 5: 3-8, 4-2, 5-1, 6-7
        Rd 6: 8-7, 1-6, 2-5, 3-4
        Rd 7: 4-8, 5-3, 6-2, 7-1
        """
    ),
    10: table(
        """
        Rd 1: 1-10, 2-9, 3-8, 4-7, 5-6
        Rd 2: 10-6, 7-5, 8-4, 9-3, 1-2
        Rd 3: 2-10, 3-1, 4-9, 5-8, 6-7
        Rd 4: 10-7, 8-6, 9-5, 1-4, 2-3
        Rd 5: 3-10, 4-2, 5-1, 6-9, 7-8
        Rd 6: 10-8, 9-7, 1-6, 2-5, 3-4
        Rd 7: 4-10, 5-3, 6-2, 7-1, 8-9
        Rd 8: 10-9, 1-8, 2-7, 3-6, 4-5
        Rd 9: 5-10, 6-4, 7-3, 8-2, 9-1
        """
    ),
    12: table(
        """
        Rd 1: 1-12, 2-11, 3-10, 4-9, 5-8, 6-7
        Rd 2: 12-7, 8-6, 9-5, 10-4, 11-3, 1-2
        Rd 3: 2-12, 3-1, 4-11, 5-10, 6-9, 7-8
        Rd 4: 12-8, 9-7, 10-6, 11-5, 1-4, 2-3
        Rd 5: 3-12, 4-2, 5-1, 6-11, 7-10, 8-9
        Rd 6: 12-9, 10-8, 11-7, 1-6, 2-5, 3-4
        Rd 7: 4-12, 5-3, 6-2, 7-1, 8-11, 9-10
        Rd 8: 12-10, 11-9, 1-8, 2-7, 3-6, 4-5
        Rd 9: 5-12, 6-4, 7-3, 8-2, 9-1, 10-11
        Rd 10: 12-11, 1-10, 2-9, 3-8, 4-7, 5-6
        Rd 11: 6-12, 7-5, 8-4, 9-3, 10-2, 11-1
        """
    ),
}

ALL_N = range(3, 25)


def table_size(n: int) -> int:
    return n if n % 2 == 0 else n + 1


def seats(rounds: list[list[tuple[int, int]]], player: int, n: int) -> list[str | None]:
    """Per round: "A", "B", or None when the player rests (plays the dummy n + 1)."""
    out: list[str | None] = []
    for round_pairs in rounds:
        seat = None
        for a, b in round_pairs:
            if a == player and b <= n:
                seat = "A"
            elif b == player and a <= n:
                seat = "B"
        out.append(seat)
    return out


@pytest.mark.parametrize("size", sorted(FIDE_TABLES))
def test_even_n_matches_the_published_fide_table(size: int) -> None:
    assert berger_rounds(size) == FIDE_TABLES[size]


@pytest.mark.parametrize("size", sorted(FIDE_TABLES))
def test_odd_n_uses_the_table_of_n_plus_one_with_the_dummy_kept(size: int) -> None:
    # FIDE: "3 or 4 players", "5 or 6 players", ...: the highest number counts as a bye.
    assert berger_rounds(size - 1) == FIDE_TABLES[size]


def test_double_round_robin_for_four_players() -> None:
    # First cycle with its last two rounds (FIDE Rd 2 and Rd 3) exchanged, per C.05 Annex 1;
    # second cycle = the published table in its own order with seats reversed.
    assert berger_rounds(4, double=True) == table(
        """
        Rd 1: 1-4, 2-3
        Rd 2: 2-4, 3-1
        Rd 3: 4-3, 1-2
        Rd 4: 4-1, 3-2
        Rd 5: 3-4, 2-1
        Rd 6: 4-2, 1-3
        """
    )


def test_two_players() -> None:
    assert berger_rounds(2) == [[(1, 2)]]
    assert berger_rounds(2, double=True) == [[(1, 2)], [(2, 1)]]
    assert bye_player([(1, 2)], 2) is None


@pytest.mark.parametrize("n", [1, 0, -3])
def test_fewer_than_two_players_is_an_error(n: int) -> None:
    with pytest.raises(ValueError):
        berger_rounds(n)
    with pytest.raises(ValueError):
        bye_player([(1, 2)], n)


def test_bye_player_examples() -> None:
    # 5 players use the 6-player table; 6 is the dummy.
    assert bye_player([(1, 6), (2, 5), (3, 4)], 5) == 1
    assert bye_player([(6, 4), (5, 3), (1, 2)], 5) == 4
    assert bye_player([(6, 4), (5, 3), (1, 2)], 6) is None


def test_bye_player_rejects_a_round_without_the_dummy() -> None:
    with pytest.raises(ValueError):
        bye_player([(1, 2), (3, 4)], 5)


@pytest.mark.parametrize("n", ALL_N)
def test_shape_every_number_once_per_round(n: int) -> None:
    size = table_size(n)
    rounds = berger_rounds(n)
    assert len(rounds) == size - 1
    for round_pairs in rounds:
        assert len(round_pairs) == size // 2
        assert sorted(x for pair in round_pairs for x in pair) == list(range(1, size + 1))
        assert size in round_pairs[0]  # FIDE prints the pair with N first


@pytest.mark.parametrize("n", ALL_N)
def test_each_pair_meets_exactly_once(n: int) -> None:
    size = table_size(n)
    meetings = Counter(frozenset(pair) for r in berger_rounds(n) for pair in r)
    expected = {frozenset((i, j)) for i in range(1, size + 1) for j in range(i + 1, size + 1)}
    assert set(meetings) == expected
    assert set(meetings.values()) == {1}


@pytest.mark.parametrize("n", ALL_N)
def test_byes(n: int) -> None:
    rests = [bye_player(r, n) for r in berger_rounds(n)]
    if n % 2:
        assert sorted(rests) == list(range(1, n + 1))  # each player rests exactly once
    else:
        assert rests == [None] * (n - 1)


@pytest.mark.parametrize("n", ALL_N)
def test_seat_balance(n: int) -> None:
    # Checked on the published tables above before asserting it in general: with N even every
    # player has N-1 games, so seat A and seat B counts differ by exactly 1 (player N has
    # N/2 - 1 seat-A games: e.g. 4 has one in the 4-player table, 10 has four in the 10-player
    # one). With n odd, counting only real games (not the dummy), every player has exactly
    # (n-1)/2 of each (e.g. 5 players: 1 plays 1-2, 3-1, 1-4, 5-1).
    rounds = berger_rounds(n)
    for player in range(1, n + 1):
        counts = Counter(s for s in seats(rounds, player, n) if s)
        if n % 2 == 0:
            assert abs(counts["A"] - counts["B"]) == 1
        else:
            assert counts["A"] == counts["B"] == (n - 1) // 2
    if n % 2 == 0:
        assert Counter(seats(rounds, n, n))["A"] == n // 2 - 1


@pytest.mark.parametrize("n", ALL_N)
def test_player_n_alternates_seats(n: int) -> None:
    size = table_size(n)
    for number, round_pairs in enumerate(berger_rounds(n), start=1):
        top = round_pairs[0]
        assert top[1 if number % 2 else 0] == size


@pytest.mark.parametrize("n", ALL_N)
def test_double_each_pair_meets_twice_with_seats_reversed(n: int) -> None:
    size = table_size(n)
    rounds = berger_rounds(n, double=True)
    assert len(rounds) == 2 * (size - 1)
    ordered = Counter(pair for r in rounds for pair in r)
    for i in range(1, size + 1):
        for j in range(i + 1, size + 1):
            assert ordered[(i, j)] == 1
            assert ordered[(j, i)] == 1


@pytest.mark.parametrize("n", ALL_N)
def test_double_swaps_only_the_last_two_rounds_of_the_first_cycle(n: int) -> None:
    single = berger_rounds(n)
    last = len(single) - 1
    double = berger_rounds(n, double=True)
    assert double[: last - 1] == single[: last - 1]
    assert double[last - 1] == single[last]
    assert double[last] == single[last - 1]
    assert double[last + 1 :] == [[(b, a) for a, b in r] for r in single]


@pytest.mark.parametrize("n", ALL_N)
def test_double_never_gives_three_consecutive_games_in_the_same_seat(n: int) -> None:
    # The purpose of FIDE's swap. Rest rounds are skipped, so this is the stricter reading.
    rounds = berger_rounds(n, double=True)
    for player in range(1, n + 1):
        played = "".join(s for s in seats(rounds, player, n) if s)
        assert "AAA" not in played
        assert "BBB" not in played


def test_without_the_swap_four_players_would_get_three_in_a_row() -> None:
    # Why the swap exists: the plain table then its reversal gives player 1
    # 1-4, 1-2, 3-1 | 4-1, 2-1, 1-3 = A A B B B A.
    single = berger_rounds(4)
    plain_double = single + [[(b, a) for a, b in r] for r in single]
    assert "".join(s or "-" for s in seats(plain_double, 1, 4)) == "AABBBA"
