"""The versions the live pages follow: `Tournament.version` (everything an event's pages show)
and `Match.version` (everything a match's pages show), each moved on by one right after the
transaction of the change commits, so a reader who sees the new version sees the change too.

A save or a deletion of a deal, a match or a pairing moves its match's version on and its
event's; of a round, its event's; of the event itself or of an entry (a withdrawal), the
event's and every one of its matches' (their pages show the event's name, house rules, entry
mode and withdrawals); of a player (a new name), every unfinished match of theirs and its
event. The table side adds its own records (`tableside.receivers`), the ratings their
recomputation (`ratings.services`: the chances on the unfinished matches' pages). Bulk writes
send no signal: the services that use them save the event, the round or the match as well.

Why after the commit and not inside the change's transaction: moving an event's version on
inside every deal's transaction would hold its row locked until the deal commits, so the deals
of every table of the event would wait for each other, and a correction (which locks the
event, then its matches) would deadlock with a deal (which locks its match, then the event's
version) on PostgreSQL. After the commit a bump holds nothing else, waits for nobody, and a
reader still never sees a version before its change. The bumps a transaction asks for are
gathered and made once each when it commits (one UPDATE per table, in a short transaction of
their own); a transaction that rolls back leaves them to the next commit of the same thread,
which moves them on once more than needed — a page fetches its part once for nothing, never
misses one. A process that dies between the commit and the bump leaves the pages behind until
the next change or the next time they connect.

On PostgreSQL each bump also sends `NOTIFY santase_live` (to every web node), which wakes the
live pages' watcher (`live.watcher`); on SQLite the watcher reads the versions it follows a
few times a second instead.
"""

import logging
import threading

from django.db import connection, transaction
from django.db.models import F, Q
from django.db.models.signals import post_delete, post_save

from club.models import Player
from events.models import Entry, Pairing, Round, Tournament
from scoring.models import Deal, Match

logger = logging.getLogger(__name__)

CHANNEL = "santase_live"
"""The PostgreSQL notification channel of version changes (its payload is empty)."""


class _Pending(threading.local):
    """The bumps asked for by this thread's transaction and not made yet: events by id,
    matches by id (each with the instances to be told its new version) and the matches whose
    events move on too. (Each thread has its own database connection and transaction.)"""

    def __init__(self) -> None:
        self.events: set[int] = set()
        self.matches: dict[int, list] = {}
        self.events_of_matches: set[int] = set()

    def add(self, *, event_id: int | None, match_id: int | None, holder=None) -> None:
        if event_id is not None:
            self.events.add(event_id)
        if match_id is not None:
            holders = self.matches.setdefault(match_id, [])
            if holder is not None:
                holders.append(holder)
            if event_id is None:
                self.events_of_matches.add(match_id)

    def take(self) -> tuple[set[int], dict[int, list], set[int]]:
        taken = self.events, self.matches, self.events_of_matches
        self.__init__()
        return taken


_pending = _Pending()


def _flush() -> None:
    """Make every bump this thread asked for (after its transaction committed)."""
    events, matches, events_of_matches = _pending.take()
    if not (events or matches):
        return
    with transaction.atomic():
        if matches:
            table = connection.ops.quote_name(Match._meta.db_table)
            ids = sorted(matches)
            with connection.cursor() as cursor:
                cursor.execute(
                    f"UPDATE {table} SET version = version + 1 WHERE id IN "
                    f"({', '.join(['%s'] * len(ids))}) RETURNING id, version", ids)
                for match_id, version in cursor.fetchall():
                    for holder in matches[match_id]:
                        holder.version = version
        if events or events_of_matches:
            Tournament.objects.filter(
                Q(pk__in=events) | Q(rounds__pairings__match_id__in=events_of_matches)
            ).update(version=F("version") + 1)
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute(f"NOTIFY {CHANNEL}")


def bump(*, event_id: int | None = None, match_id: int | None = None, holder=None) -> None:
    """Move on the version of event `event_id` and of match `match_id` (ids; either may be
    None), and of the event `match_id` is played in, once the current transaction commits (at
    once outside any). `holder`: an object whose `version` is then set to the match's new one
    (the match instance a view is about to draw). A row that is gone by then is skipped; a
    bump that fails is logged, never raised (the change itself is saved)."""
    _pending.add(event_id=event_id, match_id=match_id, holder=holder)
    transaction.on_commit(_flush, robust=True)


def bump_matches(matches) -> None:
    """Move on the versions of `matches` (a `Match` queryset) and of their events, once the
    current transaction commits."""
    for match_id in matches.values_list("pk", flat=True):
        _pending.add(event_id=None, match_id=match_id)
    transaction.on_commit(_flush, robust=True)


# A row just created is on no page yet (a new event, a new player) or changes none of the
# matches' pages (a new entry): `created` spares the queries for them.

def _event_saved(sender, instance: Tournament, created: bool = False, **kwargs) -> None:
    if created:
        return
    bump(event_id=instance.pk)
    bump_matches(Match.objects.filter(pairing__round__tournament_id=instance.pk))


def _entry_saved(sender, instance: Entry, created: bool = False, **kwargs) -> None:
    bump(event_id=instance.tournament_id)
    if not created:
        bump_matches(Match.objects.filter(
            pairing__round__tournament_id=instance.tournament_id))


def _round_saved(sender, instance: Round, **kwargs) -> None:
    bump(event_id=instance.tournament_id)


def _player_saved(sender, instance: Player, created: bool = False, **kwargs) -> None:
    if created:
        return
    bump_matches(Match.objects.filter(
        Q(player_a_id=instance.pk) | Q(player_b_id=instance.pk)).exclude(status__in=Match.OVER))


def _pairing_saved(sender, instance: Pairing, **kwargs) -> None:
    event_id = Round.objects.filter(pk=instance.round_id).values_list(
        "tournament_id", flat=True).first()
    bump(event_id=event_id, match_id=instance.match_id)


# A saved match or deal also carries its match's new version (the instance a view holds),
# which the view's answer names (`live.pages`): its own page need not fetch its own change.

def _match_saved(sender, instance: Match, **kwargs) -> None:
    bump(match_id=instance.pk, holder=instance)


def _deal_saved(sender, instance: Deal, **kwargs) -> None:
    bump(match_id=instance.match_id,
         holder=instance.match if Deal.match.is_cached(instance) else None)


for _model, _receiver in ((Tournament, _event_saved), (Entry, _entry_saved),
                          (Round, _round_saved), (Pairing, _pairing_saved),
                          (Match, _match_saved), (Deal, _deal_saved), (Player, _player_saved)):
    for _signal in (post_save, post_delete):
        _signal.connect(_receiver, sender=_model,
                        dispatch_uid=f"version-{_signal is post_save}-{_model.__name__}")


def forget_pending() -> None:
    """Drop the bumps this thread asked for and has not made: its transaction was rolled
    back. (Between tests, whose transactions never commit; a site's next commit would make
    them once more than needed, which does no harm.)"""
    _pending.take()
