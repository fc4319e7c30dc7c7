"""Reads several pages share (STYLE.md "Where code lives"): one place decides which matches
count and how they are fetched, so no page counts a result another page would not."""

from django.db.models import F, Prefetch, Q, QuerySet

from club.models import Player
from scoring.models import Match
from tournaments.models import Entry, Pairing, Round, Tournament
from tournaments.standings import MatchResult, Standing, compute_standings


def pairings_of_round(round_: Round) -> QuerySet[Pairing]:
    return round_.pairings.select_related(
        "entry_a__player", "entry_b__player", "match"
    ).order_by("table")


def rounds_with_pairings(tournament: Tournament) -> QuerySet[Round]:
    pairings = Pairing.objects.select_related(
        "entry_a__player", "entry_b__player", "match"
    ).order_by("table")
    return tournament.rounds.prefetch_related(Prefetch("pairings", queryset=pairings))


def cancelled_entries(tournament: Tournament, pairings: list[Pairing]) -> set[int]:
    """Entries whose results are all cancelled: withdrawn under the FIDE policy having played
    under half of their matches (DESIGN.md "Byes and withdrawals")."""
    if tournament.withdrawal_policy != Tournament.WithdrawalPolicy.FIDE:
        return set()
    cancelled = set()
    withdrawn = {e.pk for e in tournament.entries.all() if e.withdrawn}
    for entry_id in withdrawn:
        own = [p for p in pairings if p.match and entry_id in (p.entry_a_id, p.entry_b_id)]
        over = [p for p in own if p.match.status in (Match.Status.FINISHED,)]
        if 2 * len(over) < len(own):
            cancelled.add(entry_id)
    return cancelled


def counted_results(tournament: Tournament) -> tuple[list[Entry], list[MatchResult]]:
    """The entries, and the results that count for the standings: finished and forfeited
    matches, less those of an entry whose results are cancelled. Ids are entry ids."""
    entries = list(tournament.entries.select_related("player").order_by("number"))
    pairings = list(
        Pairing.objects.filter(round__tournament=tournament, match__isnull=False)
        .select_related("match")
        .only("entry_a_id", "entry_b_id", "match__status", "match__points_a",
              "match__points_b", "match__winner")
    )
    cancelled = cancelled_entries(tournament, pairings)
    results = [
        MatchResult(
            p.entry_a_id, p.entry_b_id, p.match.points_a, p.match.points_b, p.match.winner,
            forfeit=p.match.status == Match.Status.FORFEITED,
        )
        for p in pairings
        if p.match.is_over and not cancelled & {p.entry_a_id, p.entry_b_id}
    ]
    return entries, results


def standings(tournament: Tournament) -> list[tuple[Entry, Standing]]:
    """The tournament's standings, best first, each with its entry (player selected)."""
    entries, results = counted_results(tournament)
    rows = compute_standings(
        [e.pk for e in entries], results, tournament.tie_breaks,
        {e.pk: e.lot for e in entries if e.lot is not None},
    )
    by_id = {e.pk: e for e in entries}
    return [(by_id[row.player], row) for row in rows]


def matches_of_entry(entry: Entry) -> QuerySet[Pairing]:
    return Pairing.objects.filter(
        Q(entry_a=entry) | Q(entry_b=entry), match__isnull=False
    ).select_related("round", "match", "entry_a__player", "entry_b__player")


# --- Club nights, seasons, players (issue 7) -------------------------------------------------

OVER = (Match.Status.FINISHED, Match.Status.FORFEITED)


def club_night_pairings(night: Tournament) -> list[Pairing]:
    """Every pairing of the night with its players and match (one query)."""
    return list(
        Pairing.objects.filter(round__tournament=night, match__isnull=False)
        .select_related("entry_a__player", "entry_b__player", "match")
        .order_by("table", "pk")
    )


def _result(match: Match) -> MatchResult:
    return MatchResult(
        match.player_a_id, match.player_b_id, match.points_a, match.points_b, match.winner,
        forfeit=match.status == Match.Status.FORFEITED,
    )


def season_events(season) -> QuerySet[Tournament]:
    """The club's public events dated within the season, oldest first."""
    return Tournament.objects.filter(
        club_id=season.club_id, date__range=(season.starts, season.ends), is_public=True
    ).order_by("date", "pk")


def season_results(season) -> tuple[dict[int, Player], list[MatchResult]]:
    """The ladder's input (`tournaments.ladder.season_ladder`): every finished or forfeited
    match of the season's events (`season_events`), as results between player ids, and those
    players by id. One query."""
    matches = Match.objects.filter(
        pairing__round__tournament__in=season_events(season), status__in=OVER
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
            round__tournament__in=visible, match__status__in=[*OVER, Match.Status.PLAYING],
        )
        .select_related("round__tournament", "entry_a__player", "entry_b__player", "match")
        .order_by("-round__tournament__date", "-round__tournament_id", "-round__number",
                  F("match__finished_at").desc(nulls_first=True), "-match_id")
    )
