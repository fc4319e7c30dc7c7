"""The printed form of a scorecard: everything a card prints that is the same on every card of
a document, drawn once per document as one image with Pillow (`form_image`).

It holds the seat letters' boxes, the QR code's caption, the deal grid (lines, headings, deal
numbers), the final score's label and boxes, the signature lines and the legend of reason
codes. Each card lays the image out as one box (a `::after` of the card, named by a class set
in the document's head) and only its own text over it: the event, round, table and players'
names, the values entered in the grid, the QR code, and a decided match's final score (then
the form leaves its row out and the card prints it as text).

Laid out by WeasyPrint, these two dozen boxes (bordered inline blocks, small runs of text,
background images, each a group in the PDF) cost more than the rest of the card; WeasyPrint
also decodes and encodes every PNG again when it writes the PDF, once per image and PDF, so
the whole form is one image at `FORM_DPI`. Lengths in millimetres from the card's top left
corner (print.css places the text over the form with the same numbers).
"""

import base64
import hashlib
import io
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from django.utils.translation import gettext as _
from PIL import Image, ImageDraw, ImageFont

from printing import scorecard
from printing.scorecard import GridLayout

FORM_DPI = 300
"""The form's resolution: lines of 0.2 mm and 6 pt type stay sharp on paper, and the PDF
writer's decoding and encoding again of the image (about 10 ns a pixel) stays a few
milliseconds a page (at 600 dpi the grid alone cost 90 ms a PDF)."""
FONT, BOLD_FONT = "DejaVuSans.ttf", "DejaVuSans-Bold.ttf"  # found as fontconfig finds them

FORM_LEFT, FORM_TOP, FORM_WIDTH = 11.0, 19.5, 191.0
"""Where the form image sits on the card, and its width (to 8 mm from the card's right)."""
LETTER_TOPS, LETTER_WIDTH, LETTER_HEIGHT, LETTER_PT = (20.0, 26.0), 5.5, 4.6, 10.0
"""The seat letters' boxes (A, then B), left of the names (print.css `.seat`)."""
CAPTION_CENTRE, CAPTION_TOP, CAPTION_WIDTH, CAPTION_PT = 187.0, 26.5, 30.0, 5.5
"""The QR code's caption, under the code (print.css `.scorecard .qr`)."""
GRID_TOP = 34.0
RESULT_TOP, RESULT_LINE, RESULT_PT, RESULT_LABEL_PT = 120.5, 8.0, 11.0, 9.0
RESULT_BOX_WIDTH, RESULT_BOX_HEIGHT, RESULT_BOX_TOP = 11.0, 7.0, 120.9
SIGN_TOP, SIGN_LEFTS, SIGN_WIDTH, SIGN_PT = 128.5, (95.0, 151.0), 48.0, 6.5
LEGEND_TOP = 133.5
LEGEND_FONT_PT, LEGEND_LINE = 6.3, 1.3
"""The legend's type: 6.3 pt DejaVu Sans, lines 1.3 times as high, codes in bold."""
GREY, DARK = 0x22, 0x33


@dataclass(frozen=True)
class FormTexts:
    """The form's words in one language (`form_texts`)."""

    grid_labels: tuple[str, ...]
    codes: str
    final_score: str
    signatures: tuple[str, str]
    caption: str


def form_texts(players_enter: bool) -> FormTexts:
    """The form's words in the active language; the caption says what the QR code opens."""
    return FormTexts(
        grid_labels=scorecard.grid_labels(), codes=_("Codes:"), final_score=_("Final score"),
        signatures=(_("Signature A"), _("Signature B")),
        caption=_("Scan to enter the deals") if players_enter else _("Scan to follow the match"),
    )


@dataclass(frozen=True)
class FormImage:
    """A drawn form: its PNG data URI, its CSS class suffix and its height in mm (CSS text)."""

    uri: str
    name: str
    height: str


def form_name(layout: GridLayout, texts: FormTexts, legend: tuple, with_result: bool) -> str:
    """The CSS class suffix of the form of these arguments (`form_image`): "3f2a9c01"."""
    key = repr((layout, texts, legend, with_result)).encode()
    return hashlib.blake2s(key, digest_size=4).hexdigest()


