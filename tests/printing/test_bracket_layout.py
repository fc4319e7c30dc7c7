"""The bracket's geometry without a database or a PDF (`printing.bracket.bracket_pages`): every
box inside the A4 landscape drawing area, the pages a size needs, every match printed."""

import pytest
from django.utils import translation

from formats.knockout import selectors
from printing import bracket


def bracket_shape(size: int, third_place: bool) -> selectors.Bracket:
    """A bracket of `size` players as `bracket_pages` sees it (no database): a column per
    round, each half as long as the one before, of placeholder boxes."""
    rounds = (size - 1).bit_length()
    columns = [
        selectors.BracketColumn(
            number=column + 1, label=f"Round {column + 1}",
            matches=[f"match {column + 1}.{index}" for index in range(2 ** (rounds - column - 1))],
        )
        for column in range(rounds)
    ]
    return selectors.Bracket(columns=columns, third_place="third" if third_place else None,
                             champion=None, runner_up=None, third=None)


@pytest.mark.parametrize("size", [2, 3, 6, 13, 32, 33, 64, 128])
def test_every_box_stays_inside_the_drawing_area(size):
    with translation.override("en"):
        pages = bracket.bracket_pages(bracket_shape(size, third_place=size >= 4))
    for page in pages:
        height = 2 * page["line"]
        places = [*page["boxes"], *([page["third_place"]] if "third_place" in page else [])]
        for place in places:
            left, top = float(place["left"]), float(place["top"])
            assert top >= 0 and top + height <= bracket.BRACKET_HEIGHT + 0.01
            assert left >= 0 and left + page["width"] <= bracket.BRACKET_WIDTH + 0.01
    # Up to 5 rounds (32 players) on one page; else parts of 32 and a page for the rest.
    rounds = (size - 1).bit_length()
    parts = 2 ** (rounds - 5) if rounds > 5 else 0
    assert len(pages) == (parts + 1 if parts else 1)
    # Every match of the bracket is printed; a split bracket repeats each part's last match.
    boxes = sum(len(page["boxes"]) for page in pages)
    assert boxes == (2 ** rounds - 1) + parts
