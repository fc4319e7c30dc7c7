"""Who may see and change what: one place for every view's access check.

Readers: anyone for a public tournament; organisers and staff also for a private one. Writers:
the tournament's organisers and staff. Unknown or invisible objects are 404; visible but not
yours is 403.
"""

from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404

from tournaments.models import Pairing, Tournament


def can_organise(user, tournament: Tournament) -> bool:
    if not user.is_authenticated:
        return False
    return user.is_staff or tournament.organisers.filter(pk=user.pk).exists()


def tournament_for_reading(request, pk: int) -> Tournament:
    return get_object_or_404(Tournament.objects.visible_to(request.user), pk=pk)


def tournament_for_organiser(request, pk: int) -> Tournament:
    tournament = tournament_for_reading(request, pk)
    if not can_organise(request.user, tournament):
        raise PermissionDenied
    return tournament


def pairing_for_reading(request, match_pk: int) -> Pairing:
    """The pairing (with its round and tournament) of a visible tournament's match."""
    visible = Tournament.objects.visible_to(request.user)
    return get_object_or_404(
        Pairing.objects.select_related(
            "round__tournament", "entry_a__player", "entry_b__player", "match"
        ).filter(round__tournament__in=visible),
        match_id=match_pk,
    )


def pairing_for_organiser(request, match_pk: int) -> Pairing:
    pairing = pairing_for_reading(request, match_pk)
    if not can_organise(request.user, pairing.round.tournament):
        raise PermissionDenied
    return pairing