def _mm(value: float) -> int:
    return round(value * FORM_DPI / 25.4)


def _pt(value: float) -> float:
    return value / 72 * FORM_DPI


def _font(points: float, bold: bool = False) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(BOLD_FONT if bold else FONT, _pt(points))


def _baseline(top: float, line: float, font: ImageFont.FreeTypeFont) -> float:
    """The baseline (px) of `font` in a line box of `line` px from `top` px, as CSS puts it."""
    ascent, descent = font.getmetrics()
    return top + (line - ascent - descent) / 2 + ascent


def _fitting(font: ImageFont.FreeTypeFont, text: str, width: int) -> ImageFont.FreeTypeFont:
    """`font`, or a smaller size of it if `text` would not fit in `width` pixels (a long
    heading in another language)."""
    length = font.getlength(text)
    if length <= width:
        return font
    return font.font_variant(size=max(1, int(font.size * width / length)))


def _box(draw: ImageDraw.ImageDraw, left: int, top: int, right: int, bottom: int,
         line: int) -> None:
    draw.rectangle([left, top, right - 1, bottom - 1], outline=0, width=line)


def _wrap(words: Sequence[Sequence[tuple[str, bool]]], fonts: dict, width: float
          ) -> list[list[tuple[float, str, bool]]]:
    """`words` (each runs of (text, bold)) broken into lines at most `width` px wide, each
    run with its left edge (px): a word goes on the next line when it does not fit."""
    space = fonts[False].getlength(" ")
    lines: list[list[tuple[float, str, bool]]] = [[]]
    x = 0.0
    for word in words:
        length = sum(fonts[bold].getlength(text) for text, bold in word)
        if lines[-1] and x + space + length > width:
            lines.append([])
            x = 0.0
        elif lines[-1]:
            x += space
        for text, bold in word:
            lines[-1].append((x, text, bold))
            x += fonts[bold].getlength(text)
    return lines


def legend_lines(heading: str, legend: tuple) -> list[list[tuple[float, str, bool]]]:
    """The legend `legend` (`scorecard.legend_key`) headed by `heading`, broken into lines of
    the grid's width (`_wrap`)."""
    fonts = {False: _font(LEGEND_FONT_PT), True: _font(LEGEND_FONT_PT, bold=True)}
    return _wrap(scorecard.legend_words(heading, legend), fonts, _mm(scorecard.GRID_WIDTH))


def legend_height(heading: str, legend: tuple) -> float:
    """The legend's height in mm: its lines of 6.3 pt type, 1.3 high."""
    return len(legend_lines(heading, legend)) * LEGEND_FONT_PT * LEGEND_LINE * 25.4 / 72


