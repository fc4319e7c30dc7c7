"""The scorecard's content: the deal grid's geometry and the values laid over it, the rows it
prints, the legend of reason codes and the QR code.

The empty grid, the legend and the rest of what every card prints alike are drawn once per
document as one image (`printing.card_form`); only the entered values are laid
out as text over it (`grid_cells`). Laying the grid out as ~170 table cells per card (or
drawing it as SVG with its 36 texts per card) took three quarters of the build time. Lengths
in millimetres.

The geometry (`grid_layout`, `card_grids`, `grid_widths`, `grid_cells`) and the rows
(`scorecard_rows`) are plain Python, tested without rendering a PDF.
"""

import base64
import io
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import zxingcpp
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from PIL import Image

from core.site_address import site_url as core_site_url
from scoring.match_sheet import MatchSheet
from scoring.models import Match
from scoring.reason_codes import REASON_CODES, legend  # noqa: F401  (the cards' legend)
from tableside import table_entry

SCORECARDS_PER_PAGE = 2
ROWS_PER_COLUMN = 11
"""The deal grid is printed in columns of 11 rows of 7 mm, two side by side: 22 rows, more than
the 21 deals the longest match to 11 without draws can last. A longer filled match (draws) gets
a third column, then shorter rows (`grid_layout`), then a continuation card."""
MIN_COLUMNS = 2
MAX_COLUMNS = 3
"""More columns would leave the dealer, winner, game-point and code cells under 5 mm wide."""
MAX_ROWS_PER_COLUMN = 14
"""Rows of 77 / 14 = 5.5 mm with 7.9 pt figures: still written in by hand and read at arm's
length. 3 x 14 = 42 rows on a card; a match needing more goes on continuation cards."""


GRID_WIDTH = 188.0
GRID_GAP = 6.0
GRID_HEAD = 6.0
GRID_ROW = 7.0
GRID_BODY = ROWS_PER_COLUMN * GRID_ROW
"""77 mm of rows under the 6 mm heading: the grid is 83 mm high whatever its rows."""
CELL_FONT_PT = 10.0
"""Size of the printed values in a 7 mm row; shorter rows scale it down with them."""
NUMBER_FONT_MM, LABEL_FONT_MM = 2.65, 2.3
NUMBER_WIDTH, TOTAL_WIDTH = 8.0, 16.0
GRID_FIELDS = (
    "number", "dealer", "winner", "game_points", "code", "game_points_a", "game_points_b",
)
RUNNING_FIELDS = ("game_points_a", "game_points_b")
"""The running score's cells: printed bold, behind thick lines."""


def site_url() -> str:
    """The site's address as printed (`SITE_URL`), or the development server's
    (`core.site_address.site_url`, which also tells whether a phone can open it)."""
    return core_site_url()


def match_entry_url(match_pk: int) -> str:
    """The absolute address of a match's entry page: what the scorecard's QR code opens."""
    return site_url().rstrip("/") + reverse("matches:entry", args=[match_pk])


def card_link(match: Match, entry_mode: str, table=None) -> tuple[str, bool]:
    """What a scorecard's QR code opens, and whether it is the players' link: the match's
    players' link (`tableside.table_entry`) when its event's `entry_mode` lets the players
    enter and the match is not over; else the public match page (`match_entry_url`). `table`:
    the match's `MatchTable` when the caller has read it (`table_entry.tables_of`), else None
    (read, or made, here)."""
    if table_entry.players_may_enter(entry_mode) and not match.is_over:
        return site_url().rstrip("/") + table_entry.entry_path(match, table), True
    return match_entry_url(match.pk), False


