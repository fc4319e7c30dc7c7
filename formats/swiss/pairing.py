"""Swiss pairings for Santase (docs/swiss.md): one round at a time, by score groups, as a
minimum-weight perfect matching (Edmonds' blossom algorithm, the way Tabbycat pairs; run by
rustworkx, networkx's algorithm compiled from Rust, with networkx itself as the reference).

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

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from math import ceil, log2

import networkx as nx
import rustworkx as rx


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


Edge = tuple[int, int, int]
"""(node, node, weight) of the pairing graph. Node i is the i-th player of the pairing order
(`ranking_order`); in an odd field node n (one past the last) is the bye. The heavier the
edge, the cheaper the pair."""

Solver = Callable[[int, list[Edge]], list[tuple[int, int]]]
"""(node count, edges) -> a perfect matching of greatest weight, as (node, node) pairs."""


def solve_rustworkx(node_count: int, edges: list[Edge]) -> list[tuple[int, int]]:
    """The matching by rustworkx: networkx's blossom algorithm ported to Rust, exact on
    integer weights (it computes in 128-bit integers), two orders of magnitude faster than
    in Python. The solver `pair_round` uses."""
    graph = rx.PyGraph(multigraph=False)
    graph.add_nodes_from(range(node_count))
    graph.add_edges_from(edges)
    matching = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    return sorted(tuple(sorted(pair)) for pair in matching)


def solve_networkx(node_count: int, edges: list[Edge]) -> list[tuple[int, int]]:
    """The same matching by networkx in pure Python (up to about 2 s a round for 200
    players): the reference the tests and bench/swiss_pairing.py hold `solve_rustworkx` to."""
    graph = nx.Graph()
    graph.add_nodes_from(range(node_count))
    graph.add_weighted_edges_from(edges)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    return sorted(tuple(sorted(pair)) for pair in matching)


def pair_round(players: Sequence[SwissPlayer], *, solve: Solver = solve_rustworkx
               ) -> RoundPairing:
    """Pair the next round of `players` (the active ones: withdrawn players left out).

    Returns every player once: in a pair, or as the bye when their number is odd. `solve`
    finds the matching (`solve_networkx` gives a pairing of the same cost, slowly). Raises
    `ValueError` for fewer than two players or two players with one id.
    """
    if len(players) < 2:
        raise ValueError("A Swiss round needs at least two players.")
    ids = [player.id for player in players]
    if len(set(ids)) != len(ids):
        raise ValueError("Two players share an id.")
    order = ranking_order(players)
    count = len(order)
    matching = solve(count + count % 2, pairing_edges(order))
    bye = next((order[u].id for u, v in matching if v == count), None)
    seated = tuple(
        first_dealer_of(order[u], order[v], table=table)
        for table, (u, v) in enumerate((pair for pair in matching if pair[1] < count), start=1)
    )
    return RoundPairing(pairs=seated, bye=bye)


def pairing_edges(order: Sequence[SwissPlayer]) -> list[Edge]:
    """Every edge of the pairing graph of `order` (players in `ranking_order`). A pair's
    cost is its levels weighed by `_lexicographic`; its weight is the greatest cost plus one,
    minus its own, so that the heaviest perfect matching is the cheapest pairing."""
    costs = _pair_costs(order)
    multipliers = _lexicographic(list(costs.values()), (len(order) + 1) // 2)
    weights = {pair: _weight(levels, multipliers) for pair, levels in costs.items()}
    top = max(weights.values()) + 1
    return [(u, v, top - weight) for (u, v), weight in weights.items()]


def round_cost(players: Sequence[SwissPlayer], pairing: RoundPairing) -> tuple[int, ...]:
    """The cost of `pairing` for `players`: each level of the module's list summed over its
    pairs and bye. Two pairings of one field compare by it (lower is better)."""
    order = ranking_order(players)
    node = {player.id: index for index, player in enumerate(order)}
    costs = _pair_costs(order)
    chosen = [tuple(sorted((node[a], node[b]))) for a, b in pairing.pairs]
    if pairing.bye is not None:
        chosen.append((node[pairing.bye], len(order)))
    return tuple(map(sum, zip(*(costs[pair] for pair in chosen), strict=True)))


def _pair_costs(order: Sequence[SwissPlayer]) -> dict[tuple[int, int], tuple[int, ...]]:
    """{(u, v): levels} for every pair of nodes u < v of the pairing graph of `order`."""
    position = {player.id: index for index, player in enumerate(order)}
    group_size: dict[int, int] = {}
    for player in order:
        group_size[player.score] = group_size.get(player.score, 0) + 1
    count = len(order)
    costs = {
        (u, v): _levels(a, order[v], position, group_size, count)
        for u, a in enumerate(order) for v in range(u + 1, count)
    }
    if count % 2:
        for u, a in enumerate(order):
            costs[(u, count)] = _levels(a, None, position, group_size, count)
    return costs


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
