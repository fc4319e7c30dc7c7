"""The versions the live pages follow: `Tournament.version` (everything an event's pages show)
and `Match.version` (everything a match's pages show), each moved on by one in the same
transaction as the change, so a reader who sees the new version sees the change too.

A save or a deletion of a deal, a match or a pairing moves its match's version on and its
event's; of a round, its event's; of the event itself or of an entry (a withdrawal), the
event's and every one of its matches' (their pages show the event's name, house rules, entry
mode and withdrawals); of a player (a new name), every unfinished match of theirs and its
event. The table side adds its own records (`tableside.receivers`), the ratings their
recomputation (`ratings.services`: the chances on the unfinished matches' pages). Bulk writes
send no signal: the services that use them save the event, the round or the match as well.

On PostgreSQL each bump also sends `NOTIFY santase_live` (delivered when the transaction
commits, to every web node), which wakes the live pages' watcher (`live.watcher`); on SQLite
the watcher reads the versions it follows a few times a second instead.

A service that saves many rows in one transaction (starting an event, pairing a round) runs
inside `batched()`: its bumps are gathered and made once each when the block ends, still
inside the transaction — a reader sees the change and the new version together either way.
"""

import contextlib
from contextvars import ContextVar

from django.db import connection
from django.db.models import F, Q
from django.db.models.signals import post_delete, post_save

from club.models import Player
from events.models import Entry, Pairing, Round, Tournament
from scoring.models import Deal, Match

CHANNEL = "santase_live"
"""The PostgreSQL notification channel of version changes (its payload is empty)."""


class _Batch:
    """The bumps asked for inside `batched()`: events by id, matches by id (each with the
    instances to be told its new version) and the matches whose events move on too."""

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

    def flush(self) -> None:
        if self.matches:
            table = connection.ops.quote_name(Match._meta.db_table)
            ids = list(self.matches)
            with connection.cursor() as cursor:
                cursor.execute(
                    f"UPDATE {table} SET version = version + 1 WHERE id IN "
                    f"({', '.join(['%s'] * len(ids))}) RETURNING id, version", ids)
                for match_id, version in cursor.fetchall():
                    for holder in self.matches[match_id]:
                        holder.version = version
        if self.events or self.events_of_matches:
            Tournament.objects.filter(
                Q(pk__in=self.events) | Q(rounds__pairings__match_id__in=self.events_of_matches)
            ).update(version=F("version") + 1)
        if (self.matches or self.events) and connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute(f"NOTIFY {CHANNEL}")


_batch: ContextVar[_Batch | None] = ContextVar("version_batch", default=None)


@contextlib.contextmanager
def batched():
    """Inside the block (itself inside a service's transaction), every bump is gathered and
    made once when the block ends: each event and match moves on by one, however many of
    its rows were saved, in one UPDATE per table. Nested blocks leave it to the outermost.
    When the block raises, nothing is bumped (its transaction rolls back)."""
    if _batch.get() is not None:
        yield
        return
    batch = _Batch()
    token = _batch.set(batch)
    try:
        yield
    finally:
        _batch.reset(token)
    batch.flush()


def bump(*, event_id: int | None = None, match_id: int | None = None,
         holder=None) -> int | None:
    """Move on the version of event `event_id` and of match `match_id` (ids; either may be
    None), and of the event `match_id` is played in. Two short UPDATEs by primary key (three
    with both ids), plus a notification on PostgreSQL. A row that is gone is skipped. Returns
    the match's new version (None without a match, or when it is gone, or inside
    `batched()`, which sets `holder.version` when it bumps)."""
    batch = _batch.get()
    if batch is not None:
        batch.add(event_id=event_id, match_id=match_id, holder=holder)
        return None
    version = None
    if match_id is not None:
        table = connection.ops.quote_name(Match._meta.db_table)
        with connection.cursor() as cursor:
            cursor.execute(f"UPDATE {table} SET version = version + 1 WHERE id = %s "
                           "RETURNING version", [match_id])
            row = cursor.fetchone()
        version = row[0] if row else None
        if event_id is None:
            Tournament.objects.filter(rounds__pairings__match_id=match_id).update(
                version=F("version") + 1)
    if event_id is not None:
        Tournament.objects.filter(pk=event_id).update(version=F("version") + 1)
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(f"NOTIFY {CHANNEL}")
    return version


def bump_matches(matches) -> None:
    """Move on the versions of `matches` (a `Match` queryset) and of their events."""
    ids = list(matches.values_list("pk", flat=True))
    if not ids:
        return
    batch = _batch.get()
    if batch is not None:
        for match_id in ids:
            batch.add(event_id=None, match_id=match_id)
        return
    Match.objects.filter(pk__in=ids).update(version=F("version") + 1)
    Tournament.objects.filter(rounds__pairings__match_id__in=ids).update(
        version=F("version") + 1)
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(f"NOTIFY {CHANNEL}")


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
    version = bump(match_id=instance.pk, holder=instance)
    if version is not None:
        instance.version = version


def _deal_saved(sender, instance: Deal, **kwargs) -> None:
    held = instance.match if Deal.match.is_cached(instance) else None
    version = bump(match_id=instance.match_id, holder=held)
    if version is not None and held is not None:
        held.version = version


for _model, _receiver in ((Tournament, _event_saved), (Entry, _entry_saved),
                          (Round, _round_saved), (Pairing, _pairing_saved),
                          (Match, _match_saved), (Deal, _deal_saved), (Player, _player_saved)):
    for _signal in (post_save, post_delete):
        _signal.connect(_receiver, sender=_model,
                        dispatch_uid=f"version-{_signal is post_save}-{_model.__name__}")
