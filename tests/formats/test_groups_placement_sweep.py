"""Two players of one group meet in the knockout as late as the bracket allows, in every
setting of groups, then a knockout that the site accepts (docs/formats.md).

The best achievable, worked out here without the placement code. A bracket of ``B = 2**R``
slots has ``R`` rounds; slots are numbered 0 .. B-1 top to bottom, and the players of slots
``x`` and ``y`` meet (if both keep winning) in the first round ``m`` with
``x // 2**m == y // 2**m``: the round in which their block of ``2**m`` slots is played out.

* The bound. A group sends ``k >= 2`` players on; let ``c = ceil(log2 k)``, so
  ``2**(c-1) < k <= 2**c``. The bracket has ``2**(c-1)`` blocks of ``2**(R-c+1)`` slots,
  fewer than ``k``: two of the group share one (pigeonhole) and meet by round ``R - c + 1``.
  No placement does better; a placement that has no two players of one group meeting before
  round ``R - c + 1`` (each group in ``k`` different blocks of ``2**(R-c)``) is optimal, and
  then some pair of every group meets in exactly that round.
* The even spread. By round ``m`` the pairs of a group that have met are those sharing a
  block of ``2**m`` slots. With ``x_b`` of its players in block ``b`` (``sum x_b = k`` over
  ``2**(R-m)`` blocks) that is ``sum C(x_b, 2)``, smallest when every ``x_b`` is ``q`` or
  ``q + 1`` (``q = k // 2**(R-m)``; ``C(x, 2)`` is convex). A placement where every group is
  spread so in every round (over the halves, the quarters, ...) has, round by round, the
  fewest meetings any placement can have.

The settings: 3 to 128 players in groups of 3 to 8 (sizes differing by at most one), from 1
(2 with one group) to the smallest group's size - 1 going on: 195 pairs (groups, going on),
1 to 42 groups. The order depends on these two numbers only (not on the group sizes nor the
number of players), so each pair is checked once.
"""

from __future__ import annotations

from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from formats.groups.format import GroupsKnockout
from formats.groups.placement import groups_problem, knockout_order, snake_groups


def accepted_settings() -> set[tuple[int, int]]:
    """(groups, going on) for every number of players the format takes, from the rule."""
    found = set()
    for players in range(GroupsKnockout.min_players, GroupsKnockout.max_players + 1):
        for groups in range(1, players + 1):
            smallest, largest = players // groups, -(-players // groups)
            if smallest < 3 or largest > 8:
                continue
            for going_on in range(2 if groups == 1 else 1, smallest):
                found.add((groups, going_on))
    return found


SETTINGS = sorted(accepted_settings())


def slot_of_seed(size: int) -> dict[int, int]:
    """The doubling recursion (docs/formats.md "Knockout"): 2 slots hold seeds 1, 2; each
    seed s of the half-size bracket becomes the pair s, size + 1 - s."""
    order = [1]
    while len(order) < size:
        width = 2 * len(order)
        order = [seed for s in order for seed in (s, width + 1 - s)]
    return {seed: slot for slot, seed in enumerate(order)}


def group_slots(groups: int, going_on: int) -> tuple[int, dict[int, list[int]]]:
    """R and the slots of each group's players in the order `knockout_order` gives."""
    order = knockout_order(groups, going_on)
    size = 1
    while size < groups * going_on:
        size *= 2
    slots = slot_of_seed(size)
    by_group: dict[int, list[int]] = {}
    for seed, (group, _place) in enumerate(order, start=1):
        by_group.setdefault(group, []).append(slots[seed])
    return size.bit_length() - 1, by_group


def first_meeting(x: int, y: int) -> int:
    m = 1
    while x // 2**m != y // 2**m:
        m += 1
    return m


def bound(rounds: int, going_on: int) -> int:
    """Round R - ceil(log2 k) + 1: some two of k players of a group meet by then."""
    c = 0
    while 2**c < going_on:
        c += 1
    return rounds - c + 1


def test_the_settings_are_those_the_format_accepts():
    """195 = 6 (one group, 2-7 on) + 15 * 7 (2-16 groups, up to 8 a group) + 2 * 6 (17-18
    groups, 7 a group at most with 128 players) + 3 * 5 (19-21) + 4 * 4 (22-25) + 7 * 3
    (26-32) + 10 * 2 (33-42, groups of 3)."""
    assert len(SETTINGS) == 6 + 15 * 7 + 2 * 6 + 3 * 5 + 4 * 4 + 7 * 3 + 10 * 2 == 195
    by_format = {(groups, going_on)
                 for players in range(3, 129) for groups in range(1, 43)
                 for going_on in range(1, 8) if groups_problem(players, groups, going_on) is None}
    assert by_format == set(SETTINGS)


