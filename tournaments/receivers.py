"""Receivers of `scoring` signals (DESIGN.md "Layering"): each makes one service call."""

from django.dispatch import receiver

from scoring.models import Match
from scoring.signals import match_finished, match_reopened
from tournaments import services


@receiver(match_finished, sender=Match)
def close_finished_tournament(sender, match: Match, **kwargs) -> None:
    services.tournament_refresh_status(match=match)


@receiver(match_reopened, sender=Match)
def reopen_tournament(sender, match: Match, **kwargs) -> None:
    services.tournament_refresh_status(match=match)
