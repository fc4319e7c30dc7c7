"""Durations in running text."""

import datetime
import math

from django import template

register = template.Library()


@register.filter
def whole_minutes(value: datetime.timedelta | None) -> int:
    """A duration as whole minutes, rounded up (90 seconds is 2 minutes: a visitor told "1"
    would come back too early); 0 for no duration."""
    if not value:
        return 0
    return math.ceil(value.total_seconds() / 60)
