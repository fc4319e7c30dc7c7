"""The watcher reads nothing while nothing changes: on SQLite it reads the database's change
counter (`SqliteChanges`), and the versions only when that moved."""

import asyncio
import random

import pytest
from asgiref.sync import sync_to_async
from django.db import connection, connections

from events import services
from events.models import Pairing
from live import watcher as watcher_module
from scoring import rules
from scoring import services as scoring_services

pytestmark = pytest.mark.django_db(transaction=True)

sqlite_only = pytest.mark.skipif(connection.vendor != "sqlite",
                                 reason="SQLite's change counter")


@sqlite_only
def test_the_change_counter_moves_when_another_connection_commits(tournament):
    changes = watcher_module.SqliteChanges(connection.settings_dict["NAME"])
    try:
        assert changes.moved() is True  # the first reading: look once
        assert changes.moved() is False
        tournament.name = "Купа Варна"
        tournament.save()
        assert changes.moved() is True
        assert changes.moved() is False
    finally:
        changes.close()


@sqlite_only
def test_a_followed_event_is_read_again_only_after_a_commit(tournament, monkeypatch):
    services.tournament_start(tournament=tournament, rng=random.Random(1))
    match = Pairing.objects.get(round__tournament=tournament, round__number=1, table=1).match
    monkeypatch.setattr(watcher_module, "POLL_SECONDS", 0.02)
    reads = []
    real = watcher_module.read_versions
    monkeypatch.setattr(watcher_module, "read_versions",
                        lambda keys: reads.append(keys) or real(keys))

    async def scenario():
        live = watcher_module.watcher()
        key = ("event", tournament.pk)
        async with live.following(key):
            seen = live.versions[key]
            await asyncio.sleep(0.5)  # 25 readings of the counter, nothing committed
            quiet = len(reads)
            await sync_to_async(scoring_services.deal_record)(
                match=match, score=rules.quick_result("A", 1, "won"), by=None)
            changed = await live.changed(key, seen, timeout=2)
        return quiet, changed, seen

    quiet, changed, seen = asyncio.run(scenario())
    assert quiet <= 2  # on following, and once at the first reading of the counter
    assert changed is not None and changed > seen
    asyncio.run(sync_to_async(connections.close_all)())


@sqlite_only
def test_the_counter_lets_the_database_file_go_once_nobody_follows(tournament, monkeypatch):
    """A restore needs the file to itself: the watcher's connection closes when the last page
    stops following, and opens again (looking once) when one follows."""
    monkeypatch.setattr(watcher_module, "POLL_SECONDS", 0.02)
    opened = []
    real = watcher_module.SqliteChanges.moved

    def moved(changes):
        answer = real(changes)
        opened.append(changes.connection is not None)
        return answer

    monkeypatch.setattr(watcher_module.SqliteChanges, "moved", moved)
    counters = []
    real_init = watcher_module.SqliteChanges.__init__
    monkeypatch.setattr(watcher_module.SqliteChanges, "__init__",
                        lambda changes, name: counters.append(changes) or real_init(changes, name))

    async def scenario():
        live = watcher_module.watcher()
        async with live.following(("event", tournament.pk)):
            await asyncio.sleep(0.1)
        followed = counters[0].connection is not None
        await asyncio.sleep(0.1)  # nobody follows now
        return followed, counters[0].connection is None

    followed, let_go = asyncio.run(scenario())
    assert opened and all(opened)
    assert followed and let_go
    asyncio.run(sync_to_async(connections.close_all)())
