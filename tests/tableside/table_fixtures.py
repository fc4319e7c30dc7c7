"""The started round robin and its first match that the tests of players at the table share
(`test_table_entry`, `test_table_views`): the conftest's five-player tournament, started with
a fixed draw of lots; the match of round 1 at table 1."""

import random

import pytest
from django.core.cache import cache

from events import services
from events.models import Pairing
from scoring.models import Match


@pytest.fixture
def started(tournament):
    services.tournament_start(tournament=tournament, rng=random.Random(1))
    tournament.refresh_from_db()
    return tournament


@pytest.fixture
def match(started) -> Match:
    return Pairing.objects.get(round__tournament=started, round__number=1, table=1).match


@pytest.fixture
def empty_cache():
    """The cache emptied around the test: the wrong-link rate limit and the live pages keep
    counts in it."""
    cache.clear()
    yield
    cache.clear()
