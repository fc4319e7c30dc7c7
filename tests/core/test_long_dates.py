"""How dates read in the pages' text, in each language."""

import datetime

from django.template import Context, Template
from django.utils import translation

from core.templatetags.long_dates import long_date

DAY = datetime.date(2026, 12, 5)


def test_bulgarian_month_names_are_lower_case_and_the_year_has_g():
    with translation.override("bg"):
        assert long_date(DAY) == "5 декември 2026 г."
        assert long_date(datetime.date(2027, 1, 31)) == "31 януари 2027 г."


def test_english_keeps_its_capital():
    with translation.override("en"):
        assert long_date(DAY) == "5 December 2026"


def test_no_date_is_empty_and_templates_load_the_filter():
    assert long_date(None) == ""
    with translation.override("bg"):
        html = Template("{% load long_dates %}{{ day|long_date }}").render(Context({"day": DAY}))
    assert html == "5 декември 2026 г."
