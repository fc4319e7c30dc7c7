"""The round clock: an event may give each round a number of minutes
(`Tournament.round_minutes`); a round's clock runs from the moment it became the round being
played (`Round.started_at`) and ends that many minutes later. The pages draw the time left with
the screen's own clock (`static/js/round_clock.js`), from the end time they are given; nothing
is asked of the server while it runs.

When a round starts (`round_started_now`): the round being played (`selectors.current_round`)
is given its start time the first time it is seen without one, after

- the event's start (its status saved as running: the first round of every format),
- a round created (a Swiss round paired, a group stage's knockout drawn),
- a match finished (the last match of a round makes the next one the round being played).

A start time once written stays: a round paired again (a Swiss, before its first deal) is a
new round and starts again. The start is saved with the change that caused it, in its
transaction; the round's event and its matches move on to a new version (`events.versions`),
so their live pages learn of the clock.
"""

import datetime
from dataclasses import dataclass

from django.db.models.signals import post_save
from django.utils import timezone

from events import selectors, versions
from events.models import Round, Tournament
from scoring.models import Match
from scoring.signals import match_finished


@dataclass(frozen=True)
class RoundClock:
    """A round's clock: `started_at` and `ends_at` (aware datetimes), `minutes` between them."""

    started_at: datetime.datetime
    minutes: int
    ends_at: datetime.datetime

    def is_up(self, now: datetime.datetime) -> bool:
        """Whether the round's time is over at `now` (an aware datetime): from `ends_at` on."""
        return now >= self.ends_at


def clock_of(round_: Round | None, minutes: int | None) -> RoundClock | None:
    """The clock of `round_` in an event of `minutes` per round (`Tournament.round_minutes`);
    None when the event has no round clock, or the round has not started (no `started_at`)."""
    if round_ is None or not minutes or round_.started_at is None:
        return None
    return RoundClock(started_at=round_.started_at, minutes=minutes,
                      ends_at=round_.started_at + datetime.timedelta(minutes=minutes))


def round_started_now(tournament_id: int, now: datetime.datetime | None = None) -> Round | None:
    """Give the round being played of event `tournament_id` its start time `now` (default: the
    present) if it has none yet, and return it (None: no round, or it had started already).
    Runs in the caller's transaction; one UPDATE, and the versions of the event and of the
    round's matches move on at the commit."""
    tournament = Tournament(pk=tournament_id)
    round_ = selectors.current_round(tournament)
    if round_ is None or round_.started_at is not None:
        return None
    round_.started_at = now or timezone.now()
    written = Round.objects.filter(pk=round_.pk, started_at__isnull=True).update(
        started_at=round_.started_at)
    if not written:
        return None
    versions.bump(event_id=tournament_id)
    # Its match pages show the clock too: those already open are told.
    versions.bump_matches(Match.objects.filter(pairing__round=round_))
    return round_


def _event_saved(sender, instance: Tournament, created: bool = False, update_fields=None,
                 **kwargs) -> None:
    if created or instance.status != Tournament.Status.RUNNING:
        return
    if update_fields is not None and "status" not in update_fields:
        return
    round_started_now(instance.pk)


def _round_created(sender, instance: Round, created: bool = False, **kwargs) -> None:
    # A round is created before its matches: it is the round being played when every earlier
    # round is over (a Swiss round, the first round of a schedule), else an earlier one is.
    if created:
        round_started_now(instance.tournament_id)


def _match_finished(sender, match: Match, **kwargs) -> None:
    tournament_id = (Round.objects.filter(pairings__match=match)
                     .values_list("tournament_id", flat=True).first())
    if tournament_id is not None:
        round_started_now(tournament_id)


post_save.connect(_event_saved, sender=Tournament, dispatch_uid="round-clock-event")
post_save.connect(_round_created, sender=Round, dispatch_uid="round-clock-round")
match_finished.connect(_match_finished, sender=Match, dispatch_uid="round-clock-match")
