"""Event formats behind one seam: `for_tournament(tournament)` gives the object that knows how
the tournament's format starts, withdraws a player, draws by lot, reacts to a match ending or
reopening, and when the event is over (`base.EventFormat`), the way Tabbycat's draw manager
picks a draw generator.

The registry maps each `Tournament.Format` value to its class by dotted path, loaded on first
use: the format classes call the services (`tournaments.services`, `tournaments.knockout`,
`tournaments.club_nights`), and the services ask the registry, so neither imports the other
while it loads. A new format is a class (`base.EventFormat`) and one line here
(docs/architecture.md "Adding a format").
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING

from django.utils.module_loading import import_string

from tournaments.models import Tournament

if TYPE_CHECKING:
    from scoring.models import Match
    from tournaments.formats.base import EventFormat

REGISTRY: dict[str, str] = {
    "round_robin": "tournaments.formats.round_robin.RoundRobin",
    "double_round_robin": "tournaments.formats.round_robin.DoubleRoundRobin",
    "knockout": "tournaments.formats.knockout.Knockout",
    "club_night": "tournaments.formats.club_night.ClubNight",
    "swiss": "tournaments.formats.swiss.Swiss",
    "groups_knockout": "tournaments.formats.groups.GroupsKnockout",
}
"""`Tournament.Format` value -> its format class."""


@cache
def format_class(key: str) -> type[EventFormat]:
    """The class of the format `key` (a `Tournament.Format` value). Raises `KeyError` for an
    unknown key (a bug: every value has its class, tested)."""
    return import_string(REGISTRY[key])


def for_tournament(tournament: Tournament) -> EventFormat:
    """The format object of `tournament` (by its `format` field)."""
    return format_class(tournament.format)(tournament)


def for_match(match: Match) -> EventFormat | None:
    """The format object of the tournament `match` belongs to (one query), or None for a
    match outside any tournament."""
    tournament = Tournament.objects.filter(rounds__pairings__match=match).first()
    return None if tournament is None else for_tournament(tournament)


def keys_where(question: Callable[[type[EventFormat]], bool]) -> list[str]:
    """The `Tournament.Format` values whose class answers `question` with yes, e.g.
    `keys_where(lambda f: f.seeds_a_knockout)`."""
    return [key for key in REGISTRY if question(format_class(key))]
