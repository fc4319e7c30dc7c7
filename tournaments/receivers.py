"""Receivers of `scoring` signals (DESIGN.md "Layering"): each makes one service call, chosen
by the format of the match's tournament (none for a match outside a tournament)."""

from django.dispatch import receiver

from scoring.models import Match
from scoring.signals import match_finished, match_reopened
from tournaments import knockout, selectors, services
from tournaments.models import Tournament


@receiver(match_finished, sender=Match)
def match_finished_received(sender, match: Match, **kwargs) -> None:
    """A knockout sends the winner on; a round robin may be finished."""
    if selectors.format_of_match(match) == Tournament.Format.KNOCKOUT:
        knockout.knockout_advance(match=match)
    else:
        services.tournament_refresh_status(match=match)


@receiver(match_reopened, sender=Match)
def match_reopened_received(sender, match: Match, confirmed: bool = False, **kwargs) -> None:
    """A knockout takes back what the match's result sent on (or asks for confirmation by
    raising `scoring.services.ConfirmationRequired`); a round robin may be running again."""
    if selectors.format_of_match(match) == Tournament.Format.KNOCKOUT:
        knockout.knockout_retract(match=match, confirmed=confirmed)
    else:
        services.tournament_refresh_status(match=match)
