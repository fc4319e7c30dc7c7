"""Groups, then a knockout: the players spread over the groups, and the knockout seeded from
the groups' places.

Rule source: docs/formats.md "Groups, then a knockout".

* `snake_groups`: seeds go to the groups in snake order (the serpentine system): 1, 2, ...,
  G across the groups, then G+1 .. 2G back from the last group to the first, and so on. The
  sizes differ by at most one; group 1 ("A") holds seed 1, group 2 seed 2, ...
* `groups_problem`: why a number of players cannot make the groups (each group of 3 to 8
  players), or go on `advance` from each group to a knockout.
* `knockout_order`: which group place each knockout seed is. The group winners are seeds
  1 .. G (the winner of group A first), the runners-up G+1 .. 2G, and so on, place by place;
  within each place the groups are ordered so that two players of one group meet as late
  as possible in the bracket of `formats.knockout.bracket` (never in the first round, and in
  opposite halves whenever that can be done): a group winner thus meets a runner-up of
  another group.

Groups and places are 1-based. Pure functions over plain data; no Django.
"""

from __future__ import annotations

from formats.knockout.bracket import bracket_size, bracket_slots

MIN_GROUP_SIZE, MAX_GROUP_SIZE = 3, 8
"""A group has 3 to 8 players."""

GroupPlace = tuple[int, int]
"""(group, place): group 1 is "A"; place 1 is the group winner."""


def snake_groups(players: int, groups: int) -> list[list[int]]:
    """Return the seeds of each group, spread in snake order.

    Args:
        players: number of players, seeds ``1..players`` (1 the best), ``players >= 0``.
        groups: number of groups, ``>= 1``.

    Returns:
        ``groups`` lists of seeds, best first: row ``r`` (0-based) of seeds
        ``r*G+1 .. r*G+G`` goes to groups 1..G when ``r`` is even, G..1 when odd.
        12 players in 3 groups: ``[[1, 6, 7, 12], [2, 5, 8, 11], [3, 4, 9, 10]]``. The sizes
        differ by at most one.

    Raises:
        ValueError: if ``groups < 1`` or ``players < 0``.
    """
    if groups < 1 or players < 0:
        raise ValueError(f"need groups >= 1 and players >= 0, got {groups}, {players}")
    result: list[list[int]] = [[] for _ in range(groups)]
    for seed in range(1, players + 1):
        row, column = divmod(seed - 1, groups)
        group = column if row % 2 == 0 else groups - 1 - column
        result[group].append(seed)
    return result


def groups_problem(players: int, groups: int, advance: int) -> tuple[str, dict] | None:
    """Why `players` cannot play `groups` groups with the first `advance` of each going on
    to a knockout, or None when they can.

    Returns:
        ``(code, params)``, the first problem found:

        * ``"groups_too_small"`` (``players``, ``groups``, ``min_size``): a group would have
          fewer than 3 players (this includes fewer players than groups);
        * ``"groups_too_large"`` (``players``, ``groups``, ``max_size``): a group would have
          more than 8;
        * ``"bad_group_advance"`` (``low``, ``high``): ``advance`` must leave at least one
          player behind in the smallest group (``high`` = its size - 1) and the knockout needs
          two players (``low`` is 2 with one group, else 1).

    Raises:
        ValueError: if ``groups < 1``.
    """
    if groups < 1:
        raise ValueError(f"need groups >= 1, got {groups}")
    smallest, largest = players // groups, -(-players // groups)
    if smallest < MIN_GROUP_SIZE:
        return "groups_too_small", {
            "players": players, "groups": groups, "min_size": MIN_GROUP_SIZE}
    if largest > MAX_GROUP_SIZE:
        return "groups_too_large", {
            "players": players, "groups": groups, "max_size": MAX_GROUP_SIZE}
    low, high = (2 if groups == 1 else 1), smallest - 1
    if not low <= advance <= high:
        return "bad_group_advance", {"low": low, "high": high}
    return None


