"""The page of an event with a group stage: a standings table per group (its size shown, the
players going on marked) and, once drawn, the knockout's bracket; the organiser's "start the
knockout now". Live like the standings (`live.pages`)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from core.messages import user_message
from events import registry
from events import selectors as events_selectors
from events.access import can_organise, tournament_for_organiser, tournament_for_reading
from events.errors import TournamentError
from formats.knockout import selectors as knockout_selectors
from live.pages import follow_event, part_or_page, shared_part
from standings import selectors as standings_selectors
from standings.labels import TIE_BREAK_LABELS
from standings.tables import standings_rows

CONFLICT = 409


def _groups_page(request, tournament, *, status=200, confirm=None):
    follow_event(request, tournament)
    event_format = registry.for_tournament(tournament)
    if not event_format.has_groups:
        raise Http404("This event has no group stage.")
    organiser = can_organise(request.user, tournament)
    tables = []
    for table in standings_selectors.group_tables(tournament):
        rows = standings_rows(table.ranked)
        for row, (entry, _row) in zip(rows, table.ranked, strict=True):
            row["goes_on"] = entry.pk in table.goes_on
        tables.append({"table": table, "rows": rows, "withdrawn": table.standings.withdrawn})
    bracket = knockout_selectors.bracket(tournament)
    page = part_or_page(request, "formats/groups.html", "formats/partials/live_groups.html")
    return render(request, page, {
        "tournament": tournament,
        "tables": tables,
        "advance": tournament.group_advance,
        "bracket": bracket if bracket.columns else None,
        "tie_break_labels": [TIE_BREAK_LABELS[key] for key in tournament.tie_breaks],
        "playing": events_selectors.matches_in_play(tournament).count(),
        "can_organise": organiser,
        "can_start_knockout": organiser and event_format.can_start_knockout(),
        "confirm": confirm,
        "entries": (tournament.entries.select_related("player").order_by("number")
                    if organiser else []),
    }, status=status)


@require_safe
@shared_part("event")
def groups(request, pk: int):
    """The group tables and the bracket (404 for an event without groups)."""
    return _groups_page(request, tournament_for_reading(request, pk))


@login_required
@require_POST
def knockout_start(request, pk: int):
    """The organiser starts the knockout now. With group matches not over, the page asks to
    confirm (409, nothing written); confirmed (`confirm` posted), they are closed unplayed.
    Other refusals: the page with the reason, 409."""
    tournament = tournament_for_organiser(request, pk)
    event_format = registry.for_tournament(tournament)
    if not event_format.has_groups:
        raise Http404("This event has no group stage.")
    try:
        event_format.start_knockout(by=request.user, confirmed="confirm" in request.POST)
    except TournamentError as error:
        confirm = user_message(error)
        if error.code != "group_matches_unfinished":
            messages.error(request, confirm)
            confirm = None
        return _groups_page(request, tournament, status=CONFLICT, confirm=confirm)
    messages.success(request, _("The knockout is drawn from the group standings."))
    return redirect("groups:detail", pk=pk)
