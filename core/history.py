"""Change history for every model that keeps one (django-simple-history).

`History()` is `HistoricalRecords` with a manager whose queryset-bound class is built once.
simple_history builds that class again, with `inspect.getmembers`, on every `instance.history`
access (0.18 ms here), and it reads `instance.history` on every save it records: each deal
entered, inside the transaction that holds the match.
"""

import functools

from simple_history.manager import HistoryManager
from simple_history.models import HistoricalRecords


class OnceBuiltHistoryManager(HistoryManager):
    @classmethod
    @functools.cache
    def from_queryset(cls, queryset_class, class_name=None):
        return super().from_queryset(queryset_class, class_name)


def History(**options) -> HistoricalRecords:  # noqa: N802 (used like the field it returns)
    """`HistoricalRecords(**options)` (e.g. `excluded_fields=[...]`) with the once-built
    manager. Raises what `HistoricalRecords` raises for unknown options."""
    return HistoricalRecords(history_manager=OnceBuiltHistoryManager, **options)