def meeting_round(slot_a: int, slot_b: int) -> int:
    """The round (1 the first) in which the players of two bracket slots (0-based, top to
    bottom) would meet if both kept winning: 1 for slots 2k and 2k+1, the final for slots in
    opposite halves."""
    return (slot_a ^ slot_b).bit_length()


def _cost(slots: list[int], rounds: int) -> tuple[int, ...]:
    """How many pairs of these slots (one group's) would meet in round 1, 2, ..., `rounds`:
    the fewer early meetings, the better (compared as a tuple, round 1 first)."""
    counts = [0] * rounds
    for i, a in enumerate(slots):
        for b in slots[i + 1:]:
            counts[meeting_round(a, b) - 1] += 1
    return tuple(counts)


def _add(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(x + y for x, y in zip(a, b, strict=True))


def knockout_order(groups: int, advance: int) -> list[GroupPlace]:
    """Return the group place of each knockout seed, seed 1 first.

    Args:
        groups: number of groups ``G >= 1``.
        advance: players going on from each group ``k >= 1``, with ``G * k >= 2``.

    Returns:
        ``G * k`` pairs ``(group, place)``: seeds ``(p-1)*G+1 .. p*G`` are the players of
        place ``p`` of every group. Place 1 follows the groups (seed 1 is the winner of group
        A). Each later place is ordered greedily, best seed first: each seed takes the group
        (of those left) whose players already placed it would meet latest
        (`meeting_round` in the bracket of `bracket.first_round`), the later group on a tie;
        then two seeds of that place swap groups while that makes the groups' meetings come
        later (fewer meetings in round 1, then in round 2, ...). So a group winner never
        meets a player of its own group in the first round, and with two going on from each
        of two or more groups, the two are in opposite halves.

    Raises:
        ValueError: if ``groups < 1``, ``advance < 1`` or ``groups * advance < 2``.
    """
    if groups < 1 or advance < 1 or groups * advance < 2:
        raise ValueError(f"need groups >= 1, advance >= 1, 2+ players: {groups}, {advance}")
    size = bracket_size(groups * advance)
    rounds = size.bit_length() - 1
    slot_of = {seed: slot for slot, seed in enumerate(bracket_slots(size))}
    placed: dict[int, list[int]] = {group: [] for group in range(1, groups + 1)}
    order: list[GroupPlace] = []
    for place in range(1, advance + 1):
        seeds = range((place - 1) * groups + 1, place * groups + 1)
        if place == 1:
            tier = list(range(1, groups + 1))
        else:
            tier = _greedy_tier([slot_of[seed] for seed in seeds], placed, rounds)
            tier = _improve_tier([slot_of[seed] for seed in seeds], tier, placed, rounds)
        for seed, group in zip(seeds, tier, strict=True):
            placed[group].append(slot_of[seed])
            order.append((group, place))
    return order


def _greedy_tier(slots: list[int], placed: dict[int, list[int]], rounds: int) -> list[int]:
    """The groups of one place's seeds (their `slots`, best seed first), chosen in turn."""
    left = set(placed)
    tier = []
    for slot in slots:
        def key(group: int, slot: int = slot) -> tuple:
            meetings = sorted(meeting_round(slot, other) for other in placed[group])
            return (*meetings, rounds + 1), group
        best = max(left, key=key)
        tier.append(best)
        left.remove(best)
    return tier


def _improve_tier(
    slots: list[int], tier: list[int], placed: dict[int, list[int]], rounds: int
) -> list[int]:
    """Swap the groups of two seeds of the place while that lowers the two groups' cost."""
    tier = list(tier)

    def cost(group: int, slot: int) -> tuple[int, ...]:
        return _cost([*placed[group], slot], rounds)

    improved = True
    while improved:
        improved = False
        for i in range(len(slots)):
            for j in range(i + 1, len(slots)):
                a, b = tier[i], tier[j]
                now = _add(cost(a, slots[i]), cost(b, slots[j]))
                swapped = _add(cost(a, slots[j]), cost(b, slots[i]))
                if swapped < now:
                    tier[i], tier[j] = b, a
                    improved = True
    return tier
