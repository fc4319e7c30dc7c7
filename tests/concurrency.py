"""Run actions at the same moment in threads, for the tests of races (two organisers, a
double click, two matches ending at once). SQLite needs a file database for this (threads
share it); PostgreSQL needs `django_db(transaction=True)` so that each thread's commit is seen.
"""

import threading
from collections.abc import Callable

from django.db import connections


def run_at_once(*actions: Callable[[], object], barrier: bool = True,
                timeout: float = 60) -> list:
    """Run each zero-argument `action` in its own thread, released together by a barrier (or
    at once with `barrier=False`, when the actions synchronise themselves), and return, in the
    order of `actions`, what each returned: its return value; the `.code` of a domain error
    (any exception that has one, e.g. `RecordingError`, `TournamentError`); or `repr()` of
    any other exception, for the test's assertion to show. Each thread closes its own
    database connections."""
    start = threading.Barrier(len(actions), timeout=20) if barrier else None
    outcomes: list = [None] * len(actions)

    def run(index: int, action: Callable[[], object]) -> None:
        try:
            if start is not None:
                start.wait()
            outcomes[index] = action()
        except Exception as error:  # noqa: BLE001 - reported by the caller's assertion
            code = getattr(error, "code", None)
            outcomes[index] = code if isinstance(code, str) else repr(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=pair) for pair in enumerate(actions)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=timeout)
    return outcomes
