"""The PDFs of a tournament: scorecards, round packs and standings (DESIGN.md "Printing").

Builders read the database through `tournaments.selectors`, render `templates/print/*.html` in
the language asked for and turn the HTML into A4 PDF bytes with WeasyPrint. They write nothing:
`tournaments.print_services` keeps the job row and the file, the `print` command writes to disk.

Nothing is fetched while rendering: the stylesheet (`static/css/print.css`) is read from disk and
inlined, fonts come from the system (DejaVu covers Cyrillic), the QR code and the scorecard's
deal grid are PNG data URIs, and the URL fetcher refuses every scheme but `data:`.

Speed (bench/print_bench.py): a scorecard is a form with fixed positions over one shared grid
image, so a page costs WeasyPrint little; a 32-match round pack builds in a second or two.

The knockout bracket is laid out here too, in millimetres (`bracket_pages`): A4 landscape, up
to 32 players (5 rounds) on one page; a larger bracket is split into parts of 32 (top half and
bottom half for 64, four parts for 128) with the last rounds on a page of their own, and each
page says where it continues.

`KINDS` is the registry of what can be printed; a new kind adds a render function, a version
function and a filename there, and its value to `PrintJob.Kind`.
"""

import base64
import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

import segno
from django.conf import settings
from django.contrib.staticfiles import finders
from django.db.models import Count, Max
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy
from PIL import Image, ImageDraw, ImageFont
from weasyprint import HTML
from weasyprint.text.fonts import FontConfiguration
from weasyprint.urls import URLFetcher

from scoring import rules
from scoring.models import Deal, Match, Reason
from tournaments import selectors
from tournaments.forms import TIE_BREAK_LABELS
from tournaments.models import Pairing, Round, Tournament
from tournaments.pure.fingerprints import fingerprint
from tournaments.tables import StandingsTable, standings_rows

Progress = Callable[[int], None] | None

LAYOUT_VERSION = "2"
"""Part of every data version: bump it when the templates change what a printed file shows."""

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
CARDS_PER_CHUNK = 8
"""Scorecards rendered per WeasyPrint pass: the job's progress moves after each pass."""

REASON_CODES = {
    "won": "1",
    "schneider": "2",
    "capot": "3",
    # Translators: short code printed on scorecards for "false claim of 66" (2-3 letters).
    "false_claim": pgettext_lazy("reason code", "FC"),
    # Translators: short code printed on scorecards for "closer failed" (2-3 letters).
    "closer_failed": pgettext_lazy("reason code", "CF"),
    # Translators: short code on scorecards for "opponent of the closer went out" (2-3 letters).
    "opponent_out_after_close": pgettext_lazy("reason code", "OO"),
    # Translators: short code on scorecards for "last trick wins the deal" (2-3 letters).
    "last_trick": pgettext_lazy("reason code", "LT"),
    "draw": "=",
}


def site_url() -> str:
    return getattr(settings, "SITE_URL", "") or "http://127.0.0.1:8000"


def match_entry_url(match_pk: int) -> str:
    """The absolute address of a match's entry page: what the scorecard's QR code opens."""
    return site_url().rstrip("/") + reverse("matches:entry", args=[match_pk])


def qr_image(url: str) -> str:
    """The QR code of `url` as a PNG data URI, one pixel per module (the stylesheet scales it
    up without smoothing): a few hundred bytes, and cheaper to draw than the same as SVG."""
    return segno.make(url, error="m").png_data_uri(scale=1, border=0)


# --------------------------------------------------------------------------------------------
# Rendering
# --------------------------------------------------------------------------------------------


def _stylesheet() -> str:
    path = finders.find("css/print.css")
    with open(path, encoding="utf-8") as css:
        return css.read()


_FETCHER = URLFetcher(allowed_protocols={"data"})


def _document(template: str, context: dict, fonts: FontConfiguration, images: dict):
    html = render_to_string(template, {**context, "css": _stylesheet()})
    return HTML(
        string=html, base_url=str(settings.BASE_DIR), url_fetcher=_FETCHER
    ).render(font_config=fonts, cache=images)


def _pdf(parts: Sequence[tuple[str, dict]], progress: Progress = None) -> bytes:
    """Render each (template, context) part and join their pages into one PDF."""
    fonts, images = FontConfiguration(), {}
    documents = []
    for done, (template, context) in enumerate(parts, start=1):
        documents.append(_document(template, context, fonts, images))
        if progress:
            progress(int(90 * done / len(parts)))
    pages = [page for document in documents for page in document.pages]
    pdf = documents[0].copy(pages).write_pdf()
    if progress:
        progress(100)
    return pdf


