"""The event's announcement (`events.announcements`): the organiser sets or clears it from the
control room (`control:room`), and every live page of the event shows it.

Organisers only (`tournament_for_organiser`: 404 for an event the visitor may not see, 403 for
one that is not theirs). A text `core.text.clean_text` refuses (a control or invisible
character, too long) is answered 422 in the user's language with the form again, and nothing is
written."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from events.access import tournament_for_organiser
from events.announcements import announcement_set
from events.forms import AnnouncementForm

UNPROCESSABLE = 422


@login_required
@require_POST
def announcement(request, pk: int):
    """Set the announcement to the posted `text` (empty: clear it), then back to the control
    room."""
    tournament = tournament_for_organiser(request, pk)
    form = AnnouncementForm(request.POST)
    if not form.is_valid():
        return render(request, "events/announcement_refused.html", {
            "tournament": tournament, "announcement_form": form, "can_organise": True,
        }, status=UNPROCESSABLE)
    tournament = announcement_set(tournament=tournament, text=form.cleaned_data["text"],
                                  by=request.user)
    messages.success(request, _("The announcement is shown on the event's live pages.")
                     if tournament.announcement else _("The announcement is cleared."))
    return redirect("control:room", pk=tournament.pk)
