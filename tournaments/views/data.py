"""Data in and out: a tournament imported from a deal-log CSV, with a preview before anything
is written, and the standings and deal log as downloads.

Import, for any logged-in user (who becomes the new tournament's organiser):

1. `import_upload` (GET): the form: file, name, date, house-rules preset, club (one the user
   organises, by default their only one: the club page and season ladders list the event).
2. `import_preview` (POST): reads and checks the file (`importing.parse_deal_log`), writes
   nothing, and shows what would be created, or the upload form again with every error
   (422). A good file's bytes are kept in the session (base64, at most
   `importing.SITE_MAX_BYTES`) with the name, date, preset, club and the preview's digest
   (SHA-256 of a random salt and the file: each preview is its own import), so the organiser
   does not upload it twice.
3. `import_confirm` (POST, the digest): reads the session's bytes again, writes the tournament
   (`importing.import_plan_apply`, which claims the digest) and goes to its standings. A
   second confirm of the same preview, a double click even while the first is being written,
   writes nothing and goes to the tournament the first one made. A preview that is gone
   (another file previewed since in the same session) is refused with 400.

Downloads (GET, anyone who may read the tournament): standings as CSV and XLSX, the deal log
as CSV in the import format. The CSVs start with a UTF-8 byte-order mark so that Excel shows
Cyrillic names; the importer skips it. Formula-like names are neutralised (`exporting.csv_text`,
`exporting.xlsx_bytes`).
"""

import base64
import binascii
import datetime
import hashlib
import secrets

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.http import content_disposition_header
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST, require_safe

from club.models import Club
from club.numbers import grouped
from scoring import rules
from tournaments import exporting, importing
from tournaments.access import tournament_for_reading
from tournaments.forms import PRESET_LABELS, clubs_for, own_club
from tournaments.models import Tournament
from tournaments.pure.standings import DEFAULT_TIE_BREAKS
from tournaments.tables import StandingsTable

UNPROCESSABLE = 422
SESSION_KEY = "tournament_import"
CSV_TYPE = "text/csv; charset=utf-8"
XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
BOM = "\ufeff"


class ImportForm(forms.Form):
    file = forms.FileField(
        label=gettext_lazy("Deal log (CSV file)"),
        help_text=gettext_lazy("UTF-8 CSV, one row per deal, at most 5 MB."),
        widget=forms.ClearableFileInput(attrs={"accept": ".csv,text/csv"}),
    )
    name = forms.CharField(
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

    def clean_name(self):
        return " ".join(self.cleaned_data["name"].split())


def _upload_page(request, form, *, status=200, error=None, errors=()):
    return render(request, "tournaments/import_upload.html", {
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


def _preview_page(request, plan, pending):
    return render(request, "tournaments/import_preview.html", {
        "plan": plan, "pending": pending, "table": _plan_table(plan),
        "rules_label": PRESET_LABELS.get(pending["rules"]),
        "date": datetime.date.fromisoformat(pending["date"]),
        "club": Club.objects.filter(pk=pending["club"]).first() if pending["club"] else None,
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
    data = form.cleaned_data["file"].read(importing.SITE_MAX_BYTES + 1)
    preset = form.cleaned_data["rules"]
    plan = importing.parse_deal_log(
        data, house_rules=rules.HouseRules.preset(preset), site=True
    )
    if not plan.ok:
        request.session.pop(SESSION_KEY, None)
        return _upload_page(request, form, status=UNPROCESSABLE, errors=plan.errors)
    pending = {
        "data": base64.b64encode(data).decode("ascii"),
        "digest": hashlib.sha256(secrets.token_bytes(16) + data).hexdigest(),
        "name": form.cleaned_data["name"],
        "date": form.cleaned_data["date"].isoformat(),
        "rules": preset,
        "club": form.cleaned_data["club"].pk if form.cleaned_data["club"] else None,
    }
    request.session[SESSION_KEY] = pending
    return _preview_page(request, plan, pending)


@login_required
@require_POST
def import_confirm(request):
    digest = request.POST.get("digest", "")
    done = importing.import_claimed(digest=digest) if digest else None
    if done is not None:
        return _already_imported(request, done)
    pending = request.session.get(SESSION_KEY)
    if not pending or pending.get("digest") != digest:
        return _upload_page(request, ImportForm(user=request.user), status=400, error=_(
            "This preview is no longer available (already imported, or another file was "
            "previewed since). Upload the file again."
        ))
    try:
        data = base64.b64decode(pending["data"], validate=True)
        house_rules = rules.HouseRules.preset(pending["rules"])
        date = datetime.date.fromisoformat(pending["date"])
        club = clubs_for(request.user).get(pk=pending["club"]) if pending["club"] else None
    except (KeyError, ValueError, binascii.Error, Club.DoesNotExist):
        request.session.pop(SESSION_KEY, None)
        return _upload_page(request, ImportForm(user=request.user), status=400, error=_(
            "This preview is no longer available. Upload the file again."
        ))
    plan = importing.parse_deal_log(data, house_rules=house_rules, site=True)
    if not plan.ok:  # cannot happen unless the rules changed in between; refuse all the same
        request.session.pop(SESSION_KEY, None)
        return _upload_page(request, ImportForm(user=request.user), status=UNPROCESSABLE,
                            errors=plan.errors)
    try:
        tournament = importing.import_plan_apply(
            plan=plan, name=pending["name"], date=date, house_rules=house_rules,
            organiser=request.user, club=club, claim=digest,
        )
    except importing.AlreadyImported as already:
        if already.tournament is not None:
            return _already_imported(request, already.tournament)
        request.session.pop(SESSION_KEY, None)
        return _upload_page(request, ImportForm(user=request.user), status=400, error=_(
            "This preview is no longer available. Upload the file again."
        ))
    except ValidationError as error:
        return _upload_page(request, ImportForm(user=request.user), status=UNPROCESSABLE,
                            error=" ".join(error.messages))
    request.session.pop(SESSION_KEY, None)
    messages.success(request, _("Imported: players — %(players)s, deals — %(deals)s.") % {
        "players": grouped(len(plan.players)), "deals": grouped(plan.deal_count),
    })
    return redirect("tournaments:standings", pk=tournament.pk)


def _already_imported(request, tournament: Tournament):
    """A confirm of a preview that has been imported: no second tournament, the first one."""
    request.session.pop(SESSION_KEY, None)
    messages.info(request, _("This file has already been imported; here is its tournament."))
    return redirect("tournaments:standings", pk=tournament.pk)


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
