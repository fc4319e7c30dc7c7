"""A count of the commits that changed what the event pages show, kept in the cache.

PostgreSQL hands out a row's id when the row is inserted, not when its transaction commits:
a deal that commits after another table's later deal adds no newest id to the histories, so
a site-wide version made of newest ids alone (`live.versions`) would go on answering 304
to a page that misses it, until the next change. Every transaction that saves or deletes a
row of the models the event pages show adds one to this count once it has committed
(`count_this_transaction`, connected in `events.receivers`), and the site-wide version
holds the count, so it moves at every such commit, in whatever order the ids came. (SQLite
writes one transaction at a time, so its ids come in commit order; the count costs little.)

The count lives in the site's cache (`CACHES["default"]`: files shared by the workers of one
machine, or the Redis of several web nodes). Should the cache lose it (a restart, a cull),
it starts again from a random number, so no old ETag can match again.
"""

import secrets

from django.core.cache import cache
from django.db import transaction

KEY = "live:commits"


def count_this_transaction(sender, using: str = "default", **kwargs) -> None:
    """Signal receiver (post_save, post_delete): add one to the count when the transaction
    of this write commits; once per transaction, however many rows it writes. Outside a
    transaction (autocommit) the write has committed already: the count moves at once."""
    connection = transaction.get_connection(using)
    if connection.in_atomic_block and any(
            entry[1] is _add_one for entry in connection.run_on_commit):
        return  # this transaction counts once already
    transaction.on_commit(_add_one, using=using, robust=True)


def _add_one() -> None:
    try:
        cache.incr(KEY)
    except ValueError:  # not in the cache: a new cache, or the entry was culled
        cache.set(KEY, secrets.randbits(48), timeout=None)


def commits_counted() -> int | None:
    """The count now (an int), or None before the first counted commit of this cache."""
    return cache.get(KEY)
