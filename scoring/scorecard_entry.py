"""A whole paper scorecard copied in at once (the match page's "Enter a finished scorecard"):
the grid the page posts, read into deals and checked row by row, each with the rules
(`rules.quick_result`, then `rules.score_match` for the order), then recorded in one
transaction by `scoring.services.match_scorecard_record`.

The grid's rows are what the card holds: the winner's seat (A or B), the game points and the
reason code of the card's legend (`scoring.reason_codes`: "1", "2", "3", "FC", ... in
either language). Game points may be left empty when the code fixes them (a plain win 1, a
schneider 2, ...). Rows after the last filled one are ignored; an empty row before it is an
error. Every bad row gets its own message, with its deal number; nothing is written while
any row is bad.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from core.messages import user_message
from scoring import rules
from scoring.errors import ScorecardError
from scoring.reason_codes import REASON_CODES, reason_of_code

ROWS = 24
"""Rows the grid shows at first: the card's 22, and two more."""
MORE_ROWS = 8
"""Rows "More rows" adds (a match with many draws)."""
MAX_ROWS = 64
"""Most rows a grid takes (three full scorecards of 21 deals)."""

SEAT_KEYS = {"a": "A", "а": "A", "b": "B", "в": "B", "б": "B"}
"""What the winner cell accepts for each seat, lower case: the Latin letters of the card, and
on a Bulgarian keyboard the Cyrillic А, and В or Б."""




@dataclass
class GridRow:
    """One row of the grid as posted (text as typed) and its message, if it is wrong."""

    number: int
    winner: str = ""
    points: str = ""
    code: str = ""
    error: str = ""

    @property
    def filled(self) -> bool:
        return bool(self.winner or self.points or self.code)


@dataclass
class Grid:
    """The posted grid: its rows (as many as the page showed), the deals read from the filled
    ones (`scores`, when every row is right) and the messages of the rows that are not
    (`errors`: one per bad row, "Deal 3: ..."; or one for the whole grid)."""

    rows: list[GridRow]
    scores: list[rules.DealScore] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    @property
    def valid(self) -> bool:
        return not self.errors


def blank_grid(count: int = ROWS) -> Grid:
    """An empty grid of `count` rows."""
    return Grid(rows=[GridRow(number) for number in range(1, count + 1)])


def row_count(data) -> int:
    """The rows the posted grid had (its `rows` field), kept between `ROWS` and `MAX_ROWS`."""
    try:
        count = int(data.get("rows", ROWS))
    except (TypeError, ValueError):
        count = ROWS
    return max(ROWS, min(MAX_ROWS, count))


def read_grid(data, house_rules: rules.HouseRules, first_dealer: str = "A") -> Grid:
    """Read the posted grid (`winner-N`, `points-N`, `code-N` for N = 1..`rows`) under
    `house_rules` (the match's) and check every filled row: its winner, code and game
    points (`rules.quick_result`), then the deals in order (`rules.score_match`: no deal
    after the match was won). Returns the `Grid`; its `scores` are the deals when it is
    `valid`. Raises nothing: every problem is a row's message."""
    count = row_count(data)
    rows = [
        GridRow(
            number,
            winner=str(data.get(f"winner-{number}", "")).strip()[:8],
            points=str(data.get(f"points-{number}", "")).strip()[:8],
            code=str(data.get(f"code-{number}", "")).strip()[:8],
        )
        for number in range(1, count + 1)
    ]
    grid = Grid(rows=rows)
    last = max((row.number for row in rows if row.filled), default=0)
    if not last:
        grid.errors.append(user_message(ScorecardError("scorecard_empty")))
        return grid
    scores = []
    for row in rows[:last]:
        try:
            scores.append(_deal(row, house_rules))
        except (ScorecardError, rules.InvalidDeal) as error:
            row.error = user_message(error)
            grid.errors.append(row.error)
    if grid.errors:
        return grid
    try:
        rules.score_match(scores, house_rules, first_dealer)
    except rules.InvalidDeal as error:
        number = error.params.get("deal_number") or rules.deal_index(error.field) + 1
        rows[number - 1].error = user_message(error)
        grid.errors.append(rows[number - 1].error)
        return grid
    grid.scores = scores
    return grid


def _deal(row: GridRow, house_rules: rules.HouseRules) -> rules.DealScore:
    """The deal of one filled row; raises `ScorecardError` or `rules.InvalidDeal` (with the
    row's deal number)."""
    number = row.number
    if not row.filled:
        raise ScorecardError("scorecard_row_empty", number=number)
    reason = reason_of_code(row.code)
    if reason is None:
        codes = ", ".join(
            str(REASON_CODES[r]) for r, points in
            rules.game_points_by_reason(house_rules).items() if points
        )
        raise ScorecardError("scorecard_unknown_code", number=number, typed=row.code,
                             codes=codes)
    winner = None
    if row.winner:
        winner = SEAT_KEYS.get(row.winner.casefold())
        if winner is None:
            raise ScorecardError("scorecard_unknown_winner", number=number, winner=row.winner)
    allowed = rules.game_points_by_reason(house_rules)[reason]
    if row.points:
        if not row.points.isdigit():
            raise ScorecardError("scorecard_bad_points", number=number, points=row.points)
        points = int(row.points)
    else:
        points = allowed[0] if len(allowed) == 1 else None
    try:
        return rules.quick_result(winner, points, reason, house_rules)
    except rules.InvalidDeal as error:
        raise rules.InvalidDeal(
            error.code, f"deals[{number - 1}]", error.message,
            {**error.params, "deal_number": number}, error.case,
        ) from error
