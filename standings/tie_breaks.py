"""Round-robin standings from plain results, with published tie-breaks (docs/formats.md
"Round robin").

Pure: no Django. Players are any hashable ids; results are finished matches in game points.

Order: match wins first; then each tie-break of the tournament's order, applied once, in turn,
to the players still level after the ones before it (a later criterion never goes back to an
earlier one). The head-to-head is FIDE's direct encounter (C.07 (2023) Article 6): the
mini-league of the tied players, every meeting counted (both of a double round robin), worked
out again among the players it leaves level until it splits them no more. Players level on
everything share a rank.
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
"""Every tie-break, in the default order (docs/formats.md "Round robin")."""
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
    (`meetings`: a `meeting_index` of the decided matches; two meetings of a pair, as in a
    double round robin, count both: the sum of the points of their games), or None unless
    every pair of `group` has met: the head-to-head of a round robin and the Swiss's direct
    encounter (FIDE C.07 (2023) Article 6). A win is 1 point, a loss 0."""
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


def break_ties(groups: list[list[Hashable]], order: Sequence[str], key_of, *,
               encounter: str | None = None, meetings: Meetings | None = None
               ) -> list[list[Hashable]]:
    """Split the tied `groups` (best first) by each tie-break of `order` in turn, highest value
    first: `key_of(name)` gives the function of a player that gives their value (asked only
    of players still tied), except for the tie-break named `encounter`, worked out among each
    tied group alone (`encounter_wins` over `meetings`, a `meeting_index`), then again among
    each part of it still level (`encounter_split`), and skipped for a group not every pair
    of which has met. Returns the groups (`TiedGroups`), best first, with the mini-league
    wins it worked out (each player's in the widest mini-league they were ranked in)."""
    found: dict[Hashable, int] = {}
    meetings = meetings or {}
    keys: dict[str, object] = {}
    result: list[list[Hashable]] = []
    for group in groups:  # each group goes through the order alone: a split never looks
        tied = [group]    # beyond its own group
        for name in order:
            if all(len(players) == 1 for players in tied):
                break
            if name == encounter:
                tied = [part for players in tied
                        for part in encounter_split(players, meetings, found)]
            else:
                if name not in keys:
                    keys[name] = key_of(name)
                tied = split_by(tied, keys[name])
        result.extend(tied)
    return TiedGroups(result, found)


