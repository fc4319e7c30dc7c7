"""Live standings with the tie-break order printed under the table; players whose results a
withdrawal cancelled are listed apart, below it, not ranked."""

from django.shortcuts import render
from django_tables2 import RequestConfig

from tournaments import selectors
from tournaments.access import can_organise, tournament_for_reading
from tournaments.forms import TIE_BREAK_LABELS
from tournaments.pure.fingerprints import fingerprint
from tournaments.tables import StandingsTable, standings_rows


def standings(request, pk: int):
    tournament = tournament_for_reading(request, pk)
    ranking = selectors.standings_with_withdrawn(tournament)
    rows = standings_rows(ranking.ranked)
    table = StandingsTable(rows, tournament.tie_breaks)
    RequestConfig(request, paginate=False).configure(table)
    playing = selectors.matches_in_play(tournament).count()
    return render(request, "tournaments/standings.html", {
        "tournament": tournament,
        "table": table,
        # The rendered table is cached under its own content (the template's {% cache %}).
        "table_version": fingerprint(rows, tournament.tie_breaks),
        "tie_break_labels": [TIE_BREAK_LABELS[key] for key in tournament.tie_breaks],
        "playing": playing,
        "withdrawn": ranking.withdrawn,
        "can_organise": can_organise(request.user, tournament),
        "entries": tournament.entries.select_related("player").order_by("number"),
    })
