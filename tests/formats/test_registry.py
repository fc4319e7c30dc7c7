"""The format seam (`events.registry`): every format has its class, and the pages,
receivers and services ask it instead of naming a format."""

import datetime
import inspect
import re
from pathlib import Path

import pytest

from events import registry
from events.models import Tournament
from formats.base import EventFormat
from formats.club_night.format import ClubNight
from formats.groups.format import GroupsKnockout
from formats.knockout.format import Knockout
from formats.round_robin.format import DoubleRoundRobin, RoundRobin
from formats.swiss.format import Swiss

ROOT = Path(__file__).resolve().parents[2]
FORMAT_MENTION = re.compile(
    r"Format\.|is_knockout|is_round_robin|is_swiss|CLUB_NIGHT|KNOCKOUT|ROUND_ROBIN|SWISS"
    r"|\bformat\s*[!=]=|[!=]=\s*[\"'](club_night|knockout|round_robin|double_round_robin|swiss)[\"']"
)


def test_every_format_value_has_a_format_class():
    assert set(registry.REGISTRY) == set(Tournament.Format.values)
    for value in Tournament.Format.values:
        event_format = registry.format_class(value)
        assert issubclass(event_format, EventFormat)
        assert not inspect.isabstract(event_format), value


@pytest.mark.parametrize(("value", "expected"), [
    ("round_robin", RoundRobin),
    ("double_round_robin", DoubleRoundRobin),
    ("knockout", Knockout),
    ("club_night", ClubNight),
    ("groups_knockout", GroupsKnockout),
])
def test_for_tournament_picks_the_class_of_its_format(value, expected):
    tournament = Tournament(name="Купа", date=datetime.date(2026, 12, 5), format=value)
    event_format = registry.for_tournament(tournament)
    assert type(event_format) is expected
    assert event_format.tournament is tournament


def test_what_each_format_answers():
    """Worked out from the rules of each format (docs/formats.md)."""
    assert (RoundRobin.berger_cycles, DoubleRoundRobin.berger_cycles) == (1, 2)
    assert Knockout.berger_cycles == ClubNight.berger_cycles == 0
    assert (RoundRobin.min_players, RoundRobin.max_players) == (3, 100)
    assert (Knockout.min_players, Knockout.max_players) == (2, 128)
    assert ClubNight.max_players is None
    assert [f.main_page for f in (RoundRobin, Knockout, ClubNight)] == [
        "standings:standings", "knockout:bracket", "nights:detail",
    ]
    assert registry.keys_where(lambda f: f.has_bracket) == ["knockout", "groups_knockout"]
    assert registry.keys_where(lambda f: f.seeded) == ["knockout", "groups_knockout"]
    assert registry.keys_where(lambda f: f.has_groups) == ["groups_knockout"]
    assert GroupsKnockout.main_page == "groups:detail"
    assert (GroupsKnockout.min_players, GroupsKnockout.max_players) == (3, 128)
    assert registry.keys_where(lambda f: f.pairs_on_the_spot) == ["club_night"]
    assert sorted(registry.keys_where(lambda f: f.seeds_a_knockout)) == [
        "double_round_robin", "round_robin",
    ]
    assert sorted(registry.keys_where(lambda f: f.offered_on_the_form)) == [
        "double_round_robin", "groups_knockout", "knockout", "round_robin", "swiss",
    ]
    assert registry.keys_where(lambda f: f.pairs_round_by_round) == ["swiss"]
    assert registry.keys_where(lambda f: f.takes_late_entries) == ["swiss"]
    assert (Swiss.min_players, Swiss.max_players) == (3, 200)


def test_a_match_outside_a_tournament_has_no_format(db):
    from club.models import Player
    from scoring.models import Match

    match = Match.objects.create(
        player_a=Player.objects.create(name="Иван"), player_b=Player.objects.create(name="Мария"),
    )
    assert registry.for_match(match) is None


def modules_that_must_not_name_a_format() -> list[Path]:
    return [
        *sorted((ROOT / "events" / "views").glob("*.py")),
        *sorted((ROOT / "tableside" / "views").glob("*.py")),
        ROOT / "events" / "receivers.py",
        ROOT / "events" / "services.py",
        ROOT / "standings" / "views.py",
        *sorted((ROOT / "live" / "views").glob("*.py")),
        *sorted((ROOT / "events" / "templates").rglob("*.html")),
        *sorted((ROOT / "standings" / "templates").rglob("*.html")),
        *sorted((ROOT / "tableside" / "templates").rglob("*.html")),
    ]


def test_views_receivers_and_services_never_name_a_format():
    """They ask the format object (`registry.for_tournament(...).has_bracket`, `.start()`,
    ...); a new format is then a class and a registry line, not a branch in every view."""
    mentions = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in modules_that_must_not_name_a_format()
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if FORMAT_MENTION.search(line)
    ]
    assert mentions == []
