"""The printed documents, each kind in three steps: the data read from the database, a plain
dataclass holding what the page shows, and a template under `printing/templates/print/`
that lays it
out (`parts`, rendered by `printing.pdf.render_pdf`).

Builders read through the apps' selectors and write nothing; they work in the language
active when called (`render_*` set it). Kinds: scorecards (two per A4 page), the round sheet,
the round pack (the sheet, then the scorecards), the standings, the knockout bracket and the
cross-table of a round robin or of a club season.
"""

import datetime
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from django.utils import dateformat, timezone, translation

from club.models import Season
from events import selectors as events_selectors
from events.models import Pairing, Round, Tournament
from formats.knockout import selectors as knockout_selectors
from printing import bracket as bracket_geometry
from printing import card_form, scorecard
from printing.pdf import Progress, render_pdf
from scoring.match_sheet import sheet_of
from scoring.models import Deal, Match
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

CARDS_PER_CHUNK = 16
"""Scorecards rendered per WeasyPrint pass: the job's progress moves after each pass. Each
pass costs about a trivial page's time on top of its cards (its head, the form image's CSS):
16 cards (8 pages) a pass keep that small beside the cards."""

Part = tuple[str, dict]
"""A template and its context: one WeasyPrint pass."""


def _common(tournament: Tournament, language: str, printed_at: datetime.datetime) -> dict:
    return {"tournament": tournament, "language": language, "printed_at": printed_at}


# --------------------------------------------------------------------------------------------
# Scorecards
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Scorecard:
    """One printed card of a match (a long match has continuation cards): its heading, the
    deal grid (`grid`) and the values over it (`cells`, `scorecard.grid_cells`), the final score
    in game points on the last card of a decided filled match, the legend and the QR code.
    `race`: on the last card of a filled match with a deal, the match and its sheet rows for
    the running-score strip (`{% match_race_chart ... compact=True %}`); None otherwise."""

    round_number: int
    table: int | None
    name_a: str
    name_b: str
    first_dealer: str
    game_target: int
    grid: scorecard.GridLayout
    cells: list[dict]
    part: tuple[int, int] | None
    final_game_points: tuple[int, int] | None
    forfeited: bool
    legend: list[dict]
    qr: str
    race: tuple[Match, tuple] | None = None
    players_enter: bool = False
    """The QR code is the players' link (else the public match page)."""

    @property
    def form(self) -> card_form.FormImage:
        """The image of what this card prints like every other (`card_form.form_image`), in
        the active language: without the final score's row when the card prints a score."""
        return card_form.form_image(
            self.grid, card_form.form_texts(self.players_enter),
            scorecard.legend_key(self.legend), self.final_game_points is None,
        )


@dataclass(frozen=True)
class ScorecardsDocument:
    """The scorecards of some matches, two per A4 page, rendered in chunks of
    `CARDS_PER_CHUNK` (progress moves after each)."""

    TEMPLATE: ClassVar[str] = "print/scorecard.html"

    tournament: Tournament
    language: str
    printed_at: datetime.datetime
    cards: list[Scorecard]
    filled: bool

    def parts(self) -> list[Part]:
        per_page = scorecard.SCORECARDS_PER_PAGE
        chunk = CARDS_PER_CHUNK - CARDS_PER_CHUNK % per_page
        parts = []
        for start in range(0, len(self.cards), chunk):
            some = self.cards[start:start + chunk]
            parts.append((self.TEMPLATE, {
                **_common(self.tournament, self.language, self.printed_at),
                "sheets": [some[at:at + per_page] for at in range(0, len(some), per_page)],
                "grids": [
                    {"layout": grid, "row": f"{grid.row_height:.3f}",
                     "font": f"{grid.cell_font_pt:.1f}"}
                    for grid in sorted({card.grid for card in some}, key=lambda g: g.key)
                ],
                # In the stylesheet, once per document, not in each card: a long data URI
                # repeated in the HTML costs the parser more than the whole card.
                "forms": sorted({card.form for card in some}, key=lambda form: form.name),
                "form_dpi": card_form.FORM_DPI,
                "cut_line": card_form.cut_line_image(),
                "filled": self.filled,
            }))
        return parts


