"""Data in and out: a tournament imported from a deal-log CSV, with a preview before anything
is written, and the standings and deal log as downloads.

Import, for any logged-in user (who becomes the new tournament's organiser):

1. `import_upload` (GET): the form: file, name, date, house-rules preset, club (one the user
   organises, by default their only one: the club page and season ladders list the event).
2. `import_preview` (POST): reads and checks the file as it streams
   (`importing.parse_deal_log`), writes no tournament, and shows what would be created, or
   the upload form again with every error (422). A good file is kept under MEDIA_ROOT as a
   `previewed` import job (`import_jobs.import_job_create`; a new preview drops the user's
   older one). The preview lists the file's names that the club's register has written
   another way ("ivan petrov" for Иван Петров): the import uses those players.
3. `import_confirm` (POST, the job's id): starts the import task (`import_jobs.import_job_start`,
   one UPDATE, so a double click starts one import): eagerly, without a broker, it has
   written the tournament when the answer comes, which then goes to its standings; with a
   worker, to the job's page. A preview that is gone is refused with 400; a confirm of one
   that has been imported goes to its tournament.
4. `import_job` (GET): the job's page, or its htmx partial: a progress bar fetched again
   each second while the task checks the file and writes the deals (the page's stream,
   `import_job_stream`, says when), then the result or the errors.

Downloads (GET, anyone who may read the tournament): standings as CSV and XLSX, the deal log
as CSV in the import format. The CSVs start with a UTF-8 byte-order mark so that Excel shows
Cyrillic names; the importer skips it. Formula-like names are neutralised (`exporting.csv_text`,
`exporting.xlsx_bytes`).
"""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.http import content_disposition_header
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST, require_safe

from club.models import Club
from core.numbers import grouped
from core.text import NameField
from events.access import tournament_for_reading
from events.forms import PRESET_LABELS, clubs_for, own_club
from events.models import Tournament
from exchange import exporting, import_jobs, importing
from exchange.models import ImportJob
from live.pages import follow_job
from live.threads import in_thread
from live.views.streams import ticking
from scoring import rules
from standings.tables import StandingsTable
from standings.tie_breaks import DEFAULT_TIE_BREAKS

UNPROCESSABLE = 422
CSV_TYPE = "text/csv; charset=utf-8"
XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
BOM = "\ufeff"


class ImportForm(forms.Form):
    file = forms.FileField(
        label=gettext_lazy("Deal log (CSV file)"),
        help_text=gettext_lazy("UTF-8 CSV, one row per deal, at most 40 MB."),
        widget=forms.ClearableFileInput(attrs={"accept": ".csv,text/csv"}),
    )
    name = NameField(
        label=gettext_lazy("Tournament name"),
        max_length=Tournament._meta.get_field("name").max_length,
    )
    date = forms.DateField(
        label=gettext_lazy("Date"), initial=timezone.localdate,
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )
    rules = forms.ChoiceField(
        label=gettext_lazy("House rules"), choices=list(PRESET_LABELS.items()),
        initial="default",
    )
    club = forms.ModelChoiceField(
        label=gettext_lazy("Club"), queryset=Club.objects.none(), required=False,
        empty_label=gettext_lazy("(no club)"),
    )

    def __init__(self, *args, user, **kwargs):
        """The club is one `user` organises (staff: any), by default their only one."""
        super().__init__(*args, **kwargs)
        self.fields["club"].queryset = clubs_for(user)
        club = own_club(user)
        if club is not None:
            self.initial.setdefault("club", club.pk)


def _upload_page(request, form, *, status=200, error=None, errors=()):
    return render(request, "exchange/import_upload.html", {
        "form": form, "error": error, "errors": errors, "columns": ",".join(importing.COLUMNS),
        "reasons": rules.REASONS,
    }, status=status)


def _plan_table(plan: importing.ImportPlan) -> StandingsTable:
    rows = [{
        "rank": row.rank, "player": row.player, "player_sort": row.player, "withdrawn": False,
        "played": row.played, "won": row.won, "lost": row.lost,
        "gp_for": row.game_points_for, "gp_against": row.game_points_against,
        "gp_diff": row.game_point_difference,
        **{key: value for key, value in row.tie_breaks.items() if value is not None},
    } for row in plan.standings()]
    return StandingsTable(rows, DEFAULT_TIE_BREAKS, orderable=False)


def _preview_page(request, plan, job):
    """What the import would create, with the file's names the register knows written
    another way (`importing.names_matched`: the import uses those players)."""
    return render(request, "exchange/import_preview.html", {
        "plan": plan, "job": job, "table": _plan_table(plan),
        "rules_label": PRESET_LABELS.get(job.rules),
        "names": importing.names_matched(plan.players, club=job.club, organiser=request.user),
    })


