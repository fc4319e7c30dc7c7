"""Reads several pages share: one place decides which matches
count and how they are fetched, so no page counts a result another page would not."""

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import chain, groupby
from operator import itemgetter
from typing import NamedTuple

from django.db.models import Case, F, Field, Q, QuerySet, Value, When

from club.models import Player
from events import registry
from events.models import Entry, Pairing, Round, Tournament, group_letter
from events.selectors import played_under_half
from scoring.models import Match
from standings.crosstable import CrossRow, cross_table
from standings.ladder import season_ladder
from standings.swiss_tie_breaks import SwissGame, SwissStanding
from standings.swiss_tie_breaks import swiss_standings as compute_swiss_standings
from standings.tie_breaks import MatchResult, Standing, compute_standings, places_after_each_round


class PlayedPairing(NamedTuple):
    """The few fields of a pairing and its match that the standings read (plain values, a
    named tuple: a 100-player double round robin has 9,900 of them)."""

    entry_a_id: int | None
    entry_b_id: int | None
    status: str
    game_points_a: int
    game_points_b: int
    winner: str
    round_number: int = 0


def played_pairings(tournament: Tournament, stage: str | None = None) -> list[PlayedPairing]:
    """Every pairing of `tournament` that has a match (byes have none); with `stage` (a
    `Round.Stage` value), only those of its rounds of that stage."""
    return list(map(PlayedPairing._make, _played_rows(tournament, stage)))


def _played_rows(tournament: Tournament, stage: str | None = None) -> list[tuple]:
    """`played_pairings` as the plain tuples the database gives (the fields of
    `PlayedPairing`, in its order): the standings of a 100-player double round robin read
    9,900 of them, and unpack them rather than name their fields."""
    rows = Pairing.objects.filter(round__tournament=tournament, match__isnull=False)
    if stage is not None:
        rows = rows.filter(round__stage=stage)
    return list(rows.values_list(
        "entry_a_id", "entry_b_id", "match__status", "match__game_points_a", "match__game_points_b",
        "match__winner", "round__number",
    ).order_by("round__number", "table", "pk"))


def cancelled_entries(
    tournament: Tournament, pairings: list[PlayedPairing], entries: Iterable[Entry]
) -> set[int]:
    """Ids of the `entries` (the tournament's) whose results are all cancelled: withdrawn
    under the FIDE policy having played under half of their matches (`played_under_half`).
    `pairings`: `played_pairings(tournament)` (or the same fields as plain tuples)."""
    if tournament.withdrawal_policy != Tournament.WithdrawalPolicy.FIDE:
        return set()
    statuses: dict[int, list[str]] = {entry.pk: [] for entry in entries if entry.withdrawn}
    if not statuses:
        return set()
    for entry_a, entry_b, status, *_rest in pairings:
        for entry in (entry_a, entry_b):
            if entry in statuses:
                statuses[entry].append(status)
    return {entry for entry, own in statuses.items() if played_under_half(own)}


class CountedRounds(NamedTuple):
    """What the standings of a round robin count (`counted_rounds`): the `entries` (player
    selected, by draw number); `rounds`, where `rounds[r - 1]` holds the counted results of
    round r, each a plain tuple of `MatchResult`'s fields in its order (forfeit 1 or 0; a
    round may have none; the list ends at the last round with one); and the ids of the
    entries whose results are `cancelled` (`cancelled_entries`)."""

    entries: list[Entry]
    rounds: list[list[tuple]]
    cancelled: set[int]


def counted_rounds(tournament: Tournament, stage: str | None = None,
                   entries: list[Entry] | None = None) -> CountedRounds:
    """The results that count for the standings, by round: the decided matches
    (`Match.DECIDED`: finished and forfeited) less those of an entry whose results are
    cancelled (`cancelled_entries`); with `stage` (a `Round.Stage` value), only those of its
    rounds of that stage. `entries`: the entries to rank when the caller has them (else all
    of the tournament's). Two queries, three when a withdrawn player's results may be
    cancelled. The results stay plain tuples, grouped without a Python loop over them: a
    100-player double round robin has 9,900 of them a page. Within a round they come in
    the order the pairings were made (by id; the standings do not depend on it): SQLite
    reads them so from its index of each round's pairings, where ordering them by table
    too cost a sort of all 9,900 (about 5 ms at 100 players)."""
    if entries is None:
        entries = list(tournament.entries.select_related("player").order_by("number"))
    cancelled = set()
    if tournament.withdrawal_policy == Tournament.WithdrawalPolicy.FIDE and any(
            entry.withdrawn for entry in entries):
        withdrawn = [entry.pk for entry in entries if entry.withdrawn]
        played = Pairing.objects.filter(round__tournament=tournament, match__isnull=False)
        if stage is not None:
            played = played.filter(round__stage=stage)
        cancelled = cancelled_entries(tournament, list(
            played.filter(Q(entry_a__in=withdrawn) | Q(entry_b__in=withdrawn))
            .values_list("entry_a_id", "entry_b_id", "match__status")
        ), entries)
    rows = Pairing.objects.filter(round__tournament=tournament, match__status__in=_DECIDED)
    if stage is not None:
        rows = rows.filter(round__stage=stage)
    rows = list(rows.annotate(forfeit=Case(
        When(match__status=_FORFEITED, then=Value(1)), default=Value(0),
        output_field=_AS_GIVEN,
    )).values_list(
        "round__number", "entry_a_id", "entry_b_id", "match__game_points_a",
        "match__game_points_b", "match__winner", "forfeit",
    ).order_by("round__number", "pk"))
    if cancelled:
        rows = [row for row in rows if row[1] not in cancelled and row[2] not in cancelled]
    rounds: list[list[tuple]] = []
    for number, results in groupby(rows, _ROUND_NUMBER):
        rounds.extend([] for _empty in range(number - 1 - len(rounds)))
        rounds.append(list(map(_RESULT_FIELDS, results)))
    return CountedRounds(entries, rounds, cancelled)


