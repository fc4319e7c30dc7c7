"""Reads several pages share (STYLE.md "Where code lives"): one place decides which matches
count and how they are fetched, so no page counts a result another page would not."""

import math
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import chain, groupby
from operator import itemgetter
from typing import NamedTuple

from django.db.models import Case, F, Field, Prefetch, Q, QuerySet, Value, When

from club.models import Player
from scoring.models import Match, Seat
from tournaments import formats
from tournaments.labels import THIRD_PLACE, round_labels
from tournaments.models import (
    Entry,
    Pairing,
    PlayerRating,
    RatingHistory,
    Round,
    Tournament,
    group_letter,
)
from tournaments.pure.bracket import place_of_loser
from tournaments.pure.crosstable import CrossRow, cross_table
from tournaments.pure.glicko2 import INITIAL_RATING, Rating
from tournaments.pure.ladder import season_ladder
from tournaments.pure.ratings import PROVISIONAL_MATCHES, RatedMatch, RatingPeriod, win_chance
from tournaments.pure.standings import (
    MatchResult,
    Standing,
    compute_standings,
    places_after_each_round,
)
from tournaments.pure.swiss_standings import SwissGame, SwissStanding
from tournaments.pure.swiss_standings import swiss_standings as compute_swiss_standings


def pairings_of_round(round_: Round) -> QuerySet[Pairing]:
    """A round's pairings by table (a knockout's: top to bottom, the third-place match last)."""
    return round_.pairings.select_related(
        "entry_a__player", "entry_b__player", "match"
    ).order_by("is_third_place", "bracket_index", "table")


def matches_in_play(tournament: Tournament) -> QuerySet[Match]:
    """The tournament's matches being played right now: started (a deal entered) and not over
    (`Match.Status.PLAYING`). The standings page and PDF say how many; the one definition."""
    return Match.objects.filter(pairing__round__tournament=tournament, status=Match.Status.PLAYING)


def rounds_with_pairings(tournament: Tournament) -> QuerySet[Round]:
    pairings = Pairing.objects.select_related(
        "entry_a__player", "entry_b__player", "match"
    ).order_by("table")
    return tournament.rounds.prefetch_related(Prefetch("pairings", queryset=pairings))


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


