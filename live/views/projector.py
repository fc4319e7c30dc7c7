"""The projector: one full-screen page per event for the television in the club room, no
header, no controls. Under the event's name, the organiser's announcement and the round's
clock (`events.templatetags.event_notices`). Its slides take turns every `?every=` seconds
(`static/js/projector.js`): who sits where (`seating`: first, while no match of the round
being played is over yet), the round being played with tables and live scores, the standings
or, for a knockout, the bracket; with a group stage, the group tables and the bracket once
drawn. A long table takes several slides, each its turn, so that every slide fits the
screen in large type (`live.slides`; `round_slides`, `standings_slides`, `seating_slides`,
`groups_slides`, `bracket_on_show` below). At a running event of a club, a last slide shows
the club's join code for self check-in (`join_slide`): its address as a QR code and the code
in large type. The slides are fetched again at every change of
the event (`live.pages`). Public events need no login; a private one is 404 except for its
organisers (`tournament_for_reading`).
A result not yet signed by both players is marked as on the standings and bracket pages.
"""

import dataclasses
import math

from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_safe

from core.site_address import site_url
from events import registry
from events.access import tournament_for_reading
from formats.knockout import selectors as knockout_selectors
from live import selectors as live_selectors
from live.pages import follow_event, part_or_page, shared_part
from live.slides import MOST_ROWS, SMALLEST_TYPE, bracket_first_column, group_slides, table_slides
from passes import check_in
from printing.scorecard import qr_image
from standings import selectors as standings_selectors
from standings.tables import provisional_counted, standings_rows, unsigned_entries
from tableside import table_entry

EVERY_SECONDS, FASTEST, SLOWEST = 20, 5, 600
NAME_EMS = 18
"""The width of a seating column in ems: the table number and a name of some 24 letters in
bold."""
LINES_PER_TABLE = 2.6
"""The height of a seating row in ems: the two names, one above the other, and the gap."""


def seating_layout(tables: int) -> tuple[int, float]:
    """How the seating slide lays `tables` rows out: (its columns, 1 to 4; its type in
    ninths of the screen's height). The columns whose type is largest on a 16:9 screen, the
    height giving each row `LINES_PER_TABLE` ems and the width each column `NAME_EMS`; a
    further column only for a tenth larger type (fewer columns leave the names more room).
    Pure arithmetic on the share of the screen the slide has (three quarters of the height,
    nine tenths of the width)."""
    height, width = 0.74 * 9, 0.94 * 16
    best, best_size = 1, 0.0
    for columns in range(1, 5):
        rows = math.ceil(max(tables, 1) / columns)
        size = min(height / rows / LINES_PER_TABLE, width / columns / NAME_EMS)
        if size > best_size * 1.1:
            best, best_size = columns, size
    return best, best_size


def seating_columns(tables: int) -> int:
    """How many columns the seating slide lays `tables` rows out in (`seating_layout`)."""
    return seating_layout(tables)[0]


MOST_SEATS = next(tables for tables in range(1, 200)
                  if seating_layout(tables + 1)[1] < 9 * SMALLEST_TYPE)
"""At most this many tables on a seating slide: the most whose type stays at least
`live.slides.SMALLEST_TYPE` of the screen's height (16: two columns of 8); more take
several seating slides."""


def seating(round_, pairings: list, *, pairs_on_the_spot: bool) -> list:
    """The pairings the seating slide lists -- every pairing of `round_` with two players, then
    the byes -- while no match of it is over yet (the players are finding their tables); []
    once one is, or at an event that pairs on the spot (its "Playing now" slide is the
    seating). Reads nothing: `pairings` are the round's, with their matches."""
    if round_ is None or pairs_on_the_spot:
        return []
    if any(pairing.match is not None and pairing.match.is_over for pairing in pairings):
        return []
    return ([p for p in pairings if p.entry_a_id and p.entry_b_id]
            + [p for p in pairings if p.is_bye and p.entry_a_id])


def seating_slides(seated: list) -> list[dict]:
    """The seating slide cut into slides of at most `MOST_SEATS` tables: each {"pairings",
    "first", "last", "part"} as `round_slides`, with "columns" and "rows", the grid of the
    longest slide (all of them take its type); [] for no seating."""
    if not seated:
        return []
    slides = round_slides(seated, most=MOST_SEATS)
    columns = seating_columns(len(slides[0]["pairings"]))
    rows = math.ceil(len(slides[0]["pairings"]) / columns)
    return [{**slide, "columns": columns, "rows": rows} for slide in slides]


