"""Ratings follow the events' results: recomputed once a transaction that finished an event,
or changed a finished event's result, commits."""

from django.dispatch import receiver

from events.models import Tournament
from events.signals import results_changed
from ratings.services import ratings_recompute_on_commit


@receiver(results_changed, sender=Tournament)
def results_changed_received(sender, tournament: Tournament, **kwargs) -> None:
    ratings_recompute_on_commit()
