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
  as the bracket of `formats.knockout.bracket` allows: the k going on from a group are in
  different halves (k = 2), quarters (3-4) or eighths (5-8), and spread evenly over the
  halves, then the quarters. A group winner thus meets a player of another group.

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
        place ``p`` of every group, and place 1 follows the groups (seed 1 is the winner of
        group A). Within each later place the groups are ordered so that two players of one
        group meet as late as the bracket of `formats.knockout.bracket` allows: with ``c =
        ceil(log2 k)``, the ``k`` players of every group are in ``k`` different blocks of the
        ``2**c`` equal blocks of the bracket (halves for ``k = 2``, quarters for 3-4, eighths
        for 5-8), so two of them meet no earlier than round ``R - c + 1`` of the ``R``
        rounds, and no order can do better (two of ``k`` players share a block of
        ``2**(c-1)``); then the fewer meetings in round 1, in round 2, ..., the better (the
        ideal spreads each group evenly over the halves, then the quarters, ...).

        How: candidates, each improved by `_improve`, the first with the fewest meetings
        in round 1, then round 2, ... taken (the search stops at one with `_even_cost`): the
        greedy order of `_greedy_places` when it has every group in different blocks, then
        the colourings of `_coloured` (the seeds dealt best first, then worst first), which
        always have. Every setting the site accepts (up to 42 groups, 7 going on) reaches
        `_even_cost`. A group winner thus meets a player of another group in round 1, and
        with two going on from each group, its two players are in opposite halves.

    Raises:
        ValueError: if ``groups < 1``, ``advance < 1`` or ``groups * advance < 2``.
    """
    if groups < 1 or advance < 1 or groups * advance < 2:
        raise ValueError(f"need groups >= 1, advance >= 1, 2+ players: {groups}, {advance}")
    size = bracket_size(groups * advance)
    rounds = size.bit_length() - 1
    slot_of = {seed: slot for slot, seed in enumerate(bracket_slots(size))}
    shift = rounds - (advance - 1).bit_length()
    seeds = range(1, groups * advance + 1)
    even = _even_cost(groups, advance, rounds)

    def candidates():
        greedy = _greedy_places(groups, advance, slot_of, rounds)
        if all(len({slot >> shift for slot in slots}) == advance
               for slots in _slots_by_group(greedy, slot_of).values()):
            yield greedy
        for deal in (seeds, reversed(seeds)):
            yield _coloured(groups, advance, slot_of, shift, deal)

    best, best_cost = None, None
    for places in candidates():
        places = _improve(places, slot_of, rounds)
        cost = _total_cost(places, slot_of, rounds)
        if best_cost is None or cost < best_cost:
            best, best_cost = places, cost
        if cost == even:
            break
    return [(group, place) for place, tier in enumerate(best, start=1) for group in tier]


def _slots_by_group(places: list[list[int]], slot_of: dict[int, int]) -> dict[int, list[int]]:
    """The bracket slots of each group's players; `places[p-1]` lists the groups of the
    seeds of place ``p``, best seed first."""
    groups = len(places[0])
    slots: dict[int, list[int]] = {group: [] for group in range(1, groups + 1)}
    for p, tier in enumerate(places):
        for i, group in enumerate(tier):
            slots[group].append(slot_of[p * groups + i + 1])
    return slots


def _total_cost(places: list[list[int]], slot_of: dict[int, int], rounds: int) -> tuple:
    total = (0,) * rounds
    for slots in _slots_by_group(places, slot_of).values():
        total = _add(total, _cost(slots, rounds))
    return total


def _even_cost(groups: int, advance: int, rounds: int) -> tuple[int, ...]:
    """The fewest meetings per round (as `_cost`, summed over the groups) any order can
    have. Two players meet by round r when they share a block of ``2**r`` slots; ``k``
    players spread over the ``2**(R-r)`` blocks as evenly as can be (``q`` or ``q + 1`` in
    each, ``q = k // 2**(R-r)``) make the fewest such pairs, since ``C(x, 2)`` is convex.
    An order reaching it spreads each group evenly over the halves, the quarters, ..."""
    by_round = []
    for r in range(1, rounds + 1):
        blocks = 1 << (rounds - r)
        q, rest = divmod(advance, blocks)
        by_round.append(rest * (q + 1) * q // 2 + (blocks - rest) * q * (q - 1) // 2)
    return tuple(groups * (n - m) for n, m in zip(by_round, [0, *by_round], strict=False))


def _greedy_places(
    groups: int, advance: int, slot_of: dict[int, int], rounds: int
) -> list[list[int]]:
    """Place 1 follows the groups; each later place is ordered greedily, best seed first:
    each seed takes the group (of those left) whose players already placed it would meet
    latest, the later group on a tie; then two seeds of that place swap groups while that
    makes the groups' meetings come later."""
    placed: dict[int, list[int]] = {group: [] for group in range(1, groups + 1)}
    places = []
    for place in range(1, advance + 1):
        seeds = range((place - 1) * groups + 1, place * groups + 1)
        if place == 1:
            tier = list(range(1, groups + 1))
        else:
            tier = _greedy_tier([slot_of[seed] for seed in seeds], placed, rounds)
            tier = _improve_tier([slot_of[seed] for seed in seeds], tier, placed, rounds)
        for seed, group in zip(seeds, tier, strict=True):
            placed[group].append(slot_of[seed])
        places.append(tier)
    return places


def _coloured(
    groups: int, advance: int, slot_of: dict[int, int], shift: int, deal
) -> list[list[int]]:
    """Give each seed a group so that every place has each group once and every block
    (slots ``b << shift .. ((b+1) << shift) - 1``) has each group at most once.

    The seeds are the edges of a bipartite multigraph between the places and the blocks;
    a group is a colour, and the groups wanted are a proper edge colouring with ``G``
    colours. A place has ``G`` seeds; a block at most ``G``: it holds one seed of each run
    of ``2**c`` consecutive seeds (the doubling recursion), so at most ``ceil(G*k / 2**c)
    <= G``. König's theorem says ``G`` colours then suffice; the seeds are coloured in the
    order `deal`, each with a colour free at its place, after swapping two colours along an
    alternating path from its block when that colour is taken there (the path never comes
    back to the place: the graph is bipartite). The colours are then named so that the
    winner of group g, seed g, is group g."""
    at: dict[tuple[str, int], dict[int, int]] = {}
    colour: dict[int, int] = {}

    def ends(seed: int) -> tuple[tuple[str, int], tuple[str, int]]:
        return ("place", (seed - 1) // groups), ("block", slot_of[seed] >> shift)

    def free(vertex: tuple[str, int]) -> int:
        taken = at.setdefault(vertex, {})
        return next(c for c in range(1, groups + 1) if c not in taken)

    def paint(seed: int, c: int) -> None:
        colour[seed] = c
        for vertex in ends(seed):
            at[vertex][c] = seed

    for seed in deal:
        place, block = ends(seed)
        a, b = free(place), free(block)
        if a in at[block]:
            path, vertex, want = [], block, a
            while want in at[vertex]:
                edge = at[vertex][want]
                path.append(edge)
                first, second = ends(edge)
                vertex = second if first == vertex else first
                want = b if want == a else a
            for edge in path:
                for vertex in ends(edge):
                    del at[vertex][colour[edge]]
            for edge in path:
                paint(edge, b if colour[edge] == a else a)
        paint(seed, a)
    name = {colour[group]: group for group in range(1, groups + 1)}
    return [[name[colour[seed]] for seed in range(p * groups + 1, (p + 1) * groups + 1)]
            for p in range(advance)]


def _improve(places: list[list[int]], slot_of: dict[int, int], rounds: int) -> list[list[int]]:
    """Swap the groups of two seeds of one place (not place 1) while that lowers the two
    groups' cost (`_cost`). Never undoes keeping every group in different blocks: that is
    no meeting before round ``R - c + 1``, which a lower cost keeps."""
    places = [list(tier) for tier in places]
    groups = len(places[0])
    slots = {group: {} for group in range(1, groups + 1)}
    for p, tier in enumerate(places):
        for i, group in enumerate(tier):
            slots[group][p] = slot_of[p * groups + i + 1]

    def change(group: int, p: int, slot: int) -> list[int]:
        """How the group's meetings per round change when its place-p player moves to
        `slot`."""
        counts = [0] * rounds
        for q, other in slots[group].items():
            if q != p:
                counts[meeting_round(slot, other) - 1] += 1
                counts[meeting_round(slots[group][p], other) - 1] -= 1
        return counts

    improved = True
    while improved:
        improved = False
        for p in range(1, len(places)):
            tier = places[p]
            for i in range(groups):
                for j in range(i + 1, groups):
                    a, b = tier[i], tier[j]
                    total = _add(change(a, p, slots[b][p]), change(b, p, slots[a][p]))
                    if next((x for x in total if x), 0) < 0:
                        tier[i], tier[j] = b, a
                        slots[a][p], slots[b][p] = slots[b][p], slots[a][p]
                        improved = True
    return places


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
