"""Round-robin standings from plain results, with published tie-breaks (DESIGN.md "Formats").

Pure: no Django. Players are any hashable ids; results are finished matches in game points.

Order: match wins first; then each tie-break of the tournament's order, applied once, in turn,
to the players still level after the ones before it (a later criterion never goes back to an
earlier one). Players level on everything share a rank.
"""

from collections import defaultdict
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

HEAD_TO_HEAD = "head_to_head"
GAME_POINT_DIFFERENCE = "game_point_difference"
GAME_POINTS_SCORED = "game_points_scored"
SONNEBORN_BERGER = "sonneborn_berger"
LOTS = "lots"

TIE_BREAKS: tuple[str, ...] = (
    HEAD_TO_HEAD, GAME_POINT_DIFFERENCE, GAME_POINTS_SCORED, SONNEBORN_BERGER, LOTS,
)
"""Every tie-break, in the default order (DESIGN.md "Formats")."""
DEFAULT_TIE_BREAKS = TIE_BREAKS


@dataclass(frozen=True)
class MatchResult:
    """A finished (or forfeited) match between two players, in game points."""

    player_a: Hashable
    player_b: Hashable
    game_points_a: int
    game_points_b: int
    winner: Literal["A", "B"]
    forfeit: bool = False

    def winner_id(self) -> Hashable:
        return self.player_a if self.winner == "A" else self.player_b

    def loser_id(self) -> Hashable:
        return self.player_b if self.winner == "A" else self.player_a


@dataclass
class Standing:
    """One player's line. Game points for/against are game points (0..target+2 per match).

    `tie_breaks` holds a value for every criterion in the order used; `head_to_head` is `None`
    where it was not applied (the player was not tied at that point, or the tied players had
    not all met).
    """

    player: Hashable
    rank: int = 0
    played: int = 0
    won: int = 0
    lost: int = 0
    game_points_for: int = 0
    game_points_against: int = 0
    tie_breaks: dict[str, int | None] = field(default_factory=dict)

    @property
    def game_point_difference(self) -> int:
        return self.game_points_for - self.game_points_against


def encounter_wins(group: list[Hashable], meetings: Iterable[tuple[Hashable, Hashable, Hashable]]
                   ) -> dict | None:
    """Wins in the mini-league of the tied `group`, counting every meeting among them
    (`meetings`: (player_a, player_b, winner) of each decided match), or None unless every pair
    of `group` has met: the head-to-head of a round robin and the Swiss's direct encounter
    (FIDE C.07)."""
    members = set(group)
    met: set[frozenset] = set()
    wins = dict.fromkeys(group, 0)
    for player_a, player_b, winner in meetings:
        if player_a in members and player_b in members:
            met.add(frozenset((player_a, player_b)))
            wins[winner] += 1
    pairs = len(group) * (len(group) - 1) // 2
    return wins if len(met) == pairs else None


def break_ties(groups: list[list[Hashable]], order: Sequence[str], value_of, *,
               encounter: str | None = None, meetings=()) -> list[list[Hashable]]:
    """Split the tied `groups` (best first) by each tie-break of `order` in turn, highest value
    first: `value_of(name, player)` gives a player's value, except for the tie-break named
    `encounter`, worked out among each tied group alone (`encounter_wins` over `meetings`) and
    skipped for a group not every pair of which has met. Returns the groups (`TiedGroups`),
    best first, with the mini-league wins it worked out."""
    found: dict[Hashable, int] = {}
    meetings = list(meetings)
    for name in order:
        if name == encounter:
            next_groups = []
            for group in groups:
                wins = encounter_wins(group, meetings) if len(group) > 1 else None
                if wins is None:
                    next_groups.append(group)
                    continue
                found.update(wins)
                next_groups.extend(split_by([group], wins.__getitem__))
            groups = next_groups
        else:
            groups = split_by(groups, lambda p, name=name: value_of(name, p))
    return TiedGroups(groups, found)