_DECIDED = frozenset(status.value for status in Match.DECIDED)


_FORFEITED = Match.Status.FORFEITED.value


_AS_GIVEN = Field()


"""The output field of the forfeit flag's `Case` (1 or 0): a plain `Field` has no converter,
where an `IntegerField` would pass each of 9,900 rows through `int()` in Python."""


_ROUND_NUMBER = itemgetter(0)


_RESULT_FIELDS = itemgetter(1, 2, 3, 4, 5, 6)


"""A row of `counted_rounds`'s query as the fields of a `MatchResult`, in its order."""


def match_results(rounds: Iterable[Iterable[tuple]]) -> list[MatchResult]:
    """The results of `CountedRounds.rounds` as `MatchResult`s, round by round."""
    return [MatchResult(a, b, points_a, points_b, winner, bool(forfeit))
            for results in rounds for a, b, points_a, points_b, winner, forfeit in results]


def counted_results_by_round(
    tournament: Tournament,
) -> tuple[list[Entry], list[tuple[int, MatchResult]], set[int]]:
    """`counted_results`, each result with the number of its round: (round number, result),
    by round, then table."""
    entries, rounds, cancelled = counted_rounds(tournament)
    return entries, [(number, result) for number, results in enumerate(rounds, start=1)
                     for result in match_results([results])], cancelled


def counted_results(
    tournament: Tournament,
) -> tuple[list[Entry], list[MatchResult], set[int]]:
    """The entries (player selected, by draw number), the results that count for the
    standings, and the ids of the entries whose results are cancelled
    (`cancelled_entries`). Results are the decided matches (`Match.DECIDED`: finished and
    forfeited) less those of a cancelled entry; ids are entry ids. Two queries."""
    entries, results, cancelled = counted_results_by_round(tournament)
    return entries, [result for _number, result in results], cancelled


@dataclass(frozen=True)
class Standings:
    """A tournament's standings: `ranked`, best first, each row with its entry; `withdrawn`,
    the entries whose results are cancelled (FIDE policy, played under half), listed apart
    by draw number and not ranked."""

    ranked: list[tuple[Entry, Standing]]
    withdrawn: list[Entry]


def standings_with_withdrawn(tournament: Tournament,
                             counted: CountedRounds | None = None) -> Standings:
    """The ranked players and, apart, the withdrawn players whose results are cancelled.
    A format whose standings go by score (`standings_by_score`: a Swiss) ranks everyone
    with `swiss_standings` (`swiss_tie_breaks`): no result is cancelled there.
    `counted`: `counted_rounds(tournament)` when the caller has it already (the standings
    page shares it with `standings_race`), else fetched here."""
    if registry.for_tournament(tournament).standings_by_score:
        return Standings(ranked=swiss_standings(tournament), withdrawn=[])
    entries, rounds, cancelled = counted or counted_rounds(tournament)
    return _ranking(tournament, entries, chain.from_iterable(rounds), cancelled)


