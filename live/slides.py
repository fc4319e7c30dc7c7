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

GROUP_COLUMNS = 2
"""At most this many group tables side by side on a slide: a table (the place, a name, the
matches won and the game-point difference) takes some 25 ems, so three side by side leave
1920 px type of 24 px, two 36 px."""


def group_slides(sizes: list[int], most: int = MOST_ROWS) -> tuple[list[range], int, int]:
    """How the group tables of the groups slide are cut into slides and laid out, given each
    group's number of players (`sizes`, group A first): returns (the groups, 0-based, of each
    slide; the lines each column of a slide's grid holds; its columns). A group table is its
    players' rows, its caption and its head: size + 2 lines; a column of the grid holds as
    many tables of the largest group as fit `most` + 2 lines (one at least); a slide
    holds `GROUP_COLUMNS` such columns at most, and the groups are shared out evenly
    (`table_slides`). 8 groups of 4: 6 lines a table, 2 tables a column, 4 a slide: 2 slides
    of 4 groups, each 2 columns of 2 tables (12 lines). 3 groups of 8: 10 lines a table, one
    a column, 2 a slide: 2 slides (2 groups, then 1), each of 2 columns of one table (10
    lines).

    Raises ValueError for no groups or a group of fewer than 1 player."""
    if not sizes or min(sizes) < 1:
        raise ValueError(f"need groups of 1 player or more, got {sizes}")
    lines = max(sizes) + 2
    stacked = max(1, (most + 2) // lines)
    cuts = table_slides(len(sizes), stacked * GROUP_COLUMNS)
    columns = math.ceil(len(cuts[0]) / stacked)
    return cuts, min(stacked, len(cuts[0])) * lines, columns
