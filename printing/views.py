"""PDFs for print: ask for one (organisers), follow its build, download it.

Views are adapters: access check -> form -> one `printing.jobs` call -> redirect
(or the htmx partial). Who may do what:

* starting a build (`print_request`, POST) is for the tournament's organisers: a build costs a
  worker seconds, so the public cannot start one;
* the status page and the file of a *standings* or *bracket* job are for everyone who may read
  the tournament (a public tournament: anyone), so an organiser can share the link; scorecards
  and round packs (QR codes to the entry pages) stay with the organisers.
* a club season's cross-table (`season_print_*`): the club's organisers (and staff) start a
  build; its status page and file are for everyone, like the season's pages: it prints only the
  club's public events (`selectors.season_cross_table`), the same for every reader.

The status partial is the same for both; `_links` gives it the addresses of the job's pages.
"""

from django import forms
from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.http import content_disposition_header
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET, require_POST

from club.models import Season
from core.messages import user_message
from events.access import (
    can_organise,
    can_organise_club,
    tournament_for_organiser,
    tournament_for_reading,
)
from events.models import Tournament
from live.pages import follow_job
from live.threads import in_thread
from live.views.streams import ticking
from printing import jobs, kinds
from printing.errors import PrintError
from printing.models import PrintJob

PAGE = "printing/print_status.html"
SEASON_PAGE = "printing/season_print_status.html"
PARTIAL = "printing/partials/print_status.html"

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
    except PrintError as error:
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
async def print_status_stream(request, pk: int, job_pk: int):
    """The stream of a print job's page while the job waits or runs (`live.views.streams.
    ticking`); 404 or 403 as the page."""
    await request.auser()

    def readable_job() -> PrintJob:
        tournament, job = _job(request, pk, job_pk)
        if not _may_read(request.user, tournament, job):
            raise PermissionDenied
        return job

    return await _job_stream(in_thread(readable_job))


@require_GET
def print_download(request, pk: int, job_pk: int):
    tournament, job = _job(request, pk, job_pk)
    if not _may_read(request.user, tournament, job):
        return _not_yours(request)
    return _file(job, kinds.filename(job.kind, job.round_number, job.filled, job.language))


@login_required
@require_POST
def season_print_request(request, club_pk: int, season_pk: int):
    season = _season(club_pk, season_pk)
    if not can_organise_club(request.user, season.club):
        raise PermissionDenied
    form = PrintRequestForm(request.POST)
    errors = [f"{form.fields[name].label}: {' '.join(messages)}"
              for name, messages in form.errors.items()]
    if not errors:
        try:
            job = jobs.season_print_job_request(
                season=season, kind=form.cleaned_data["kind"],
                language=form.cleaned_data["lang"] or translation.get_language(),
            )
        except PrintError as error:
            errors = [user_message(error)]
    if errors:
        return render(request, PARTIAL if request.htmx else SEASON_PAGE, {
            "season": season, "club": season.club, "errors": errors,
            "links": _season_links(season),
        }, status=400)
    if request.htmx:
        return _season_status(request, season, job, PARTIAL)
    return redirect("printing:season_status", season.club_id, season.pk, job.pk)


@require_GET
def season_print_status(request, club_pk: int, season_pk: int, job_pk: int):
    season = _season(club_pk, season_pk)
    job = get_object_or_404(PrintJob, pk=job_pk, season=season)
    return _season_status(request, season, job, PARTIAL if request.htmx else SEASON_PAGE)


@require_GET
def season_print_download(request, club_pk: int, season_pk: int, job_pk: int):
    job = get_object_or_404(PrintJob, pk=job_pk, season=_season(club_pk, season_pk))
    return _file(job, kinds.season_filename(job.kind, job.language))


@require_GET
async def season_print_status_stream(request, club_pk: int, season_pk: int, job_pk: int):
    """The stream of a season's print job's page, as `print_status_stream`."""

    def job_of_season() -> PrintJob:
        return get_object_or_404(PrintJob, pk=job_pk, season=_season(club_pk, season_pk))

    return await _job_stream(in_thread(job_of_season))


async def _job_stream(read_job):
    """Raises what `read_job` raises (Http404, PermissionDenied) before the stream opens."""
    await read_job()

    async def running() -> bool:
        return (await read_job()).is_active

    return ticking(running)


def _season(club_pk: int, season_pk: int) -> Season:
    return get_object_or_404(Season.objects.select_related("club"), pk=season_pk,
                             club_id=club_pk)


def _season_status(request, season: Season, job: PrintJob, template: str):
    if job.is_active:
        follow_job(request, reverse("printing:season_status_stream",
                                    args=[season.club_id, season.pk, job.pk]))
    return render(request, template, {
        "season": season, "club": season.club, "job": job,
        "spec": kinds.SEASON_KINDS.get(job.kind),
        "can_organise": can_organise_club(request.user, season.club),
        "links": _season_links(season, job),
    })


def _season_links(season: Season, job: PrintJob | None = None) -> dict:
    args = [season.club_id, season.pk]
    links = {
        "retry": reverse("printing:season_request", args=args),
        "back": reverse("clubs:season_crosstable", args=args),
        "back_label": _("Cross-table"),
    }
    if job is not None:
        links["status"] = reverse("printing:season_status", args=[*args, job.pk])
        links["download"] = reverse("printing:season_download", args=[*args, job.pk])
    return links


def _file(job: PrintJob, filename: str) -> HttpResponse:
    """The job's PDF, whole: a few hundred kilobytes at most, and an ASGI server would read a
    file's sync iterator into memory anyway (with a warning)."""
    if job.status != PrintJob.Status.DONE or not job.file:
        raise Http404("The file is not ready.")
    try:
        with job.file.open("rb") as pdf:
            content = pdf.read()
    except FileNotFoundError:
        raise Http404("The file is gone; print it again.") from None
    return HttpResponse(content, content_type="application/pdf", headers={
        "Content-Disposition": content_disposition_header(False, filename)})


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
    if job.is_active:
        follow_job(request, reverse("printing:status_stream", args=[tournament.pk, job.pk]))
    return render(request, template, {
        "tournament": tournament,
        "job": job,
        "spec": kinds.KINDS.get(job.kind),
        "can_organise": can_organise(request.user, tournament),
        "links": _links(tournament, job),
    })


def _links(tournament: Tournament, job: PrintJob | None = None) -> dict:
    """The addresses the status partial offers: the job's status (polled) and file, the retry
    form's action and the way back (the job's round, the bracket or the standings; the
    tournament when no job was made)."""
    if job is None:
        return {"back": tournament.get_absolute_url(), "back_label": _("Back to the tournament")}
    links = {
        "status": reverse("printing:status", args=[tournament.pk, job.pk]),
        "download": reverse("printing:download", args=[tournament.pk, job.pk]),
        "retry": reverse("printing:request", args=[tournament.pk]),
    }
    if job.round_number:
        links["back"] = reverse("events:round", args=[tournament.pk, job.round_number])
        links["back_label"] = _("Round %(number)s") % {"number": job.round_number}
    elif job.kind == PrintJob.Kind.BRACKET:
        links["back"] = reverse("knockout:bracket", args=[tournament.pk])
        links["back_label"] = _("Bracket")
    else:
        links["back"] = reverse("standings:standings", args=[tournament.pk])
        links["back_label"] = _("Standings")
    return links


def _refused(request, tournament, errors):
    return render(request, PARTIAL if request.htmx else PAGE, {
        "tournament": tournament, "errors": errors, "can_organise": True,
        "links": _links(tournament),
    }, status=400)
