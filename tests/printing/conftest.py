"""Fixtures of the printing tests."""

import dataclasses
import random

import pytest

from events import services
from events.models import Tournament
from printing import kinds

MINIMAL_PDF = b"%PDF-1.4\n%%EOF\n"


@pytest.fixture(autouse=True)
def media_root(settings, tmp_path):
    """Files go to a temporary MEDIA_ROOT (set before a `redis_worker` starts: autouse)."""
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


@pytest.fixture
def started(tournament) -> Tournament:
    """The five-player round robin of conftest, started: each round 2 matches and a bye.
    Round 1 (FIDE table, numbers as entered): 1 rests; table 1: 2-5, table 2: 3-4."""
    services.tournament_start(tournament=tournament, rng=random.Random(1))
    tournament.refresh_from_db()
    return tournament


@pytest.fixture
def cheap_pdfs(monkeypatch):
    """Every kind renders `MINIMAL_PDF` without WeasyPrint: for tests of the jobs and the
    downloads, not of what a PDF shows (each kind has its own PDF test)."""
    for registry in (kinds.KINDS, kinds.SEASON_KINDS):
        for key, spec in list(registry.items()):
            monkeypatch.setitem(
                registry, key, dataclasses.replace(spec, render=lambda *args, **kw: MINIMAL_PDF)
            )
