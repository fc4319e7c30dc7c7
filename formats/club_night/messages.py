"""Sentences of a club night's page that are not errors: where a player is playing."""

from django.utils.translation import gettext


def where_playing(elsewhere) -> str:
    """Where a match of another event is played, e.g. "Table 3 · Зимен турнир 2026" (the event
    alone for a match with no table): a table number never goes without its event's name, so
    a club night's table 3 and a round robin's table 3 are told apart. `elsewhere` is a
    `selectors.MatchElsewhere`."""
    if elsewhere.table is None:
        return elsewhere.tournament.name
    # Translators: a table of another event, e.g. "Table 3 · Зимен турнир 2026".
    return gettext("Table %(table)s · %(event)s") % {
        "table": elsewhere.table, "event": elsewhere.tournament.name,
    }


def elsewhere_warning(name: str, elsewhere) -> str:
    """The warning after a club-night pairing of a player who also has an unfinished match of
    another event (`selectors.matches_elsewhere`); the pairing is made all the same."""
    return gettext(
        "%(name)s also has an unfinished match in another event: %(where)s. The pairing is "
        "made all the same; make sure the player is not expected there."
    ) % {"name": name, "where": where_playing(elsewhere)}
