"""Live standings with the tie-break order printed under the table; players whose results a
withdrawal cancelled are listed apart, below it, not ranked. A round robin's standings also
show the race (each player's place after every round) and link to its cross-table. A result
the players have not both signed yet (`table_entry.provisional_results`) counts, and the rows
it counts in are marked, the count said under the table."""

from django.http import Http404
from django.shortcuts import render
from django.views.decorators.http import require_safe
from django_tables2 import RequestConfig

from core.fingerprints import digest
from events import registry
from events import selectors as events_selectors
from events.access import can_organise, tournament_for_reading
from live.pages import follow_event, part_or_page, shared_part
from standings import selectors as standings_selectors
from standings.labels import TIE_BREAK_LABELS
from standings.tables import (
    StandingsTable,
    SwissStandingsTable,
    provisional_counted,
    standings_rows,
    unsigned_entries,
)
from tableside import table_entry


@shared_part("event")
def standings(request, pk: int):
    tournament = tournament_for_reading(request, pk)
    follow_event(request, tournament)
    event_format = registry.for_tournament(tournament)
    round_robin = bool(event_format.berger_cycles)
    # One fetch of the results for the table and the race.
    counted = None if event_format.standings_by_score else \
        standings_selectors.counted_rounds(tournament)
    ranking = standings_selectors.standings_with_withdrawn(tournament, counted)
    provisional = provisional_counted(table_entry.provisional_results(tournament),
                                      ranking.withdrawn)
    rows = standings_rows(ranking.ranked, unsigned_entries(provisional))
    order = event_format.tie_break_order()
    table_class = SwissStandingsTable if event_format.standings_by_score else StandingsTable
    table = table_class(rows, order)
    RequestConfig(request, paginate=False).configure(table)
    playing = events_selectors.matches_in_play(tournament).count()
    page = part_or_page(request, "standings/standings.html",
                        "standings/partials/live_standings.html")
    return render(request, page, {
        "tournament": tournament,
        "table": table,
        # The rendered table is cached under its own content (the template's {% cache %}).
        "table_version": digest((rows, order)).hex(),
        "tie_break_labels": [TIE_BREAK_LABELS[key] for key in order],
        "can_pair_next": event_format.can_pair_next(),
        "next_round": events_selectors.next_round_number(tournament),
        "playing": playing,
        "unsigned": len(provisional),
        "withdrawn": ranking.withdrawn,
        "can_organise": can_organise(request.user, tournament),
        "entries": tournament.entries.select_related("player").order_by("number"),
        # The race chart is cached under its own places (`standings_race_chart`).
        "race": standings_selectors.standings_race(tournament, counted) if round_robin else None,
        "round_robin": round_robin,
    })


@require_safe
def cross_table(request, pk: int):
    """The cross-table of a round robin (who beat whom, game points), rows in standings order;
    404 for an event of another format."""
    tournament = tournament_for_reading(request, pk)
    cycles = registry.for_tournament(tournament).berger_cycles
    if not cycles:
        raise Http404("Only a round robin has a cross-table.")
    return render(request, "standings/crosstable.html", {
        "tournament": tournament,
        "table": standings_selectors.tournament_cross_table(tournament, cycles),
        "can_organise": can_organise(request.user, tournament),
    })
