"""Sync work (the database, a render) made awaitable for a stream."""

from collections.abc import Callable

from asgiref.sync import sync_to_async
from django.db import close_old_connections


def in_thread(function: Callable) -> Callable:
    """`function` (sync) made awaitable, run in a worker thread with its database connection
    closed after: a stream holds none while it waits."""
    def run(*args):
        close_old_connections()
        try:
            return function(*args)
        finally:
            close_old_connections()
    return sync_to_async(run, thread_sensitive=False)