def played_under_half(statuses: Iterable[str]) -> bool:
    """Whether a player whose matches have these `statuses` (one `Match.Status` value per
    match of theirs; byes have no match and do not count) played under half of them: the FIDE
    withdrawal policy then cancels all their results (DESIGN.md "Byes and withdrawals").

    The one definition of "played", for the withdrawal (`services.entry_withdraw`) and the
    standings (`cancelled_entries`) alike: a match is played when it was decided over the
    board (`Match.Status.FINISHED`). A forfeit is not played (no deal of it was played; that
    includes a forfeit win given by another player's withdrawal), nor is a match being
    played, not started, or closed unplayed. Half or more played: the results stand.
    """
    statuses = list(statuses)
    played = sum(1 for status in statuses if status == Match.Status.FINISHED)
    return 2 * played < len(statuses)


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
    with `swiss_standings` (`pure.swiss_standings`): no result is cancelled there.
    `counted`: `counted_rounds(tournament)` when the caller has it already (the standings
    page shares it with `standings_race`), else fetched here."""
    if formats.for_tournament(tournament).standings_by_score:
        return Standings(ranked=swiss_standings(tournament), withdrawn=[])
    entries, rounds, cancelled = counted or counted_rounds(tournament)
    return _ranking(tournament, entries, chain.from_iterable(rounds), cancelled)


def next_round_number(tournament: Tournament) -> int:
    """The number the next round paired would take (1 + the last round's)."""
    last = tournament.rounds.order_by("-number").values_list("number", flat=True).first()
    return (last or 0) + 1


def swiss_standings(tournament: Tournament) -> list[tuple[Entry, SwissStanding]]:
    """A Swiss's standings, best first, each row with its entry: score, then the Swiss
    tie-breaks (`pure.swiss_standings`), from the decided matches by round, the byes (a
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


def matches_of_entry(entry: Entry) -> QuerySet[Pairing]:
    return Pairing.objects.filter(
        Q(entry_a=entry) | Q(entry_b=entry), match__isnull=False
    ).select_related("round", "match", "entry_a__player", "entry_b__player")


# --------------------------------------------------------------------------------------------
# The knockout bracket, as the bracket page and the bracket PDF show it
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BracketSide:
    """One line of a bracket box: a seat of a pairing."""

    seat: str
    entry: Entry | None
    game_points: int | None
    """Once the match has started."""
    won: bool
    lost: bool
    bye: bool
    """A first-round bye: no player here, the other side goes through."""
    walkover: bool
    """This side went through without playing (a bye, or the opponent withdrew)."""
    place: str = ""
    """After a group stage: the group place the player went on from ("A1": winner of A)."""

    @property
    def seed(self) -> int | str | None:
        """The small mark beside the name: the seed, or after a group stage the group place."""
        if self.place:
            return self.place
        return self.entry.number if self.entry else None

    @property
    def name(self) -> str:
        return self.entry.player.name if self.entry else ""

    @property
    def withdrawn(self) -> bool:
        return bool(self.entry and self.entry.withdrawn)


@dataclass(frozen=True)
class BracketMatch:
    """One box of the bracket: a pairing, its two sides and where it stands.

    `state`: "waiting" (a player is not known yet), "scheduled", "playing", "finished",
    "forfeited", "bye" (a first-round bye) or "walkover" (the opponent withdrew)."""

    pairing: Pairing
    label: str
    sides: tuple[BracketSide, BracketSide]
    state: str

    @property
    def match(self) -> Match | None:
        return self.pairing.match

    @property
    def index(self) -> int:
        return self.pairing.bracket_index

    @property
    def winner(self) -> Entry | None:
        return next((side.entry for side in self.sides if side.won), None)

    @property
    def loser(self) -> Entry | None:
        if self.winner is None:
            return None
        return next((side.entry for side in self.sides if not side.won), None)


@dataclass(frozen=True)
class BracketColumn:
    number: int
    label: str
    matches: list[BracketMatch]


@dataclass(frozen=True)
class Bracket:
    columns: list[BracketColumn]
    third_place: BracketMatch | None
    champion: Entry | None
    runner_up: Entry | None
    third: Entry | None

    @property
    def rounds(self) -> int:
        return len(self.columns)

    @property
    def final(self) -> BracketMatch | None:
        return self.columns[-1].matches[0] if self.columns else None

    @property
    def playing(self) -> int:
        """How many matches are being played right now."""
        boxes = [box for column in self.columns for box in column.matches]
        boxes += [self.third_place] if self.third_place else []
        return sum(1 for box in boxes if box.state == "playing")


def _bracket_match(
    pairing: Pairing, label: str, first: int = 1, places: dict[int, str] | None = None
) -> BracketMatch:
    match = pairing.match
    sides = []
    for seat in (Seat.A, Seat.B):
        entry = pairing.entry(seat)
        if match is not None:
            started = match.status != Match.Status.SCHEDULED
            points = match.game_points_a if seat == Seat.A else match.game_points_b
            points = points if started else None
            won = match.winner == seat
            lost = bool(match.winner) and not won
            walkover = bye = False
        else:
            points = None
            walkover = pairing.walkover == seat and entry is not None
            won = walkover
            lost = bool(pairing.walkover) and pairing.walkover != seat and entry is not None
            bye = (pairing.walkover and pairing.walkover != seat and entry is None
                   and pairing.round.number == first)
        place = (places or {}).get(entry.pk, "") if entry else ""
        sides.append(BracketSide(seat, entry, points, won, lost, bool(bye), walkover, place))
    if match is not None:
        state = match.status
    elif pairing.walkover and pairing.round.number == first and pairing.entry_b_id is None:
        state = "bye"
    elif pairing.walkover:
        state = "walkover"
    else:
        state = "waiting"
    return BracketMatch(pairing, label, (sides[0], sides[1]), state)


def bracket(tournament: Tournament) -> Bracket:
    """The knockout bracket of `tournament`: a column per round (top to bottom), the
    third-place match, and the podium once known. One query; after a group stage, two more
    (each player's group place, `group_tables`)."""
    pairings = list(
        Pairing.objects.filter(round__tournament=tournament, bracket_index__isnull=False)
        .select_related("round", "entry_a__player", "entry_b__player", "match")
        .order_by("round__number", "is_third_place", "bracket_index")
    )
    first = min((p.round.number for p in pairings), default=1)
    count = max((p.round.number for p in pairings), default=0) - first + 1
    labels = round_labels(count) if count > 0 else {}
    places = {}
    if pairings and tournament.group_count:
        places = {
            entry.pk: f"{table.letter}{place}"
            for table in group_tables(tournament)
            for place, entry in enumerate(table.qualifiers(), start=1)
        }
    columns: dict[int, BracketColumn] = {}
    third_place = None
    for pairing in pairings:
        number = pairing.round.number
        label = labels[number - first + 1]
        if pairing.is_third_place:
            third_place = _bracket_match(pairing, str(THIRD_PLACE), first, places)
            continue
        column = columns.setdefault(number, BracketColumn(number, label, []))
        column.matches.append(_bracket_match(pairing, label, first, places))
    ordered = [columns[number] for number in sorted(columns)]
    final = ordered[-1].matches[0] if ordered else None
    return Bracket(
        columns=ordered, third_place=third_place,
        champion=final.winner if final else None,
        runner_up=final.loser if final else None,
        third=third_place.winner if third_place else None,
    )


def knockout_ranking(tournament: Tournament) -> list[tuple[int, Entry]]:
    """The knockout's players ranked by how far they went (`pure.bracket.place_of_loser`):
    the champion 1, the final's loser 2, the semifinal losers 3 (or, after a third-place
    match, its winner 3 and loser 4), the quarterfinal losers 5, ...; players still in are
    ranked by the round they are in, as if they lost it; equal places by seed. One query
    (`bracket`)."""
    drawn = bracket(tournament)
    rounds = drawn.rounds
    places: dict[int, tuple[int, Entry]] = {}
    # The knockout's own rounds, 1 the first: after a group stage its columns are numbered
    # on from the group rounds.
    for number, column in enumerate(drawn.columns, start=1):
        for box in column.matches:
            for side in box.sides:
                if side.entry is None:
                    continue
                place = place_of_loser(number, rounds)
                if number == rounds and side.won:
                    place = 1
                if side.won and number < rounds:
                    continue  # placed by a later round
                places[side.entry.pk] = (place, side.entry)
    if drawn.third_place is not None and drawn.third_place.winner is not None:
        places[drawn.third_place.loser.pk] = (4, drawn.third_place.loser)
    return sorted(places.values(), key=lambda item: (item[0], item[1].number or 0))


# --- Club nights, seasons, players (issue 7) -------------------------------------------------


def club_night_pairings(night: Tournament) -> list[Pairing]:
    """Every pairing of the night with its players and match (one query)."""
    return list(
        Pairing.objects.filter(round__tournament=night, match__isnull=False)
        .select_related("entry_a__player", "entry_b__player", "match")
        .order_by("table", "pk")
    )


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
    """The ladder's input (`tournaments.pure.ladder.season_ladder`): every finished or forfeited
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
class MatchElsewhere:
    """A player's unfinished match in another event: where they may be sitting right now."""

    player_id: int
    tournament: Tournament
    table: int | None
    round_number: int
    playing: bool
    """Deals have been entered (else the match is scheduled: the player's next one there)."""


def matches_elsewhere(night: Tournament, user) -> dict[int, MatchElsewhere]:
    """Players in an unfinished match of an event other than `night`, by player id.

    Counted: matches of other running events that `user` may see, being played (deals
    entered) whatever the event's date, or scheduled in an event dated the night's day (a
    round robin the same evening: a player's next match there). A player with several such
    matches gets the one being played, else the one of the lowest round. One query.

    The club-night pairing form names these (table and event) and pairing still goes ahead:
    the organiser may know that the other match waits (`club_nights.club_night_pair`).
    """
    pairings = (
        Pairing.objects.filter(
            round__tournament__in=Tournament.objects.visible_to(user),
            round__tournament__status=Tournament.Status.RUNNING,
            match__isnull=False,
        )
        .exclude(match__status__in=Match.OVER)
        .filter(Q(match__status=Match.Status.PLAYING) | Q(round__tournament__date=night.date))
        .exclude(round__tournament=night)
        .select_related("round__tournament", "entry_a", "entry_b", "match")
        .order_by("round__number", "pk")
    )
    found: dict[int, MatchElsewhere] = {}
    for pairing in pairings:
        playing = pairing.match.status == Match.Status.PLAYING
        for entry in (pairing.entry_a, pairing.entry_b):
            if entry is None:
                continue
            known = found.get(entry.player_id)
            if known is None or (playing and not known.playing):
                found[entry.player_id] = MatchElsewhere(
                    entry.player_id, pairing.round.tournament, pairing.table,
                    pairing.round.number, playing,
                )
    return found


# --- Ratings ---------------------------------------------------------------------------------


def rating_periods() -> list[RatingPeriod]:
    """The input of `tournaments.pure.ratings.rate_periods`: one period per public event (tournament
    or club night) with at least one rated match, oldest first (by date, then id), each with
    its finished matches by id. Forfeited matches (and walkovers, which have no match) are not
    rated; neither are private events. Player ids. One query."""
    rows = (
        Match.objects.filter(
            status=Match.Status.FINISHED, winner__in=[Seat.A, Seat.B],
            pairing__round__tournament__is_public=True,
        )
        .order_by("pairing__round__tournament__date", "pairing__round__tournament_id", "pk")
        .values_list("pairing__round__tournament_id", "player_a_id", "player_b_id", "winner")
    )
    return [
        RatingPeriod(event, tuple(RatedMatch(a, b, winner) for _event, a, b, winner in group))
        for event, group in groupby(rows, key=itemgetter(0))
    ]


# --- Pictures and the cross-table ------------------------------------------------------------


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
    for and against, and the grid row (`tournaments.pure.crosstable.CrossRow`)."""

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


def rating_points(player: Player) -> list[RatingHistory]:
    """The player's stored ratings after each event they played (`RatingHistory`, rebuilt by
    `rating_services.player_ratings_recompute`: public events only), oldest first, each with
    its tournament. One query."""
    return list(
        RatingHistory.objects.filter(player=player).select_related("tournament")
        .order_by("tournament__date", "tournament_id")
    )
def ratings_of(player_ids: Iterable[int]) -> dict[int, PlayerRating]:
    """The stored ratings (`PlayerRating`) of these players, by player id; a player never
    rated is missing. One query."""
    return {
        rating.player_id: rating
        for rating in PlayerRating.objects.filter(player_id__in=list(player_ids))
    }


def _whole(value: float) -> int:
    """`value` rounded half up, as the templates' `floatformat` shows it."""
    return math.floor(value + 0.5)


@dataclass(frozen=True)
class RatingStep:
    """A player's rating after one event they played: `rating` and `deviation` in rating
    points; `change` since the event before (since the newcomer's 1500 for the first), in
    whole rating points, the difference of the two ratings as shown (rounded)."""

    tournament: Tournament
    rating: float
    deviation: float
    change: int


@dataclass(frozen=True)
class PlayerRatingRecord:
    """A player's stored rating (None: never rated) and their rating after each event they
    played, newest first."""

    rating: PlayerRating | None
    steps: list[RatingStep]
    provisional_matches: int = PROVISIONAL_MATCHES
    """Rated matches needed for an established rating (`tournaments.pure.ratings`)."""

    @property
    def margin(self) -> float:
        """Two deviations, in rating points: the true strength lies within the rating ± this
        with about 95 % probability."""
        return 2 * self.rating.deviation

    @property
    def low(self) -> float:
        return self.rating.rating - self.margin

    @property
    def high(self) -> float:
        return self.rating.rating + self.margin


def player_rating(player: Player) -> PlayerRatingRecord:
    """`player`'s rating and its history (`RatingHistory`, in the order the ratings were
    computed: by event date, then id). Ratings come from public events only, so anyone may
    see them. Two queries."""
    rating = PlayerRating.objects.filter(player=player).first()
    steps, before = [], INITIAL_RATING
    for point in RatingHistory.objects.filter(player=player).select_related("tournament"):
        steps.append(RatingStep(point.tournament, point.rating, point.deviation,
                                _whole(point.rating) - _whole(before)))
        before = point.rating
    return PlayerRatingRecord(rating, steps[::-1])


@dataclass(frozen=True)
class MatchChances:
    """Each seat's expected chance to win, in whole percent (`a` + `b` = 100); `provisional`:
    at least one of the two ratings is provisional."""

    a: int
    b: int
    provisional: bool


def match_chances(match: Match) -> MatchChances | None:
    """Before `match` is over, each player's chance to win it from the stored ratings
    (`tournaments.pure.ratings.win_chance`); None once it is over or if either player has no
    rating yet. One query."""
    if match.is_over:
        return None
    ratings = ratings_of([match.player_a_id, match.player_b_id])
    if len(ratings) < 2:
        return None
    rating_a, rating_b = ratings[match.player_a_id], ratings[match.player_b_id]
    chance = win_chance(Rating(rating_a.rating, rating_a.deviation),
                        Rating(rating_b.rating, rating_b.deviation))
    a = _whole(100 * chance)
    return MatchChances(a, 100 - a, rating_a.provisional or rating_b.provisional)


def current_round(tournament: Tournament) -> Round | None:
    """The round being played: the earliest round with a match not over, or, when every
    match is over, the last round; None before the start. Two queries at most. The projector
    and the organiser's control room show it."""
    first_open = (
        Match.objects.filter(pairing__round__tournament=tournament)
        .exclude(status__in=Match.OVER).order_by("pairing__round__number")
        .values_list("pairing__round", flat=True).first()
    )
    return (Round.objects.filter(pk=first_open).first() if first_open
            else tournament.rounds.order_by("-number").first())


def projector_pairings(tournament: Tournament, *, in_play_only: bool
                       ) -> tuple[Round | None, list[Pairing]]:
    """What the projector's "now playing" slide shows: the `current_round` and its pairings
    by table; `in_play_only` (a club night: one round all evening) keeps only the matches not
    over. Three queries at most; (None, []) before the start."""
    round_ = current_round(tournament)
    if round_ is None:
        return None, []
    pairings = list(pairings_of_round(round_))
    if in_play_only:
        pairings = [p for p in pairings if p.match and not p.match.is_over]
    return round_, pairings
