"""PDFs for print: ask for one (organisers), follow its build, download it.

Views are adapters (STYLE.md): access check -> form -> one `printing.jobs` call -> redirect
(or the htmx partial). Who may do what:

* starting a build (`print_request`, POST) is for the tournament's organisers: a build costs a
  worker seconds, so the public cannot start one;
* the status page and the file of a *standings* or *bracket* job are for everyone who may read
  the tournament (a public tournament: anyone), so an organiser can share the link; scorecards
  and round packs (QR codes to the entry pages) stay with the organisers.
"""

from django import forms
from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import FileResponse, Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET, require_POST

from club.messages import user_message
from tournaments.access import can_organise, tournament_for_organiser, tournament_for_reading
from tournaments.models import PrintJob, Tournament
from tournaments.printing import jobs, kinds

PAGE = "tournaments/print_status.html"
PARTIAL = "tournaments/partials/print_status.html"

PUBLIC_KINDS = {PrintJob.Kind.STANDINGS, PrintJob.Kind.BRACKET, PrintJob.Kind.CROSSTABLE}


class PrintRequestForm(forms.Form):
    """What the print buttons post: kind, round (for a round's PDFs), filled, lang."""

    kind = forms.ChoiceField(
        label=_("what"), choices=[(key, spec.label) for key, spec in kinds.KINDS.items()]
    )
    round = forms.IntegerField(label=_("round"), min_value=1, max_value=32767, required=False)
    filled = forms.BooleanField(required=False)
    lang = forms.ChoiceField(label=_("language"), choices=settings.LANGUAGES, required=False)


@login_required
@require_POST
def print_request(request, pk: int):
    tournament = tournament_for_organiser(request, pk)
    form = PrintRequestForm(request.POST)
    if not form.is_valid():
        errors = [f"{form.fields[name].label}: {' '.join(messages)}"
                  for name, messages in form.errors.items()]
        return _refused(request, tournament, errors)
    data = form.cleaned_data
    try:
        job = jobs.print_job_request(
            tournament=tournament, kind=data["kind"], round_number=data["round"],
            language=data["lang"] or tournament.language, filled=data["filled"],
        )
    except jobs.PrintError as error:
        return _refused(request, tournament, [user_message(error)])
    if request.htmx:
        return _status(request, tournament, job, PARTIAL)
    return redirect("printing:status", tournament.pk, job.pk)


@require_GET
def print_status(request, pk: int, job_pk: int):
    tournament, job = _job(request, pk, job_pk)
    if not _may_read(request.user, tournament, job):
        return _not_yours(request)
    return _status(request, tournament, job, PARTIAL if request.htmx else PAGE)


@require_GET
def print_download(request, pk: int, job_pk: int):
    tournament, job = _job(request, pk, job_pk)
    if not _may_read(request.user, tournament, job):
        return _not_yours(request)
    if job.status != PrintJob.Status.DONE or not job.file:
        raise Http404("The file is not ready.")
    try:
        pdf = job.file.open("rb")
    except FileNotFoundError:
        raise Http404("The file is gone; print it again.") from None
    return FileResponse(
        pdf, content_type="application/pdf",
        filename=kinds.filename(job.kind, job.round_number, job.filled, job.language),
    )


def _job(request, pk: int, job_pk: int) -> tuple[Tournament, PrintJob]:
    tournament = tournament_for_reading(request, pk)
    return tournament, get_object_or_404(PrintJob, pk=job_pk, tournament=tournament)


def _may_read(user, tournament: Tournament, job: PrintJob) -> bool:
    return job.kind in PUBLIC_KINDS or can_organise(user, tournament)


def _not_yours(request):
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    raise PermissionDenied


def _status(request, tournament, job, template):
    return render(request, template, {
        "tournament": tournament,
        "job": job,
        "spec": kinds.KINDS.get(job.kind),
        "can_organise": can_organise(request.user, tournament),
    })


def _refused(request, tournament, errors):
    return render(request, PARTIAL if request.htmx else PAGE, {
        "tournament": tournament, "errors": errors, "can_organise": True,
    }, status=400)