def _common(tournament: Tournament, language: str) -> dict:
    return {
        "tournament": tournament, "language": language, "printed_at": timezone.localtime(),
    }


# --------------------------------------------------------------------------------------------
# Scorecards
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    """One line of a scorecard's deal grid; blank fields print as empty cells."""

    number: int
    dealer: str = ""
    winner: str = ""
    game_points: str = ""
    code: str = ""
    total_a: str = ""
    total_b: str = ""
    is_next: bool = False


def _deal_rows(match: Match, deals: Sequence[Deal], filled: bool) -> list[Row]:
    """The grid: the entered deals with running totals (when `filled`), then blank rows up to the
    end of the last card's grid (`card_grids`).

    The dealer of the first blank row is known (the first dealer, or who deals next) and printed.
    """
    house_rules = match.house_rules()
    scores = [deal.score() for deal in deals] if filled else []
    dealers = rules.dealer_of_each_deal(scores, house_rules, match.first_dealer)
    result = rules.score_match(scores, house_rules, match.first_dealer)
    states = rules.running_scores(scores, house_rules, match.first_dealer)
    rows = []
    for deal, dealer, state in zip(deals if filled else [], dealers, states, strict=True):
        totals = state.points
        rows.append(Row(
            number=deal.number, dealer=dealer, winner=deal.winner or "=",
            game_points=str(deal.game_points), code=str(REASON_CODES[deal.reason]),
            total_a=str(totals["A"]), total_b=str(totals["B"]),
        ))
    entered = len(rows)
    over = filled and match.is_over
    capacity = sum(grid.capacity for grid in card_grids(entered + 1))
    for number in range(entered + 1, capacity + 1):
        first_blank = number == entered + 1 and not result.finished and not over
        rows.append(Row(
            number=number, dealer=result.next_dealer if first_blank else "", is_next=first_blank
        ))
    return rows


def _legend(house_rules: rules.HouseRules) -> list[dict]:
    """The reason codes this match's house rules allow, with the game points of each."""
    legend = []
    for reason in Reason:
        points = []
        for game_points in range(4):
            winner = None if reason == "draw" else "A"
            try:
                rules.quick_result(winner, game_points, reason.value, house_rules)
            except rules.InvalidDeal:
                continue
            points.append(game_points)
        if points:
            legend.append({
                "code": REASON_CODES[reason.value], "label": reason.label,
                "game_points": "/".join(str(p) for p in points),
            })
    return legend


# The deal grid (lines, headings, deal numbers) is one image drawn once per language and shared
# by every scorecard of a document: the PDF holds it once and each card refers to it. Only the
# entered values are laid out as text over it. Laying the grid out as ~170 table cells per card
# (or drawing it as SVG with its 36 texts per card) took three quarters of the build time.
# Lengths in millimetres; 600 dpi, the resolution of an office laser printer.
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
GRID_FIELDS = ("number", "dealer", "winner", "game_points", "code", "total_a", "total_b")
GRID_DPI = 600
GRID_FONT = "DejaVuSans.ttf"  # Pillow finds it in the system font folders, as fontconfig does


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
        """A CSS class suffix naming this grid image: "2x11-1"."""
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


def _fitting(font: ImageFont.FreeTypeFont, text: str, width: int) -> ImageFont.FreeTypeFont:
    """`font`, or a smaller size of it if `text` would not fit in `width` pixels (a long
    heading in another language)."""
    length = font.getlength(text)
    if length <= width:
        return font
    return font.font_variant(size=max(1, int(font.size * width / length)))


def _px(mm: float) -> int:
    return round(mm * GRID_DPI / 25.4)


