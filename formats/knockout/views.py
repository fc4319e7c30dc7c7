"""The knockout bracket: rounds as columns, live while matches are played (the board is
fetched again each time the event changes, `live.pages`). The winner of a
result not yet signed by both players has gone on already (`knockout_advance` runs when the
match finishes); the box is marked provisional (`table_entry.provisional_matches`)."""

from django.http import Http404
from django.shortcuts import render
from django.views.decorators.http import require_safe

from events import registry
from events.access import can_organise, tournament_for_reading
from formats.knockout import selectors
from live.pages import follow_event, part_or_page, shared_part
from tableside import table_entry

PAGE = "formats/bracket.html"
BOARD = "formats/partials/bracket_board.html"


@require_safe
@shared_part("event")
def bracket(request, pk: int):
    tournament = tournament_for_reading(request, pk)
    follow_event(request, tournament)
    if not registry.for_tournament(tournament).has_bracket:
        raise Http404("Only a knockout has a bracket.")
    organiser = can_organise(request.user, tournament)
    context = {
        "tournament": tournament,
        "bracket": selectors.bracket(tournament),
        "provisional": table_entry.provisional_matches(tournament),
        "can_organise": organiser,
    }
    if part_or_page(request, PAGE, BOARD) == BOARD:
        return render(request, BOARD, context)
    if organiser:
        context["entries"] = tournament.entries.select_related("player").order_by("number")
    return render(request, PAGE, context)
