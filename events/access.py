"""Who may see and change what: one place for every view's access check.

Readers: anyone for a public tournament; organisers and staff also for a private one. Writers:
the tournament's organisers and staff. Unknown or invisible objects are 404; visible but not
yours is 403.
"""

from django.core.exceptions import PermissionDenied
from django.db.models import BooleanField, QuerySet
from django.db.models.expressions import RawSQL
from django.http import Http404
from django.shortcuts import get_object_or_404

from club.models import Club
from core.access import sees_everything
from events.models import Pairing, Round, Tournament
from scoring import services
from scoring.models import Match


def can_organise(user, tournament: Tournament) -> bool:
    if not user.is_authenticated:
        return False
    if sees_everything(user):
        return True
    organisers = Tournament.organisers.through.objects
    return organisers.filter(tournament_id=tournament.pk, user_id=user.pk).exists()


def can_organise_club(user, club: Club) -> bool:
    """Whether `user` organises `club` (one of its organisers) or is staff: who may start a
    build of a club season's PDF."""
    if not user.is_authenticated:
        return False
    return sees_everything(user) or club.organisers.filter(pk=user.pk).exists()


def tournament_for_reading(request, pk: int) -> Tournament:
    return get_object_or_404(Tournament.objects.visible_to(request.user), pk=pk)


def tournament_for_organiser(request, pk: int) -> Tournament:
    tournament = tournament_for_reading(request, pk)
    if not can_organise(request.user, tournament):
        raise PermissionDenied
    return tournament


# What the match page and its write views read: the whole match, the players' names, and of the
# pairing, round and tournament only what the page shows (not the tournament's house rules, nor
# the players' contact details).
_MATCH_PAGE_FIELDS = (
    "table", "round__number", "round__started_at", "round__tournament__name",
    "round__tournament__format", "round__tournament__announcement",
    "round__tournament__announced_at", "round__tournament__round_minutes",
    "round__tournament__is_public", "round__tournament__entry_mode",
    "round__tournament__records",
    "match__player_a__name", "match__player_b__name",
    *(f"match__{field.name}" for field in Match._meta.concrete_fields),
)


def pairing_for_reading(request, match_pk: int) -> Pairing:
    """The pairing of a visible tournament's match, with its round, tournament and match (and
    the match's players' names), in one query. `pairing.organiser` says whether `request.user`
    may change it (one more query for a signed-in user who is not staff). Raises Http404 for an
    unknown match or one the user may not see."""
    pairings = Pairing.objects.select_related(
        "round__tournament", "match__player_a", "match__player_b"
    ).only(*_MATCH_PAGE_FIELDS).order_by()
    pairing = get_object_or_404(pairings, match_id=match_pk)
    tournament = pairing.round.tournament
    pairing.organiser = can_organise(request.user, tournament)
    if not (tournament.is_public or pairing.organiser):
        raise Http404
    return pairing


def pairing_for_organiser(request, match_pk: int) -> Pairing:
    """As `pairing_for_reading`; raises PermissionDenied unless the user may change it."""
    pairing = pairing_for_reading(request, match_pk)
    if not pairing.organiser:
        raise PermissionDenied
    return pairing


def _organises(user_pk: int) -> RawSQL:
    """Whether the user `user_pk` organises the tournament of the match's round, as a column
    of a query that joins the round (`select_related("pairing__round")`). Written out: Django's
    `Exists(...OuterRef...)` builds a whole second query each time, about as much CPU as the
    rest of the deal's locked read."""
    organisers = Tournament.organisers.through._meta.db_table
    rounds = Round._meta.db_table
    return RawSQL(
        f'EXISTS (SELECT 1 FROM "{organisers}" WHERE "{organisers}"."tournament_id" = '
        f'"{rounds}"."tournament_id" AND "{organisers}"."user_id" = %s)',
        (user_pk,), output_field=BooleanField(),
    )


def _locked_read(match_pk: int) -> QuerySet[Match]:
    """The match `match_pk` with its players and its pairing's round and tournament."""
    return Match.objects.select_related(
        "player_a", "player_b", "pairing__round__tournament"
    ).filter(pk=match_pk)


def pairing_for_organiser_locked(request, match_pk: int) -> Pairing:
    """As `pairing_for_organiser`, inside the caller's transaction, with the match row locked
    until it ends (`scoring.services.match_locked`): the match, its pairing, round,
    tournament and players' names and whether `request.user` organises it, in one query.
    Raises Http404 (an unknown match, one without a pairing, or one the user may not see) and
    PermissionDenied (visible, but not the user's to change)."""
    user = request.user
    if user.is_authenticated and not sees_everything(user):
        matches = _locked_read(match_pk).annotate(organiser=_organises(user.pk))
    else:
        matches = _locked_read(match_pk)
    match = services.match_locked(matches)
    pairing = getattr(match, "pairing", None) if match is not None else None
    if pairing is None:
        raise Http404
    pairing.match = match
    pairing.organiser = user.is_authenticated and getattr(match, "organiser", True)
    if not (pairing.round.tournament.is_public or pairing.organiser):
        raise Http404
    if not pairing.organiser:
        raise PermissionDenied
    return pairing


def removed_match(request, match_pk: int) -> tuple[Tournament, str] | None:
    """For a match `request.user` may organise that has been deleted since (a knockout
    correction upstream, or a withdrawal before it started, removed it; its history keeps the
    row): its tournament and the change reason the deletion recorded. None for a match that
    exists, never existed, or is not the user's (the caller answers 404, as for any unknown
    match). The deleted row does not name its tournament: it is the newest event of the
    user's that entered both its players."""
    if Match.objects.filter(pk=match_pk).exists():
        return None
    deleted = Match.history.filter(id=match_pk, history_type="-").order_by("-history_id").first()
    if deleted is None:
        return None
    events = (
        Tournament.objects.filter(entries__player_id=deleted.player_a_id)
        .filter(entries__player_id=deleted.player_b_id, created_at__lte=deleted.history_date)
        .order_by("-created_at", "-pk")
    )
    event = next((event for event in events if can_organise(request.user, event)), None)
    return (event, deleted.history_change_reason or "") if event else None
