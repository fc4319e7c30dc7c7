"""Reads of a club night's page: the night's pairings, where else its players are playing,
and which tables other events of the club are using tonight."""

from dataclasses import dataclass

from django.db.models import Q

from events.models import Pairing, Tournament
from scoring.models import Match


def club_night_pairings(night: Tournament) -> list[Pairing]:
    """Every pairing of the night with its players and match (one query)."""
    return list(
        Pairing.objects.filter(round__tournament=night, match__isnull=False)
        .select_related("entry_a__player", "entry_b__player", "match")
        .order_by("table", "pk")
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


@dataclass(frozen=True)
class TableElsewhere:
    """A table of the night's club that another running event of the club is using now."""

    table: int
    tournament: Tournament
    round_number: int
    players: str
    """The two players of the match there, "Иван Петров – Елена Стоянова"."""


def tables_elsewhere(night: Tournament) -> dict[int, TableElsewhere]:
    """Tables another running event of the night's club dated the night's day (a round robin
    the same evening, another club night) is using, by table number: a match not over of that
    event's running round (the earliest round with a match not over, as
    `events.selectors.current_round` says), or a match being played (deals entered) of any of
    its rounds. A table used by two events names the first found. A night of no club: {}. One
    query.

    Every running event of the club counts, whoever may see it: the table is taken either way
    (who may read its name is the caller's question). The pairing asks the organiser to
    confirm such a table (`club_nights.club_night_pair`); the form suggests a free one.
    """
    if night.club_id is None:
        return {}
    pairings = list(
        Pairing.objects.filter(
            round__tournament__club=night.club_id,
            round__tournament__status=Tournament.Status.RUNNING,
            round__tournament__date=night.date,
            match__isnull=False, table__isnull=False,
        )
        .exclude(round__tournament=night)
        .exclude(match__status__in=Match.OVER)
        .select_related("round__tournament", "entry_a__player", "entry_b__player", "match")
        .order_by("round__number", "table", "pk")
    )
    running_round: dict[int, int] = {}
    for pairing in pairings:  # by round number: an event's first is its running round
        running_round.setdefault(pairing.round.tournament_id, pairing.round.number)
    found: dict[int, TableElsewhere] = {}
    for pairing in pairings:
        event = pairing.round.tournament
        in_use = (pairing.match.status == Match.Status.PLAYING
                  or pairing.round.number == running_round[event.pk])
        if in_use and pairing.table not in found:
            found[pairing.table] = TableElsewhere(
                pairing.table, event, pairing.round.number,
                f"{pairing.entry_a.player} – {pairing.entry_b.player}",
            )
    return found