@lru_cache(maxsize=16)
def grid_image(layout: GridLayout, labels: tuple[str, ...]) -> str:
    """The empty deal grid of `layout` (its columns side by side, headed by `labels`, deals
    numbered from its first number) as a PNG data URI."""
    columns, row_height = layout.columns, layout.row_height
    widths = grid_widths(columns)
    table, height = sum(widths), grid_height()
    image = Image.new("L", (_px(GRID_WIDTH), _px(height) + 1), 255)
    draw = ImageDraw.Draw(image)
    label_font = ImageFont.truetype(GRID_FONT, _px(LABEL_FONT_MM))
    number_font = ImageFont.truetype(
        GRID_FONT, _px(NUMBER_FONT_MM * min(1.0, row_height / GRID_ROW))
    )
    thin, thick = _px(0.21), _px(0.42)  # 0.6 pt and 1.2 pt
    for column in range(columns):
        x0 = column * (table + GRID_GAP)
        draw.rectangle([_px(x0), 0, _px(x0 + table), _px(GRID_HEAD)], fill=0xEE)
        draw.rectangle(
            [_px(x0), _px(GRID_HEAD), _px(x0 + NUMBER_WIDTH), _px(height)], fill=0xF3
        )
        for row in range(layout.rows + 2):
            y = 0 if row == 0 else GRID_HEAD + (row - 1) * row_height
            top = min(_px(y), _px(height) + 1 - thin)
            draw.rectangle([_px(x0), top, _px(x0 + table), top + thin - 1], fill=0)
        x = x0
        for index, width in enumerate((0.0, *widths)):
            x += width
            line = thick if index in (5, 6) else thin
            left = min(max(_px(x) - line // 2, 0), _px(GRID_WIDTH) - line)
            draw.rectangle([left, 0, left + line - 1, _px(height)], fill=0)
        x = x0
        for label, width in zip(labels, widths, strict=True):
            draw.text(
                (_px(x + width / 2), _px(GRID_HEAD / 2)), label,
                font=_fitting(label_font, label, _px(width - 1)), fill=0, anchor="mm",
            )
            x += width
        for row in range(layout.rows):
            draw.text(
                (_px(x0 + NUMBER_WIDTH / 2), _px(GRID_HEAD + (row + 0.5) * row_height)),
                str(layout.first_number + column * layout.rows + row), font=number_font,
                fill=0x33, anchor="mm",
            )
    png = io.BytesIO()
    image.save(png, "PNG")
    return "data:image/png;base64," + base64.b64encode(png.getvalue()).decode()


def _grid_labels() -> tuple[str, ...]:
    return (
        str(_("Deal")), str(_("Dealer")), str(_("Winner")), str(_("GP")), str(_("Code")),
        str(_("Total A")), str(_("Total B")),
    )


def _grid_cells(rows: Sequence[Row], layout: GridLayout) -> list[dict]:
    """The values to print over the grid of `layout` (`rows` are that card's rows, at most its
    capacity), each with its box (left, top, width in mm)."""
    widths = grid_widths(layout.columns)
    table = sum(widths)
    cells = []
    for index, row in enumerate(rows):
        left = index // layout.rows * (table + GRID_GAP)
        top = GRID_HEAD + index % layout.rows * layout.row_height
        for field, width in zip(GRID_FIELDS, widths, strict=True):
            value = getattr(row, field)
            if field != "number" and value:
                kind = "next" if row.is_next else "total" if field.startswith("total") else ""
                cells.append({
                    "text": value, "kind": kind,
                    "left": f"{left:.2f}", "top": f"{top:.2f}", "width": f"{width:.2f}",
                })
            left += width
    return cells


def _scorecards(pairing: Pairing, deals: Sequence[Deal], filled: bool) -> list[dict]:
    """The card of one match, and continuation cards when its deals do not fit one grid
    (`card_grids`): each repeats the heading and says which card of how many it is; the final
    score goes on the last."""
    match = pairing.match
    rows = _deal_rows(match, deals, filled)
    entered = len(deals) if filled else 0
    grids = card_grids(entered + 1)
    house_rules = match.house_rules()
    url = match_entry_url(match.pk)
    over = filled and match.is_decided
    legend = _legend(house_rules)
    qr = qr_image(url)
    cards = []
    for number, grid in enumerate(grids, start=1):
        start = grid.first_number - 1
        last = number == len(grids)
        cards.append({
            "pairing": pairing,
            "match": match,
            "name_a": pairing.entry_a.player.name,
            "name_b": pairing.entry_b.player.name,
            "game_target": house_rules.game_target,
            "grid": grid,
            "cells": _grid_cells(rows[start:start + grid.capacity], grid),
            "part": (number, len(grids)) if len(grids) > 1 else None,
            "final": (match.points_a, match.points_b) if over and last else None,
            "forfeited": over and last and match.status == Match.Status.FORFEITED,
            "legend": legend,
            "qr": qr,
        })
    return cards


def _deals_by_match(pairings: Sequence[Pairing]) -> dict[int, list[Deal]]:
    by_match: dict[int, list[Deal]] = {p.match_id: [] for p in pairings}
    for deal in Deal.objects.filter(match_id__in=list(by_match)).order_by("match_id", "number"):
        by_match[deal.match_id].append(deal)
    return by_match


def _scorecard_parts(pairings, filled: bool, tournament: Tournament, language: str):
    pairings = [p for p in pairings if p.match_id is not None]
    deals = _deals_by_match(pairings) if filled else {}
    cards = [
        {**card, "round_number": p.round.number}
        for p in pairings
        for card in _scorecards(p, deals.get(p.match_id, []), filled)
    ]
    labels = _grid_labels()
    chunk = CARDS_PER_CHUNK - CARDS_PER_CHUNK % SCORECARDS_PER_PAGE
    parts = []
    for start in range(0, len(cards), chunk):
        some = cards[start:start + chunk]
        parts.append(("print/scorecard.html", {
            **_common(tournament, language),
            "sheets": [
                some[at:at + SCORECARDS_PER_PAGE] for at in range(0, len(some), SCORECARDS_PER_PAGE)
            ],
            # In the stylesheet, once per document, not in each card: a long data URI
            # repeated in the HTML costs the parser more than the whole card.
            "grids": [
                {"layout": grid, "uri": grid_image(grid, labels),
                 "row": f"{grid.row_height:.3f}", "font": f"{grid.cell_font_pt:.1f}"}
                for grid in sorted({card["grid"] for card in some}, key=lambda g: g.key)
            ],
            "filled": filled,
        }))
    return parts


def render_scorecards(
    pairings: Sequence[Pairing], filled: bool, language: str, progress: Progress = None
) -> bytes:
    """Scorecards of `pairings` (byes skipped), two per A4 page with a cut line between.

    `filled`: print the entered deals with running totals (dealer, winner, game points,
    reason code) and leave the rest of the grid blank. Raises `ValueError` when no pairing
    has a match.
    """
    pairings = list(pairings)
    if not any(p.match_id is not None for p in pairings):
        raise ValueError("No match to print a scorecard for.")
    tournament = pairings[0].round.tournament
    with translation.override(language):
        return _pdf(_scorecard_parts(pairings, filled, tournament, language), progress)


def _round_sheet_part(round_: Round, pairings: Sequence[Pairing], language: str):
    return ("print/round_sheet.html", {
        **_common(round_.tournament, language),
        "round": round_,
        "pairings": pairings,
    })


def render_round_pack(
    round_: Round, language: str, filled: bool = False, progress: Progress = None
) -> bytes:
    """The round sheet of `round_` followed by the scorecards of all its matches."""
    pairings = list(selectors.pairings_of_round(round_).select_related("round__tournament"))
    with translation.override(language):
        parts = [_round_sheet_part(round_, pairings, language)]
        parts += _scorecard_parts(pairings, filled, round_.tournament, language)
        return _pdf(parts, progress)


def render_round_sheet(round_: Round, language: str) -> bytes:
    """The round sheet alone: tables, seats, results of finished matches, the bye."""
    pairings = list(selectors.pairings_of_round(round_))
    with translation.override(language):
        return _pdf([_round_sheet_part(round_, pairings, language)])


# --------------------------------------------------------------------------------------------
# Standings
# --------------------------------------------------------------------------------------------


def render_standings(tournament: Tournament, language: str, progress: Progress = None) -> bytes:
    """The standings table (the columns of the standings page), with the tie-break order and
    the withdrawal policy under it."""
    table = selectors.standings_with_withdrawn(tournament)
    rows = standings_rows(table.ranked)
    playing = selectors.matches_in_play(tournament).count()
    with translation.override(language):
        return _pdf([("print/standings.html", {
            **_common(tournament, language),
            "table": StandingsTable(rows, tournament.tie_breaks, orderable=False),
            "withdrawn": [entry.player.name for entry in table.withdrawn],
            "tie_break_labels": [TIE_BREAK_LABELS[key] for key in tournament.tie_breaks],
            "playing": playing,
        })], progress)


# --------------------------------------------------------------------------------------------
# The knockout bracket
# --------------------------------------------------------------------------------------------

PART_ROUNDS = 5
"""Rounds on one page: 16 first-round matches (32 players) fit on A4 landscape."""
BRACKET_WIDTH, BRACKET_HEIGHT = 277.0, 160.0
"""The drawing area of a bracket page in mm: A4 landscape less margins, heading and legend."""
BRACKET_GAP = 7.0
MAX_COLUMN = 64.0
MAX_LINE, MIN_FONT, MAX_FONT = 7.5, 6.6, 11.0
CONTINUED_WIDTH = 17.0
"""Room right of a part's last match for "→ page 3"."""


def _mm(value: float) -> str:
    return f"{value:.2f}"


def _layout(columns, *, champion: bool, third_place=None, reserve: float = 0.0) -> dict:
    """Place `columns` (lists of BracketMatch, each half as long as the one before) across the
    drawing area, a column per round, each box centred on the two that feed it, with the
    joining lines; and a champion's box after the last column. `reserve`: mm kept free on the
    right (for "→ page 3")."""
    count = len(columns) + (1 if champion else 0)
    room = BRACKET_WIDTH - reserve
    width = min(MAX_COLUMN, (room - BRACKET_GAP * (count - 1)) / count)
    slot = BRACKET_HEIGHT / len(columns[0])
    line = min(MAX_LINE, slot * 0.42)
    font = max(MIN_FONT, min(MAX_FONT, line * 1.75))

    def centre(column: int, index: int) -> float:
        return (index + 0.5) * slot * 2**column

    boxes, joints = [], []
    for column, boxes_of_round in enumerate(columns):
        left = column * (width + BRACKET_GAP)
        for index, box in enumerate(boxes_of_round):
            boxes.append({"box": box, "left": left, "top": centre(column, index) - line,
                          "column": column, "index": index})
            if column + 1 < len(columns) and index % 2 == 0:
                top, bottom = centre(column, index), centre(column, index + 1)
                middle = left + width + BRACKET_GAP / 2
                joints += [
                    ("h", left + width, top, BRACKET_GAP / 2, 0),
                    ("h", left + width, bottom, BRACKET_GAP / 2, 0),
                    ("v", middle, top, 0, bottom - top),
                    ("h", middle, centre(column + 1, index // 2), BRACKET_GAP / 2, 0),
                ]
    page = {
        # Lengths go into style attributes as text with a decimal point: the template's
        # number filters would write "64,00" in Bulgarian.
        "boxes": boxes, "width": width, "line": line,
        "width_mm": _mm(width), "line_mm": _mm(line), "font_pt": f"{font:.1f}",
        "head_lefts": [_mm(column * (width + BRACKET_GAP)) for column in range(count)],
        "joints": [
            {"kind": kind, "left": _mm(x), "top": _mm(y), "width": _mm(w), "height": _mm(h)}
            for kind, x, y, w, h in joints
        ],
    }
    last = len(columns) - 1
    if champion:
        page["champion"] = {
            "left": _mm(len(columns) * (width + BRACKET_GAP)), "top": _mm(centre(last, 0) - line),
        }
        joints_end = last * (width + BRACKET_GAP) + width
        page["joints"].append({
            "kind": "h", "left": _mm(joints_end), "top": _mm(centre(last, 0)),
            "width": _mm(BRACKET_GAP), "height": "0.00",
        })
    if third_place is not None:
        top = min(BRACKET_HEIGHT - 2 * line - 2, centre(last, 0) + max(4 * line, slot))
        page["third_place"] = {
            "box": third_place, "left": _mm(last * (width + BRACKET_GAP)), "top": _mm(top),
            "head_top": _mm(top - 4.2),
        }
    for place in page["boxes"]:
        place["left"], place["top"] = _mm(place["left"]), _mm(place["top"])
    return page


def _heads(page: dict, labels: list) -> None:
    page["heads"] = [
        {"left": left, "label": label}
        for left, label in zip(page.pop("head_lefts"), labels, strict=True)
    ]


def bracket_pages(bracket: selectors.Bracket) -> list[dict]:
    """The pages of the bracket PDF, each with its title, where it continues, its round
    headings and its boxes and lines placed in mm (`_layout`)."""
    rounds = bracket.rounds
    labels = [column.label for column in bracket.columns]
    if rounds <= PART_ROUNDS:
        page = _layout([column.matches for column in bracket.columns], champion=True,
                       third_place=bracket.third_place)
        page.update(title="", continues="")
        _heads(page, labels + [_("Champion")])
        return [page]
    parts = 2 ** (rounds - PART_ROUNDS)
    final_page = parts + 1
    pages = []
    for part in range(parts):
        columns = []
        for column in range(PART_ROUNDS):
            per_part = len(bracket.columns[column].matches) // parts
            columns.append(bracket.columns[column].matches[part * per_part:(part + 1) * per_part])
        page = _layout(columns, champion=False, reserve=CONTINUED_WIDTH)
        page["boxes"][-1]["after"] = _("→ page %(page)s") % {"page": final_page}
        if parts == 2:
            title = _("Top half") if part == 0 else _("Bottom half")
        else:
            title = _("Part %(part)s of %(parts)s") % {"part": part + 1, "parts": parts}
        _heads(page, labels[:PART_ROUNDS])
        page.update(
            title=title,
            continues=_("The winner continues on page %(page)s.") % {"page": final_page},
        )
        pages.append(page)
    # The last page repeats each part's last match (its winner comes from there) and goes on
    # to the final.
    later = [column.matches for column in bracket.columns[PART_ROUNDS - 1:]]
    page = _layout(later, champion=True, third_place=bracket.third_place)
    for place in page["boxes"]:
        if place["column"] == 0:
            place["from_page"] = _("from page %(page)s") % {"page": place["index"] + 1}
    names = labels[PART_ROUNDS - 1:]
    _heads(page, names + [_("Champion")])
    page.update(
        title=" · ".join(names),
        continues=_("Continued from pages 1–%(last)s.") % {"last": parts},
    )
    pages.append(page)
    return pages


def render_bracket(tournament: Tournament, language: str, progress: Progress = None) -> bytes:
    """The knockout bracket on A4 landscape: rounds as columns, seeds, names, game points,
    byes and walkovers, the champion; 64 and 128 players over several pages."""
    with translation.override(language):
        bracket = selectors.bracket(tournament)
        if not bracket.columns:
            raise ValueError("The bracket is drawn when the tournament starts.")
        pages = bracket_pages(bracket)
        return _pdf([("print/bracket.html", {
            **_common(tournament, language), "bracket": bracket, "pages": pages,
            "page_count": len(pages), "area": {
                "width": _mm(BRACKET_WIDTH), "height": _mm(BRACKET_HEIGHT),
            },
        })], progress)


# --------------------------------------------------------------------------------------------
# Data versions: a fingerprint that changes whenever the printed content would
# --------------------------------------------------------------------------------------------


def _tournament_part(tournament: Tournament) -> list:
    return [
        LAYOUT_VERSION, site_url(), tournament.name, tournament.date, tournament.venue,
        tournament.format, tournament.tie_breaks, tournament.withdrawal_policy,
        tournament.game_target,
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
            "match__points_a", "match__points_b", "match__winner",
        )
    ]
    deals = []
    if filled:
        deals = list(
            Deal.objects.filter(match__pairing__round=round_)
            .order_by("match_id", "number")
            .values_list("match_id", "number", "winner", "game_points", "reason")
        )
    return fingerprint(
        _tournament_part(tournament), round_.number, filled, sheet, pairings, deals
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
            "match__status", "match__points_a", "match__points_b", "match__winner",
        )
    )
    return fingerprint(_tournament_part(tournament), tournament.third_place_match, pairings)


def standings_version(tournament: Tournament) -> str:
    """The standings rows themselves, the withdrawn players listed apart, plus the count of
    matches being played."""
    table = selectors.standings_with_withdrawn(tournament)
    rows = standings_rows(table.ranked)
    withdrawn = [entry.player.name for entry in table.withdrawn]
    playing = selectors.matches_in_play(tournament).aggregate(count=Count("pk"), last=Max("pk"))
    return fingerprint(_tournament_part(tournament), rows, withdrawn, playing)


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
    pairings = selectors.pairings_of_round(round_).select_related("round__tournament")
    return render_scorecards(pairings, filled, language, progress)


def _render_round_kind(tournament, round_, language, filled, progress=None) -> bytes:
    return render_round_pack(round_, language, filled, progress)


def _render_standings_kind(tournament, round_, language, filled, progress=None) -> bytes:
    return render_standings(tournament, language, progress)


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
        render=lambda tournament, round_, language, filled, progress=None: render_bracket(
            tournament, language, progress
        ),
        version=lambda tournament, round_, filled: bracket_version(tournament),
        filename=lambda number, filled: "bracket",
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
    name = spec.filename(round_number, filled and spec.takes_filled)
    if language != settings.LANGUAGE_CODE:
        name += f"-{language}"
    return f"{name}.pdf"