def swiss_standings(tournament: Tournament) -> list[tuple[Entry, SwissStanding]]:
    """A Swiss's standings, best first, each row with its entry: score, then the Swiss
    tie-breaks (`swiss_tie_breaks`), from the decided matches by round, the byes (a
    `Pairing` with no `entry_b`, no match) scored as the event says (`bye_scores_win`), and
    the rounds that are over (a player not paired in one of them had an unplayed round)."""
    entries = list(tournament.entries.select_related("player").order_by("number"))
    games = [
        SwissGame(p.round_number, p.entry_a_id, p.entry_b_id, p.winner, p.game_points_a,
                  p.game_points_b, forfeit=p.status == Match.Status.FORFEITED)
        for p in played_pairings(tournament) if p.status in Match.DECIDED
    ]
    byes = list(Pairing.objects.filter(
        round__tournament=tournament, entry_b__isnull=True, match__isnull=True,
        entry_a__isnull=False,
    ).values_list("round__number", "entry_a_id"))
    unfinished_rounds = set(Pairing.objects.filter(
        round__tournament=tournament, match__isnull=False,
    ).exclude(match__status__in=Match.OVER).values_list("round__number", flat=True))
    numbers = sorted(tournament.rounds.values_list("number", flat=True))
    completed = 0
    for number in numbers:
        if number in unfinished_rounds:
            break
        completed = number
    rows = compute_swiss_standings(
        [entry.pk for entry in entries], games, byes, completed_rounds=completed,
        bye_points=1 if tournament.bye_scores_win else 0,
        lots={entry.pk: entry.lot for entry in entries if entry.lot is not None},
    )
    by_id = {entry.pk: entry for entry in entries}
    return [(by_id[row.player], row) for row in rows]


def _ranking(
    tournament: Tournament, entries: list[Entry], results: Iterable[MatchResult | tuple],
    cancelled: set[int],
) -> Standings:
    """`standings_with_withdrawn` from the output of `counted_results` (or the results of
    `counted_rounds`, plain tuples)."""
    ranked_entries = [e for e in entries if e.pk not in cancelled]
    rows = compute_standings(
        [e.pk for e in ranked_entries], results, tournament.tie_breaks,
        {e.pk: e.lot for e in ranked_entries if e.lot is not None},
    )
    by_id = {e.pk: e for e in ranked_entries}
    return Standings(
        ranked=[(by_id[row.player], row) for row in rows],
        withdrawn=[e for e in entries if e.pk in cancelled],
    )


def standings(tournament: Tournament) -> list[tuple[Entry, Standing]]:
    """The tournament's standings, best first, each with its entry (player selected). A player
    whose results are cancelled is not in them (`standings_with_withdrawn` lists them)."""
    return standings_with_withdrawn(tournament).ranked


@dataclass(frozen=True)
class GroupTable:
    """One group of a group stage: its `number` (1 is "A"), its standings (the round-robin
    tie-breaks over the group's own matches), its `size` (players drawn into it) and the
    ids of the entries that go on to the knockout (`goes_on`: the first `advance` ranked
    players who have not withdrawn)."""

    number: int
    standings: Standings
    size: int
    goes_on: frozenset[int]

    @property
    def letter(self) -> str:
        return group_letter(self.number)

    @property
    def ranked(self) -> list[tuple[Entry, Standing]]:
        return self.standings.ranked

    def qualifiers(self) -> list[Entry]:
        """The entries going on, best first."""
        return [entry for entry, _row in self.ranked if entry.pk in self.goes_on]


def group_tables(tournament: Tournament) -> list[GroupTable]:
    """The standings of each group of `tournament`'s group stage, group A first ([] before
    the groups are drawn): every group ranked like a round robin (`compute_standings`, the
    tournament's tie-breaks, its withdrawal policy) over the decided matches of the group
    stage (`Round.Stage.GROUPS`). Two queries (three as `counted_rounds`)."""
    entries = list(
        tournament.entries.filter(group__isnull=False).select_related("player").order_by("number")
    )
    _entries, rounds, cancelled = counted_rounds(tournament, Round.Stage.GROUPS, entries)
    results = match_results(rounds)
    advance = tournament.group_advance or 0
    tables = []
    for number, members in groupby(sorted(entries, key=lambda e: (e.group, e.number)),
                                   key=lambda e: e.group):
        members = list(members)
        ids = {e.pk for e in members}
        own = [r for r in results if r.player_a in ids]
        standings = _ranking(tournament, members, own, cancelled & ids)
        going = [e.pk for e, _row in standings.ranked if not e.withdrawn][:advance]
        tables.append(GroupTable(number, standings, len(members), frozenset(going)))
    return tables


def _result(match: Match) -> MatchResult:
    return MatchResult(
        match.player_a_id, match.player_b_id, match.game_points_a, match.game_points_b,
        match.winner,
        forfeit=match.status == Match.Status.FORFEITED,
    )


def season_events(season) -> QuerySet[Tournament]:
    """The club's public events dated within the season, oldest first."""
    return Tournament.objects.filter(
        club_id=season.club_id, date__range=(season.starts, season.ends), is_public=True
    ).order_by("date", "pk")


def season_results(season) -> tuple[dict[int, Player], list[MatchResult]]:
    """The ladder's input (`standings.ladder.season_ladder`): every finished or forfeited
    match of the season's events (`season_events`), as results between player ids, and those
    players by id. One query."""
    matches = Match.objects.filter(
        pairing__round__tournament__in=season_events(season), status__in=Match.DECIDED
    ).select_related("player_a", "player_b").order_by("finished_at", "pk")
    players, results = {}, []
    for match in matches:
        players[match.player_a_id], players[match.player_b_id] = match.player_a, match.player_b
        results.append(_result(match))
    return players, results


