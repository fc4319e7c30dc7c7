"""Reads several pages share: the pairings of a round, the matches in play, the current
round, and the one definition of a match *played*."""

from collections.abc import Iterable

from django.db.models import Prefetch, Q, QuerySet

from events.models import Entry, Pairing, Round, Tournament
from scoring.models import Match


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


def played_under_half(statuses: Iterable[str]) -> bool:
    """Whether a player whose matches have these `statuses` (one `Match.Status` value per
    match of theirs; byes have no match and do not count) played under half of them: the FIDE
    withdrawal policy then cancels all their results (docs/formats.md "Round robin").

    The one definition of "played", for the withdrawal (`services.entry_withdraw`) and the
    standings (`cancelled_entries`) alike: a match is played when it was decided over the
    board (`Match.Status.FINISHED`). A forfeit is not played (no deal of it was played; that
    includes a forfeit win given by another player's withdrawal), nor is a match being
    played, not started, or closed unplayed. Half or more played: the results stand.
    """
    statuses = list(statuses)
    played = sum(1 for status in statuses if status == Match.Status.FINISHED)
    return 2 * played < len(statuses)


def next_round_number(tournament: Tournament) -> int:
    """The number the next round paired would take (1 + the last round's)."""
    last = tournament.rounds.order_by("-number").values_list("number", flat=True).first()
    return (last or 0) + 1


def matches_of_entry(entry: Entry) -> QuerySet[Pairing]:
    return Pairing.objects.filter(
        Q(entry_a=entry) | Q(entry_b=entry), match__isnull=False
    ).select_related("round", "match", "entry_a__player", "entry_b__player")


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
