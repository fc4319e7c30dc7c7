"""A tournament's data out: the standings and the full deal log as `tablib.Dataset`s, which
the views and the `standings` command turn into CSV, XLSX or text.

Column names are fixed keys, not translated, so the files can be read back by programs: the
deal log is exactly the format `exchange.importing` reads, so exporting and importing gives
the same standings (forfeits and unplayed matches have no deals and are not in the log).

Files go out through `csv_text` and `xlsx_bytes`, never `Dataset.export` directly: a player's
name is text anyone may type, and a spreadsheet runs a cell that starts like a formula
(``=HYPERLINK(...)``, ``+``, ``-``, ``@``; OWASP "CSV injection"). The CSV prefixes such text
with ``'``, which the importer takes off again; the XLSX stores it as a text cell with Excel's
quote-prefix style, so it shows literally. Numbers stay numbers (a difference of -4 is -4).
"""

import io
import itertools

import openpyxl
import tablib
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.styles import Font

from events.models import Tournament
from exchange.importing import COLUMNS as DEAL_LOG_COLUMNS
from scoring.match_sheet import sheet_of
from scoring.models import Deal
from standings import selectors

STANDINGS_COLUMNS: tuple[str, ...] = (
    "rank", "player", "withdrawn", "played", "won", "lost", "gp_for", "gp_against",
    "game_point_difference",
)
"""The first columns of the standings; the tie-break keys of the tournament follow in its
order (`head_to_head`, `game_points_scored`, ... as in `standings.tie_breaks`), less
`game_point_difference`, which is already here: no column twice. A tie-break that was not
applied (head-to-head of a player nobody is level with) is empty. `withdrawn` is ``yes`` for a
player who withdrew, empty otherwise."""

SCORE_COLUMNS = ("score", "byes")
"""A Swiss's columns after the game points (the format's `standings_by_score`): the score
(wins, and byes when they score) and the byes had; its tie-breaks follow in the published
order (`buchholz`, `buchholz_cut_1`, ... as in `standings.swiss_tie_breaks`), halves
as decimals (5.5)."""

WITHDRAWN = "yes"
"""The `withdrawn` cell of a player who withdrew (a fixed key, like the column names)."""

GOES_ON = "yes"
"""The `goes_on` cell of a player whose group sends them to the knockout."""


def _has_groups(tournament: Tournament) -> bool:
    return tournament.event_format.has_groups


FINAL_SCORE_ONLY = "final_score_only"
"""The last column of the standings of an event that keeps only final scores
(`Tournament.final_score_only`): `yes` on every row, so a file read alone still says its
results have no deals behind them. Events that keep deals have no such column."""


def standings_dataset(tournament: Tournament) -> tablib.Dataset:
    """The standings as the page shows them (`selectors.standings_with_withdrawn`): the
    ranked players best first, then the withdrawn players whose results are all cancelled
    (FIDE policy, under half played) with an empty rank and empty results. Game points are
    `gp_*` and `game_point_difference`; `withdrawn` marks every player who withdrew, under
    any policy. A Swiss adds `SCORE_COLUMNS` and its own tie-breaks; an event with groups has
    a table per group (`_group_standings_dataset`). An event that keeps only final scores
    adds the column `final_score_only` (`FINAL_SCORE_ONLY`), `yes` on every row."""
    event_format = tournament.event_format
    by_score = SCORE_COLUMNS if event_format.standings_by_score else ()
    tie_breaks = [
        key for key in event_format.tie_break_order() if key not in STANDINGS_COLUMNS
    ]
    if _has_groups(tournament):
        return _group_standings_dataset(tournament, tie_breaks)
    marked = [FINAL_SCORE_ONLY] if tournament.final_score_only else []
    mark = [WITHDRAWN] if marked else []
    data = tablib.Dataset(headers=[*STANDINGS_COLUMNS, *by_score, *tie_breaks, *marked],
                          title="standings")
    table = selectors.standings_with_withdrawn(tournament)
    for entry, row in table.ranked:
        data.append([
            row.rank, entry.player.name, WITHDRAWN if entry.withdrawn else None, row.played,
            row.won, row.lost, row.game_points_for, row.game_points_against,
            row.game_point_difference, *(getattr(row, key) for key in by_score),
            *(row.tie_breaks.get(key) for key in tie_breaks), *mark,
        ])
    for entry in table.withdrawn:
        empty = [None] * (len(STANDINGS_COLUMNS) - 3 + len(by_score) + len(tie_breaks))
        data.append([None, entry.player.name, WITHDRAWN, *empty, *mark])
    return data


