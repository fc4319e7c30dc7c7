"""A player entered in an event (or taken out of one) moves their pass's version on, so an
open pass page shows the new event at once (its stream follows the pass and the events it
shows: `passes.selectors.followed_events`)."""

from django.db.models.signals import post_delete, post_save

from events.models import Entry
from passes.models import PlayerPass
from passes.services import bump_pass


def _entry_changed(sender, instance: Entry, **kwargs) -> None:
    pk = PlayerPass.objects.filter(player_id=instance.player_id).values_list(
        "pk", flat=True).first()
    if pk is not None:
        bump_pass(pk)


for _signal in (post_save, post_delete):
    _signal.connect(_entry_changed, sender=Entry,
                    dispatch_uid=f"pass-entry-{_signal is post_save}")