@lru_cache(maxsize=1024)
def qr_image(url: str) -> str:
    """The QR code of `url` (error correction M) as a PNG data URI, one grey level byte per
    module and no margin (the stylesheet scales it up without smoothing, the card leaves white
    round it): a few hundred bytes, cheaper to draw than the same as SVG.

    Drawn by zxing-cpp's encoder (C++: under half a millisecond a code, where segno's pure
    Python took 5-7 ms choosing the mask, a sixth of a round pack's time), as 8-bit grey:
    WeasyPrint takes a grey PNG as it is, while it turns a 1-bit one into RGB and encodes it
    again. Kept per process (a link's code never changes): a reprint of a round, or its pack
    after its scorecards, finds its codes made."""
    code = zxingcpp.create_barcode(url, zxingcpp.BarcodeFormat.QRCode, ec_level="M")
    modules = memoryview(code.to_image(with_quiet_zones=False))
    height, width = modules.shape
    image = Image.frombytes("L", (width, height), modules.tobytes())
    png = io.BytesIO()
    image.save(png, "PNG")
    return "data:image/png;base64," + base64.b64encode(png.getvalue()).decode()


# --------------------------------------------------------------------------------------------
# Rows and legend
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    """One line of a scorecard's deal grid, as printed; blank fields print as empty cells.

    `game_points` is what the deal scored, `game_points_a`/`game_points_b` the running score
    after it (game points, not card points)."""

    number: int
    dealer: str = ""
    winner: str = ""
    game_points: str = ""
    code: str = ""
    game_points_a: str = ""
    game_points_b: str = ""
    is_next: bool = False


def scorecard_rows(match: Match, sheet: MatchSheet | None) -> list[Row]:
    """The grid of `match`'s cards: the rows of its `sheet` (its deals with dealer and running
    score; None for a blank card), then blank rows up to the end of the last card's grid
    (`card_grids`). The dealer of the first blank row is known (the first dealer, or who deals
    next) and printed, unless the filled match is over."""
    rows = [
        Row(
            number=row.number, dealer=row.dealer, winner=row.winner or "=",
            game_points=str(row.game_points), code=str(REASON_CODES[row.reason]),
            game_points_a=str(row.game_points_a), game_points_b=str(row.game_points_b),
        )
        for row in (sheet.rows if sheet else ())
    ]
    entered = len(rows)
    over = sheet is not None and (match.is_over or sheet.finished)
    next_dealer = sheet.next_dealer if sheet else match.first_dealer
    capacity = sum(grid.capacity for grid in card_grids(entered + 1))
    for number in range(entered + 1, capacity + 1):
        first_blank = number == entered + 1 and not over
        rows.append(Row(number=number, dealer=next_dealer if first_blank else "",
                        is_next=first_blank))
    return rows


# --------------------------------------------------------------------------------------------
# The grid
# --------------------------------------------------------------------------------------------


def grid_widths(columns: int) -> tuple[float, ...]:
    """Widths of the seven cells of one grid column when `columns` stand side by side (mm).

    Raises `ValueError` for more columns than leave room for the cells (a bug: see
    `grid_layout`)."""
    table = (GRID_WIDTH - GRID_GAP * (columns - 1)) / columns
    middle = (table - NUMBER_WIDTH - 2 * TOTAL_WIDTH) / 4
    if middle < 4:
        raise ValueError(f"{columns} grid columns leave {middle:.2f} mm per cell.")
    return (NUMBER_WIDTH, middle, middle, middle, middle, TOTAL_WIDTH, TOTAL_WIDTH)


def grid_height() -> float:
    """The grid's height in mm, heading included, whatever its rows."""
    return GRID_HEAD + GRID_BODY


@dataclass(frozen=True)
class GridLayout:
    """The deal grid of one scorecard: `columns` side by side, `rows` per column of
    `row_height` mm each (77 mm of rows in all), deals numbered from `first_number`."""

    columns: int
    rows: int
    first_number: int = 1

    @property
    def capacity(self) -> int:
        return self.columns * self.rows

    @property
    def row_height(self) -> float:
        return GRID_BODY / self.rows

    @property
    def cell_font_pt(self) -> float:
        return CELL_FONT_PT * min(1.0, self.row_height / GRID_ROW)

    @property
    def key(self) -> str:
        """A CSS class suffix naming this grid (its rows' height and type): "2x11-1"."""
        return f"{self.columns}x{self.rows}-{self.first_number}"