def player_pairings(player: Player, user) -> list[Pairing]:
    """The player's matches that are being played or are over, in the events `user` may see
    (public ones; private ones too for their organisers and staff), newest first. One query."""
    visible = Tournament.objects.visible_to(user)
    return list(
        Pairing.objects.filter(
            Q(entry_a__player=player) | Q(entry_b__player=player),
            round__tournament__in=visible, match__status__in=[*Match.DECIDED, Match.Status.PLAYING],
        )
        .select_related("round__tournament", "entry_a__player", "entry_b__player", "match")
        .order_by("-round__tournament__date", "-round__tournament_id", "-round__number",
                  F("match__finished_at").desc(nulls_first=True), "-match_id")
    )


@dataclass(frozen=True)
class RaceRow:
    """A player in the race of a round robin: their entry and their place after rounds
    1, 2, ... (`compute_standings` over the results of those rounds; shared places repeat)."""

    entry: Entry
    places: tuple[int, ...]


def standings_race(tournament: Tournament,
                   counted: CountedRounds | None = None) -> list[RaceRow]:
    """Each ranked player's place after every round that has a counted result, in the order of
    the current standings (`standings_with_withdrawn`: the same results, tie-breaks and lots;
    players whose results are cancelled are not in it). Round r's places rank the results of
    rounds 1..r. No counted result yet: `[]`. Two queries, none
    with `counted` (`counted_rounds(tournament)`, when the caller has it)."""
    entries, rounds, cancelled = counted or counted_rounds(tournament)
    if not rounds:
        return []
    ranked_entries = [e for e in entries if e.pk not in cancelled]
    places = places_after_each_round(
        [e.pk for e in ranked_entries], rounds, tournament.tie_breaks,
        {e.pk: e.lot for e in ranked_entries if e.lot is not None},
    )
    # After the last round every result counts: its places are the standings, and a stable
    # sort keeps the tied players in draw order as `_ranking` does.
    ranked_entries.sort(key=lambda entry: places[entry.pk][-1])
    return [RaceRow(entry, tuple(places[entry.pk])) for entry in ranked_entries]


@dataclass(frozen=True)
class CrossLine:
    """One row of a cross-table as the page shows it: `number` (from 1: the column it heads
    too), the player's `name`, their `rank` (None: not ranked yet), match wins and game points
    for and against, and the grid row (`standings.crosstable.CrossRow`)."""

    number: int
    name: str
    rank: int | None
    won: int
    game_points_for: int
    game_points_against: int
    row: CrossRow
    withdrawn: bool = False


@dataclass(frozen=True)
class CrossTable:
    """A cross-table ready to show: one `CrossLine` per player, rows and columns in standings
    order. `cycles`: meetings per pair the format plans (1, or 2 in a double round robin; 0 for
    a season, where players meet any number of times)."""

    lines: list[CrossLine]
    cycles: int

    @property
    def rows(self) -> list[CrossRow]:
        return [line.row for line in self.lines]


def tournament_cross_table(tournament: Tournament, cycles: int = 1) -> CrossTable:
    """The cross-table of a round robin: the counted results (`counted_results`: decided
    matches, less those of cancelled entries) in standings order; each cell the meetings in
    round order. `cycles`: the format's `berger_cycles`. Two queries."""
    entries, numbered, cancelled = counted_results_by_round(tournament)
    results = [result for _number, result in numbered]
    ranking = _ranking(tournament, entries, results, cancelled)
    grid = cross_table([entry.pk for entry, _row in ranking.ranked], results)
    return CrossTable([
        CrossLine(number, entry.player.name, standing.rank, standing.won,
                  standing.game_points_for, standing.game_points_against, row, entry.withdrawn)
        for number, ((entry, standing), row) in enumerate(zip(ranking.ranked, grid, strict=True),
                                                          start=1)
    ], cycles)


def season_cross_table(season) -> CrossTable:
    """The cross-table of a club season: every match the ladder counts (`season_results`), rows
    in the ladder's order (the ranked players, then those not ranked yet); each cell every
    meeting of the two in the season, oldest first. One query."""
    players, results = season_results(season)
    order = sorted(players, key=lambda pk: (players[pk].name.casefold(), pk))
    table = season_ladder(results, season.min_matches, order)
    rows = [*table.ranked, *table.unranked]
    grid = cross_table([row.player for row in rows], results)
    return CrossTable([
        CrossLine(number, players[row.player].name, row.rank, row.won, row.game_points_for,
                  row.game_points_against, cells)
        for number, (row, cells) in enumerate(zip(rows, grid, strict=True), start=1)
    ], 0)