class TiedGroups(list):
    """The groups `break_ties` returns (a list of lists, best first), with the mini-league
    wins it worked out (`encounter_values`, player -> wins) for the rows to show."""

    def __init__(self, groups, encounter_values):
        super().__init__(groups)
        self.encounter_values = encounter_values


def ranked(groups: Iterable[list[Hashable]], rows: Mapping) -> list:
    """The rows of `groups` (best first; players of one group share a place) with their
    `rank` set: 1, 1, 3, ... (the places a tie shares, then the next place skips)."""
    standings = []
    for group in groups:
        rank = len(standings) + 1
        for player in group:
            rows[player].rank = rank
            standings.append(rows[player])
    return standings


def compute_standings(
    players: Iterable[Hashable],
    results: Iterable[MatchResult],
    tie_breaks: Sequence[str] = DEFAULT_TIE_BREAKS,
    lots: Mapping[Hashable, int] | None = None,
) -> list[Standing]:
    """Rank `players` by match wins, then `tie_breaks` in order; return one `Standing` each.

    - `head_to_head`: match wins among the players still tied, counting every meeting (both of
      a double round robin); applied only when each pair of them has met.
    - `game_point_difference`, `game_points_scored`: over all counted matches, game points.
    - `sonneborn_berger`: sum of the match wins of every opponent the player beat (once per
      win, so twice for two wins over one opponent in a double round robin).
    - `lots`: the stored lot, lower first; a player without a lot comes after those with one.

    Raises `ValueError` for an unknown tie-break name or a result naming an unknown player.
    """
    unknown = [name for name in tie_breaks if name not in TIE_BREAKS]
    if unknown:
        raise ValueError(f"Unknown tie-break(s): {', '.join(unknown)}")
    lots = lots or {}
    results = list(results)
    rows = {player: Standing(player) for player in players}
    for result in results:
        if result.player_a not in rows or result.player_b not in rows:
            raise ValueError(f"Result between unknown players: {result}")
        a, b = rows[result.player_a], rows[result.player_b]
        for row, scored, conceded in ((a, result.game_points_a, result.game_points_b),
                                      (b, result.game_points_b, result.game_points_a)):
            row.played += 1
            row.game_points_for += scored
            row.game_points_against += conceded
        rows[result.winner_id()].won += 1
        rows[result.loser_id()].lost += 1
    sonneborn_berger: dict[Hashable, int] = defaultdict(int)
    for result in results:
        sonneborn_berger[result.winner_id()] += rows[result.loser_id()].won

    def overall_value(name: str, player: Hashable) -> int | None:
        row = rows[player]
        if name == GAME_POINT_DIFFERENCE:
            return row.game_point_difference
        if name == GAME_POINTS_SCORED:
            return row.game_points_for
        if name == SONNEBORN_BERGER:
            return sonneborn_berger[player]
        return lots.get(player)

    for row in rows.values():
        for name in tie_breaks:
            row.tie_breaks[name] = None if name == HEAD_TO_HEAD else overall_value(name, row.player)

    groups = split_by([list(rows)], lambda player: rows[player].won)
    meetings = [(r.player_a, r.player_b, r.winner_id()) for r in results]

    def split_value(name: str, player: Hashable):
        if name == LOTS:  # the lower lot first; a player without one after those with one
            return -lots[player] if player in lots else float("-inf")
        return overall_value(name, player)

    groups = break_ties(groups, tie_breaks, split_value, encounter=HEAD_TO_HEAD,
                        meetings=meetings)
    for player, wins in groups.encounter_values.items():
        rows[player].tie_breaks[HEAD_TO_HEAD] = wins
    return ranked(groups, rows)


def split_by(groups: list[list[Hashable]], key) -> list[list[Hashable]]:
    """Split each group into sub-groups of equal `key`, highest key first; keep group order."""
    result = []
    for group in groups:
        by_value: dict = defaultdict(list)
        for player in group:
            by_value[key(player)].append(player)
        result.extend(by_value[value] for value in sorted(by_value, reverse=True))
    return result
