"""Tests for formats.groups.placement: the snake order, the group limits and the knockout
seeding from group places (docs/formats.md). The worked examples are done by hand in the
docstrings; the properties hold for every size."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from formats.groups.placement import groups_problem, knockout_order, meeting_round, snake_groups
from formats.knockout.bracket import bracket_size, bracket_slots, first_round

# ---------------------------------------------------------------- worked by hand


def test_twelve_players_in_three_groups():
    """Rows 1-3 go A, B, C; 4-6 C, B, A; 7-9 A, B, C; 10-12 C, B, A."""
    assert snake_groups(12, 3) == [[1, 6, 7, 12], [2, 5, 8, 11], [3, 4, 9, 10]]


def test_ten_players_in_three_groups_the_last_row_is_short():
    """Seed 10 starts a backward row at group C: sizes 3, 3, 4."""
    assert snake_groups(10, 3) == [[1, 6, 7], [2, 5, 8], [3, 4, 9, 10]]


def test_eight_players_in_two_groups():
    assert snake_groups(8, 2) == [[1, 4, 5, 8], [2, 3, 6, 7]]


def test_three_groups_two_go_on_the_knockout_seeds():
    """Six players, bracket of 8 = slots 1,8,4,5,2,7,3,6: top half seeds 1, 4, 5 (8 absent),
    bottom half 2, 3, 6. Winners A=1 (top), B=2, C=3 (bottom). Seed 4 (top): B or C would
    meet it only in the final; the later group, C, takes it. Seed 5 (top): A's winner is in
    its half (semifinal), B's is not: B. Seed 6: A (final)."""
    assert knockout_order(3, 2) == [(1, 1), (2, 1), (3, 1), (3, 2), (2, 2), (1, 2)]
    order = knockout_order(3, 2)
    pairs = [(order[a - 1], order[b - 1] if b else None) for a, b in first_round(6)]
    assert pairs == [((1, 1), None), ((3, 2), (2, 2)), ((2, 1), None), ((3, 1), (1, 2))]


def test_four_groups_two_go_on_winners_meet_runners_up_of_other_groups():
    """Bracket of 8, round 1: 1-8, 4-5, 2-7, 3-6; every winner (1-4) meets a runner-up
    (5-8) of another group, and each runner-up is in the half its winner is not in."""
    order = knockout_order(4, 2)
    pairs = [(order[a - 1], order[b - 1]) for a, b in first_round(8)]
    assert pairs == [((1, 1), (2, 2)), ((4, 1), (3, 2)), ((2, 1), (1, 2)), ((3, 1), (4, 2))]


def test_one_group_four_go_on_is_a_plain_seeding():
    assert knockout_order(1, 4) == [(1, 1), (1, 2), (1, 3), (1, 4)]


@pytest.mark.parametrize(("players", "groups", "advance", "expected"), [
    (12, 3, 2, None),
    (10, 3, 2, None),
    (5, 2, 1, ("groups_too_small", {"players": 5, "groups": 2, "min_size": 3})),
    (2, 3, 1, ("groups_too_small", {"players": 2, "groups": 3, "min_size": 3})),
    (17, 2, 1, ("groups_too_large", {"players": 17, "groups": 2, "max_size": 8})),
    (16, 2, 1, None),
    (10, 3, 3, ("bad_group_advance", {"low": 1, "high": 2})),
    (12, 3, 0, ("bad_group_advance", {"low": 1, "high": 3})),
    (6, 1, 1, ("bad_group_advance", {"low": 2, "high": 5})),
    (6, 1, 2, None),
])
def test_groups_problem(players, groups, advance, expected):
    assert groups_problem(players, groups, advance) == expected


def test_meeting_round():
    assert meeting_round(0, 1) == 1
    assert meeting_round(0, 3) == 2
    assert meeting_round(2, 5) == 3


# ---------------------------------------------------------------- properties


@given(st.integers(0, 200), st.integers(1, 40))
def test_snake_sizes_differ_by_at_most_one_and_each_seed_is_placed_once(players, groups):
    spread = snake_groups(players, groups)
    sizes = [len(group) for group in spread]
    assert len(spread) == groups
    assert max(sizes) - min(sizes) <= 1
    assert sorted(seed for group in spread for seed in group) == list(range(1, players + 1))
    for number, group in enumerate(spread, start=1):
        assert group == sorted(group)
        if players >= number:
            assert group[0] == number


GROUP_SHAPES = st.integers(1, 16).flatmap(
    lambda groups: st.tuples(st.just(groups), st.integers(2 if groups == 1 else 1, 7)))


def slots_of(groups: int, advance: int) -> dict[tuple[int, int], int]:
    order = knockout_order(groups, advance)
    size = bracket_size(len(order))
    slot_of_seed = {seed: slot for slot, seed in enumerate(bracket_slots(size))}
    return {place: slot_of_seed[seed] for seed, place in enumerate(order, start=1)}


@given(GROUP_SHAPES)
@settings(deadline=None)
def test_every_group_place_is_seeded_once_place_by_place(shape):
    groups, advance = shape
    order = knockout_order(groups, advance)
    assert sorted(order) == [(g, p) for g in range(1, groups + 1) for p in range(1, advance + 1)]
    assert [place for _group, place in order] == [
        p for p in range(1, advance + 1) for _ in range(groups)]
    assert order[:groups] == [(g, 1) for g in range(1, groups + 1)]


@given(GROUP_SHAPES.filter(lambda shape: shape[0] >= 2))
@settings(deadline=None)
def test_two_players_of_one_group_never_meet_in_the_first_round(shape):
    groups, advance = shape
    order = knockout_order(groups, advance)
    for a, b in first_round(len(order)):
        if b is not None:
            assert order[a - 1][0] != order[b - 1][0], (order[a - 1], order[b - 1])


@given(st.integers(2, 32))
@settings(deadline=None)
def test_two_going_on_from_each_group_are_in_opposite_halves(groups):
    slots = slots_of(groups, 2)
    half = bracket_size(2 * groups) // 2
    for group in range(1, groups + 1):
        assert (slots[(group, 1)] < half) != (slots[(group, 2)] < half)


@given(st.integers(2, 16), st.integers(2, 7))
@settings(deadline=None)
def test_no_group_has_all_its_players_in_one_half(groups, advance):
    slots = slots_of(groups, advance)
    half = bracket_size(groups * advance) // 2
    for group in range(1, groups + 1):
        sides = {slots[(group, place)] < half for place in range(1, advance + 1)}
        assert sides == {True, False}


@pytest.mark.parametrize("bad", [(0, 2), (2, 0), (1, 1)])
def test_knockout_order_refuses_impossible_shapes(bad):
    with pytest.raises(ValueError):
        knockout_order(*bad)
