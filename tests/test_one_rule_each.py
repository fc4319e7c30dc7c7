"""One function per rule of the site: the code that decides who sees
everything, which matches are unfinished or in play, and how a player is found by name (or
by the name written another way) lives in one place each, and every other module calls it.
Checked over the sources, so that a second copy cannot creep back in."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCES = sorted(
    path for app in ("core", "club", "scoring", "events", "standings", "ratings", "formats",
                     "tableside", "live", "printing", "exchange", "server")
    for path in (ROOT / app).rglob("*.py") if "migrations" not in path.parts
)


def lines_matching(pattern: str) -> list[str]:
    found = re.compile(pattern)
    return [
        f"{path.relative_to(ROOT)}:{number}"
        for path in SOURCES
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if found.search(line)
    ]


@pytest.mark.parametrize(("rule", "pattern", "home"), [
    ("staff see everything", r"\.is_staff\b", "core/access.py"),
    ("a player found by name", r"Player\.objects\.filter\(.*\bname(__in)?=", "club/services.py"),
    ("a name matched another way", r"(?<!def )\bname_key\(", "club/services.py"),
    ("matches in play", r"(?<!_)status=Match\.Status\.PLAYING", "events/selectors.py"),
])
def test_each_rule_is_written_once(rule, pattern, home):
    assert [line.split(":")[0] for line in lines_matching(pattern)] == [home], rule


def test_unfinished_means_not_over():
    """Unfinished is "not `Match.OVER`", never a second list of statuses."""
    assert lines_matching(r"Status\.SCHEDULED, *Match\.Status\.PLAYING") == []
