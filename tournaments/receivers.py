"""Receivers of `scoring` signals (DESIGN.md "Layering"): each hands the match to its
tournament's format (`tournaments.formats`), which makes one service call; a match outside a
tournament is ignored."""

from django.dispatch import receiver

from scoring.models import Match
from scoring.signals import match_finished, match_reopened
from tournaments import formats
from tournaments.table_entry import clear_sign_off_on_reopen


@receiver(match_finished, sender=Match)
def match_finished_received(sender, match: Match, **kwargs) -> None:
    """A knockout sends the winner on; a round robin may be finished."""
    event_format = formats.for_match(match)
    if event_format is not None:
        event_format.on_match_finished(match)


@receiver(match_reopened, sender=Match)
def match_reopened_received(sender, match: Match, confirmed: bool = False, **kwargs) -> None:
    """A knockout takes back what the match's result sent on (or asks for confirmation by
    raising `scoring.services.ConfirmationRequired`); a round robin may be running again.
    The players' signatures of the old result are cleared (`table_entry`)."""
    clear_sign_off_on_reopen(match)
    event_format = formats.for_match(match)
    if event_format is not None:
        event_format.on_match_reopened(match, confirmed=confirmed)