def round_slides(pairings: list, most: int = MOST_ROWS) -> list[dict]:
    """The round slide cut into slides of at most `live.slides.MOST_ROWS` tables: each
    {"pairings": its pairings, "rows": the rows of the longest slide (all slides of a table
    take the same type), "first"/"last": the first and last table number it shows (None for
    a slide of byes only), "part": its number from 1}."""
    cuts = table_slides(len(pairings), most)
    slides = []
    for part, cut in enumerate(cuts, start=1):
        shown = pairings[cut.start:cut.stop]
        tables = [p.table for p in shown if p.table]
        slides.append({"pairings": shown, "rows": max(len(cuts[0]), 1), "part": part,
                       "first": min(tables, default=None), "last": max(tables, default=None)})
    return slides


def standings_slides(rows: list) -> list[dict]:
    """The standings cut into slides of at most `live.slides.MOST_ROWS` rows: each
    {"rows": its rows, "size": the rows of the longest slide, "first"/"last": the places
    (1-based, in the table's order) of its first and last row, "part": its number from 1}."""
    cuts = table_slides(len(rows))
    return [{"rows": rows[cut.start:cut.stop], "size": max(len(cuts[0]), 1), "part": part,
             "first": cut.start + 1, "last": cut.stop}
            for part, cut in enumerate(cuts, start=1)]


def groups_slides(groups: list) -> list[dict]:
    """The group tables (`groups`: [(group table, its rows)], group A first) cut into slides
    by `live.slides.group_slides`: each {"groups": its share of `groups`, "lines": the lines
    a column of its grid holds, "columns": its grid's columns, "first"/"last": the letters of
    its first and last group, "part": its number from 1}; [] without groups."""
    if not groups:
        return []
    cuts, lines, columns = group_slides([table.size for table, _ in groups])
    return [{"groups": groups[cut.start:cut.stop], "lines": lines, "columns": columns,
             "first": groups[cut.start][0].letter, "last": groups[cut.stop - 1][0].letter,
             "part": part}
            for part, cut in enumerate(cuts, start=1)]


def bracket_on_show(bracket):
    """The bracket as its slide shows it: the columns from `live.slides.bracket_first_column`
    on (a `Bracket` with fewer columns; its podium and third-place match kept, its count of
    matches being played only those of the columns shown), or None."""
    if bracket is None or not bracket.columns:
        return bracket
    first = bracket_first_column([len(column.matches) for column in bracket.columns])
    return dataclasses.replace(bracket, columns=bracket.columns[first:])


def join_slide(tournament) -> dict | None:
    """What the self check-in slide shows at a running event of a club: {"code": the club's
    join code (made if it has none, `check_in.join_code_of`), "url": `/join/<code>/` at
    `SITE_URL`, "qr": its QR code (a PNG data URI)}; None for an event of no club or not
    running."""
    if tournament.club_id is None or tournament.status != tournament.Status.RUNNING:
        return None
    code = check_in.join_code_of(tournament.club)
    url = site_url().rstrip("/") + reverse("passes:join", args=[code])
    return {"code": code, "url": url, "qr": qr_image(url)}


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
    bracket = (bracket_on_show(knockout_selectors.bracket(tournament))
               if event_format.has_bracket else None)
    seated = seating(round_, pairings, pairs_on_the_spot=event_format.pairs_on_the_spot)
    page = part_or_page(request, "live/projector.html", "live/partials/live_projector.html")
    return render(request, page, {
        "tournament": tournament,
        "round": round_,
        "pairings": pairings,
        "standings": standings,
        "standings_slides": standings_slides(standings) if standings is not None else [],
        "round_slides": round_slides(pairings),
        "provisional": set(provisional),
        "unsigned": len(counted),
        "groups": groups,
        "groups_slides": groups_slides(groups),
        "bracket": bracket if bracket is None or bracket.columns or not groups else None,
        "every": rotation_seconds(request.GET.get("every")),
        "bracket_matches": len(bracket.columns[0].matches) if bracket and bracket.columns else 1,
        "bracket_columns": len(bracket.columns) if bracket and bracket.columns else 1,
        "seating": seated,
        "seating_slides": seating_slides(seated),
        "join": join_slide(tournament),
    })