def _group_standings_dataset(tournament: Tournament, tie_breaks: list[str]) -> tablib.Dataset:
    """An event with a group stage: `group` (its letter) first, then each group's standings
    as a round robin's (`selectors.group_tables`), and `goes_on` (``yes`` for a player who
    goes on to the knockout)."""
    data = tablib.Dataset(
        headers=["group", *STANDINGS_COLUMNS, *tie_breaks, "goes_on"], title="standings"
    )
    for table in selectors.group_tables(tournament):
        for entry, row in table.ranked:
            data.append([
                table.letter, row.rank, entry.player.name,
                WITHDRAWN if entry.withdrawn else None, row.played, row.won, row.lost,
                row.game_points_for, row.game_points_against, row.game_point_difference,
                *(row.tie_breaks.get(key) for key in tie_breaks),
                GOES_ON if entry.pk in table.goes_on else None,
            ])
        for entry in table.standings.withdrawn:
            empty = [None] * (len(STANDINGS_COLUMNS) - 3 + len(tie_breaks))
            data.append([table.letter, None, entry.player.name, WITHDRAWN, *empty, None])
    return data


def deal_log_dataset(tournament: Tournament) -> tablib.Dataset:
    """Every deal of the tournament, by round, table and deal number, in the import format
    (`round,table,player_a,player_b,deal,winner,game_points,reason`; a draw's winner is
    `draw`), the rows of each match's `match_sheet`. An event with a group stage adds
    `stage` (``groups`` or ``knockout``) and `group` (the letter of a group match), which
    the importer ignores. One query."""
    groups = _has_groups(tournament)
    extra = ["stage", "group"] if groups else []
    data = tablib.Dataset(headers=[*DEAL_LOG_COLUMNS, *extra], title="deals")
    deals = (
        Deal.objects.filter(match__pairing__round__tournament=tournament)
        .select_related("match__player_a", "match__player_b", "match__pairing__round",
                        "match__pairing__entry_a")
        .order_by("match__pairing__round__number", "match__pairing__table", "number")
    )
    for _match_id, of_match in itertools.groupby(deals, key=lambda deal: deal.match_id):
        of_match = list(of_match)
        match = of_match[0].match
        pairing = match.pairing
        stage = [pairing.round.stage, pairing.entry_a.group_letter
                 if pairing.bracket_index is None else ""] if groups else []
        for row in sheet_of(match, of_match).rows:
            data.append([
                pairing.round.number, pairing.table, match.player_a.name, match.player_b.name,
                row.number, row.winner or "draw", row.game_points, row.reason, *stage,
            ])
    return data


FORMULA_STARTS: tuple[str, ...] = ("=", "+", "-", "@", "\t", "\r")
"""How a text cell may start that a spreadsheet would read as a formula (OWASP)."""


def spreadsheet_text(value):
    """`value` made safe for a CSV cell: text that starts with one of `FORMULA_STARTS` gets a
    leading ``'`` (shown as text by Excel and LibreOffice); numbers, None and other text are
    returned unchanged. `exchange.importing` removes that ``'`` when it reads a name."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def csv_text(data: tablib.Dataset, **options) -> str:
    """`data` as CSV text with every formula-like text cell neutralised (`spreadsheet_text`);
    `options` go to tablib's CSV writer (e.g. ``lineterminator``)."""
    safe = tablib.Dataset(headers=data.headers, title=data.title)
    for row in data:
        safe.append([spreadsheet_text(value) for value in row])
    return safe.export("csv", **options)


def xlsx_bytes(data: tablib.Dataset) -> bytes:
    """`data` as an XLSX workbook of one sheet (bold, frozen header row). Numbers are number
    cells; text is always a text cell, never a formula, with the quote-prefix style when it
    starts like one (`FORMULA_STARTS`), so ``=HYPERLINK("…")`` shows as written. Characters
    an XLSX cannot hold (control characters) are left out."""
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = data.title or "data"
    sheet.append([str(name) for name in data.headers])
    for cell in sheet[1]:
        cell.font = Font(bold=True)
    sheet.freeze_panes = "A2"
    for row in data:
        sheet.append([
            ILLEGAL_CHARACTERS_RE.sub("", value) if isinstance(value, str) else value
            for value in row
        ])
    for row in sheet.iter_rows():
        for cell in row:
            if isinstance(cell.value, str):
                cell.data_type = "s"
                cell.quotePrefix = cell.value.startswith(FORMULA_STARTS)
    for column in sheet.columns:
        width = max(len(str(cell.value)) for cell in column if cell.value is not None)
        sheet.column_dimensions[column[0].column_letter].width = width + 2
    stream = io.BytesIO()
    book.save(stream)
    return stream.getvalue()


def text_table(data: tablib.Dataset) -> str:
    """`data` as an aligned plain-text table (numbers right, text left; empty shown as -)."""
    header = [str(name) for name in data.headers]
    body = [["-" if value is None else str(value) for value in row] for row in data]
    numeric = [
        all(isinstance(row[i], int) or row[i] is None for row in data)
        for i in range(len(header))
    ]
    widths = [max(len(cell) for cell in [header[i], *(r[i] for r in body)])
              for i in range(len(header))]

    def line(cells):
        return "  ".join(
            cell.rjust(width) if right else cell.ljust(width)
            for cell, width, right in zip(cells, widths, numeric, strict=True)
        ).rstrip()

    rule = "  ".join("-" * width for width in widths)
    return "\n".join([line(header), rule, *(line(row) for row in body)]) + "\n"
