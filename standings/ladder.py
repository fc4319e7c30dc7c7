"""Season ladder and head-to-head records from plain results. Pure: no Django.

Players are any hashable ids; results are `standings.MatchResult`s of matches that are over
(finished, or forfeited: a forfeit is a match played, won by one and lost by the other, with
the game points the record holds).

Season ladder: a player needs `min_matches` matches to be ranked. Ranked players are ordered
by win percentage (exact, not the rounded figure shown), then game-point difference, then
matches won; players level on all three share a rank. The others are listed apart, in the
same order, without a rank.
"""

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from standings.tie_breaks import MatchResult

ONE_DECIMAL = Decimal("0.1")


@dataclass(frozen=True)
class LadderRow:
    """One player's season line; game points for/against are game points."""

    player: Hashable
    rank: int | None
    played: int
    won: int
    lost: int
    game_points_for: int
    game_points_against: int

    @property
    def game_point_difference(self) -> int:
        return self.game_points_for - self.game_points_against

    @property
    def win_fraction(self) -> Fraction:
        return Fraction(self.won, self.played) if self.played else Fraction(0)

    @property
    def win_percent(self) -> Decimal:
        """Matches won in per cent, one decimal, halves rounded up (2 of 3: 66.7)."""
        if not self.played:
            return Decimal("0.0")
        exact = Decimal(self.won * 100) / Decimal(self.played)
        return exact.quantize(ONE_DECIMAL, rounding=ROUND_HALF_UP)


@dataclass(frozen=True)
class Ladder:
    ranked: tuple[LadderRow, ...]
    unranked: tuple[LadderRow, ...]
    min_matches: int


@dataclass
class _Tally:
    played: int = 0
    won: int = 0
    lost: int = 0
    game_points_for: int = 0
    game_points_against: int = 0

    def add(self, scored: int, conceded: int, won: bool) -> None:
        self.played += 1
        self.won += won
        self.lost += not won
        self.game_points_for += scored
        self.game_points_against += conceded


def _sides(result: MatchResult):
    """(player, opponent, scored, conceded, won) for each side of `result`."""
    a, b = result.game_points_a, result.game_points_b
    yield result.player_a, result.player_b, a, b, result.winner == "A"
    yield result.player_b, result.player_a, b, a, result.winner == "B"


def season_ladder(
    results: Iterable[MatchResult], min_matches: int, order: Sequence[Hashable] = ()
) -> Ladder:
    """The season table of everyone with at least one result.

    `order` (e.g. the players by name) decides only the listing of players level on every
    criterion; players missing from it follow in order of first appearance.
    """
    tallies: dict[Hashable, _Tally] = {}
    for result in results:
        for player, _opponent, scored, conceded, won in _sides(result):
            tallies.setdefault(player, _Tally()).add(scored, conceded, won)
    position = {player: index for index, player in enumerate(order)}
    appearance = {player: index for index, player in enumerate(tallies)}
    rows = [LadderRow(player, None, **vars(tally)) for player, tally in tallies.items()]

    def key(row: LadderRow):
        return (row.win_fraction, row.game_point_difference, row.won)

    rows.sort(key=lambda row: (
        position.get(row.player, len(position)), appearance[row.player]
    ))
    rows.sort(key=key, reverse=True)  # stable: level players keep the listing order
    ranked, unranked = [], []
    for row in rows:
        if row.played < min_matches:
            unranked.append(row)
            continue
        level = ranked and key(ranked[-1]) == key(row)
        rank = ranked[-1].rank if level else len(ranked) + 1
        ranked.append(LadderRow(
            row.player, rank, row.played, row.won, row.lost, row.game_points_for,
            row.game_points_against,
        ))
    return Ladder(tuple(ranked), tuple(unranked), min_matches)


@dataclass(frozen=True)
class HeadToHead:
    """`player`'s record against one opponent, in matches and game points."""

    opponent: Hashable
    played: int
    won: int
    lost: int
    game_points_for: int
    game_points_against: int


def head_to_head(player: Hashable, results: Iterable[MatchResult]) -> list[HeadToHead]:
    """`player`'s record against each opponent they met in `results`: most meetings first,
    then in order of first appearance in `results` (newest first, if so given)."""
    tallies: dict[Hashable, _Tally] = {}
    for result in results:
        for side, opponent, scored, conceded, won in _sides(result):
            if side == player:
                tallies.setdefault(opponent, _Tally()).add(scored, conceded, won)
    rows = [HeadToHead(opponent, **vars(tally)) for opponent, tally in tallies.items()]
    return sorted(rows, key=lambda row: -row.played)
