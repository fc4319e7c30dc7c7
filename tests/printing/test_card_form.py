"""The card's form image (`card_form.form_image`), drawn without a PDF: its size, the legend's
lines, the final score's boxes left out for a card that prints its score."""

import base64
import io

import pytest
from PIL import Image

from printing import card_form, scorecard

TEXTS = card_form.FormTexts(
    grid_labels=("Deal", "Dealer", "Winner", "GP", "Code", "Total A", "Total B"),
    codes="Codes:", final_score="Final score", signatures=("Signature A", "Signature B"),
    caption="Scan to enter the deals",
)
LEGEND = (("1", "a plain win", "1"), ("=", "draw", "0"))
LINE_MM = 6.3 * 1.3 * 25.4 / 72  # a legend line: 6.3 pt type, 1.3 high = 2.89 mm


def picture(form: card_form.FormImage) -> Image.Image:
    assert form.uri.startswith("data:image/png;base64,")
    return Image.open(io.BytesIO(base64.b64decode(form.uri.split(",", 1)[1])))


def at(image: Image.Image, x_mm: float, y_mm: float) -> int:
    """The grey level at (x, y) mm from the card's corner (the form starts at 11, 19.5)."""
    dots = card_form.FORM_DPI / 25.4
    return image.getpixel((round((x_mm - 11) * dots), round((y_mm - 19.5) * dots)))


def test_the_legend_takes_as_many_lines_as_its_words_need():
    assert card_form.legend_height("Codes:", LEGEND) == pytest.approx(LINE_MM)
    # The Bulgarian legend of the default rules takes two lines on 188 mm, as it did in text.
    long_labels = tuple((str(n), "загубилият има 33 или повече", "3") for n in range(1, 8))
    assert card_form.legend_height("Кодове:", long_labels) == pytest.approx(2 * LINE_MM)


def test_the_form_spans_from_the_seat_letters_to_below_the_legend():
    form = card_form.form_image(scorecard.grid_layout(1), TEXTS, LEGEND, True)
    image = picture(form)
    dots = card_form.FORM_DPI / 25.4
    # 191 mm wide; from 19.5 mm to the legend's one line under 133.5 mm, and 0.5 mm more.
    assert image.size == (round(202 * dots) - round(11 * dots),
                          round((133.5 + LINE_MM + 0.5) * dots) - round(19.5 * dots))
    assert float(form.height) == pytest.approx(133.5 + LINE_MM + 0.5 - 19.5, abs=0.1)
    assert at(image, 11.1, 22) < 64  # the left edge of seat A's letter box
    assert at(image, 11.05, 34.05) < 64  # the grid's top left corner
    assert at(image, 100, 80) == 255  # inside an empty cell: room for a pencil


def test_a_card_that_prints_its_score_gets_the_form_without_the_empty_boxes():
    layout = scorecard.grid_layout(1)
    with_boxes = card_form.form_image(layout, TEXTS, LEGEND, True)
    without = card_form.form_image(layout, TEXTS, LEGEND, False)
    assert with_boxes.name != without.name
    # The final score's row: 120.5-128.5 mm, its label from the left edge.
    row = [(x / 2, y / 2) for x in range(22, 160) for y in range(242, 256)]
    with_boxes_image, without_image = picture(with_boxes), picture(without)
    assert min(at(with_boxes_image, x, y) for x, y in row) < 64
    assert min(at(without_image, x, y) for x, y in row) == 255


def test_the_cut_line_is_dashed_across_the_page_with_scissors_at_its_left():
    uri = card_form.cut_line_image()
    assert uri.startswith("data:image/png;base64,")
    image = Image.open(io.BytesIO(base64.b64decode(uri.split(",", 1)[1])))
    dots = card_form.FORM_DPI / 25.4
    assert image.size == (round(210 * dots), round(5.2 * dots))
    middle = [image.getpixel((x, round(2.6 * dots))) for x in range(image.width)]
    # Dashes of 0.8 mm every 1.5 mm: from 20 mm on, about half the line is grey.
    right = middle[round(20 * dots):]
    assert 0.4 < sum(level < 200 for level in right) / len(right) < 0.65