def encounter_split(players: list[Hashable], meetings: Meetings,
                    found: dict[Hashable, int]) -> list[list[Hashable]]:
    """The tied `players` split by the direct encounter (C.07 (2023) Article 6), best first:
    their mini-league (`encounter_wins` over `meetings`), then, in each part it leaves level,
    the mini-league of that part alone, and so on until no part splits. A group not every
    pair of which has met is left whole. Each player's wins in the first mini-league they
    were ranked in are written into `found` (player -> wins)."""
    wins = encounter_wins(players, meetings) if len(players) > 1 else None
    if wins is None:
        return [players]
    for player, value in wins.items():
        found.setdefault(player, value)
    parts = split_by([players], wins.__getitem__)
    if len(parts) == 1:
        return parts
    return [piece for part in parts for piece in encounter_split(part, meetings, found)]


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
    """The running totals of a round robin's results, players numbered 0..n-1 in the order
    given: each one's matches won and lost (so played) and game points for and against, whom each
    beat (once per win) and the `meeting_index`. Results are added round by round, so the
    race (`places_after_each_round`) ranks after each round without counting the rounds
    before it again; tie-break values are worked out only for the players still tied."""

    def __init__(self, players: Iterable[Hashable], tie_breaks: Sequence[str],
                 lots: Mapping[Hashable, int] | None):
        unknown = [name for name in tie_breaks if name not in TIE_BREAKS]
        if unknown:
            raise ValueError(f"Unknown tie-break(s): {', '.join(unknown)}")
        self.tie_breaks = tuple(tie_breaks)
        self.lots = lots = lots or {}
        self.players = list(dict.fromkeys(players))
        self.number = {player: number for number, player in enumerate(self.players)}
        count = len(self.players)
        self.won, self.lost = [0] * count, [0] * count
        self.scored, self.conceded = [0] * count, [0] * count
        self.beaten: list[list[int]] = [[] for _player in self.players]
        self.meetings: dict = defaultdict(dict)
        # The lower lot first; a player without one after those with one.
        self.lot_order = [-lots[player] if player in lots else float("-inf")
                          for player in self.players]

    def add(self, results: Iterable[MatchResult]) -> None:
        number, won, lost = self.number, self.won, self.lost
        scored, conceded, beaten, meetings = self.scored, self.conceded, self.beaten, self.meetings
        for result in results:
            player_a, player_b, points_a, points_b, winner_seat, _forfeit = result
            a, b = number.get(player_a), number.get(player_b)
            if a is None or b is None:
                raise ValueError(f"Result between unknown players: {result}")
            scored[a] += points_a
            conceded[a] += points_b
            scored[b] += points_b
            conceded[b] += points_a
            winner, loser = (a, b) if winner_seat == "A" else (b, a)
            won[winner] += 1
            lost[loser] += 1
            beaten[winner].append(loser)
            winners = meetings[a].get(b)  # `_meet`, written out: 9,900 results a page
            if winners is None:
                winners = meetings[a][b] = meetings[b][a] = []
            winners.append(winner)

    # Matches played are not counted apart: every counted result has a winner, so a player
    # played their wins and their losses.

    def key(self, name: str):
        """The function of a player's number that gives their value of the tie-break `name`
        (higher first; a lot negated)."""
        scored, conceded, won, beaten = self.scored, self.conceded, self.won, self.beaten
        if name == GAME_POINT_DIFFERENCE:
            return lambda player: scored[player] - conceded[player]
        if name == GAME_POINTS_SCORED:
            return scored.__getitem__
        if name == SONNEBORN_BERGER:
            return lambda player: sum(map(won.__getitem__, beaten[player]))
        return self.lot_order.__getitem__

    def value(self, name: str, player: int) -> int | None:
        """A player's value of the tie-break `name` as the table shows it (None for the
        head-to-head, worked out among a tied group alone, and for a player without a lot)."""
        if name == HEAD_TO_HEAD:
            return None
        if name == LOTS:
            return self.lots.get(self.players[player])
        return self.key(name)(player)

    def groups(self) -> TiedGroups:
        """The players' numbers in order, best first, in groups level on everything (match
        wins, then `break_ties`)."""
        won = self.won
        groups: list[list[int]] = []
        last = None
        # A stable sort: players level on wins stay in the order given.
        for player in sorted(range(len(won)), key=won.__getitem__, reverse=True):
            if won[player] == last:
                groups[-1].append(player)
            else:
                groups.append([player])
                last = won[player]
        return break_ties(groups, self.tie_breaks, self.key, encounter=HEAD_TO_HEAD,
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
    tally.add(results)
    rows = [
        Standing(player, 0, tally.won[number] + tally.lost[number], tally.won[number],
                 tally.lost[number],
                 tally.scored[number], tally.conceded[number],
                 {name: tally.value(name, number) for name in tally.tie_breaks})
        for number, player in enumerate(tally.players)
    ]
    groups = tally.groups()
    for number, wins in groups.encounter_values.items():
        rows[number].tie_breaks[HEAD_TO_HEAD] = wins
    return ranked(groups, rows)


def places_after_each_round(
    players: Iterable[Hashable],
    rounds: Iterable[Iterable[MatchResult]],
    tie_breaks: Sequence[str] = DEFAULT_TIE_BREAKS,
    lots: Mapping[Hashable, int] | None = None,
    *,
    known: int = 0,
) -> dict[Hashable, list[int]]:
    """Each player's place after every round of `rounds` (the results of round 1, then of
    round 2, ...; a round may have none): the rank `compute_standings` gives over the results
    of that round and the ones before it. player -> [place after round 1, after round 2, ...].
    `known`: the places after the first `known` rounds are left out (the caller has them;
    their results are counted, not ranked), so each list starts after round `known` + 1.
    Raises `ValueError` as `compute_standings` does."""
    tally = _Tally(players, tie_breaks, lots)
    places: list[list[int]] = [[] for _player in tally.players]
    for number, results in enumerate(rounds, start=1):
        tally.add(results)
        if number <= known:
            continue
        rank = 1
        for group in tally.groups():
            for player in group:
                places[player].append(rank)
            rank += len(group)
    return dict(zip(tally.players, places, strict=True))


def split_by(groups: list[list[Hashable]], key) -> list[list[Hashable]]:
    """Split each group into sub-groups of equal `key`, highest key first; keep group order
    (a group of one is left as it is, its key never asked)."""
    result = []
    for group in groups:
        if len(group) == 1:
            result.append(group)
            continue
        if len(group) == 2:
            first, second = group
            key_first, key_second = key(first), key(second)
            if key_first == key_second:
                result.append(group)
            else:
                result.extend(([first], [second]) if key_first > key_second
                              else ([second], [first]))
            continue
        by_value: dict = defaultdict(list)
        for player in group:
            by_value[key(player)].append(player)
        result.extend(by_value[value] for value in sorted(by_value, reverse=True))
    return result
