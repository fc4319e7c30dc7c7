"""What can be printed: the registry of document kinds, each kind's data version, and `build`.

A document's data version is a fingerprint of the data it prints, of its templates and
stylesheet (`pdf.template_version`) and of the Python that lays it out (`layout_code_version`):
a finished file is served again only while none has changed, so no hand-kept layout number can
let a stale PDF out. A new kind adds a document to
`documents`, a version function and a `PrintKind` entry here, and its value to `PrintJob.Kind`.
A club season's documents (its cross-table) have their own small registry, `SEASON_KINDS`.
"""

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from django.conf import settings
from django.db.models import Count, Max
from django.utils.translation import gettext_lazy as _

from club.models import Season
from core import charts
from core.fingerprints import fingerprint
from core.templatetags import charts as chart_tags
from events import selectors as events_selectors
from events.models import Pairing, Round, Tournament
from printing import bracket as bracket_layout
from printing import documents, scorecard
from printing.pdf import Progress, template_version
from printing.scorecard import site_url
from scoring import reason_codes
from scoring.models import Deal, Match
from standings import selectors as standings_selectors
from standings.tables import standings_rows


@lru_cache(maxsize=1)
def layout_code_version() -> str:
    """The fingerprint of the modules that turn data into what a page shows (`documents`,
    `scorecard`: the grid's geometry and image; `reason_codes`: the legend; `bracket`: the
    boxes in mm; the pictures' drawing and template tags, `core.charts` and
    `core.templatetags.charts`), read once per process."""
    return fingerprint([
        Path(module.__file__).read_text(encoding="utf-8")
        for module in (documents, scorecard, reason_codes, bracket_layout, charts, chart_tags)
    ])


def _tournament_part(tournament: Tournament, *templates: str) -> list:
    """What every document prints of its tournament, and the versions of its `templates` and
    of the layout code."""
    return [
        [template_version(template) for template in templates], layout_code_version(),
        site_url(), tournament.name, tournament.date, tournament.venue, tournament.format,
        tournament.tie_breaks, tournament.withdrawal_policy, tournament.game_target,
        tournament.records,
    ]


def round_version(tournament: Tournament, round_: Round, filled: bool, sheet: bool) -> str:
    """What a round's scorecards (and, with `sheet`, its round sheet) print: tables, names,
    first dealers, house rules; the results of finished matches when they show (on the sheet, in
    the final-score box of filled cards); every deal for filled cards. A deal entered into a
    match therefore leaves the blank scorecards as they were."""
    results = filled or sheet
    pairings = [
        (*row[:6], row[6:] if results and row[6] in Match.DECIDED else None)
        for row in round_.pairings.order_by("table", "pk").values_list(
            "table", "entry_a__player__name", "entry_b__player__name", "match_id",
            "match__first_dealer", "match__house_rules_snapshot", "match__status",
            "match__game_points_a", "match__game_points_b", "match__winner",
        )
    ]
    deals = []
    if filled:
        deals = list(
            Deal.objects.filter(match__pairing__round=round_)
            .order_by("match_id", "number")
            .values_list("match_id", "number", "winner", "game_points", "reason")
        )
    templates = [documents.ScorecardsDocument.TEMPLATE]
    if sheet:
        templates.append(documents.RoundSheetDocument.TEMPLATE)
    return fingerprint(
        _tournament_part(tournament, *templates), round_.number, filled, sheet, pairings, deals
    )


def bracket_version(tournament: Tournament) -> str:
    """Everything a printed bracket shows: each pairing's place, players, seeds, walkover, the
    state and score of its match."""
    pairings = list(
        Pairing.objects.filter(round__tournament=tournament, bracket_index__isnull=False)
        .order_by("round__number", "is_third_place", "bracket_index")
        .values_list(
            "round__number", "is_third_place", "bracket_index", "walkover",
            "entry_a__number", "entry_a__player__name", "entry_a__withdrawn",
            "entry_b__number", "entry_b__player__name", "entry_b__withdrawn",
            "match__status", "match__game_points_a", "match__game_points_b", "match__winner",
        )
    )
    return fingerprint(
        _tournament_part(tournament, documents.BracketDocument.TEMPLATE),
        tournament.third_place_match, pairings,
    )


