"""Fixtures of every tournaments test."""

import pytest


@pytest.fixture(autouse=True)
def media_root(settings, tmp_path):
    """Files (an import's upload, a PDF) go to a temporary MEDIA_ROOT, set before a
    `redis_worker` starts (autouse)."""
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT
