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