def standings_version(tournament: Tournament) -> str:
    """The standings rows themselves, the withdrawn players listed apart, the count of
    matches being played and a round robin's race (each player's place after every round)."""
    table = standings_selectors.standings_with_withdrawn(tournament)
    rows = standings_rows(table.ranked)
    withdrawn = [entry.player.name for entry in table.withdrawn]
    playing = events_selectors.matches_in_play(tournament).aggregate(
        count=Count("pk"), last=Max("pk"))
    race = [(row.entry.pk, row.places) for row in documents.standings_race(tournament)]
    groups = [(g.letter, g.size, g.rows, g.going_on) for g in documents.group_rows(tournament)]
    return fingerprint(
        _tournament_part(tournament, documents.StandingsDocument.TEMPLATE), rows, withdrawn,
        playing, race, groups,
    )


def group_sheets_version(tournament: Tournament) -> str:
    """The round sheets of every group round: each as `round_version` prints it."""
    return fingerprint([
        round_version(tournament, round_, False, sheet=True)
        for round_ in tournament.rounds.filter(stage=Round.Stage.GROUPS).order_by("number")
    ])


def cross_table_lines(table: standings_selectors.CrossTable) -> list:
    """What a printed cross-table shows of its lines, for a fingerprint: number, name, place,
    wins, game points, each cell's meetings, withdrawn."""
    return [
        (line.number, line.name, line.rank, line.won, line.game_points_for,
         line.game_points_against, line.withdrawn,
         [None if cell is None else [(str(m), m.won, m.forfeit) for m in cell]
          for cell in line.row.cells])
        for line in table.lines
    ]


def cross_table_version(tournament: Tournament) -> str:
    """Everything a printed cross-table shows: its lines (`cross_table_lines`) as
    `standings_selectors.tournament_cross_table` gives them."""
    table = documents.cross_table_document(tournament, settings.LANGUAGE_CODE).table
    return fingerprint(
        _tournament_part(tournament, documents.CrossTableDocument.TEMPLATE), table.cycles,
        cross_table_lines(table),
    )


def season_cross_table_version(season: Season) -> str:
    """Everything a club season's printed cross-table shows: the club's and season's names,
    the dates, and its lines as `standings_selectors.season_cross_table` gives them (public
    events only,
    the same for every reader); the template's and the layout code's versions."""
    table = standings_selectors.season_cross_table(season)
    return fingerprint(
        [template_version(documents.CrossTableDocument.TEMPLATE)], layout_code_version(),
        season.club.name, season.name, season.starts, season.ends, season.min_matches,
        cross_table_lines(table),
    )


# --------------------------------------------------------------------------------------------
# The registry
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PrintKind:
    """What one `PrintJob.Kind` needs: a round or not, whether "filled" means anything, how to
    build it, how to fingerprint its data and what to call the file."""

    label: str
    needs_round: bool
    takes_filled: bool
    render: Callable[..., bytes]  # (tournament, round_ | None, language, filled, progress)
    version: Callable[..., str]  # (tournament, round_ | None, filled)
    filename: Callable[[int | None, bool], str]  # (round number, filled)


def _render_scorecards_kind(tournament, round_, language, filled, progress=None) -> bytes:
    pairings = events_selectors.pairings_of_round(round_).select_related("round__tournament")
    return documents.render_scorecards(pairings, filled, language, progress)


def _render_round_kind(tournament, round_, language, filled, progress=None) -> bytes:
    return documents.render_round_pack(round_, language, filled, progress)


def _render_standings_kind(tournament, round_, language, filled, progress=None) -> bytes:
    return documents.render_standings(tournament, language, progress)


