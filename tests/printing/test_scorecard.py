"""The scorecard drawn without a PDF: the grid's geometry, its rows and cells, the legend."""

import pytest

from printing import scorecard
from scoring import rules
from scoring.match_sheet import sheet_of
from scoring.models import Deal, Match
from tests.printing.helpers import forty_deals_mostly_drawn


def test_a_long_filled_match_gets_a_third_column_of_rows():
    match = Match(first_dealer="A", house_rules_snapshot={}, status=Match.Status.PLAYING)
    deals = [Deal(number=n, winner="", game_points=0, reason="draw") for n in range(1, 24)]
    rows = scorecard.scorecard_rows(match, sheet_of(match, deals, names=False))
    assert len(rows) == 33 and rows[22].number == 23 and rows[22].winner == "="
    assert rows[23].dealer == "A" and rows[23].is_next  # draws keep the dealer


@pytest.mark.parametrize(
    ("rows_needed", "columns", "rows", "row_height"),
    [
        (1, 2, 11, 7.0),
        (22, 2, 11, 7.0),  # 21 deals (the longest match to 11 without draws) + the next one
        (23, 3, 11, 7.0),
        (33, 3, 11, 7.0),  # 32 deals: the last card that printed before
        (34, 3, 12, 77 / 12),  # 33 deals: shorter rows instead of a fourth column
        (41, 3, 14, 5.5),  # 40 deals + the next row: 3 x 14 rows of 77 / 14 = 5.5 mm
        (42, 3, 14, 5.5),
    ],
)
def test_a_card_grid_keeps_three_columns_and_shortens_its_rows(rows_needed, columns, rows,
                                                                row_height):
    grid = scorecard.grid_layout(rows_needed)
    assert (grid.columns, grid.rows, grid.first_number) == (columns, rows, 1)
    assert grid.row_height == pytest.approx(row_height)
    assert grid.rows * grid.row_height == pytest.approx(77.0)  # the grid stays 83 mm high
    assert grid.capacity >= rows_needed
    # Cells stay wide enough to write in: (188 - 2 x 6) / 3 - 8 - 2 x 16 = 18.67 mm / 4.
    assert min(scorecard.grid_widths(grid.columns)) > 4.6
    assert scorecard.grid_layout(rows_needed).cell_font_pt >= 7.8  # 10 pt x 5.5 / 7 = 7.86


def test_more_rows_than_one_card_holds_go_on_continuation_cards():
    assert [(g.columns, g.rows, g.first_number) for g in scorecard.card_grids(42)] == [(3, 14, 1)]
    assert [(g.columns, g.rows, g.first_number) for g in scorecard.card_grids(43)] == [
        (3, 14, 1), (2, 11, 43),
    ]
    # 99 deals + the next row: 42 + 42, then 16 rows on a third card of 2 x 11.
    assert [(g.columns, g.rows, g.first_number) for g in scorecard.card_grids(100)] == [
        (3, 14, 1), (3, 14, 43), (2, 11, 85),
    ]


def test_forty_deals_fill_a_three_by_fourteen_grid():
    match = Match(first_dealer="A", house_rules_snapshot={}, status=Match.Status.FINISHED)
    deals = [
        Deal(number=n, winner=winner or "", game_points=points, reason=reason)
        for n, (winner, points, reason) in enumerate(forty_deals_mostly_drawn(), start=1)
    ]
    rows = scorecard.scorecard_rows(match, sheet_of(match, deals, names=False))
    assert len(rows) == 42  # 40 deals and two blank rows of the 3 x 14 grid
    assert (rows[38].winner, rows[38].game_points_a) == ("=", "9")  # deal 39, a draw, 9:0
    assert (rows[39].dealer, rows[39].winner, rows[39].game_points, rows[39].game_points_a,
            rows[39].game_points_b) == ("A", "A", "2", "11", "0")
    assert not rows[40].is_next and not rows[40].dealer  # the match is over
    grid = scorecard.grid_layout(len(deals) + 1)
    cells = scorecard.grid_cells(rows, grid)
    # Deal 40 is row 12 of the third column: top 6 + 11 x 5.5 = 66.5 mm, left 2 x (58.67 + 6).
    total_b_of_deal_40 = [cell for cell in cells if cell["top"] == "66.50"][-1]
    assert total_b_of_deal_40["text"] == "0"
    assert float(total_b_of_deal_40["left"]) == pytest.approx(2 * (176 / 3 + 6) + 176 / 3 - 16)
    assert all(float(cell["top"]) + 5.5 <= 83.0 for cell in cells)


def test_the_legend_lists_only_the_reasons_the_house_rules_allow():
    codes = [item["code"] for item in scorecard.legend(rules.HouseRules())]
    assert codes[:3] == ["1", "2", "3"] and "=" in codes
    assert "LT" not in [str(code) for code in codes]
    wins_deal = scorecard.legend(rules.HouseRules(last_trick="wins_deal"))
    assert "=" not in [item["code"] for item in wins_deal]


def test_the_legend_prints_its_codes_bold_each_bound_to_its_label():
    key = (("1", "a plain win", "1"), ("=", "draw", "0"))
    assert scorecard.legend_words("Codes:", key) == [
        [("Codes:", True)],
        [("1", True), ("\N{NO-BREAK SPACE}a", False)], [("plain", False)], [("win", False)],
        [("(1)", False)],
        [("·", False)],
        [("=", True), ("\N{NO-BREAK SPACE}draw", False)], [("(0)", False)],
    ]
