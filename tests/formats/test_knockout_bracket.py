"""Tests for formats.knockout.bracket (docs/formats.md "Knockout")."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from formats.knockout.bracket import (
    bracket_size,
    bracket_slots,
    first_round,
    next_slot,
    round_names,
    rounds_count,
)

# ---------------------------------------------------------------- hand-written expectations

SLOTS = {
    2: [1, 2],
    4: [1, 4, 2, 3],
    8: [1, 8, 4, 5, 2, 7, 3, 6],
    16: [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11],
    32: [
        1, 32, 16, 17, 8, 25, 9, 24, 4, 29, 13, 20, 5, 28, 12, 21,
        2, 31, 15, 18, 7, 26, 10, 23, 3, 30, 14, 19, 6, 27, 11, 22,
    ],
}  # fmt: skip

X = None  # a bye

FIRST_ROUND = {
    2: [(1, 2)],
    3: [(1, X), (2, 3)],
    4: [(1, 4), (2, 3)],
    5: [(1, X), (4, 5), (2, X), (3, X)],
    6: [(1, X), (4, 5), (2, X), (3, 6)],
    7: [(1, X), (4, 5), (2, 7), (3, 6)],
    8: [(1, 8), (4, 5), (2, 7), (3, 6)],
    9: [(1, X), (8, 9), (4, X), (5, X), (2, X), (7, X), (3, X), (6, X)],
    10: [(1, X), (8, 9), (4, X), (5, X), (2, X), (7, 10), (3, X), (6, X)],
    11: [(1, X), (8, 9), (4, X), (5, X), (2, X), (7, 10), (3, X), (6, 11)],
    12: [(1, X), (8, 9), (4, X), (5, 12), (2, X), (7, 10), (3, X), (6, 11)],
    13: [(1, X), (8, 9), (4, 13), (5, 12), (2, X), (7, 10), (3, X), (6, 11)],
    14: [(1, X), (8, 9), (4, 13), (5, 12), (2, X), (7, 10), (3, 14), (6, 11)],
    15: [(1, X), (8, 9), (4, 13), (5, 12), (2, 15), (7, 10), (3, 14), (6, 11)],
    16: [(1, 16), (8, 9), (4, 13), (5, 12), (2, 15), (7, 10), (3, 14), (6, 11)],
    17: [
        (1, X), (16, 17), (8, X), (9, X), (4, X), (13, X), (5, X), (12, X),
        (2, X), (15, X), (7, X), (10, X), (3, X), (14, X), (6, X), (11, X),
    ],
}  # fmt: skip


@pytest.mark.parametrize("size", sorted(SLOTS))
def test_bracket_slots(size: int) -> None:
    assert bracket_slots(size) == SLOTS[size]


@pytest.mark.parametrize("size", [-4, 0, 1, 3, 6, 12, 24, 100])
def test_bracket_slots_rejects_bad_sizes(size: int) -> None:
    with pytest.raises(ValueError):
        bracket_slots(size)
    with pytest.raises(ValueError):
        rounds_count(size)
    with pytest.raises(ValueError):
        round_names(size)


@pytest.mark.parametrize(
    ("n", "size"),
    [(2, 2), (3, 4), (4, 4), (5, 8), (8, 8), (9, 16), (16, 16), (17, 32), (33, 64),
     (64, 64), (65, 128), (127, 128), (128, 128), (129, 256)],
)  # fmt: skip
def test_bracket_size(n: int, size: int) -> None:
    assert bracket_size(n) == size


@pytest.mark.parametrize("n", [1, 0, -2])
def test_fewer_than_two_players_is_an_error(n: int) -> None:
    with pytest.raises(ValueError):
        bracket_size(n)
    with pytest.raises(ValueError):
        first_round(n)


@pytest.mark.parametrize("n", sorted(FIRST_ROUND))
def test_first_round(n: int) -> None:
    assert first_round(n) == FIRST_ROUND[n]


@pytest.mark.parametrize(
    ("round_index", "match_index", "expected"),
    [(0, 0, (0, "A")), (0, 1, (0, "B")), (0, 2, (1, "A")), (0, 7, (3, "B")),
     (1, 6, (3, "A")), (2, 5, (2, "B")), (3, 1, (0, "B"))],
)  # fmt: skip
def test_next_slot(round_index: int, match_index: int, expected: tuple[int, str]) -> None:
    assert next_slot(round_index, match_index) == expected


@pytest.mark.parametrize(("round_index", "match_index"), [(-1, 0), (0, -1)])
def test_next_slot_rejects_negative_indexes(round_index: int, match_index: int) -> None:
    with pytest.raises(ValueError):
        next_slot(round_index, match_index)


@pytest.mark.parametrize(("size", "count"), [(2, 1), (4, 2), (8, 3), (16, 4), (64, 6), (128, 7)])
def test_rounds_count(size: int, count: int) -> None:
    assert rounds_count(size) == count


def test_round_names() -> None:
    assert round_names(2) == ["final"]
    assert round_names(4) == ["semifinal", "final"]
    assert round_names(8) == ["quarterfinal", "semifinal", "final"]
    assert round_names(32) == ["round_of_32", "round_of_16", "quarterfinal", "semifinal", "final"]
    assert round_names(128) == [
        "round_of_128", "round_of_64", "round_of_32", "round_of_16",
        "quarterfinal", "semifinal", "final",
    ]  # fmt: skip


# ---------------------------------------------------------------- properties, n = 2..128

players = st.integers(min_value=2, max_value=128)
boundaries = [example(n) for n in (2, 3, 4, 5, 8, 9, 63, 64, 65, 127, 128)]


def with_boundaries(test: Callable[[int], None]) -> Callable[[int], None]:
    """Always also run the boundary sizes, whatever hypothesis draws."""
    for ex in boundaries:
        test = ex(test)
    return test


def play_out(n: int) -> list[list[tuple[int | None, int | None]]]:
    """Every round's pairs when the better (lower) seed always wins; byes advance.

    Advances winners with next_slot only, so it also checks that helper.
    """
    size = bracket_size(n)
    rounds: list[list[tuple[int | None, int | None]]] = [list(first_round(n))]
    for round_index in range(rounds_count(size) - 1):
        current = rounds[-1]
        following: list[list[int | None]] = [[None, None] for _ in range(len(current) // 2)]
        for match_index, (a, b) in enumerate(current):
            winner = min(s for s in (a, b) if s is not None)
            target, seat = next_slot(round_index, match_index)
            following[target][0 if seat == "A" else 1] = winner
        rounds.append([(a, b) for a, b in following])
    return rounds


@with_boundaries
@given(players)
def test_every_seed_appears_once_and_byes_go_to_the_top_seeds(n: int) -> None:
    size = bracket_size(n)
    assert size // 2 < n <= size
    pairs = first_round(n)
    assert len(pairs) == size // 2
    seeds = [s for pair in pairs for s in pair if s is not None]
    assert sorted(seeds) == list(range(1, n + 1))
    with_bye = sorted(a for a, b in pairs if b is None)
    assert with_bye == list(range(1, size - n + 1))  # exactly B - n byes, to seeds 1..B-n
    assert all(a is not None for a, _ in pairs)  # so no bye ever meets a bye
    assert all(b is None or a < b for a, b in pairs)  # better seed in seat A


@with_boundaries
@given(players)
def test_top_seeds_are_kept_apart(n: int) -> None:
    size = bracket_size(n)
    slots = bracket_slots(size)
    position = {seed: slot for slot, seed in enumerate(slots)}
    half = size // 2
    assert position[1] // half != position[2] // half  # 1 and 2 in different halves
    if size >= 4:
        quarter = size // 4
        assert len({position[s] // quarter for s in (1, 2, 3, 4)}) == 4


@with_boundaries
@given(players)
def test_better_seed_always_winning(n: int) -> None:
    size = bracket_size(n)
    rounds = play_out(n)
    assert len(rounds) == rounds_count(size)
    # Players in round k are exactly seeds 1..B/2^k (capped at n in round 0).
    for k, round_pairs in enumerate(rounds):
        present = sorted(s for pair in round_pairs for s in pair if s is not None)
        assert present == list(range(1, min(n, size >> k) + 1))
    assert rounds[-1] == [(1, 2)]  # the final
    meetings_1_2 = [k for k, r in enumerate(rounds) for pair in r if set(pair) == {1, 2}]
    assert meetings_1_2 == [len(rounds) - 1]  # 1 and 2 meet only in the final
    if n >= 4:
        semifinal = rounds[-2]
        assert sorted(s for pair in semifinal for s in pair) == [1, 2, 3, 4]
        assert semifinal == [(1, 4), (2, 3)]


def test_place_of_loser_by_round():
    """Three rounds (8 slots): the final's loser 2nd, the semifinal losers 3rd, the
    first-round losers 5th (four players are still in after round 1)."""
    from formats.knockout.bracket import place_of_loser

    assert [place_of_loser(number, 3) for number in (3, 2, 1)] == [2, 3, 5]
    assert place_of_loser(1, 7) == 65  # a bracket of 128: 64 go on
    with pytest.raises(ValueError):
        place_of_loser(0, 3)
    with pytest.raises(ValueError):
        place_of_loser(4, 3)
