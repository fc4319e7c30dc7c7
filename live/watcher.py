"""One watcher per server process: it knows the versions the open live pages follow
(`events.versions`) and wakes the pages whose version moved on.

A stream (`live.streams`) follows a key — `("event", id)` or `("match", id)` — for as long as
it is open (`following`) and asks `changed(key, seen)`, which returns the current version as
soon as it differs from `seen`, or None after `timeout` seconds. Nothing is read while nobody
follows anything. While somebody does, the watcher reads the versions it follows — one query
by primary keys for the events and one for the matches, however many screens follow each: on
PostgreSQL when a `NOTIFY santase_live` arrives (sent by every change, on any web node); on
SQLite (where the site runs on one machine) when the database's own change counter, read every
`POLL_SECONDS` on a connection of the watcher's own (`PRAGMA data_version`, which moves when
another connection commits), has moved. So nothing is read while nothing changes.
"""

import asyncio
import contextlib
import logging
import sqlite3
from collections import defaultdict

from asgiref.sync import sync_to_async
from django.db import close_old_connections, connection

from events.models import Tournament
from events.versions import CHANNEL
from passes.models import CheckInClaim, PlayerPass
from scoring.models import Match

logger = logging.getLogger(__name__)

POLL_SECONDS = 0.25
"""How often SQLite's change counter is read (where no notification comes)."""
RECONNECT_SECONDS = 2.0
"""How long the watcher waits before it listens again after losing PostgreSQL."""

MODELS = {"event": Tournament, "match": Match, "pass": PlayerPass, "claim": CheckInClaim}


def read_versions(keys: list[tuple[str, int]]) -> dict[tuple[str, int], int]:
    """The current version of each of `keys` that still exists (a query per kind), read in a
    thread of its own (sync)."""
    close_old_connections()
    try:
        found = {}
        for kind, model in MODELS.items():
            ids = [pk for key_kind, pk in keys if key_kind == kind]
            if ids:
                rows = model.objects.filter(pk__in=ids).values_list("pk", "version")
                found.update(((kind, pk), version) for pk, version in rows)
        return found
    finally:
        close_old_connections()


class Watcher:
    def __init__(self) -> None:
        self.followers: dict[tuple[str, int], int] = defaultdict(int)
        self.versions: dict[tuple[str, int], int] = {}
        self.waiters: dict[tuple[str, int], set[asyncio.Future]] = defaultdict(set)
        self.wake = asyncio.Event()
        self.tasks: list[asyncio.Task] = []

    @contextlib.asynccontextmanager
    async def following(self, key: tuple[str, int]):
        """While the block runs, `key`'s version is kept current (read with the others)."""
        self._start()
        self.followers[key] += 1
        try:
            if key not in self.versions:
                found = await sync_to_async(read_versions)([key])
                self.versions.setdefault(key, found.get(key, -1))
            yield
        finally:
            self.followers[key] -= 1
            if not self.followers[key]:
                del self.followers[key]
                self.versions.pop(key, None)

    async def changed(self, key: tuple[str, int], seen: int | None,
                      timeout: float) -> int | None:
        """Inside `following(key)`: the version of `key` once it differs from `seen`; None
        after `timeout` seconds without a change. A key that no longer exists has -1."""
        if self.versions.get(key) != seen:
            return self.versions.get(key, -1)
        waiter = asyncio.get_running_loop().create_future()
        self.waiters[key].add(waiter)
        try:
            return await asyncio.wait_for(waiter, timeout)
        except TimeoutError:
            return None
        finally:
            self.waiters[key].discard(waiter)
            if not self.waiters[key]:
                del self.waiters[key]

    def _start(self) -> None:
        if not self.tasks or any(task.done() for task in self.tasks):
            for task in self.tasks:
                task.cancel()
            loop = asyncio.get_running_loop()
            self.tasks = [loop.create_task(self._refresh_when_woken())]
            if connection.vendor == "postgresql":
                self.tasks.append(loop.create_task(self._listen()))
            else:
                self.tasks.append(loop.create_task(self._tick()))

    async def refresh(self) -> None:
        """Read the followed versions once and wake the waiters of those that moved on."""
        keys = list(self.followers)
        if not keys:
            return
        current = await sync_to_async(read_versions)(keys)
        for key in keys:
            version = current.get(key, -1)
            if key in self.followers and self.versions.get(key) != version:
                self.versions[key] = version
                for waiter in self.waiters.get(key, ()):
                    if not waiter.done():
                        waiter.set_result(version)

    async def _refresh_when_woken(self) -> None:
        """One refresh for however many wake-ups came while the last one ran."""
        while True:
            await self.wake.wait()
            self.wake.clear()
            try:
                await self.refresh()
            except Exception:
                logger.exception("The live pages' watcher could not read the versions")

    async def _tick(self) -> None:
        counter = SqliteChanges(connection.settings_dict["NAME"])
        try:
            while True:
                await asyncio.sleep(POLL_SECONDS)
                if not self.followers:
                    counter.close()  # nobody follows: the database file is left alone
                elif counter.moved():
                    self.wake.set()
        finally:
            counter.close()

    async def _listen(self) -> None:
        import psycopg

        settings = connection.settings_dict
        params = {"dbname": settings["NAME"], "user": settings["USER"],
                  "password": settings["PASSWORD"], "host": settings["HOST"],
                  "port": settings["PORT"]}
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                        **{k: v for k, v in params.items() if v}, autocommit=True) as listener:
                    await listener.execute(f"LISTEN {CHANNEL}")
                    self.wake.set()  # what changed while nobody listened
                    async for _notice in listener.notifies():
                        self.wake.set()
            except Exception:
                logger.exception("The live pages' watcher lost PostgreSQL; listening again")
                self.wake.set()
                await asyncio.sleep(RECONNECT_SECONDS)


class SqliteChanges:
    """SQLite's change counter of database file `name` (`PRAGMA data_version`), on a
    connection of its own that never writes: it moves whenever another connection commits. A
    read costs microseconds, in the event loop's thread."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.connection: sqlite3.Connection | None = None
        self.last: int | None = None

    def moved(self) -> bool:
        """Whether anything was committed since the last call (True the first time, and when
        the counter cannot be read: a change is never missed)."""
        try:
            if self.connection is None:
                self.connection = sqlite3.connect(self.name, timeout=0, isolation_level=None,
                                                  check_same_thread=False)
            counter = self.connection.execute("PRAGMA data_version").fetchone()[0]
        except sqlite3.Error:
            self.close()
            return True
        moved, self.last = counter != self.last, counter
        return moved

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()
        self.connection, self.last = None, None


_watchers: dict[asyncio.AbstractEventLoop, Watcher] = {}


def watcher() -> Watcher:
    """The watcher of the running event loop (one per server process)."""
    loop = asyncio.get_running_loop()
    if loop not in _watchers:
        _watchers[loop] = Watcher()
    return _watchers[loop]