def _draw_grid(draw: ImageDraw.ImageDraw, layout: GridLayout, labels: Sequence[str],
               x0: float, y0: float) -> None:
    """The empty deal grid of `layout` headed by `labels`, its top left corner at (x0, y0)
    mm: heading band, grey number column, lines (the running score's behind thick ones)."""
    columns, row_height = layout.columns, layout.row_height
    widths = scorecard.grid_widths(columns)
    table, height = sum(widths), scorecard.grid_height()
    label_font = ImageFont.truetype(FONT, _mm(scorecard.LABEL_FONT_MM))
    number_font = ImageFont.truetype(
        FONT, _mm(scorecard.NUMBER_FONT_MM * min(1.0, row_height / scorecard.GRID_ROW))
    )
    thin, thick = max(1, _mm(0.21)), max(2, _mm(0.42))  # 0.6 pt and 1.2 pt
    top, bottom = _mm(y0), _mm(y0 + height)
    head = scorecard.GRID_HEAD
    for column in range(columns):
        left = x0 + column * (table + scorecard.GRID_GAP)
        draw.rectangle([_mm(left), top, _mm(left + table), _mm(y0 + head)], fill=0xEE)
        draw.rectangle([_mm(left), _mm(y0 + head), _mm(left + scorecard.NUMBER_WIDTH), bottom],
                       fill=0xF3)
        for row in range(layout.rows + 2):
            y = _mm(y0 if row == 0 else y0 + head + (row - 1) * row_height)
            y = min(y, bottom + 1 - thin)
            draw.rectangle([_mm(left), y, _mm(left + table), y + thin - 1], fill=0)
        x = left
        for index, width in enumerate((0.0, *widths)):
            x += width
            line = thick if index in (5, 6) else thin
            draw.rectangle([_mm(x) - line // 2, top, _mm(x) - line // 2 + line - 1, bottom],
                           fill=0)
        x = left
        for label, width in zip(labels, widths, strict=True):
            draw.text((_mm(x + width / 2), _mm(y0 + head / 2)), label,
                      font=_fitting(label_font, label, _mm(width - 1)), fill=0, anchor="mm")
            x += width
        for row in range(layout.rows):
            draw.text(
                (_mm(left + scorecard.NUMBER_WIDTH / 2), _mm(y0 + head + (row + 0.5) * row_height)),
                str(layout.first_number + column * layout.rows + row), font=number_font,
                fill=DARK, anchor="mm",
            )


def _draw_result(draw: ImageDraw.ImageDraw, label: str) -> None:
    """"Final score  A [  ] : [  ] B" on its line (print.css `.scorecard .result`)."""
    text, bold = _font(RESULT_PT), _font(RESULT_LABEL_PT, bold=True)
    line_top, line = _mm(RESULT_TOP), _mm(RESULT_LINE)
    baseline = _baseline(line_top, line, text)
    x = _mm(FORM_LEFT)
    draw.text((x, baseline), label, font=bold, fill=0, anchor="ls")
    x += bold.getlength(label) + _mm(2) + text.getlength(" ")
    box_top, box_bottom = _mm(RESULT_BOX_TOP), _mm(RESULT_BOX_TOP + RESULT_BOX_HEIGHT + 0.84)
    for before, after in (("A ", " :"), (" ", " B")):
        draw.text((x, baseline), before, font=text, fill=0, anchor="ls")
        x += text.getlength(before)
        right = x + _mm(RESULT_BOX_WIDTH + 0.84)
        _box(draw, round(x), box_top, round(right), box_bottom, max(2, _mm(0.42)))
        x = right
        draw.text((x, baseline), after, font=text, fill=0, anchor="ls")
        x += text.getlength(after)


def _draw_signatures(draw: ImageDraw.ImageDraw, labels: Sequence[str]) -> None:
    font = _font(SIGN_PT)
    line = max(1, _mm(0.21))
    for left, label in zip(SIGN_LEFTS, labels, strict=True):
        draw.rectangle([_mm(left), _mm(SIGN_TOP), _mm(left + SIGN_WIDTH), _mm(SIGN_TOP) + line - 1],
                       fill=0)
        top = _mm(SIGN_TOP + 0.5) + line
        draw.text((_mm(left), _baseline(top, _pt(SIGN_PT * 1.164), font)), label, font=font,
                  fill=DARK, anchor="ls")


def _draw_letters(draw: ImageDraw.ImageDraw) -> None:
    font = _font(LETTER_PT, bold=True)
    for letter, top in zip("AB", LETTER_TOPS, strict=True):
        left, right = _mm(FORM_LEFT), _mm(FORM_LEFT + LETTER_WIDTH)
        _box(draw, left, _mm(top), right, _mm(top + LETTER_HEIGHT), max(1, _mm(0.28)))
        baseline = _baseline(_mm(top), _mm(LETTER_HEIGHT), font)
        draw.text(((left + right) / 2, baseline), letter, font=font, fill=0, anchor="ms")


def _draw_caption(draw: ImageDraw.ImageDraw, caption: str) -> None:
    font = _font(CAPTION_PT)
    line = _pt(CAPTION_PT * 1.15)
    words = [[(word, False)] for word in caption.split()]
    for number, runs in enumerate(_wrap(words, {False: font}, _mm(CAPTION_WIDTH))):
        text = " ".join(run[1] for run in runs)
        baseline = _baseline(_mm(CAPTION_TOP) + number * line, line, font)
        draw.text((_mm(CAPTION_CENTRE), baseline), text, font=font, fill=DARK, anchor="ms")


def _draw_legend(draw: ImageDraw.ImageDraw, heading: str, legend: tuple) -> None:
    fonts = {False: _font(LEGEND_FONT_PT), True: _font(LEGEND_FONT_PT, bold=True)}
    line = _pt(LEGEND_FONT_PT * LEGEND_LINE)
    for number, runs in enumerate(legend_lines(heading, legend)):
        baseline = _baseline(_mm(LEGEND_TOP) + number * line, line, fonts[False])
        for left, text, bold in runs:
            draw.text((_mm(FORM_LEFT) + left, baseline), text, font=fonts[bold], fill=GREY,
                      anchor="ls")


@lru_cache(maxsize=16)
def form_image(layout: GridLayout, texts: FormTexts, legend: tuple, with_result: bool
               ) -> FormImage:
    """The form of a card whose grid is `layout`, in the words of `texts`, with the legend
    `legend` (`scorecard.legend_key`), and the final score's label and empty boxes when
    `with_result` (a card that prints a decided match's score leaves them to its text), as
    `FormImage`. Drawn on a whole card's coordinates and cropped to the form."""
    bottom = LEGEND_TOP + legend_height(texts.codes, legend) + 0.5
    image = Image.new("L", (_mm(FORM_LEFT + FORM_WIDTH), _mm(bottom)), 255)
    draw = ImageDraw.Draw(image)
    _draw_letters(draw)
    _draw_caption(draw, texts.caption)
    _draw_grid(draw, layout, texts.grid_labels, FORM_LEFT, GRID_TOP)
    if with_result:
        _draw_result(draw, texts.final_score)
    _draw_signatures(draw, texts.signatures)
    _draw_legend(draw, texts.codes, legend)
    form = image.crop((_mm(FORM_LEFT), _mm(FORM_TOP), image.width, image.height))
    png = io.BytesIO()
    form.save(png, "PNG")
    return FormImage(
        "data:image/png;base64," + base64.b64encode(png.getvalue()).decode(),
        form_name(layout, texts, legend, with_result),
        f"{form.height * 25.4 / FORM_DPI:.3f}",
    )


CUT_HEIGHT, CUT_WIDTH, CUT_SCISSORS_LEFT, CUT_GREY = 5.2, 210.0, 4.0, 0x77
"""The cut line between a page's two cards: a dashed 0.6 pt line across the page, scissors at
its left, `CUT_HEIGHT` mm high around it."""


@lru_cache(maxsize=1)
def cut_line_image() -> str:
    """The cut line between two cards, drawn at `FORM_DPI`, as a PNG data URI. One image for
    the document: as a dashed CSS border with a text glyph on it, WeasyPrint drew each of its
    120 dashes and laid the glyph out on every page."""
    image = Image.new("L", (_mm(CUT_WIDTH), _mm(CUT_HEIGHT)), 255)
    draw = ImageDraw.Draw(image)
    middle, line = _mm(CUT_HEIGHT / 2), max(1, _mm(0.21))
    top = middle - line // 2
    x = 0.0
    while x < CUT_WIDTH:  # dashes of 0.8 mm, 0.7 mm apart
        draw.rectangle([_mm(x), top, _mm(x + 0.8) - 1, top + line - 1], fill=CUT_GREY)
        x += 1.5
    font = ImageFont.truetype(FONT, _pt(9))
    left = _mm(CUT_SCISSORS_LEFT)
    box = draw.textbbox((left, middle), "✂", font=font, anchor="lm")
    draw.rectangle([box[0] - 1, 0, box[2] + 1, image.height - 1], fill=255)
    draw.text((left, middle), "✂", font=font, fill=CUT_GREY, anchor="lm")
    png = io.BytesIO()
    image.save(png, "PNG")
    return "data:image/png;base64," + base64.b64encode(png.getvalue()).decode()