@pytest.mark.parametrize(("groups", "going_on"), SETTINGS)
def test_no_two_of_a_group_meet_before_the_bound(groups, going_on):
    rounds, by_group = group_slots(groups, going_on)
    assert sorted(by_group) == list(range(1, groups + 1))
    for group, slots in by_group.items():
        assert len(slots) == going_on
        if going_on < 2:
            continue
        earliest = min(first_meeting(x, y) for i, x in enumerate(slots) for y in slots[i + 1:])
        assert earliest == bound(rounds, going_on), (group, slots)


@pytest.mark.parametrize(("groups", "going_on"), SETTINGS)
def test_every_group_is_spread_evenly_round_by_round(groups, going_on):
    rounds, by_group = group_slots(groups, going_on)
    for m in range(1, rounds + 1):
        blocks = 2**(rounds - m)
        q, rest = divmod(going_on, blocks)
        fewest = rest * comb(q + 1, 2) + (blocks - rest) * comb(q, 2)
        for group, slots in by_group.items():
            met = sum(1 for i, x in enumerate(slots) for y in slots[i + 1:]
                      if first_meeting(x, y) <= m)
            assert met == fewest, (m, group, slots)


@pytest.mark.parametrize(("groups", "going_on"), SETTINGS)
def test_places_stay_in_seed_order_and_winners_first(groups, going_on):
    order = knockout_order(groups, going_on)
    assert order[:groups] == [(g, 1) for g in range(1, groups + 1)]
    assert [place for _group, place in order] == [
        p for p in range(1, going_on + 1) for _ in range(groups)]


@settings(deadline=None, max_examples=60)
@given(st.integers(1, 24), st.integers(1, 16))
def test_the_bound_holds_beyond_the_accepted_settings(groups, going_on):
    """Wider than the site takes (up to 16 going on from each group): the bound still holds,
    as the colouring behind the order promises for any numbers."""
    if groups * going_on < 2:
        return
    rounds, by_group = group_slots(groups, going_on)
    for slots in by_group.values():
        if going_on >= 2:
            assert min(first_meeting(x, y) for i, x in enumerate(slots)
                       for y in slots[i + 1:]) >= bound(rounds, going_on)


# Worked by hand: 35 players, 5 groups of 7, 6 going on from each.
EIGHTHS_OF_32 = [  # blocks of 4 slots of the 32-slot bracket, top to bottom
    {1, 32, 16, 17}, {8, 25, 9, 24}, {4, 29, 13, 20}, {5, 28, 12, 21},
    {2, 31, 15, 18}, {7, 26, 10, 23}, {3, 30, 14, 19}, {6, 27, 11, 22},
]


def test_thirty_five_players_five_groups_six_go_on():
    """35 players in 5 groups: 7 each (A: seeds 1, 10, 11, 20, 21, 30, 31), 6 go on: 30 in a
    bracket of 32 (5 rounds; seeds 31 and 32 absent, so seeds 1 and 2 have byes). 6 players
    of a group and 4 quarters: two of them share a quarter and meet by round 3, the
    quarterfinal; they can be kept out of round 2 only by putting the 6 in 6 different
    eighths (blocks of 4 slots, listed by hand from 1, 32, 16, 17, 8, 25, 9, 24, ...);
    spread evenly, that is 3 in each half and 2, 2, 1, 1 over the quarters. Seeds
    5(p-1)+1 .. 5p are the players placed p-th in the groups; the winners 1-5 are A-E.
    (The order before had two players of group B in one eighth: they met in round 2.)"""
    assert groups_problem(35, 5, 6) is None
    assert [len(group) for group in snake_groups(35, 5)] == [7] * 5
    order = knockout_order(5, 6)
    assert order[:5] == [(1, 1), (2, 1), (3, 1), (4, 1), (5, 1)]
    eighth = {seed: i for i, block in enumerate(EIGHTHS_OF_32) for seed in block}
    for group in range(1, 6):
        seeds = [seed for seed, (g, _place) in enumerate(order, start=1) if g == group]
        assert [(seed - 1) // 5 + 1 for seed in seeds] == [1, 2, 3, 4, 5, 6]
        eighths = sorted(eighth[seed] for seed in seeds)
        assert len(set(eighths)) == 6, (group, seeds)
        halves = [sum(1 for e in eighths if e // 4 == h) for h in range(2)]
        quarters = [sum(1 for e in eighths if e // 2 == q) for q in range(4)]
        assert halves == [3, 3], (group, seeds)
        assert sorted(quarters) == [1, 1, 2, 2], (group, seeds)