def match_scorecards(pairing: Pairing, deals: Sequence[Deal] | None,
                     table=None) -> list[Scorecard]:
    """The card of `pairing`'s match, and continuation cards when its deals do not fit one
    grid (`scorecard.card_grids`): each repeats the heading and says which card of how many it
    is; the final score goes on the last. `deals`: the match's deals in order for a filled card,
    None for a blank one. `table`: the match's `MatchTable` if read already (else None)."""
    match = pairing.match
    sheet = sheet_of(match, deals, names=False) if deals is not None else None
    rows = scorecard.scorecard_rows(match, sheet)
    grids = scorecard.card_grids((len(sheet.rows) if sheet else 0) + 1)
    house_rules = match.house_rules()
    over = sheet is not None and match.is_decided
    legend = scorecard.legend(house_rules)
    link, players_enter = scorecard.card_link(
        match, pairing.round.tournament.entry_mode, table)
    qr = scorecard.qr_image(link)
    cards = []
    for number, grid in enumerate(grids, start=1):
        start = grid.first_number - 1
        last = number == len(grids)
        cards.append(Scorecard(
            round_number=pairing.round.number, table=pairing.table,
            name_a=pairing.entry_a.player.name, name_b=pairing.entry_b.player.name,
            first_dealer=match.first_dealer, game_target=house_rules.game_target, grid=grid,
            cells=scorecard.grid_cells(rows[start:start + grid.capacity], grid),
            part=(number, len(grids)) if len(grids) > 1 else None,
            final_game_points=(match.game_points_a, match.game_points_b) if over and last else None,
            forfeited=over and last and match.status == Match.Status.FORFEITED,
            legend=legend, qr=qr, players_enter=players_enter,
            race=(match, tuple(sheet.rows)) if sheet is not None and sheet.rows and last
            else None,
        ))
    return cards


def _deals_by_match(pairings: Sequence[Pairing]) -> dict[int, list[Deal]]:
    by_match: dict[int, list[Deal]] = {p.match_id: [] for p in pairings}
    for deal in Deal.objects.filter(match_id__in=list(by_match)).order_by("match_id", "number"):
        by_match[deal.match_id].append(deal)
    return by_match


def scorecards_document(
    pairings: Sequence[Pairing], filled: bool, tournament: Tournament, language: str
) -> ScorecardsDocument:
    """The scorecards of `pairings` that have a match (byes skipped), with their deals when
    `filled`: one query for all the deals, and one for the players' links."""
    pairings = [p for p in pairings if p.match_id is not None]
    deals = _deals_by_match(pairings) if filled else {}
    tables = (table_entry.tables_of([p.match_id for p in pairings])
              if table_entry.players_may_enter(tournament.entry_mode) else {})
    cards = [
        card for p in pairings
        for card in match_scorecards(p, deals.get(p.match_id, []) if filled else None,
                                     tables.get(p.match_id))
    ]
    return ScorecardsDocument(tournament, language, timezone.localtime(), cards, filled)


def render_scorecards(
    pairings: Sequence[Pairing], filled: bool, language: str, progress: Progress = None
) -> bytes:
    """Scorecards of `pairings` (byes skipped), two per A4 page with a cut line between.

    `filled`: print the entered deals with the running score (dealer, winner, game points,
    reason code) and leave the rest of the grid blank. Raises `ValueError` when no pairing
    has a match.
    """
    pairings = list(pairings)
    if not any(p.match_id is not None for p in pairings):
        raise ValueError("No match to print a scorecard for.")
    tournament = pairings[0].round.tournament
    with translation.override(language):
        document = scorecards_document(pairings, filled, tournament, language)
        return render_pdf(document.parts(), progress)


# --------------------------------------------------------------------------------------------
# The round sheet and the round pack
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RoundSheetDocument:
    """A round's tables, seats and the results of its decided matches, and the bye. `label`:
    the round's name beside its number ("Semifinal", "Final", "Groups"), as the round's live
    page gives it; "" where rounds have only numbers."""

    TEMPLATE: ClassVar[str] = "print/round_sheet.html"

    tournament: Tournament
    language: str
    printed_at: datetime.datetime
    round: Round
    pairings: list[Pairing]
    label: str = ""

    def parts(self) -> list[Part]:
        return [(self.TEMPLATE, {
            **_common(self.tournament, self.language, self.printed_at),
            "round": self.round, "pairings": self.pairings, "label": self.label,
            "groups": self.tournament.event_format.has_groups,
        })]


def round_sheet_document(round_: Round, pairings: Sequence[Pairing],
                         language: str) -> RoundSheetDocument:
    """The round sheet of `round_` with its `pairings`, in the active language (`language`
    names it for the page). The round's name is the format's `round_labels`, the one the live
    pages show."""
    tournament = round_.tournament
    labels = tournament.event_format.round_labels(tournament.rounds.count())
    return RoundSheetDocument(
        tournament, language, timezone.localtime(), round_, list(pairings),
        str(labels.get(round_.number, "")),
    )


