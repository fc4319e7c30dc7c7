"""Event formats behind one seam: `for_tournament(tournament)` gives the object that knows how
the tournament's format starts, withdraws a player, draws by lot, reacts to a match ending or
reopening, and when the event is over (`formats.base.EventFormat`), the way Tabbycat's draw
manager picks a draw generator.

The registry maps each `Tournament.Format` value to its class. The format classes live above
this app (`formats/`) and register themselves (`@register(...)`) when the `formats` app loads,
so nothing here imports them. A new format is a class and one decorator
(docs/architecture.md "Adding a format").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from django.apps import apps

if TYPE_CHECKING:
    from events.models import Tournament
    from formats.base import EventFormat
    from scoring.models import Match

REGISTRY: dict[str, type[EventFormat]] = {}
"""`Tournament.Format` value -> its format class, filled by `register`."""


def register(*keys: str):
    """Class decorator: the class is the format of each of `keys` (`Tournament.Format`
    values). Raises `ValueError` when another class holds a key already."""
    def decorator(cls):
        for key in keys:
            if REGISTRY.setdefault(key, cls) is not cls:
                raise ValueError(f"format {key!r} is registered twice")
        return cls
    return decorator


def format_class(key: str) -> type[EventFormat]:
    """The class of the format `key` (a `Tournament.Format` value). Raises `KeyError` for an
    unknown key (a bug: every value has its class, tested)."""
    return REGISTRY[key]


def for_tournament(tournament: Tournament) -> EventFormat:
    """The format object of `tournament` (by its `format` field)."""
    return format_class(tournament.format)(tournament)


def for_match(match: Match) -> EventFormat | None:
    """The format object of the tournament `match` belongs to (one query), or None for a
    match outside any tournament."""
    events = apps.get_model("events", "Tournament").objects
    tournament = events.filter(rounds__pairings__match=match).first()
    return None if tournament is None else for_tournament(tournament)


def keys_where(question: Callable[[type[EventFormat]], bool]) -> list[str]:
    """The `Tournament.Format` values whose class answers `question` with yes, e.g.
    `keys_where(lambda f: f.seeds_a_knockout)`."""
    return [key for key, cls in REGISTRY.items() if question(cls)]
