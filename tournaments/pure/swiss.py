"""Swiss pairings for Santase (docs/swiss.md): one round at a time, by score groups, as a
minimum-weight perfect matching (networkx's blossom algorithm, the way Tabbycat pairs).

Pure: no Django. Players are any hashable ids with their state before the round
(`SwissPlayer`); `pair_round` returns who meets whom, who deals first, and who has the bye.

What the matching minimises, most important first (each level outweighs everything below it
put together, so a lower level never buys back a higher one):

1. a second bye for a player who has had one (only when nobody else can take it);
2. rematches (players who have met before in this event);
3. the bye receiver's score: the bye goes to the lowest score group (FIDE C.04.3 C.5);
4. pairs of players two or more off balance the same way (both dealt first two more times
   than second, or two fewer): one would end three off (FIDE's absolute colour rule);
5. the score difference of each pair, squared: players meet their own score group, and a
   player who floats meets the nearest group;
6. pairs whose first-deal balances are off the same way by one: one would end two off;
7. the shape: inside a score group the top half meets the bottom half (FIDE's S1 against S2),
   and of the lowest group the lowest-ranked player takes the bye.

Santase has no draws: a match always has a winner, so scores are whole numbers. The first
dealer plays the part of White in chess (`first_dealer_of`): the player who dealt first
fewer times deals first; when even, the one who did not deal first last time; then the
higher-ranked on odd tables and the lower-ranked on even ones, as FIDE alternates colours
down the boards in round 1.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from math import ceil, log2

import networkx as nx

BYE = object()
"""The node that stands for the bye in the matching graph (odd number of players)."""


@dataclass(frozen=True)
class SwissPlayer:
    """A player's state before a round.

    `number`: the pairing number (1 the highest-ranked at the start; the draw number).
    `score`: points so far (a win 1, a loss 0, a bye 1 or 0 by the event's setting).
    `opponents`: everyone they have met (over the board or by forfeit).
    `byes`: byes had so far. `dealt_first` / `dealt_second`: matches in which they dealt the
    first deal / their opponent did. `last_dealt_first`: True / False for their last match,
    None before any.
    """

    id: Hashable
    number: int
    score: int = 0
    opponents: frozenset = field(default_factory=frozenset)
    byes: int = 0
    dealt_first: int = 0
    dealt_second: int = 0
    last_dealt_first: bool | None = None

    @property
    def dealer_balance(self) -> int:
        """Deals first minus deals second: 0 is balanced, +1 one first deal too many."""
        return self.dealt_first - self.dealt_second


@dataclass(frozen=True)
class RoundPairing:
    """One round: `pairs` as (deals first, deals second), table 1 first; `bye` or None."""

    pairs: tuple[tuple[Hashable, Hashable], ...]
    bye: Hashable | None


def suggested_rounds(players: int) -> int:
    """⌈log₂ n⌉ + 1 rounds for `players` players (at least 1): enough for one clear winner
    with room for a loss. E.g. 9 players: ⌈3.17⌉ + 1 = 5; 8 players: 3 + 1 = 4."""
    return ceil(log2(players)) + 1 if players > 1 else 1


def ranking_order(players: Sequence[SwissPlayer]) -> list[SwissPlayer]:
    """The pairing order: score, highest first, then pairing number, lowest first."""
    return sorted(players, key=lambda p: (-p.score, p.number))


def _levels(a: SwissPlayer, b: SwissPlayer | None, position: dict, group_size: dict,
            count: int) -> tuple[int, ...]:
    """The cost of pairing `a` with `b` (None: `a` takes the bye), one value per level of the
    module's list."""
    if b is None:
        return (
            1 if a.byes else 0, 0, a.score, 0, 0, 0,
            count - 1 - position[a.id],  # the lowest-ranked takes it: cost 0
        )
    rematch = 1 if b.id in a.opponents or a.id in b.opponents else 0
    same_way = a.dealer_balance * b.dealer_balance > 0
    least_off = min(abs(a.dealer_balance), abs(b.dealer_balance))
    absolute = 1 if same_way and least_off >= 2 else 0
    conflict = 1 if same_way and least_off == 1 else 0
    higher = a if position[a.id] < position[b.id] else b
    half = max(1, group_size[higher.score] // 2)
    shape = abs(abs(position[a.id] - position[b.id]) - half)
    return (0, rematch, 0, absolute, (a.score - b.score) ** 2, conflict, shape)


def pair_round(players: Sequence[SwissPlayer]) -> RoundPairing:
    """Pair the next round of `players` (the active ones: withdrawn players left out).

    Returns every player once: in a pair, or as the bye when their number is odd. Raises
    `ValueError` for fewer than two players or two players with one id.
    """
    if len(players) < 2:
        raise ValueError("A Swiss round needs at least two players.")
    ids = [player.id for player in players]
    if len(set(ids)) != len(ids):
        raise ValueError("Two players share an id.")
    order = ranking_order(players)
    position = {player.id: index for index, player in enumerate(order)}
    group_size: dict[int, int] = {}
    for player in order:
        group_size[player.score] = group_size.get(player.score, 0) + 1
    count = len(order)
    nodes: list = [*order, *([BYE] if count % 2 else [])]

    costs = {}
    for i, a in enumerate(nodes):
        for b in nodes[i + 1:]:
            if a is BYE or b is BYE:
                player = b if a is BYE else a
                costs[(a, b)] = _levels(player, None, position, group_size, count)
            else:
                costs[(a, b)] = _levels(a, b, position, group_size, count)
    multipliers = _lexicographic(list(costs.values()), len(nodes) // 2)
    weights = {edge: _weight(levels, multipliers) for edge, levels in costs.items()}
    top = max(weights.values()) + 1
    graph = nx.Graph()
    for (a, b), weight in weights.items():
        key_a = "bye" if a is BYE else ("p", position[a.id])
        key_b = "bye" if b is BYE else ("p", position[b.id])
        graph.add_edge(key_a, key_b, weight=top - weight)
    matching = nx.max_weight_matching(graph, maxcardinality=True)

    pairs, bye = [], None
    for u, v in matching:
        if "bye" in (u, v):
            bye = order[(v if u == "bye" else u)[1]].id
            continue
        a, b = sorted((order[u[1]], order[v[1]]), key=lambda p: position[p.id])
        pairs.append((a, b))
    pairs.sort(key=lambda pair: position[pair[0].id])
    seated = tuple(
        first_dealer_of(a, b, table=table) for table, (a, b) in enumerate(pairs, start=1)
    )
    return RoundPairing(pairs=seated, bye=bye)


def _lexicographic(all_levels: list[tuple[int, ...]], pairs: int) -> list[int]:
    """The multiplier of each level: more than the most all the lower levels can add up to
    over one round of `pairs` pairs."""
    size = len(all_levels[0])
    multipliers = [1] * size
    for level in range(size - 2, -1, -1):
        most_below = max(levels[level + 1] for levels in all_levels) * pairs
        multipliers[level] = multipliers[level + 1] * (most_below + 1)
    return multipliers


def _weight(levels: tuple[int, ...], multipliers: list[int]) -> int:
    return sum(value * multiplier for value, multiplier in zip(levels, multipliers, strict=True))


def first_dealer_of(higher: SwissPlayer, lower: SwissPlayer, *, table: int) -> tuple:
    """(deals first, deals second) for `higher` (the higher-ranked) and `lower` at `table`.

    The one with the lower first-deal balance deals first; when equal, the one who did not
    deal first in their last match (if only one of them did); else the higher-ranked on odd
    tables, the lower-ranked on even ones.
    """
    if higher.dealer_balance != lower.dealer_balance:
        first = higher if higher.dealer_balance < lower.dealer_balance else lower
    elif higher.last_dealt_first is not None and lower.last_dealt_first is not None and (
        higher.last_dealt_first != lower.last_dealt_first
    ):
        first = lower if lower.last_dealt_first is False else higher
    else:
        first = higher if table % 2 else lower
    second = lower if first is higher else higher
    return (first.id, second.id)
