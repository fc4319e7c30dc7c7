"""Round-robin standings from plain results, with published tie-breaks (DESIGN.md "Formats").

Pure: no Django. Players are any hashable ids; results are finished matches in game points.

Order: match wins first; then each tie-break of the tournament's order, applied once, in turn,
to the players still level after the ones before it (a later criterion never goes back to an
earlier one). Players level on everything share a rank.
"""

from collections import defaultdict
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal, NamedTuple

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


class MatchResult(NamedTuple):
    """A finished (or forfeited) match between two players, in game points. (A named tuple,
    not a dataclass: a 100-player double round robin makes 9,900 of them per page.)"""

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


Meetings = Mapping[Hashable, Mapping[Hashable, list]]
"""The decided meetings indexed both ways (`meeting_index`): player -> opponent -> the winner
of each of their meetings."""


def meeting_index(meetings: Iterable[tuple[Hashable, Hashable, Hashable]]) -> dict:
    """`Meetings` from (player_a, player_b, winner) of each decided match."""
    index: dict = defaultdict(dict)
    for player_a, player_b, winner in meetings:
        _meet(index, player_a, player_b, winner)
    return index


def _meet(index: dict, player_a: Hashable, player_b: Hashable, winner: Hashable) -> None:
    """Add one meeting to a `meeting_index` being built (a defaultdict of dicts)."""
    winners = index[player_a].get(player_b)
    if winners is None:
        winners = index[player_a][player_b] = index[player_b][player_a] = []
    winners.append(winner)


def encounter_wins(group: list[Hashable], meetings: Meetings) -> dict | None:
    """Wins in the mini-league of the tied `group`, counting every meeting among them
    (`meetings`: a `meeting_index` of the decided matches), or None unless every pair of
    `group` has met: the head-to-head of a round robin and the Swiss's direct encounter
    (FIDE C.07)."""
    wins = dict.fromkeys(group, 0)
    for number, player in enumerate(group):
        opponents = meetings.get(player, {})
        for other in group[number + 1:]:
            winners = opponents.get(other)
            if not winners:
                return None
            for winner in winners:
                wins[winner] += 1
    return wins


def break_ties(groups: list[list[Hashable]], order: Sequence[str], value_of, *,
               encounter: str | None = None, meetings: Meetings | None = None
               ) -> list[list[Hashable]]:
    """Split the tied `groups` (best first) by each tie-break of `order` in turn, highest value
    first: `value_of(name, player)` gives a player's value (asked only of players still tied),
    except for the tie-break named `encounter`, worked out among each tied group alone
    (`encounter_wins` over `meetings`, a `meeting_index`) and skipped for a group not every
    pair of which has met. Returns the groups (`TiedGroups`), best first, with the
    mini-league wins it worked out."""
    found: dict[Hashable, int] = {}
    meetings = meetings or {}
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


class _Tally:
    """The running totals of a round robin's results: each player's `Standing` (without
    rank and tie-breaks), whom each beat (once per win) and the `meeting_index`. Results are
    added one by one, so the race (`places_after_each_round`) ranks after each round without
    counting the rounds before it again."""

    def __init__(self, players: Iterable[Hashable], tie_breaks: Sequence[str],
                 lots: Mapping[Hashable, int] | None):
        unknown = [name for name in tie_breaks if name not in TIE_BREAKS]
        if unknown:
            raise ValueError(f"Unknown tie-break(s): {', '.join(unknown)}")
        self.tie_breaks = tuple(tie_breaks)
        self.lots = lots or {}
        self.rows = {player: Standing(player) for player in players}
        self.beaten: dict[Hashable, list[Hashable]] = {player: [] for player in self.rows}
        self.meetings: dict = defaultdict(dict)

    def add(self, result: MatchResult) -> None:
        rows = self.rows
        a, b = rows.get(result.player_a), rows.get(result.player_b)
        if a is None or b is None:
            raise ValueError(f"Result between unknown players: {result}")
        a.played += 1
        b.played += 1
        a.game_points_for += result.game_points_a
        a.game_points_against += result.game_points_b
        b.game_points_for += result.game_points_b
        b.game_points_against += result.game_points_a
        winner, loser = (a, b) if result.winner == "A" else (b, a)
        winner.won += 1
        loser.lost += 1
        self.beaten[winner.player].append(loser.player)
        _meet(self.meetings, a.player, b.player, winner.player)

    def sonneborn_berger(self, player: Hashable) -> int:
        rows = self.rows
        return sum(rows[loser].won for loser in self.beaten[player])

    def value(self, name: str, player: Hashable) -> int | None:
        """A player's value of the tie-break `name` as the table shows it (None for the
        head-to-head, worked out among a tied group alone; a player without a lot)."""
        row = self.rows[player]
        if name == GAME_POINT_DIFFERENCE:
            return row.game_point_difference
        if name == GAME_POINTS_SCORED:
            return row.game_points_for
        if name == SONNEBORN_BERGER:
            return self.sonneborn_berger(player)
        if name == LOTS:
            return self.lots.get(player)
        return None

    def groups(self) -> TiedGroups:
        """The players in order, best first, in groups level on everything (`break_ties`)."""
        rows, lots = self.rows, self.lots

        def split_value(name: str, player: Hashable):
            if name == LOTS:  # the lower lot first; a player without one after those with one
                return -lots[player] if player in lots else float("-inf")
            return self.value(name, player)

        groups = split_by([list(rows)], lambda player: rows[player].won)
        return break_ties(groups, self.tie_breaks, split_value, encounter=HEAD_TO_HEAD,
                          meetings=self.meetings)


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
    tally = _Tally(players, tie_breaks, lots)
    for result in results:
        tally.add(result)
    rows = tally.rows
    for row in rows.values():
        row.tie_breaks = {name: tally.value(name, row.player) for name in tally.tie_breaks}
    groups = tally.groups()
    for player, wins in groups.encounter_values.items():
        rows[player].tie_breaks[HEAD_TO_HEAD] = wins
    return ranked(groups, rows)


def places_after_each_round(
    players: Iterable[Hashable],
    rounds: Iterable[Iterable[MatchResult]],
    tie_breaks: Sequence[str] = DEFAULT_TIE_BREAKS,
    lots: Mapping[Hashable, int] | None = None,
) -> dict[Hashable, list[int]]:
    """Each player's place after every round of `rounds` (the results of round 1, then of
    round 2, ...; a round may have none): the rank `compute_standings` gives over the results
    of that round and the ones before it. player -> [place after round 1, after round 2, ...].
    Raises `ValueError` as `compute_standings` does."""
    tally = _Tally(players, tie_breaks, lots)
    places: dict[Hashable, list[int]] = {player: [] for player in tally.rows}
    for results in rounds:
        for result in results:
            tally.add(result)
        rank = 1
        for group in tally.groups():
            for player in group:
                places[player].append(rank)
            rank += len(group)
    return places


def split_by(groups: list[list[Hashable]], key) -> list[list[Hashable]]:
    """Split each group into sub-groups of equal `key`, highest key first; keep group order
    (a group of one is left as it is, its key never asked)."""
    result = []
    for group in groups:
        if len(group) == 1:
            result.append(group)
            continue
        by_value: dict = defaultdict(list)
        for player in group:
            by_value[key(player)].append(player)
        result.extend(by_value[value] for value in sorted(by_value, reverse=True))
    return result
