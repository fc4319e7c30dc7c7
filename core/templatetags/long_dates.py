"""Dates in running text: "5 декември 2026 г." in Bulgarian, "5 December 2026" in English."""

import datetime

from django import template
from django.utils import formats, translation

register = template.Library()


@register.filter
def long_date(value: datetime.date | None) -> str:
    """Day, month name and year in the active language ("" for no date). Bulgarian writes month
    names in lower case and the year with "г."; Django's catalogue capitalises the months."""
    if not value:
        return ""
    text = formats.date_format(value, "j E Y")
    if (translation.get_language() or "").startswith("bg"):
        return f"{text.lower()} г."
    return text
