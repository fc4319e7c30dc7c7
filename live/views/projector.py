"""The projector: one full-screen page per event for the television in the club room, no
header, no controls. Its slides (the round being played with tables and live scores, the
standings or, for a knockout, the bracket; with a group stage, the group tables and the
bracket once drawn) take turns every `?every=` seconds
(`static/js/projector.js`); the slides are fetched again at every change of the event
(`live.pages`). Public
events need no login; a private one is 404 except for its organisers (`tournament_for_reading`).
A result not yet signed by both players is marked as on the standings and bracket pages.
"""

from django.shortcuts import render
from django.views.decorators.http import require_safe

from events import registry
from events.access import tournament_for_reading
from formats.knockout import selectors as knockout_selectors
from live import selectors as live_selectors
from live.pages import follow_event, part_or_page, shared_part
from standings import selectors as standings_selectors
from standings.tables import provisional_counted, standings_rows, unsigned_entries
from tableside import table_entry

EVERY_SECONDS, FASTEST, SLOWEST = 20, 5, 600


def rotation_seconds(value: str | None) -> int:
    """The `?every=` of the page: whole seconds from FASTEST to SLOWEST; anything else (absent,
    not a number, out of range) is EVERY_SECONDS."""
    try:
        seconds = int(value or "")
    except ValueError:
        return EVERY_SECONDS
    return seconds if FASTEST <= seconds <= SLOWEST else EVERY_SECONDS


@require_safe
@shared_part("event")
def projector(request, pk: int):
    tournament = tournament_for_reading(request, pk)
    follow_event(request, tournament)
    event_format = registry.for_tournament(tournament)
    round_, pairings = live_selectors.projector_pairings(
        tournament, in_play_only=event_format.pairs_on_the_spot)
    if round_ is not None:
        round_.label = event_format.round_labels(tournament.rounds.count()).get(round_.number, "")
    provisional = table_entry.provisional_results(tournament)
    standings, counted = None, {}
    if not event_format.has_bracket:
        ranking = standings_selectors.standings_with_withdrawn(tournament)
        counted = provisional_counted(provisional, ranking.withdrawn)
        standings = standings_rows(ranking.ranked, unsigned_entries(counted))
    groups = [(table, standings_rows(table.ranked))
              for table in standings_selectors.group_tables(tournament)
              ] if event_format.has_groups else []
    bracket = knockout_selectors.bracket(tournament) if event_format.has_bracket else None
    page = part_or_page(request, "live/projector.html", "live/partials/live_projector.html")
    return render(request, page, {
        "tournament": tournament,
        "round": round_,
        "pairings": pairings,
        "standings": standings,
        "provisional": set(provisional),
        "unsigned": len(counted),
        "groups": groups,
        "bracket": bracket if bracket is None or bracket.columns or not groups else None,
        "every": rotation_seconds(request.GET.get("every")),
    })
