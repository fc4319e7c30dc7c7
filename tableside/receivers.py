"""The players' signatures of a result go when the result changes."""

from django.dispatch import receiver

from scoring.models import Match
from scoring.signals import match_reopened
from tableside.table_entry import clear_sign_off_on_reopen


@receiver(match_reopened, sender=Match)
def match_reopened_received(sender, match: Match, **kwargs) -> None:
    """A reopened match (an undo or a correction of its deciding deal) loses its players'
    signatures and any dispute of the old result."""
    clear_sign_off_on_reopen(match)
