"""The deal forms follow the house rules (pure: no database)."""

import pytest

from scoring.forms import DealDetailsForm
from scoring.rules import HouseRules


@pytest.mark.parametrize(("close_when", "most"), [("stock_over_two", 3), ("stock_not_empty", 4)])
def test_tricks_at_the_close_input_stops_where_closing_stops(close_when, most):
    # 12 cards in the stock, 2 per trick, the closer on lead: 3 (more than two cards) or 4.
    rules = HouseRules(failed_close="tricks_at_close", close_when=close_when)
    form = DealDetailsForm(house_rules=rules)
    assert form.fields["opponent_tricks_at_close"].widget.attrs["max"] == most
