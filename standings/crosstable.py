"""The cross-table of a round robin or a season (no Django): who beat whom, by how much.

A Berger grid: one row and one column per player, in the order given (the standings); the
cell of row P and column Q lists every meeting of P and Q, in the order played, as P's game
points : Q's game points (two lines in a double round robin). The diagonal is empty; byes,
which have no match, are not in it.
"""

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass

from standings.tie_breaks import MatchResult


@dataclass(frozen=True)
class Meeting:
    """One meeting seen from the row's player: `own` and `other` game points, whether the row
    player `won`, and whether it was decided by forfeit."""

    own: int
    other: int
    won: bool
    forfeit: bool = False

    def __str__(self) -> str:
        return f"{self.own}:{self.other}"


@dataclass(frozen=True)
class CrossRow:
    """A row of the grid: `player` (as given) and one cell per column; a cell is a tuple of
    `Meeting` (empty: not met yet), or `None` on the diagonal."""

    player: Hashable
    cells: tuple[tuple[Meeting, ...] | None, ...]


def cross_table(order: Sequence[Hashable], results: Iterable[MatchResult]) -> list[CrossRow]:
    """The grid of `order` (player ids, row and column order alike) from `results` (decided
    matches between them, in the order played; game points). A result naming a player not in
    `order` is left out (a player whose results were cancelled has no row).
    """
    position = {player: index for index, player in enumerate(order)}
    cells: dict[tuple[int, int], list[Meeting]] = {}
    for result in results:
        a, b = position.get(result.player_a), position.get(result.player_b)
        if a is None or b is None or a == b:
            continue
        a_won = result.winner == "A"
        cells.setdefault((a, b), []).append(
            Meeting(result.game_points_a, result.game_points_b, a_won, result.forfeit))
        cells.setdefault((b, a), []).append(
            Meeting(result.game_points_b, result.game_points_a, not a_won, result.forfeit))
    return [
        CrossRow(player, tuple(
            None if row == column else tuple(cells.get((row, column), ()))
            for column in range(len(order))
        ))
        for row, player in enumerate(order)
    ]