@login_required
@require_safe
def import_upload(request):
    return _upload_page(request, ImportForm(user=request.user))


@login_required
@require_POST
def import_preview(request):
    form = ImportForm(request.POST, request.FILES, user=request.user)
    if not form.is_valid():
        return _upload_page(request, form, status=UNPROCESSABLE)
    upload = form.cleaned_data["file"]
    preset = form.cleaned_data["rules"]
    plan = importing.parse_deal_log(upload, house_rules=rules.HouseRules.preset(preset))
    if not plan.ok:
        return _upload_page(request, form, status=UNPROCESSABLE, errors=plan.errors)
    job = import_jobs.import_job_create(
        user=request.user, upload=upload, plan=plan, name=form.cleaned_data["name"],
        date=form.cleaned_data["date"], rules_preset=preset, club=form.cleaned_data["club"],
        language=translation.get_language(),
    )
    return _preview_page(request, plan, job)


def _gone(request):
    return _upload_page(request, ImportForm(user=request.user), status=400, error=_(
        "This preview is no longer available (already imported, or another file was "
        "previewed since). Upload the file again."
    ))


@login_required
@require_POST
def import_confirm(request):
    job_id = request.POST.get("job", "")
    job = ImportJob.objects.filter(
        pk=int(job_id), user=request.user
    ).select_related("tournament").first() if job_id.isdigit() and len(job_id) < 19 else None
    if job is None:
        return _gone(request)
    if not import_jobs.import_job_start(job=job):
        job.refresh_from_db()
        if job.status == ImportJob.Status.DONE and job.tournament is not None:
            return _already_imported(request, job.tournament)
        return redirect("data:import_job", job.pk)
    job.refresh_from_db()  # without a broker the task has run already
    if job.status == ImportJob.Status.DONE and job.tournament is not None:
        messages.success(request, _("Imported: players — %(players)s, deals — %(deals)s.") % {
            "players": grouped(job.players), "deals": grouped(job.deals),
        })
        return redirect("standings:standings", pk=job.tournament_id)
    return redirect("data:import_job", job.pk)


@login_required
@require_safe
def import_job(request, pk: int):
    job = import_jobs.import_job_refresh(get_object_or_404(
        ImportJob.objects.select_related("tournament"), pk=pk, user=request.user))
    if job.is_active:
        follow_job(request, reverse("data:import_job_stream", args=[job.pk]))
    progress = import_jobs.import_job_progress(job)
    context = {"job": job, "progress": {
        **progress, "done_text": grouped(progress["done"]),
        "total_text": grouped(progress["total"]),
    }}
    if request.htmx:
        return render(request, "exchange/partials/import_job.html", context)
    return render(request, "exchange/import_job.html", context)


@require_GET
async def import_job_stream(request, pk: int):
    """The stream of an import's page while it runs (`live.views.streams.ticking`); 404 for
    someone else's import."""
    user = await request.auser()

    def own_job() -> ImportJob:
        if not user.is_authenticated:
            raise Http404
        return import_jobs.import_job_refresh(get_object_or_404(ImportJob, pk=pk, user=user))

    read_job = in_thread(own_job)
    await read_job()

    async def running() -> bool:
        return (await read_job()).is_active

    return ticking(running)


def _already_imported(request, tournament: Tournament):
    """A confirm of a preview that has been imported: no second tournament, the first one."""
    messages.info(request, _("This file has already been imported; here is its tournament."))
    return redirect("standings:standings", pk=tournament.pk)


def _download(content, content_type: str, tournament: Tournament, what: str, extension: str):
    slug = slugify(tournament.name, allow_unicode=True) or f"tournament-{tournament.pk}"
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = content_disposition_header(
        True, f"{slug}-{what}.{extension}"
    )
    return response


@require_safe
def standings_csv(request, pk: int):
    tournament = tournament_for_reading(request, pk)
    content = BOM + exporting.csv_text(exporting.standings_dataset(tournament))
    return _download(content.encode("utf-8"), CSV_TYPE, tournament, "standings", "csv")


@require_safe
def standings_xlsx(request, pk: int):
    tournament = tournament_for_reading(request, pk)
    content = exporting.xlsx_bytes(exporting.standings_dataset(tournament))
    return _download(content, XLSX_TYPE, tournament, "standings", "xlsx")


@require_safe
def deals_csv(request, pk: int):
    tournament = tournament_for_reading(request, pk)
    content = BOM + exporting.csv_text(exporting.deal_log_dataset(tournament))
    return _download(content.encode("utf-8"), CSV_TYPE, tournament, "deals", "csv")