def render_round_pack(
    round_: Round, language: str, filled: bool = False, progress: Progress = None
) -> bytes:
    """The round sheet of `round_` followed by the scorecards of all its matches."""
    pairings = list(events_selectors.pairings_of_round(round_).select_related("round__tournament"))
    with translation.override(language):
        parts = round_sheet_document(round_, pairings, language).parts()
        parts += scorecards_document(pairings, filled, round_.tournament, language).parts()
        return render_pdf(parts, progress)


def render_group_sheets(tournament: Tournament, language: str, progress: Progress = None) -> bytes:
    """The round sheets of every round of the group stage, one after the other in one PDF
    (each round holds that round of every group, with the group of each pairing)."""
    parts = []
    with translation.override(language):
        for round_ in tournament.rounds.filter(stage=Round.Stage.GROUPS).order_by("number"):
            pairings = list(events_selectors.pairings_of_round(round_))
            parts += round_sheet_document(round_, pairings, language).parts()
        return render_pdf(parts, progress)


def render_round_sheet(round_: Round, language: str) -> bytes:
    """The round sheet alone: tables, seats, results of finished matches, the bye."""
    pairings = list(events_selectors.pairings_of_round(round_))
    with translation.override(language):
        return render_pdf(round_sheet_document(round_, pairings, language).parts())


# --------------------------------------------------------------------------------------------
# Standings
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GroupRows:
    """One group's standings as printed: its letter, size, rows (`tables.standings_rows`)
    and the names of the players going on to the knockout."""

    letter: str
    size: int
    rows: list[dict]
    going_on: list[str]


@dataclass(frozen=True)
class StandingsDocument:
    """The standings rows (`tables.standings_rows`), the withdrawn players listed apart, the
    tie-break order, the count of matches being played and, for a round robin, the race
    (`standings_selectors.standings_race`: each player's place after every round; empty
    otherwise)."""

    TEMPLATE: ClassVar[str] = "print/standings.html"

    tournament: Tournament
    language: str
    printed_at: datetime.datetime
    rows: list[dict]
    withdrawn: list[str]
    tie_break_labels: list[str]
    playing: int
    race: list[standings_selectors.RaceRow]
    unsigned: int = 0
    """How many counted results the players have not both signed yet (a footnote; their rows
    are marked *)."""
    groups: list[GroupRows] = ()
    """An event with a group stage: a table per group instead of one (`group_rows`)."""

    def parts(self) -> list[Part]:
        return [(self.TEMPLATE, {
            **_common(self.tournament, self.language, self.printed_at),
            "table": standings_table(self.tournament, self.rows),
            "withdrawn": self.withdrawn, "tie_break_labels": self.tie_break_labels,
            "playing": self.playing, "race": self.race, "unsigned": self.unsigned,
            "groups": [
                (group, StandingsTable(group.rows, self.tournament.tie_breaks, orderable=False))
                for group in self.groups
            ],
        })]


def standings_table(tournament: Tournament, rows: list[dict]) -> StandingsTable:
    """The standings page's table for the print: a Swiss's with its score, byes and
    tie-break columns (the format's `standings_by_score`), else the tournament's order."""
    event_format = tournament.event_format
    table_class = SwissStandingsTable if event_format.standings_by_score else StandingsTable
    return table_class(rows, event_format.tie_break_order(), orderable=False)


def group_rows(tournament: Tournament) -> list[GroupRows]:
    """Each group's printed standings (`standings_selectors.group_tables`); [] without a group
    stage."""
    if not tournament.event_format.has_groups:
        return []
    return [
        GroupRows(table.letter, table.size, standings_rows(table.ranked),
                  [entry.player.name for entry in table.qualifiers()])
        for table in standings_selectors.group_tables(tournament)
    ]


def standings_race(tournament: Tournament) -> list[standings_selectors.RaceRow]:
    """The race printed under the standings: a round robin's (the format's `berger_cycles`, as
    the standings page decides), none for other formats."""
    if not tournament.event_format.berger_cycles:
        return []
    return standings_selectors.standings_race(tournament)


def standings_document(tournament: Tournament, language: str) -> StandingsDocument:
    groups = group_rows(tournament)
    table = standings_selectors.standings_with_withdrawn(tournament)
    playing = events_selectors.matches_in_play(tournament).count()
    provisional = provisional_counted(table_entry.provisional_results(tournament),
                                      table.withdrawn)
    return StandingsDocument(
        tournament, language, timezone.localtime(),
        [] if groups else standings_rows(table.ranked, unsigned_entries(provisional)),
        [] if groups else [entry.player.name for entry in table.withdrawn],
        [str(TIE_BREAK_LABELS[key]) for key in tournament.event_format.tie_break_order()],
        playing, standings_race(tournament), len(provisional), groups,
    )


