"""A match's final score alone (`matches:final_score`, `matches:final_score_undo`), in an
event that keeps only match results (`Tournament.records` = final score only): the
organiser enters 11:7 and the match is finished, with no deals
(`scoring.services.match_final_score_record`, which asks `rules.final_score_valid`); a
mistyped score is taken back (`match_final_score_undo`) and entered again.

A score that cannot end a match answers 422 with the match page and its message; a match
that cannot take it (deals, a result already, closed by a withdrawal, an event that keeps
deals) 409. Nothing is written in either case. A take-back that would undo later results (a
knockout winner who has moved on) answers 409 with "Confirm", as an undo does.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.messages import user_message
from events.access import pairing_for_organiser
from scoring import services
from scoring.errors import ConfirmationRequired, RecordingError
from scoring.forms import FinalScoreForm
from tableside.views import matches


@login_required
@require_POST
def final_score(request, match_pk: int):
    pairing = pairing_for_organiser(request, match_pk)
    if not pairing.round.tournament.final_score_only:
        return matches.page(request, pairing, error=user_message(
            RecordingError("final_score_not_kept")), status=409)
    form = FinalScoreForm(request.POST)
    if not form.is_valid():
        return matches.page(request, pairing, final_form=form, status=422)
    try:
        match = services.match_final_score_record(
            match=pairing.match, by=request.user,
            game_points_a=form.cleaned_data["game_points_a"],
            game_points_b=form.cleaned_data["game_points_b"],
        )
    except RecordingError as error:
        status = 422 if error.code.startswith("final_score_impossible") else 409
        return matches.page(request, pairing, final_form=form, error=user_message(error),
                            status=status)
    messages.success(request, _("Final score saved: %(a)s:%(b)s.") % {
        "a": match.game_points_a, "b": match.game_points_b})
    return redirect("matches:entry", match_pk=match_pk)


@login_required
@require_POST
def final_score_undo(request, match_pk: int):
    pairing = pairing_for_organiser(request, match_pk)
    try:
        services.match_final_score_undo(
            match=pairing.match, by=request.user,
            confirmed=request.POST.get("confirmed") == "1",
        )
    except ConfirmationRequired as error:
        action = reverse("matches:final_score_undo", args=[match_pk])
        confirm = {"action": action, "what": _("Take back the final score"),
                   "fields": [], "consequences": error.consequences}
        return matches.page(request, pairing, error=user_message(error), confirm=confirm,
                            status=409)
    except RecordingError as error:
        return matches.page(request, pairing, error=user_message(error), status=409)
    messages.success(request, _("The final score is taken back; enter it again."))
    return redirect("matches:entry", match_pk=match_pk)
