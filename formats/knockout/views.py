"""The knockout bracket: rounds as columns, live while matches are played (htmx polls the
board every 4 seconds, `live.versions`, and swaps it when it changed). The winner of a
result not yet signed by both players has gone on already (`knockout_advance` runs when the
match finishes); the box is marked provisional (`table_entry.provisional_matches`)."""

from django.http import Http404
from django.shortcuts import render
from django.views.decorators.http import require_safe

from events import registry
from events.access import can_organise, tournament_for_reading
from formats.knockout import selectors
from live.versions import POLL_SECONDS, live, tournament_etag
from tableside import table_entry

PAGE = "formats/bracket.html"
BOARD = "formats/partials/bracket_board.html"


@require_safe
@live(tournament_etag("bracket"))
def bracket(request, pk: int):
    tournament = tournament_for_reading(request, pk)
    if not registry.for_tournament(tournament).has_bracket:
        raise Http404("Only a knockout has a bracket.")
    organiser = can_organise(request.user, tournament)
    context = {
        "tournament": tournament,
        "bracket": selectors.bracket(tournament),
        "provisional": table_entry.provisional_matches(tournament),
        "can_organise": organiser,
        "poll_seconds": POLL_SECONDS,
    }
    if request.htmx:
        return render(request, BOARD, context)
    if organiser:
        context["entries"] = tournament.entries.select_related("player").order_by("number")
    return render(request, PAGE, context)