KINDS: dict[str, PrintKind] = {
    "scorecards": PrintKind(
        label=_("scorecards"), needs_round=True, takes_filled=True,
        render=_render_scorecards_kind,
        version=lambda tournament, round_, filled: round_version(
            tournament, round_, filled, sheet=False
        ),
        filename=lambda number, filled: f"round-{number}-scorecards{'-filled' if filled else ''}",
    ),
    "round": PrintKind(
        label=_("round sheet and scorecards"), needs_round=True, takes_filled=True,
        render=_render_round_kind,
        version=lambda tournament, round_, filled: round_version(
            tournament, round_, filled, sheet=True
        ),
        filename=lambda number, filled: f"round-{number}-pack{'-filled' if filled else ''}",
    ),
    "standings": PrintKind(
        label=_("standings"), needs_round=False, takes_filled=False,
        render=_render_standings_kind,
        version=lambda tournament, round_, filled: standings_version(tournament),
        filename=lambda number, filled: "standings",
    ),
    "bracket": PrintKind(
        label=_("bracket"), needs_round=False, takes_filled=False,
        render=lambda tournament, round_, language, filled, progress=None: documents.render_bracket(
            tournament, language, progress
        ),
        version=lambda tournament, round_, filled: bracket_version(tournament),
        filename=lambda number, filled: "bracket",
    ),
    "group_sheets": PrintKind(
        label=_("round sheets of every group"), needs_round=False, takes_filled=False,
        render=lambda tournament, round_, language, filled, progress=None: (
            documents.render_group_sheets(tournament, language, progress)
        ),
        version=lambda tournament, round_, filled: group_sheets_version(tournament),
        filename=lambda number, filled: "group-round-sheets",
    ),
    "crosstable": PrintKind(
        label=_("cross-table"), needs_round=False, takes_filled=False,
        render=lambda tournament, round_, language, filled, progress=None: (
            documents.render_cross_table(tournament, language, progress)
        ),
        version=lambda tournament, round_, filled: cross_table_version(tournament),
        filename=lambda number, filled: "crosstable",
    ),
}


def build(
    *, tournament: Tournament, kind: str, round_number: int | None, language: str,
    filled: bool = False, progress: Progress = None,
) -> tuple[bytes, str]:
    """Build one PDF synchronously; return its bytes and the data version it was built from.

    Raises `KeyError` for an unknown kind and `Round.DoesNotExist` for a missing round.
    """
    spec = KINDS[kind]
    round_ = tournament.rounds.get(number=round_number) if spec.needs_round else None
    filled = filled and spec.takes_filled
    version = spec.version(tournament, round_, filled)
    return spec.render(tournament, round_, language, filled, progress), version


def filename(kind: str, round_number: int | None, filled: bool, language: str) -> str:
    """"round-3-scorecards.pdf"; another language than the site's default adds "-en"."""
    spec = KINDS[kind]
    return _with_language(spec.filename(round_number, filled and spec.takes_filled), language)


def _with_language(name: str, language: str) -> str:
    if language != settings.LANGUAGE_CODE:
        name += f"-{language}"
    return f"{name}.pdf"


# --------------------------------------------------------------------------------------------
# A club season's documents
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SeasonKind:
    """What a club season's `PrintJob.Kind` needs: how to build it, how to fingerprint its
    data and what to call the file."""

    label: str
    render: Callable[..., bytes]  # (season, language, progress)
    version: Callable[[Season], str]
    filename: str


SEASON_KINDS: dict[str, SeasonKind] = {
    "crosstable": SeasonKind(
        label=_("cross-table"), render=documents.render_season_cross_table,
        version=season_cross_table_version, filename="season-crosstable",
    ),
}


def season_build(
    *, season: Season, kind: str, language: str, progress: Progress = None
) -> tuple[bytes, str]:
    """Build one PDF of a club season synchronously; return its bytes and the data version it
    was built from. Raises `KeyError` for a kind a season does not print."""
    spec = SEASON_KINDS[kind]
    version = spec.version(season)  # before the data is read again: never newer than the file
    return spec.render(season, language, progress), version


def season_filename(kind: str, language: str) -> str:
    """"season-crosstable.pdf"; another language than the site's default adds "-en"."""
    return _with_language(SEASON_KINDS[kind].filename, language)
