"""Receivers of the table side: the players' signatures of a result go when the result
changes, and every record of the table but a seat taken moves its match's version on
(`events.versions`)."""

from django.db.models.signals import post_delete, post_save, pre_delete
from django.dispatch import receiver

from events.versions import bump
from scoring.models import Match
from scoring.signals import match_reopened, match_rescored
from tableside.models import MatchEvent, MatchTable
from tableside.table_entry import clear_sign_off_on_reopen, retire_link_of_deleted


@receiver(match_reopened, sender=Match)
def match_reopened_received(sender, match: Match, by=None, **kwargs) -> None:
    """A reopened match (an undo or a correction of its deciding deal, by user `by`) loses its
    players' signatures and any dispute of the old result; its history says so."""
    clear_sign_off_on_reopen(match, by=by)


@receiver(match_rescored, sender=Match)
def match_rescored_received(sender, match: Match, by=None, **kwargs) -> None:
    """A finished match corrected to another score (the same winner) loses its signatures too:
    they were for a score that is gone."""
    clear_sign_off_on_reopen(match, by=by)


@receiver(pre_delete, sender=Match, dispatch_uid="retire-link-of-deleted-match")
def match_deleted(sender, instance: Match, **kwargs) -> None:
    """A match deleted by a change upstream keeps its players' link known as removed
    (`table_entry.retire_link_of_deleted`), so a phone still on it is told why."""
    retire_link_of_deleted(instance)


SEAT_FIELDS = frozenset({"holder_a", "holder_b"})
"""Which browser holds a seat: no page draws it live."""


def _table_changed(sender, instance: MatchTable | MatchEvent, update_fields=None,
                   **kwargs) -> None:
    """A taken seat moves no version on: the other phone's page, maybe being filled in, is not
    fetched again for it (a seat the organiser freed does: the phone that held it is asked
    who it is at once, `views.players.match_page`)."""
    if update_fields is not None and set(update_fields) <= SEAT_FIELDS:
        return
    if isinstance(instance, MatchEvent) and instance.kind == MatchEvent.Kind.CLAIMED:
        return
    # The page being drawn names the match's new version (`live.pages`).
    bump(match_id=instance.match_id,
         holder=instance.match if type(instance).match.is_cached(instance) else None)


for _model in (MatchTable, MatchEvent):
    for _signal in (post_save, post_delete):
        _signal.connect(_table_changed, sender=_model,
                        dispatch_uid=f"version-{_signal is post_save}-{_model.__name__}")