def grid_layout(rows_needed: int, first_number: int = 1) -> GridLayout:
    """The grid of one card for `rows_needed` rows (deals entered + the next one): two columns
    of 11 rows of 7 mm up to 22, three up to 33, then three columns of shorter rows up to
    `MAX_ROWS_PER_COLUMN` (42 rows of 5.5 mm). More rows than that do not fit one card: see
    `card_grids`."""
    if rows_needed <= MIN_COLUMNS * ROWS_PER_COLUMN:
        return GridLayout(MIN_COLUMNS, ROWS_PER_COLUMN, first_number)
    if rows_needed <= MAX_COLUMNS * ROWS_PER_COLUMN:
        return GridLayout(MAX_COLUMNS, ROWS_PER_COLUMN, first_number)
    rows = min(MAX_ROWS_PER_COLUMN, -(-rows_needed // MAX_COLUMNS))
    return GridLayout(MAX_COLUMNS, rows, first_number)


def card_grids(rows_needed: int) -> list[GridLayout]:
    """The grids of a match's scorecard and its continuation cards, in order: one card while
    `rows_needed` fits `grid_layout`, else full cards of 3 x `MAX_ROWS_PER_COLUMN` rows with the
    deal numbers running on, the last one only as large as its rows need."""
    grids = []
    first = 1
    full = MAX_COLUMNS * MAX_ROWS_PER_COLUMN
    while rows_needed - (first - 1) > full:
        grids.append(GridLayout(MAX_COLUMNS, MAX_ROWS_PER_COLUMN, first))
        first += full
    grids.append(grid_layout(max(1, rows_needed - (first - 1)), first))
    return grids


def grid_cells(rows: Sequence[Row], layout: GridLayout) -> list[dict]:
    """The values to print over the grid of `layout` (`rows` are that card's rows, at most its
    capacity), each with its box (left, top, width in mm, as text with a decimal point) and
    its kind: "next" (the next deal's dealer), "total" (the running score) or ""."""
    widths = grid_widths(layout.columns)
    table = sum(widths)
    cells = []
    for index, row in enumerate(rows):
        left = index // layout.rows * (table + GRID_GAP)
        top = GRID_HEAD + index % layout.rows * layout.row_height
        for field, width in zip(GRID_FIELDS, widths, strict=True):
            value = getattr(row, field)
            if field != "number" and value:
                kind = "next" if row.is_next else "total" if field in RUNNING_FIELDS else ""
                cells.append({
                    "text": value, "kind": kind,
                    "left": f"{left:.2f}", "top": f"{top:.2f}", "width": f"{width:.2f}",
                })
            left += width
    return cells


def grid_labels() -> tuple[str, ...]:
    """The grid's column headings in the active language."""
    return (
        str(_("Deal")), str(_("Dealer")), str(_("Winner")), str(_("GP")), str(_("Code")),
        str(_("Total A")), str(_("Total B")),
    )


# --------------------------------------------------------------------------------------------
# The legend
# --------------------------------------------------------------------------------------------

def legend_key(items: Sequence[dict]) -> tuple[tuple[str, str, str], ...]:
    """What a card's legend (`legend`) prints, as a hashable key: (code, label, game points)."""
    return tuple((str(item["code"]), str(item["label"]), str(item["game_points"]))
                 for item in items)


def legend_words(heading: str, key: tuple) -> list[list[tuple[str, bool]]]:
    """The legend's words as runs of (text, bold): "Codes:", then "1 66, …" with the code
    bound to its label by a no-break space, " · " between the items, as the card printed it
    in text."""
    words = [[(heading, True)]]
    for index, (code, label, game_points) in enumerate(key):
        first, *rest = f"{label} ({game_points})".split(" ")
        words.append([(code, True), ("\N{NO-BREAK SPACE}" + first, False)])
        words += [[(word, False)] for word in rest]
        if index < len(key) - 1:
            words.append([("·", False)])
    return words
