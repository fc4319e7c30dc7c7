"""Offline entry (docs/architecture.md "Offline entry"): `matches:deal_sync`, a deal the
organiser's phone kept while offline, answered in JSON (`tableside.offline_sync`). The service
worker and the web app manifest are the core app's (`core/views.py`)."""

from django.core.exceptions import PermissionDenied
from django.http import Http404, JsonResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from events.access import pairing_for_organiser, removed_match
from formats.knockout import services as knockout
from scoring import rules, services
from scoring.errors import RecordingError
from scoring.forms import DealQuickForm
from tableside import offline_sync


@require_POST
def deal_sync(request, match_pk: int):
    """A deal the organiser's phone kept offline (the quick form's fields), recorded by
    `scoring.services.deal_record` under its deal number: JSON (`tableside.offline_sync`).
    Anyone who may not change the match: 403 or 404 as JSON, nothing written; a match of
    theirs deleted since by a change upstream: 409 with the match page's sentence
    (`events.access.removed_match`)."""
    if not request.user.is_authenticated:
        return offline_sync.login_needed()
    try:
        pairing = pairing_for_organiser(request, match_pk)
    except (Http404, PermissionDenied) as error:
        removed = removed_match(request, match_pk) if isinstance(error, Http404) else None
        if removed is not None:
            code = "match_unplayed" if removed[1] == knockout.WITHDRAWN else "match_removed"
            return JsonResponse({"result": "refused",
                                 "message": str(RecordingError.messages[code])}, status=409)
        status = 404 if isinstance(error, Http404) else 403
        return JsonResponse({"result": "refused", "message": _(
            "This match cannot be changed from this account.")}, status=status)
    match = pairing.match
    form = DealQuickForm(request.POST, match=match)
    if not form.is_valid():
        return offline_sync.invalid(form)
    number = form.cleaned_data["number"]
    try:
        deal = services.deal_record(match=match, score=form.score, by=request.user,
                                    number=number)
    except rules.InvalidDeal as error:
        status = 409 if error.code == "match_finished" else 422
        return offline_sync.refused(error, match=match, number=number, status=status)
    except RecordingError as error:
        status = 422 if error.code == "deal_number_out_of_range" else 409
        return offline_sync.refused(error, match=match, number=number, status=status)
    return offline_sync.stored(deal, number, match.pk)
