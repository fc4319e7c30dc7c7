"""Fixtures of the printing tests."""

import dataclasses

import pytest

from tournaments.printing import kinds

MINIMAL_PDF = b"%PDF-1.4\n%%EOF\n"


@pytest.fixture
def cheap_pdfs(monkeypatch):
    """Every kind renders `MINIMAL_PDF` without WeasyPrint: for tests of the jobs and the
    downloads, not of what a PDF shows (each kind has its own PDF test)."""
    for key, spec in list(kinds.KINDS.items()):
        monkeypatch.setitem(
            kinds.KINDS, key, dataclasses.replace(spec, render=lambda *args, **kw: MINIMAL_PDF)
        )
