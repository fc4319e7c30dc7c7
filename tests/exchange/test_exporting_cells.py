"""The one rule that keeps exported names from running as spreadsheet formulas (pure)."""

import pytest

from exchange.exporting import spreadsheet_text


@pytest.mark.parametrize("value, written", [
    ("=1+1", "'=1+1"), ("+359 88", "'+359 88"), ("-Вера", "'-Вера"), ("@SUM(A1)", "'@SUM(A1)"),
    ("\tИван", "'\tИван"), ("\rИван", "'\rИван"),
    ("Иван", "Иван"), ("Иван=Петров", "Иван=Петров"), ("", ""), ("'=x", "'=x"),
    (-4, -4), (0, 0), (None, None),
])
def test_formula_like_text_gets_a_quote_and_nothing_else_changes(value, written):
    assert spreadsheet_text(value) == written
