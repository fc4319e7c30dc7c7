"""Who may see and change what: one place for every view's access check.

Readers: anyone for a public tournament; organisers and staff also for a private one. Writers:
the tournament's organisers and staff. Unknown or invisible objects are 404; visible but not
yours is 403.
"""

from django.core.exceptions import PermissionDenied
from django.db.models import Exists, OuterRef
from django.http import Http404
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
    """The pairing of a visible tournament's match, with its round, tournament and match (and
    the match's players), in one query. `pairing.organiser` says whether `request.user` may
    change it. Raises Http404 for an unknown match or one the user may not see."""
    user = request.user
    pairings = Pairing.objects.select_related(
        "round__tournament", "match__player_a", "match__player_b"
    ).order_by()
    if user.is_authenticated and not user.is_staff:
        organisers = Tournament.organisers.through.objects.filter(
            tournament_id=OuterRef("round__tournament_id"), user_id=user.pk
        )
        pairings = pairings.annotate(organiser=Exists(organisers))
    pairing = get_object_or_404(pairings, match_id=match_pk)
    if not user.is_authenticated or user.is_staff:
        pairing.organiser = user.is_staff
    if not (pairing.round.tournament.is_public or pairing.organiser):
        raise Http404
    return pairing


def pairing_for_organiser(request, match_pk: int) -> Pairing:
    """As `pairing_for_reading`; raises PermissionDenied unless the user may change it."""
    pairing = pairing_for_reading(request, match_pk)
    if not pairing.organiser:
        raise PermissionDenied
    return pairing