def render_standings(tournament: Tournament, language: str, progress: Progress = None) -> bytes:
    """The standings table (the columns of the standings page), a round robin's race under it,
    then the tie-break order and the withdrawal policy."""
    with translation.override(language):
        return render_pdf(standings_document(tournament, language).parts(), progress)


# --------------------------------------------------------------------------------------------
# The cross-table of a round robin
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CrossTableDocument:
    """A cross-table (`standings_selectors.CrossTable`: rows in standings or ladder order, each
    cell the
    meetings of the two players), A4 landscape: a round robin's or a club season's, one
    template for both. `title` names the PDF (the event, or the season and its club);
    `subtitle` is the line above the heading (name, date, venue and format of the event, or
    club, season and its dates)."""

    TEMPLATE: ClassVar[str] = "print/crosstable.html"

    title: str
    subtitle: str
    language: str
    printed_at: datetime.datetime
    table: standings_selectors.CrossTable

    def parts(self) -> list[Part]:
        return [(self.TEMPLATE, {
            "title": self.title, "subtitle": self.subtitle, "language": self.language,
            "printed_at": self.printed_at, "table": self.table,
        })]


def _day(value: datetime.date) -> str:
    """A date as the printed documents write it: 5.12.2026."""
    return dateformat.format(value, "j.m.Y")


def cross_table_document(tournament: Tournament, language: str) -> CrossTableDocument:
    """Raises `ValueError` for an event that is not a round robin (no `berger_cycles`)."""
    cycles = tournament.event_format.berger_cycles
    if not cycles:
        raise ValueError("Only a round robin has a cross-table.")
    subtitle = [tournament.name, _day(tournament.date), tournament.venue,
                str(tournament.get_format_display())]
    return CrossTableDocument(
        tournament.name, " · ".join(part for part in subtitle if part), language,
        timezone.localtime(), standings_selectors.tournament_cross_table(tournament, cycles),
    )


def season_cross_table_document(season: Season, language: str) -> CrossTableDocument:
    """A club season's cross-table (`standings_selectors.season_cross_table`: the matches of
    the club's
    public events within the season, for every reader, as the season's page shows them)."""
    return CrossTableDocument(
        f"{season.name} · {season.club.name}",
        f"{season.club.name} · {season.name} · {_day(season.starts)} – {_day(season.ends)}",
        language, timezone.localtime(), standings_selectors.season_cross_table(season),
    )


def render_cross_table(tournament: Tournament, language: str, progress: Progress = None) -> bytes:
    """The cross-table of a round robin on A4 landscape: the players in standings order, each
    cell the row player's game points : the column player's, match wins, game points, place."""
    with translation.override(language):
        return render_pdf(cross_table_document(tournament, language).parts(), progress)


def render_season_cross_table(season: Season, language: str, progress: Progress = None) -> bytes:
    """A club season's cross-table on A4 landscape, as `render_cross_table` prints a round
    robin's: the players in ladder order (the ranked, then those with too few matches, place
    "–"), each cell every meeting of the two in the season, oldest first."""
    with translation.override(language):
        return render_pdf(season_cross_table_document(season, language).parts(), progress)


# --------------------------------------------------------------------------------------------
# The knockout bracket
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BracketDocument:
    """The bracket (`knockout_selectors.Bracket`) and its pages laid out in mm
    (`bracket.bracket_pages`), A4 landscape."""

    TEMPLATE: ClassVar[str] = "print/bracket.html"

    tournament: Tournament
    language: str
    printed_at: datetime.datetime
    bracket: knockout_selectors.Bracket
    pages: list[dict]

    def parts(self) -> list[Part]:
        return [(self.TEMPLATE, {
            **_common(self.tournament, self.language, self.printed_at),
            "bracket": self.bracket, "pages": self.pages, "page_count": len(self.pages),
            "area": {
                "width": bracket_geometry.mm(bracket_geometry.BRACKET_WIDTH),
                "height": bracket_geometry.mm(bracket_geometry.BRACKET_HEIGHT),
            },
        })]


def bracket_document(tournament: Tournament, language: str) -> BracketDocument:
    """Raises `ValueError` before the bracket is drawn (the tournament has not started)."""
    bracket = knockout_selectors.bracket(tournament)
    if not bracket.columns:
        raise ValueError("The bracket is drawn when the tournament starts.")
    pages = bracket_geometry.bracket_pages(bracket)
    return BracketDocument(tournament, language, timezone.localtime(), bracket, pages)


def render_bracket(tournament: Tournament, language: str, progress: Progress = None) -> bytes:
    """The knockout bracket on A4 landscape: rounds as columns, seeds, names, game points,
    byes and walkovers, the champion; 64 and 128 players over several pages."""
    with translation.override(language):
        return render_pdf(bracket_document(tournament, language).parts(), progress)
