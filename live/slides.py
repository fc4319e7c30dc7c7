"""How the projector cuts a long table into slides: pure arithmetic, no database.

The projector's type is sized by the screen's height (`static/css/projector.css`: viewport
and container units), so a slide that fits 1920×1080 fits 1280×720 the same way, only
smaller. A table slide (the round being played, the standings) gives each row `ROW_EMS` ems
and its rows `ROWS_SHARE` of the screen's height (the rest: the event's name, the
announcement, the round's clock, the slide's title, the table's head and the note under
it); the type must stay at least `SMALLEST_TYPE` of the screen's height (36 px at 1080,
24 px at 720: read from the back of a club room). Hence at most `MOST_ROWS` rows a slide; a
longer table takes several slides of equal length, each its turn in the rotation.
"""

import math

SMALLEST_TYPE = 1 / 30
"""The smallest type of a table row, as a share of the screen's height."""
ROW_EMS = 1.5
"""The height of a table row in ems: a line of 1.25 and its padding."""
ROWS_SHARE = 0.6
"""The share of the screen's height a table slide's rows have."""
MOST_ROWS = round(ROWS_SHARE / (SMALLEST_TYPE * ROW_EMS))
"""At most this many rows a table slide: 0.6 / (1/30 × 1.5) = 12."""


def table_slides(count: int, most: int = MOST_ROWS) -> list[range]:
    """The rows (0-based, in order) of each slide a table of `count` rows is cut into: as few
    slides as hold at most `most` rows each, all of the same length but the last, which may
    be shorter (32 rows, at most 12 a slide: 3 slides of 11, 11 and 10 rows, not 12, 12 and
    8). One empty range for an empty table (the slide says there is nothing yet).

    Raises ValueError if `count` is negative or `most` below 1."""
    if count < 0 or most < 1:
        raise ValueError(f"need count >= 0 and most >= 1, got {count}, {most}")
    if count == 0:
        return [range(0, 0)]
    slides = math.ceil(count / most)
    length = math.ceil(count / slides)
    return [range(start, min(start + length, count)) for start in range(0, count, length)]

MOST_BOXES = 8
"""At most this many matches in the bracket slide's first column. A match's box is two
players' lines and a line saying where it stands, some 4.3 ems with its gap; eight of them
share the three quarters of the screen's height the bracket has, each player's line some
34 px high at 1080 (a sixteenth of the height of the 8 boxes' 778 px, less the box's line)."""


def bracket_first_column(matches: list[int], most: int = MOST_BOXES) -> int:
    """Which column (0-based) the bracket slide starts from, given the number of matches in
    each of the bracket's columns (`matches`, the first round first: 16, 8, 4, 2, 1 for 32
    players): the first with at most `most` matches, so that the slide shows the rounds from
    the round of 16 on (with 8 at most); a whole bracket of 16 players or fewer. The rounds
    before it are on the round slides, a table each, while they are played. 0 for a bracket
    with no columns yet.

    Raises ValueError if `most` is below 1."""
    if most < 1:
        raise ValueError(f"need most >= 1, got {most}")
    return next((index for index, count in enumerate(matches) if count <= most), 0)
