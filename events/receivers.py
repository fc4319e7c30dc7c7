"""Receivers of `scoring` signals: each hands the match to its event's format
(`events.registry`), which makes one service call; a match outside an event is ignored."""

from django.dispatch import receiver

from events import registry
from scoring.models import Match
from scoring.signals import match_finished, match_reopened


@receiver(match_finished, sender=Match)
def match_finished_received(sender, match: Match, **kwargs) -> None:
    """A knockout sends the winner on; a round robin may be finished."""
    event_format = registry.for_match(match)
    if event_format is not None:
        event_format.on_match_finished(match)


@receiver(match_reopened, sender=Match)
def match_reopened_received(sender, match: Match, confirmed: bool = False, **kwargs) -> None:
    """A knockout takes back what the match's result sent on (or asks for confirmation by
    raising `scoring.services.ConfirmationRequired`); a round robin may be running again."""
    event_format = registry.for_match(match)
    if event_format is not None:
        event_format.on_match_reopened(match, confirmed=confirmed)
